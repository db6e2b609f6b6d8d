// Chat prompts: the template renders the markup around placeholders that stand for each piece of
// content, so the markup alone is tokenised with special tokens and every piece of content as
// plain text (a user cannot write "<|im_end|>" and get the control token). Tools and structured
// output give the prompt its grammar.
#include <algorithm>
#include <array>
#include <random>

#include "engine/chat_internal.h"
#include "llama.h"

namespace sfcl::engine {

namespace {

// Private-use code points around the index of a content piece: no template rewrites them, and
// they never reach the model (the content replaces them before tokenising).
constexpr std::string_view kOpen = "\xEE\x80\x80";
constexpr std::string_view kClose = "\xEE\x80\x81";

struct Pieces {
  std::vector<std::string> contents;
  // Between kOpen and the index; empty unless a string the template renders unmasked holds kOpen
  // (then random, so such a string cannot name another piece: forgeable_placeholders).
  std::string salt;
  std::string placeholder(std::string text) {
    contents.push_back(std::move(text));
    return std::string(kOpen) + salt + std::to_string(contents.size() - 1) + std::string(kClose);
  }
};

// Whether a string the template renders as it is (not replaced by a placeholder: roles, tool
// definitions, earlier calls, template kwargs) holds the placeholder's opening: written there by a
// client, "\uE0000\uE001" in a tool's description would otherwise be read as the first content.
bool forgeable_placeholders(const ChatInput& in) {
  // JSON texts (tool schemas, call arguments, kwarg values) count as the template prints them:
  // "\\uE000" unescaped is U+E000 again.
  const auto has = [](const std::string& s) {
    return s.find(kOpen) != std::string::npos ||
           (s.find("\\u") != std::string::npos && detail::json_unescaped(s).find(kOpen) != std::string::npos);
  };
  for (const auto& m : in.messages) {
    if (has(m.role) || has(m.tool_call_id) || has(m.tool_name)) return true;
    for (const auto& c : m.tool_calls) {
      if (has(c.id) || has(c.name) || has(c.arguments)) return true;
    }
  }
  for (const auto& t : in.tools) {
    if (has(t.name) || has(t.description) || has(t.parameters)) return true;
  }
  return std::any_of(in.template_kwargs.begin(), in.template_kwargs.end(),
                     [&](const auto& kv) { return has(kv.first) || has(kv.second); });
}

// A salt no client can guess, each drawn from the system's random device (rare: only requests
// with U+E000 in a string rendered as it is); such a request's renders are not kept (render_cache.h).
std::string random_salt() {
  std::random_device rd;
  const uint64_t salt = (uint64_t{rd()} << 32) | rd();
  return "s" + std::to_string(salt) + ":";
}

struct Piece {
  std::string_view text;
  bool content = false;
};

// Splits rendered markup at the placeholders; unknown indices stay markup. One pass: each close
// mark is matched with the last open mark before it, so text full of stray marks stays linear.
std::vector<Piece> split(std::string_view rendered, const Pieces& pieces) {
  std::vector<Piece> out;
  size_t pos = 0;     // start of the markup not yet in `out`
  size_t search = 0;  // where the next placeholder may start
  while (search < rendered.size()) {
    const size_t close = rendered.find(kClose, search);
    if (close == std::string_view::npos) break;
    const size_t back = rendered.substr(search, close - search).rfind(kOpen);
    const size_t open = search + back;
    search = close + kClose.size();
    if (back == std::string_view::npos) continue;
    std::string_view digits = rendered.substr(open + kOpen.size(), close - open - kOpen.size());
    if (!digits.starts_with(pieces.salt)) continue;
    digits.remove_prefix(pieces.salt.size());
    size_t index = 0;
    bool valid = !digits.empty() && digits.size() < 9;
    for (char c : digits) {
      valid = valid && c >= '0' && c <= '9';
      index = index * 10 + static_cast<size_t>(c - '0');
    }
    if (!valid || index >= pieces.contents.size()) continue;
    out.push_back({rendered.substr(pos, open - pos), false});
    out.push_back({pieces.contents[index], true});
    pos = search;
  }
  out.push_back({rendered.substr(pos), false});
  return out;
}

// `rendered` with each placeholder replaced by its content.
std::string unmask(std::string_view rendered, const Pieces& pieces) {
  std::string out;
  for (const Piece& p : split(rendered, pieces)) out += p.text;
  return out;
}

bool contains_special(std::string_view text, const std::vector<std::string>& specials,
                      const std::array<bool, 256>& first_bytes) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (!first_bytes[static_cast<unsigned char>(text[i])]) continue;
    for (const auto& s : specials) {
      if (text.compare(i, s.size(), s) == 0) return true;
    }
  }
  return false;
}

std::string plain_render(const std::vector<ChatMessage>& messages) {
  std::string out;
  for (const auto& m : messages) out += m.role + ": " + m.content + "\n";
  return out + "assistant:";
}

std::string builtin_render(const std::string& name, const std::vector<ChatMessage>& messages) {
  std::vector<llama_chat_message> chat;
  size_t total = 0;
  for (const auto& m : messages) {
    chat.push_back({m.role.c_str(), m.content.c_str()});
    total += m.role.size() + m.content.size();
  }
  std::string buf(2 * total + 256, '\0');
  int32_t n = llama_chat_apply_template(name.c_str(), chat.data(), chat.size(), true, buf.data(),
                                        static_cast<int32_t>(buf.size()));
  if (n < 0) throw EngineError("chat template " + name + " could not be applied");
  if (static_cast<size_t>(n) > buf.size()) {
    buf.resize(static_cast<size_t>(n));
    n = llama_chat_apply_template(name.c_str(), chat.data(), chat.size(), true, buf.data(),
                                  static_cast<int32_t>(buf.size()));
  }
  buf.resize(static_cast<size_t>(n));
  return buf;
}

std::string call_json(const ToolCall& c) {
  return "{\"name\": " + detail::json_quote(c.name) + ", \"arguments\": " + (c.arguments.empty() ? "{}" : c.arguments) +
         "}";
}

// Without a tool-aware template the tools are described in the system message and every call is
// one JSON object (docs/DESIGN.md, 'Tools and structured output').
std::string tools_instruction(const ChatInput& input) {
  std::string out =
      "You can call tools. To call one, reply with only a JSON object {\"name\": <tool name>, \"arguments\": "
      "<arguments object>}. Tools:\n";
  for (const auto& t : input.tools) {
    out += "{\"name\": " + detail::json_quote(t.name) + ", \"description\": " + detail::json_quote(t.description) +
           ", \"parameters\": " + (t.parameters.empty() ? "{}" : t.parameters) + "}\n";
  }
  return out;
}

std::string tool_calls_schema(const ChatInput& input) {
  std::string alternatives;
  for (const auto& t : input.tools) {
    if (!alternatives.empty()) alternatives += ",";
    alternatives += "{\"type\":\"object\",\"properties\":{\"name\":{\"const\":" + detail::json_quote(t.name) +
                    "},\"arguments\":" + (t.parameters.empty() ? "{\"type\":\"object\"}" : t.parameters) +
                    "},\"required\":[\"name\",\"arguments\"],\"additionalProperties\":false}";
  }
  return "{\"anyOf\":[" + alternatives + "]}";
}

// Messages for a template that knows only system/user/assistant: calls become JSON in the
// assistant's text, results user turns that say which call they answer.
std::vector<ChatMessage> flatten_tools(const ChatInput& input, bool tool_role) {
  std::vector<ChatMessage> out;
  for (const auto& m : input.messages) {
    ChatMessage f{m.role, m.content, {}, {}, {}};
    for (const auto& c : m.tool_calls) f.content += (f.content.empty() ? "" : "\n") + call_json(c);
    if (m.role == "tool") {
      f.role = tool_role ? "tool" : "user";
      f.content = "Result of " + (m.tool_name.empty() ? std::string("the tool call") : m.tool_name) + ": " + m.content;
    }
    out.push_back(std::move(f));
  }
  if (input.tools_active()) {
    const std::string note = tools_instruction(input);
    if (!out.empty() && out.front().role == "system") {
      out.front().content += "\n\n" + note;
    } else {
      out.insert(out.begin(), ChatMessage{"system", note, {}, {}, {}});
    }
  }
  return out;
}

}  // namespace

const std::vector<std::string>& Model::special_texts() const {
  std::call_once(special_once_, [this] {
    const int32_t attrs = LLAMA_TOKEN_ATTR_CONTROL | LLAMA_TOKEN_ATTR_USER_DEFINED | LLAMA_TOKEN_ATTR_UNKNOWN;
    for (Token t = 0; t < n_vocab(); ++t) {
      if ((llama_vocab_get_attr(vocab_, t) & attrs) == 0) continue;
      const char* text = llama_vocab_get_text(vocab_, t);
      if (text != nullptr && *text != '\0') special_texts_.emplace_back(text);
    }
  });
  return special_texts_;
}

std::string Model::chat_template_kind() const { return chat_ ? chat_->kind : "plain"; }

size_t Model::chat_renders_reused() const { return chat_ ? detail::render_cache_hits(*chat_) : 0; }

namespace {

// A Jinja template's render (it writes the prefill itself): the template's own tool grammar and
// parser where it has one (`native`), else the tools described in the system message. `masked`:
// `input` with its contents as placeholders of `pieces`.
std::string render_jinja(const ChatTemplates& templates, const llama_vocab* vocab, const ChatInput& input,
                         const ChatInput& masked, Pieces& pieces, ChatPrompt& out, bool& native) {
  detail::CommonRendered r = detail::common_render(templates, vocab, masked, pieces.salt.empty());
  // What the parser and a strict grammar read first holds the prefill's text, not its placeholder.
  r.generation_prompt = unmask(r.generation_prompt, pieces);
  r.grammar.prefix = unmask(r.grammar.prefix, pieces);
  native = input.tools_active() && !r.grammar.gbnf.empty();
  if (input.tools_active() && !native) {
    // The template ignores tools: describe them in the system message instead.
    pieces.contents.clear();
    ChatInput plain = input;
    plain.messages = flatten_tools(input, true);
    plain.tools.clear();
    for (auto& m : plain.messages) {
      if (!m.content.empty()) m.content = pieces.placeholder(m.content);
    }
    if (!plain.prefill.empty()) plain.prefill = pieces.placeholder(plain.prefill);
    return detail::common_render(templates, vocab, plain, pieces.salt.empty()).prompt;
  }
  out.stops = std::move(r.stops);
  if (r.supports_thinking && input.reasoning_format != "none") {
    out.reasoning_format = input.reasoning_format;
    out.parser_format = r.format;
    out.parser_state = r.parser;
    out.generation_prompt = r.generation_prompt;
  }
  if (native) {
    out.grammar = std::move(r.grammar);
    out.tool_format = ToolFormat::native;
    out.parser_format = std::move(r.format);
    out.parser_state = std::move(r.parser);
    out.generation_prompt = std::move(r.generation_prompt);
  }
  return std::move(r.prompt);
}

// The grammar of a render without the template's own: the tool-call object, else the request's
// grammar or JSON schema.
void request_grammar(const ChatInput& input, bool native, ChatPrompt& out) {
  if (input.tools_active() && !native) {
    out.tool_format = ToolFormat::json_object;
    out.grammar.gbnf = json_schema_grammar(tool_calls_schema(input));
    if (input.tool_choice == ToolChoice::automatic) {
      out.grammar.lazy = true;
      out.grammar.trigger_patterns = {R"(\{"name")"};
    }
  }
  if (!input.tools_active()) {
    if (!input.grammar.empty()) {
      out.grammar.gbnf = input.grammar;
    } else if (!input.json_schema.empty()) {
      out.grammar.gbnf = json_schema_grammar(input.json_schema);
    }
  }
}

}  // namespace

ChatPrompt Model::render_chat(const ChatInput& input) const {
  ChatPrompt out;
  const ChatTemplates fallback{"plain", {}, {}};
  const ChatTemplates& templates = chat_ ? *chat_ : fallback;
  out.template_kind = templates.kind;
  Pieces pieces;
  if (forgeable_placeholders(input)) pieces.salt = random_salt();
  std::string rendered;
  bool native = false;
  // A Jinja template renders the prefill itself (the open final assistant message).
  const bool jinja = templates.kind == "jinja";
  if (jinja) {
    ChatInput masked = input;
    for (auto& m : masked.messages) {
      if (!m.content.empty()) m.content = pieces.placeholder(m.content);
    }
    if (!masked.prefill.empty()) masked.prefill = pieces.placeholder(masked.prefill);
    literal_specials(masked, [&pieces](std::string t) { return pieces.placeholder(std::move(t)); });
    rendered = render_jinja(templates, vocab_, input, masked, pieces, out, native);
  } else {
    std::vector<ChatMessage> msgs = flatten_tools(input, templates.kind == "plain");
    for (auto& m : msgs) m.content = pieces.placeholder(m.content);
    rendered = templates.kind == "builtin" ? builtin_render(templates.builtin_name, msgs) : plain_render(msgs);
  }
  request_grammar(input, native, out);
  if (!input.prefill.empty()) {
    if (!jinja) rendered += pieces.placeholder(input.prefill);
    // A native tool-call grammar's prefix is the generation prompt, which holds the prefill already.
    if (!out.grammar.gbnf.empty() && !out.grammar.lazy && out.tool_format != ToolFormat::native) {
      out.grammar.prefix += input.prefill;
    }
  }

  const std::vector<Piece> parts = split(rendered, pieces);
  std::array<bool, 256> first_bytes{};
  for (const auto& s : special_texts()) first_bytes[static_cast<unsigned char>(s[0])] = true;
  bool forged = false;
  for (const Piece& p : parts) {
    out.text += p.text;
    forged = forged || (p.content && contains_special(p.text, special_texts(), first_bytes));
  }
  if (!forged) {
    // Nothing in the content reads as a special token: one pass gives the tokens llama-server would.
    out.tokens = tokenize(out.text, true, true);
    return out;
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].text.empty() && i > 0) continue;
    const std::vector<Token> t = tokenize(parts[i].text, i == 0, !parts[i].content);
    out.tokens.insert(out.tokens.end(), t.begin(), t.end());
  }
  return out;
}

ParsedReply Model::parse_reply(const ChatPrompt& prompt, const std::string& text, bool partial) const {
  if (prompt.tool_format == ToolFormat::none && prompt.splits_reasoning())
    return detail::common_parse(text, prompt, partial);
  switch (prompt.tool_format) {
    case ToolFormat::native:
      return detail::common_parse(text, prompt, partial);
    case ToolFormat::json_object:
      return detail::parse_json_tool_calls(text);
    case ToolFormat::none:
      break;
  }
  return {text, {}};
}

}  // namespace sfcl::engine
