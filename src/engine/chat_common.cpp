// The only translation unit that includes llama.cpp's common headers (Jinja chat templates,
// tool-call grammars and parsers, JSON schema to GBNF, file name rules). See chat_internal.h for why.
#include <algorithm>
#include <ctime>
#include <fstream>
#include <mutex>
#include <sstream>

#include "chat-auto-parser.h"
#include "chat.h"
#include "common.h"
#include "engine/chat_internal.h"
#include "json-schema-to-grammar.h"
#include "llama.h"
#include "log.h"

namespace sfcl::engine {

namespace {

// llama.cpp's common chat code is written for llama-server's single task thread, and its
// templates read the clock through localtime (tzset), so the HTTP workers call it one at a time.
std::mutex& common_mutex() {
  static std::mutex m;
  return m;
}

bool is_builtin_name(const std::string& name) {
  const int32_t n = llama_chat_builtin_templates(nullptr, 0);
  std::vector<const char*> names(static_cast<size_t>(std::max(n, 0)));
  llama_chat_builtin_templates(names.data(), names.size());
  return std::any_of(names.begin(), names.end(), [&](const char* b) { return name == b; });
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

common_chat_templates* templates_of(const ChatTemplates& t) {
  return static_cast<common_chat_templates*>(t.common.get());
}

common_chat_msg to_common(const ChatMessage& m) {
  common_chat_msg out;
  out.role = m.role;
  out.content = m.content;
  out.tool_call_id = m.tool_call_id;
  out.tool_name = m.tool_name;
  for (const auto& c : m.tool_calls) out.tool_calls.push_back({c.name, c.arguments, c.id});
  return out;
}

// How llama-server turns common's triggers into the lazy grammar sampler's (common/sampling.cpp).
void add_trigger(const common_grammar_trigger& t, const std::vector<std::string>& preserved, const llama_vocab* vocab,
                 GrammarSpec& g) {
  switch (t.type) {
    case COMMON_GRAMMAR_TRIGGER_TYPE_TOKEN:
      g.trigger_tokens.push_back(t.token);
      break;
    case COMMON_GRAMMAR_TRIGGER_TYPE_WORD: {
      const auto ids = common_tokenize(vocab, t.value, false, true);
      if (ids.size() == 1 && std::find(preserved.begin(), preserved.end(), t.value) != preserved.end()) {
        g.trigger_tokens.push_back(ids[0]);
      } else {
        g.trigger_patterns.push_back(regex_escape(t.value));
      }
      break;
    }
    case COMMON_GRAMMAR_TRIGGER_TYPE_PATTERN:
      g.trigger_patterns.push_back(t.value);
      break;
    case COMMON_GRAMMAR_TRIGGER_TYPE_PATTERN_FULL: {
      const std::string& p = t.value;
      std::string anchored = "^$";
      if (!p.empty()) anchored = (p.front() != '^' ? "^" : "") + p + (p.back() != '$' ? "$" : "");
      g.trigger_patterns.push_back(anchored);
      break;
    }
  }
}

// JSON written in one line: json_schema_to_grammar lets a newline and 20 blanks go between any two
// tokens, and a small model can spend its whole budget there.
std::string compact(std::string gbnf) {
  const std::string rule = "space ::= ";
  size_t at = gbnf.rfind("\n" + rule);
  at = at == std::string::npos ? (gbnf.starts_with(rule) ? 0 : std::string::npos) : at + 1;
  if (at == std::string::npos) return gbnf;
  const size_t end = gbnf.find('\n', at);
  gbnf.replace(at, (end == std::string::npos ? gbnf.size() : end) - at, rule + "| \" \"");
  return gbnf;
}

}  // namespace

std::string json_schema_grammar(const std::string& schema) {
  const std::lock_guard lock(common_mutex());
  try {
    return compact(json_schema_to_grammar(common_json::parse(schema), false));
  } catch (const std::exception& e) {
    throw EngineError(std::string("JSON schema: ") + e.what());
  }
}

namespace detail {

namespace {

// Whether llama_chat_apply_template knows `source` (a name, or a template it recognises).
bool builtin_knows(const std::string& source) {
  const llama_chat_message probe{"user", "hi"};
  char buf[256];
  return llama_chat_apply_template(source.c_str(), &probe, 1, true, buf, sizeof buf) >= 0;
}

// --no-jinja: llama.cpp's built-in templates only, as llama-server's legacy path.
std::shared_ptr<const ChatTemplates> builtin_templates(llama_model* model, const std::string& override_spec) {
  auto t = std::make_shared<ChatTemplates>();
  std::string source = override_spec;
  std::error_code ec;
  if (!override_spec.empty() && std::filesystem::is_regular_file(override_spec, ec)) source = read_file(override_spec);
  if (override_spec.empty()) {
    const char* own = llama_model_chat_template(model, nullptr);
    source = own == nullptr ? "" : own;
  }
  if (!source.empty() && builtin_knows(source)) {
    t->kind = "builtin";
    t->builtin_name = source;
  } else if (!override_spec.empty()) {
    throw EngineError("chat template: " + override_spec + " is none of llama.cpp's built-in templates (--no-jinja)");
  } else {
    t->kind = "plain";
  }
  return t;
}

// Whether llama.cpp renders `source` with one of its specialised formats, which it picks by the
// template's text alone and which set their own stops and parser instead of the analysis'.
bool is_specialised(const std::string& source) {
  try {
    const common_chat_template probe(source, "", "");
    autoparser::generation_params params;
    return common_chat_try_specialized_template(probe, source, params).has_value();
  } catch (const std::exception&) {
    return true;  // a specialised format that wants a real conversation
  }
}

// ChatTemplates::analysis_known and what goes with it, from one analysed render at load.
void learn_analysis(ChatTemplates& t) {
  const auto* common = templates_of(t);
  if (is_specialised(common_chat_templates_source(common, ""))) return;
  common_chat_templates_inputs probe;
  probe.messages.push_back({});
  probe.messages.back().role = "system";
  probe.messages.back().content = "s";
  probe.messages.push_back({});
  probe.messages.back().role = "user";
  probe.messages.back().content = "u";
  try {
    const common_chat_params p = common_chat_templates_apply(common, probe);
    t.supports_thinking = p.supports_thinking;
    t.stops = p.additional_stops;
    t.analysis_known = true;
  } catch (const std::exception&) {
    // The analysis fails on this template: every request runs it and reports the error itself.
  }
}

// What a template's render cache may hold, keys and renders together; one render over an eighth
// of it (a request with very large tool definitions) is not kept.
constexpr size_t kRenderCacheBytes = size_t{16} << 20;

// llama.cpp's strftime_now prints the time in any format a template asks for: such a template's
// render is not kept.
bool reads_clock(const std::string& source) { return source.find("strftime_now") != std::string::npos; }

// A request the analysis adds nothing to, beyond what learn_analysis learnt: no tools (no tool
// grammar or parser), no prefill (the analysis' reasoning markers open it), and no reasoning to
// split off (the parser would be the analysis'). Its prompt is then the template's plain render.
bool analysis_needed(const ChatTemplates& t, const common_chat_templates_inputs& in) {
  return !t.analysis_known || !in.tools.empty() || in.continue_final_message != COMMON_CHAT_CONTINUATION_NONE ||
         (t.supports_thinking && in.reasoning_format != COMMON_REASONING_FORMAT_NONE);
}

// The render without the analysis. llama.cpp warns on every such render, which it expects only as
// a user's choice; sfcl's calls into common are serialised (common_mutex) and nothing else reads
// the log threshold meanwhile, so the warning is held back for this call only. A render that
// fails runs again with the analysis, so that the error is llama.cpp's own, word for word.
common_chat_params apply_without_analysis(const ChatTemplates& t, common_chat_templates_inputs& in) {
  in.force_pure_content = true;
  const int threshold = common_log_get_verbosity_thold();
  common_log_set_verbosity_thold(std::min(threshold, LOG_LEVEL_ERROR));
  common_chat_params p;
  bool failed = false;
  try {
    p = common_chat_templates_apply(templates_of(t), in);
  } catch (const std::exception&) {
    failed = true;
  }
  common_log_set_verbosity_thold(threshold);
  if (failed) {
    in.force_pure_content = false;
    return common_chat_templates_apply(templates_of(t), in);
  }
  p.supports_thinking = t.supports_thinking;
  p.additional_stops = t.stops;
  return p;
}

// What a render depends on besides the template: the masked input, and the day (llama.cpp hands
// every template today's date as date_string and datetime). Fields are length-prefixed, so no two
// inputs share a key.
std::string render_key(const ChatInput& in) {
  std::string k;
  const auto field = [&k](std::string_view s) {
    k += std::to_string(s.size());
    k += ':';
    k += s;
  };
  const auto count = [&k](size_t n) {
    k += std::to_string(n);
    k += '|';
  };
  count(in.messages.size());
  for (const auto& m : in.messages) {
    field(m.role);
    field(m.content);
    field(m.tool_call_id);
    field(m.tool_name);
    count(m.tool_calls.size());
    for (const auto& c : m.tool_calls) {
      field(c.id);
      field(c.name);
      field(c.arguments);
    }
  }
  field(in.prefill);
  count(in.tools.size());
  for (const auto& t : in.tools) {
    field(t.name);
    field(t.description);
    field(t.parameters);
  }
  count(static_cast<size_t>(in.tool_choice));
  count(in.parallel_tool_calls ? 1 : 0);
  count(in.enable_thinking ? 1 : 0);
  field(in.reasoning_format);
  count(in.template_kwargs.size());
  for (const auto& [name, value] : in.template_kwargs) {
    field(name);
    field(value);
  }
  const std::time_t now = std::time(nullptr);
  std::tm day{};
  localtime_r(&now, &day);  // as llama.cpp's format_time
  count(static_cast<size_t>(day.tm_year) * 1000 + static_cast<size_t>(day.tm_yday));
  return k;
}

}  // namespace

std::shared_ptr<const ChatTemplates> make_chat_templates(llama_model* model, const std::string& override_spec,
                                                         bool use_jinja, bool reuse_analysis, size_t render_cache) {
  const std::lock_guard lock(common_mutex());
  if (!use_jinja) return builtin_templates(model, override_spec);
  auto t = std::make_shared<ChatTemplates>();
  std::string jinja;
  if (!override_spec.empty()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(override_spec, ec)) {
      jinja = read_file(override_spec);
    } else if (override_spec != "chatml" && is_builtin_name(override_spec)) {
      t->kind = "builtin";
      t->builtin_name = override_spec;
      return t;
    } else {
      jinja = override_spec;
    }
  } else {
    const char* own = llama_model_chat_template(model, nullptr);
    if (own == nullptr || *own == '\0') {
      t->kind = "plain";
      return t;
    }
    jinja = own;
  }
  try {
    common_chat_templates_ptr ptr = common_chat_templates_init(model, jinja);
    t->common = std::shared_ptr<void>(
        ptr.release(), [](void* p) { common_chat_templates_free(static_cast<common_chat_templates*>(p)); });
  } catch (const std::exception& e) {
    throw EngineError(std::string("chat template: ") + e.what());
  }
  t->kind = "jinja";
  if (reuse_analysis) learn_analysis(*t);
  const auto* common = templates_of(*t);
  t->cacheable = render_cache > 0 && !reads_clock(common_chat_templates_source(common, "")) &&
                 !reads_clock(common_chat_templates_source(common, "tool_use"));
  if (t->cacheable) t->renders.bound(render_cache, kRenderCacheBytes);
  return t;
}

CommonRendered common_render(const ChatTemplates& templates, const llama_vocab* vocab, const ChatInput& input,
                             bool shareable) {
  const std::lock_guard lock(common_mutex());
  // A conversation with earlier tool calls is not kept: their ids and arguments are not masked, so
  // its shape is new at every turn.
  const bool keep = shareable && templates.cacheable &&
                    std::none_of(input.messages.begin(), input.messages.end(),
                                 [](const ChatMessage& m) { return !m.tool_calls.empty(); });
  std::string key;
  if (keep) {
    key = render_key(input);
    if (const CommonRendered* kept = templates.renders.find(key)) return *kept;
  }
  common_chat_templates_inputs in;
  for (const auto& m : input.messages) in.messages.push_back(to_common(m));
  in.add_generation_prompt = true;
  if (!input.prefill.empty()) {
    // As llama-server's continue_final_message: the prefill is the final assistant message,
    // rendered open (no end of turn) for the model to continue.
    common_chat_msg open;
    open.role = "assistant";
    open.content = input.prefill;
    in.messages.push_back(std::move(open));
    in.continue_final_message = COMMON_CHAT_CONTINUATION_AUTO;
    in.add_generation_prompt = false;
  }
  in.use_jinja = true;
  in.parallel_tool_calls = input.parallel_tool_calls;
  in.enable_thinking = input.enable_thinking;
  in.reasoning_format = common_reasoning_format_from_name(input.reasoning_format);
  in.chat_template_kwargs = input.template_kwargs;
  if (!input.tools.empty() && input.tool_choice != ToolChoice::none) {
    for (const auto& tool : input.tools) in.tools.push_back({tool.name, tool.description, tool.parameters});
    in.tool_choice =
        input.tool_choice == ToolChoice::required ? COMMON_CHAT_TOOL_CHOICE_REQUIRED : COMMON_CHAT_TOOL_CHOICE_AUTO;
  }
  common_chat_params p;
  try {
    p = analysis_needed(templates, in) ? common_chat_templates_apply(templates_of(templates), in)
                                       : apply_without_analysis(templates, in);
  } catch (const std::exception& e) {
    throw EngineError(std::string("chat template: ") + e.what());
  }
  CommonRendered out;
  out.prompt = std::move(p.prompt);
  out.stops = std::move(p.additional_stops);
  out.format = std::to_string(static_cast<int>(p.format));
  out.parser = std::move(p.parser);
  out.generation_prompt = p.generation_prompt;
  out.supports_thinking = p.supports_thinking;
  if (!in.tools.empty() && !p.grammar.empty()) {
    out.grammar.gbnf = std::move(p.grammar);
    out.grammar.lazy = p.grammar_lazy;
    for (const auto& t : p.grammar_triggers) add_trigger(t, p.preserved_tokens, vocab, out.grammar);
    // A tool-call grammar that is not lazy starts with the generation prompt (common/sampling.cpp).
    if (!out.grammar.lazy) out.grammar.prefix = p.generation_prompt;
  }
  if (keep) {
    size_t bytes = key.size() + out.prompt.size() + out.grammar.gbnf.size() + out.grammar.prefix.size() +
                   out.format.size() + out.parser.size() + out.generation_prompt.size();
    for (const auto& s : out.stops) bytes += s.size();
    for (const auto& p : out.grammar.trigger_patterns) bytes += p.size();
    bytes += out.grammar.trigger_tokens.size() * sizeof(Token);
    templates.renders.put(std::move(key), out, bytes);
  }
  return out;
}

size_t render_cache_hits(const ChatTemplates& templates) {
  const std::lock_guard lock(common_mutex());
  return templates.renders.hits();
}

ParsedReply common_parse(const std::string& text, const ChatPrompt& prompt, bool partial) {
  const std::lock_guard lock(common_mutex());
  common_chat_parser_params pp;
  pp.format = static_cast<common_chat_format>(std::stoi(prompt.parser_format));
  pp.generation_prompt = prompt.generation_prompt;
  pp.parse_tool_calls = prompt.tool_format == ToolFormat::native;
  pp.reasoning_format = common_reasoning_format_from_name(prompt.reasoning_format);
  if (!prompt.parser_state.empty()) pp.parser.load(prompt.parser_state);
  ParsedReply out;
  try {
    const common_chat_msg msg = common_chat_parse(text, partial, pp);
    out.content = msg.content;
    out.reasoning = msg.reasoning_content;
    for (const auto& c : msg.tool_calls) out.tool_calls.push_back({c.id, c.name, c.arguments});
  } catch (const std::exception&) {
    // Not a tool call after all: the reply is prose (a reply still being written says nothing yet).
    if (!partial) out.content = text;
  }
  return out;
}

namespace {
// Where the next call object starts at or after `from`: '{', blanks, "name".
size_t find_call(const std::string& text, size_t from) {
  for (size_t at = text.find('{', from); at != std::string::npos; at = text.find('{', at + 1)) {
    const size_t key = text.find_first_not_of(" \t\r\n", at + 1);
    if (key != std::string::npos && text.compare(key, 6, "\"name\"") == 0) return at;
  }
  return std::string::npos;
}
}  // namespace

ParsedReply parse_json_tool_calls(const std::string& text) {
  ParsedReply out;
  const size_t first = find_call(text, 0);
  if (first == std::string::npos) {
    out.content = text;
    return out;
  }
  out.content = text.substr(0, first);
  size_t pos = first;
  while (pos < text.size()) {
    // The grammar wrote one JSON value; find where it ends by parsing growing prefixes is costly,
    // so scan brackets outside strings.
    int depth = 0;
    bool in_string = false;
    size_t end = std::string::npos;
    for (size_t i = pos; i < text.size(); ++i) {
      const char c = text[i];
      if (in_string) {
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          in_string = false;
        }
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        end = i + 1;
        break;
      }
    }
    if (end == std::string::npos) break;
    const common_json call = common_json::parse_no_throw(text.substr(pos, end - pos));
    if (!call.is_object() || !call.contains("name") || !call.at("name").is_string()) break;
    ToolCall tc;
    tc.name = call.at("name").get<std::string>();
    tc.arguments = call.contains("arguments") ? call.at("arguments").dump() : "{}";
    out.tool_calls.push_back(std::move(tc));
    pos = text.find_first_not_of(" \t\r\n", end);
    if (pos == std::string::npos || find_call(text, pos) != pos) break;
  }
  if (out.tool_calls.empty()) out.content = text;
  return out;
}

std::string json_quote(const std::string& s) { return common_json::make(s).dump(); }

std::string json_unescaped(const std::string& text) {
  const common_json j = common_json::parse_no_throw(text);
  return j.is_discarded() ? text : j.dump();
}

}  // namespace detail

bool valid_file_name(const std::string& name) { return fs_validate_filename(name, false); }

}  // namespace sfcl::engine
