#include "server/api/request.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "anchor/anchor.h"
#include "server/api/json_budget.h"
#include "server/api/logprobs.h"
#include "server/api/params.h"
#include "server/api/responses.h"
#include "server/api/template_options.h"
#include "server/api/tools.h"

namespace sfcl::server {

using nlohmann::json;

namespace {
ApiError bad(const std::string& message, const std::string& param = {}) {
  return {400, "invalid_request_error", message, param};
}

std::string text_of(const json& content, const std::string& where) {
  if (content.is_string()) {
    check_text(content.get<std::string>(), where);
    return content.get<std::string>();
  }
  if (!content.is_array()) throw bad(where + ": content must be a string or an array of text blocks", where);
  std::string out;
  for (const auto& block : content) {
    if (!block.is_object() || !block.contains("type") || !block["type"].is_string()) {
      throw bad(where + ": each content block needs a string \"type\"", where);
    }
    const std::string type = block["type"].get<std::string>();
    if (type != "text") throw bad(where + ": content block type \"" + type + "\" is not supported (text only)", where);
    if (!block.contains("text") || !block["text"].is_string())
      throw bad(where + ": text block without a string \"text\"", where);
    out += block["text"].get<std::string>();
  }
  check_text(out, where);
  return out;
}

int32_t max_tokens_of(const json& body, const char* key, const ServerOptions& server, bool required, int32_t fallback) {
  if (!body.contains(key) || body[key].is_null()) {
    if (required) throw bad(std::string(key) + ": field required", key);
    return fallback;
  }
  const json& v = body[key];
  if (!v.is_number_integer()) throw bad(std::string(key) + " must be an integer", key);
  const bool positive = v.is_number_unsigned() ? v.get<uint64_t>() > 0 : v.get<int64_t>() > 0;
  if (!positive) throw bad(std::string(key) + " must be greater than 0", key);
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(server.max_tokens_limit)) {
    throw bad(std::string(key) + " is " + v.dump() + "; this server allows at most " +
                  std::to_string(server.max_tokens_limit),
              key);
  }
  return static_cast<int32_t>(v.get<int64_t>());
}

// The caller picked the model from the name (pick_model); the response names the model that
// answered, whatever name the request gave.
void check_model(const json& body, const ModelSpec& model, GenerationRequest& r, bool required) {
  if (!body.contains("model") || body["model"].is_null()) {
    if (required) throw bad("model: field required", "model");
  } else if (!body["model"].is_string()) {
    throw bad("model must be a string", "model");
  }
  r.model = model.id;
}

void parse_sfcl(const json& body, const ServerOptions& server, const ModelSpec& model, GenerationRequest& r) {
  for (const decode::CheckOption& spec : decode::check_options()) spec.set(r.options, spec.get(server.checks));
  r.options.mode = mode_of(server, model);
  r.events = server.events;
  if (!body.contains("sfcl") || body["sfcl"].is_null()) return;
  const json& s = body["sfcl"];
  if (!s.is_object()) throw bad("sfcl must be an object", "sfcl");
  // A null option is the same as an absent one: the server's default.
  const auto has = [](const json& o, const char* key) { return o.contains(key) && !o[key].is_null(); };
  parse_options(s, decode::check_options(), r.options, "sfcl.");
  if (has(s, "events")) {
    if (!s["events"].is_boolean()) throw bad("sfcl.events must be a boolean", "sfcl.events");
    r.events = s["events"].get<bool>();
  }
  // The words written in place of a value nothing in the sources supports (one string for every
  // language, or {"en": ..., "zh": ...}).
  if (has(s, "abstain_marker")) {
    const json& m = s["abstain_marker"];
    const auto valid = [](const json& v) {
      return v.is_string() && !v.get<std::string>().empty() && v.get<std::string>().size() <= 200 &&
             v.get<std::string>().find('\0') == std::string::npos;  // NUL is refused in every text field
    };
    // {"en": ..., "zh": ...}: one or both of those keys, nothing else.
    const auto per_language = [&] {
      if (!m.is_object() || m.empty()) return false;
      for (const auto& [language, marker] : m.items()) {
        if ((language != "en" && language != "zh") || !valid(marker)) return false;
      }
      return true;
    };
    if (valid(m)) {
      r.options.abstain_marker = r.options.abstain_marker_zh = m.get<std::string>();
    } else if (per_language()) {
      if (m.contains("en")) r.options.abstain_marker = m["en"].get<std::string>();
      if (m.contains("zh")) r.options.abstain_marker_zh = m["zh"].get<std::string>();
    } else {
      throw bad(
          "sfcl.abstain_marker must be a non-empty string of at most 200 bytes with no NUL character, or "
          "{\"en\": ..., \"zh\": ...} with one or both of those keys",
          "sfcl.abstain_marker");
    }
  }
  if (has(s, "sources")) {
    if (!s["sources"].is_array()) throw bad("sfcl.sources must be an array of strings", "sfcl.sources");
    for (const auto& d : s["sources"]) {
      if (!d.is_string()) throw bad("sfcl.sources must be an array of strings", "sfcl.sources");
      check_text(d.get<std::string>(), "sfcl.sources");
      r.extra_sources.push_back(d.get<std::string>());
    }
  }
}

// OpenAI's `stop` may be one string; Anthropic's `stop_sequences` is always an array.
std::vector<std::string> stops_of(const json& v, const char* key, size_t max_n, bool one_string_ok = true) {
  std::vector<std::string> out;
  if (v.is_null()) return out;
  if (!one_string_ok && !v.is_array()) throw bad(std::string(key) + " must be an array of strings", key);
  if (v.is_string()) {
    out.push_back(v.get<std::string>());
  } else if (!v.is_array()) {
    throw bad(std::string(key) + " must be a string or an array of strings", key);
  }
  for (const auto& s : v.is_array() ? v : json::array()) {
    if (!s.is_string()) throw bad(std::string(key) + " must contain only strings", key);
    if (!s.get<std::string>().empty()) out.push_back(s.get<std::string>());
  }
  if (out.size() > max_n) throw bad(std::string(key) + ": at most " + std::to_string(max_n) + " entries", key);
  // Every stop sequence is looked for after every token on the decode thread (decode.h).
  for (const std::string& s : out) {
    if (s.size() > decode::kMaxStopBytes) {
      throw bad(std::string(key) + ": a stop sequence of " + std::to_string(s.size()) + " bytes; at most " +
                    std::to_string(decode::kMaxStopBytes) + " each",
                key);
    }
  }
  return out;
}

std::string clean(const std::string& s, const ServerOptions& server) {
  return server.strip_zero_width ? anchor::strip_zero_width(s) : s;
}

void anthropic_messages(const json& body, const ServerOptions& server, GenerationRequest& r) {
  if (body.contains("system") && !body["system"].is_null()) {
    r.messages.push_back({"system", clean(text_of(body["system"], "system"), server)});
  }
  if (!body.contains("messages")) throw bad("messages: field required", "messages");
  const json& msgs = body["messages"];
  if (!msgs.is_array()) throw bad("messages must be an array", "messages");
  if (msgs.empty()) throw bad("messages: at least one message is required", "messages");
  std::string expect = "user";
  // The tool_use ids of the last assistant message: the next message answers each with a
  // tool_result (as the Messages API requires).
  std::vector<std::string> unanswered;
  const auto block_ids = [](const json& content, const char* type, const char* key) {
    std::vector<std::string> ids;
    if (!content.is_array()) return ids;
    for (const auto& b : content) {
      if (b.is_object() && b.contains("type") && b["type"] == type && b.contains(key) && b[key].is_string()) {
        ids.push_back(b[key].get<std::string>());
      }
    }
    return ids;
  };
  for (size_t i = 0; i < msgs.size(); ++i) {
    const std::string where = "messages." + std::to_string(i);
    const json& m = msgs[i];
    if (!m.is_object() || !m.contains("role") || !m["role"].is_string()) {
      throw bad(where + ": each message needs a string \"role\"", where);
    }
    const std::string role = m["role"].get<std::string>();
    if (!unanswered.empty() && m.contains("content")) {
      const std::vector<std::string> results = block_ids(m["content"], "tool_result", "tool_use_id");
      for (const std::string& id : unanswered) {
        if (std::find(results.begin(), results.end(), id) == results.end()) {
          throw bad(where + ".content: no tool_result answers tool_use \"" + id + "\" of messages." +
                        std::to_string(i - 1) + " (each tool_use needs one in the next message)",
                    where + ".content");
        }
      }
    }
    unanswered = role == "assistant" && m.contains("content") ? block_ids(m["content"], "tool_use", "id")
                                                              : std::vector<std::string>{};
    if (role != "user" && role != "assistant") {
      throw bad(where + ".role: must be \"user\" or \"assistant\" (system goes in the top-level system field)",
                where + ".role");
    }
    if (role != expect) {
      throw bad(where + ".role: roles must alternate, starting with \"user\"; got \"" + role + "\"", where + ".role");
    }
    if (!m.contains("content")) throw bad(where + ".content: field required", where + ".content");
    if (has_tool_blocks(m["content"])) {  // tool_use, tool_result, thinking: server/api/tools.cpp
      for (auto& tm : anthropic_tool_messages(role, m["content"], where + ".content", r.messages)) {
        tm.content = clean(tm.content, server);
        r.messages.push_back(std::move(tm));
      }
      expect = role == "user" ? "assistant" : "user";
      continue;
    }
    std::string text = clean(text_of(m["content"], where + ".content"), server);
    if (role == "assistant" && i + 1 == msgs.size()) {
      r.prefill = text;  // the model continues this text
    } else {
      r.messages.push_back({role, std::move(text)});
    }
    expect = role == "user" ? "assistant" : "user";
  }
}
}  // namespace

namespace {
// The server's sampling defaults (llama.cpp's chain unless --temp, --top-k, ... say otherwise),
// overridden by what the request sets. top_k and min_p are llama-server's extensions.
void sampling_of(const json& body, const ServerOptions& server, engine::SamplingOptions& s) {
  s = server.sampling;
  parse_options(body, engine::sampling_options(), s);
}

// The fields every dialect shares: stream, sampling, logit_bias, lora and ignore_eos.
void parse_generation(Api api, const json& body, const ServerOptions& server, GenerationRequest& r) {
  if (body.contains("stream") && !body["stream"].is_null()) {
    if (!body["stream"].is_boolean()) throw bad("stream must be a boolean", "stream");
    r.stream = body["stream"].get<bool>();
  }
  refuse_unsupported(api, body);
  sampling_of(body, server, r.options.sampling);
  LogitBias bias = logit_bias_of(body.value("logit_bias", json()));
  r.logit_bias = std::move(bias.ids);
  r.logit_bias_text = std::move(bias.texts);
  r.lora = lora_of(body.value("lora", json()));
  if (body.contains("id_slot") && !body["id_slot"].is_null()) {
    const json& id = body["id_slot"];
    if (!id.is_number_integer() || id.get<int64_t>() < -1 || id.get<int64_t>() > 1'000'000) {
      throw bad("id_slot must be -1 (any slot) or a slot's id, an integer from 0 (GET /slots lists them)", "id_slot");
    }
    r.id_slot = id.get<int32_t>();
  }
  for (auto [key, into] : {std::pair{"ignore_eos", &r.ignore_eos}, std::pair{"return_progress", &r.return_progress},
                           std::pair{"timings_per_token", &r.timings_per_token}}) {
    if (!body.contains(key) || body[key].is_null()) continue;
    if (!body[key].is_boolean()) throw bad(std::string(key) + " must be a boolean", key);
    *into = body[key].get<bool>();
  }
  if (!r.logit_bias.empty()) {
    r.options.logit_hook = [bias = r.logit_bias](std::span<float> logits, std::span<const engine::Token>) {
      for (const auto& [token, b] : bias) {
        if (static_cast<size_t>(token) < logits.size()) logits[static_cast<size_t>(token)] += b;  // others: ignored
      }
    };
  }
}

// OpenAI's legacy completions: one prompt string, sent as it is (no chat template).
void completion_prompt(const json& body, const ServerOptions& server, GenerationRequest& r) {
  if (!body.contains("prompt")) throw bad("prompt: field required", "prompt");
  const json& p = body["prompt"];
  if (p.is_string()) {
    r.raw_prompt = clean(p.get<std::string>(), server);
  } else if (p.is_array() && p.size() == 1 && p[0].is_string()) {
    r.raw_prompt = clean(p[0].get<std::string>(), server);
  } else {
    throw bad("prompt must be a string (or an array of one string)", "prompt");
  }
  check_text(r.raw_prompt, "prompt");
  if (r.raw_prompt.empty()) throw bad("prompt must not be empty", "prompt");
  r.raw = true;
}

// OpenAI's chat messages (tool calls and their answers: server/api/tools.cpp); a last assistant
// message is the prefill the model continues.
void openai_messages(const json& body, const ServerOptions& server, GenerationRequest& r) {
  if (!body.contains("messages")) throw bad("messages: field required", "messages");
  const json& msgs = body["messages"];
  if (!msgs.is_array()) throw bad("messages must be an array", "messages");
  if (msgs.empty()) throw bad("messages: at least one message is required", "messages");
  std::vector<std::string> unanswered;  // the last assistant message's tool call ids
  for (size_t i = 0; i < msgs.size(); ++i) {
    const std::string where = "messages[" + std::to_string(i) + "]";
    const json& m = msgs[i];
    if (!m.is_object() || !m.contains("role") || !m["role"].is_string()) {
      throw bad(where + ": each message needs a string \"role\"", where);
    }
    if (m.contains("name") && !m["name"].is_null() && !m["name"].is_string()) {
      throw bad(where + ".name must be a string", where + ".name");
    }
    // An assistant message's tool_calls are answered by the role "tool" messages right after it.
    if (!unanswered.empty() && m["role"] != "tool") {
      throw bad(where + ": no role \"tool\" message answers tool call \"" + unanswered.front() +
                    "\" before it (each tool call needs one)",
                where);
    }
    if (is_openai_tool_message(m)) {  // role "tool", assistant tool_calls: server/api/tools.cpp
      engine::ChatMessage tm = openai_tool_message(m, where, r.messages);
      if (tm.role == "tool") {
        std::erase(unanswered, tm.tool_call_id);
      } else {
        unanswered.clear();
        for (const auto& call : tm.tool_calls) unanswered.push_back(call.id);
      }
      tm.content = clean(tm.content, server);
      r.messages.push_back(std::move(tm));
      continue;
    }
    std::string role = m["role"].get<std::string>();
    if (role == "developer") role = "system";
    if (role != "system" && role != "user" && role != "assistant") {
      throw bad(where + ".role: must be system, developer, user or assistant", where + ".role");
    }
    if (!m.contains("content") || m["content"].is_null()) throw bad(where + ".content: field required", where);
    std::string text = clean(text_of(m["content"], where + ".content"), server);
    if (role == "assistant" && i + 1 == msgs.size()) {
      r.prefill = std::move(text);  // continued by the model, as llama-server's continue_final_message
    } else {
      r.messages.push_back({role, std::move(text)});
    }
  }
  bool any_user = false;
  for (const auto& m : r.messages) any_user = any_user || m.role == "user";
  if (!any_user) throw bad("messages: at least one user message is required", "messages");
}

// `count_only`: /v1/messages/count_tokens, whose body is a Messages request that may leave out
// max_tokens; every other field is checked as the request would be.
GenerationRequest parse_fields(Api api, const json& body, const ServerOptions& server, const ModelSpec& model,
                               bool count_only = false) {
  if (!body.is_object()) throw bad("the request body must be a JSON object");
  GenerationRequest r;
  parse_sfcl(body, server, model, r);
  parse_tools(api, body, r);
  parse_structured_output(api, body, r);
  parse_template_options(api, body, server, r);
  parse_generation(api, body, server, r);
  // llama-server's n_predict: the reply's length when max_tokens is not given, else a cap on it.
  const auto n_predict = static_cast<int32_t>(integer_in(body, "n_predict", -1, server.max_tokens_limit, -1));
  const auto cap = [n_predict](int32_t max_tokens) {
    return n_predict > 0 ? std::min(max_tokens, n_predict) : max_tokens;
  };
  if (api == Api::anthropic) {
    check_model(body, model, r, false);
    r.options.max_tokens = cap(max_tokens_of(body, "max_tokens", server, !count_only, 1));
    anthropic_messages(body, server, r);
    if (body.contains("stop_sequences"))
      r.options.stop = stops_of(body["stop_sequences"], "stop_sequences", decode::kMaxStops, false);
    return r;
  }
  check_model(body, model, r, false);
  const int32_t fallback = api == Api::openai_completions ? 16 : server.default_max_tokens;
  r.options.max_tokens = max_tokens_of(body, "max_tokens", server, false, fallback);
  if (body.contains("max_completion_tokens")) {
    r.options.max_tokens = max_tokens_of(body, "max_completion_tokens", server, false, r.options.max_tokens);
  }
  const bool given = (body.contains("max_tokens") && !body["max_tokens"].is_null()) ||
                     (body.contains("max_completion_tokens") && !body["max_completion_tokens"].is_null());
  r.options.max_tokens = given || n_predict <= 0 ? cap(r.options.max_tokens) : n_predict;
  r.include_usage = include_usage_of(body);
  r.options.logprobs = logprobs_of(api, body);
  r.n = choices_of(body, server);
  if (body.contains("stop")) r.options.stop = stops_of(body["stop"], "stop", std::min<size_t>(4, decode::kMaxStops));
  if (api == Api::openai_completions) {
    completion_prompt(body, server, r);
    return r;
  }
  openai_messages(body, server, r);
  return r;
}

// llama-server's response_fields, taken out of `body` (the completions parser does not know it).
std::vector<std::string> response_fields(json& body) {
  std::vector<std::string> paths;
  if (!body.is_object() || !body.contains("response_fields")) return paths;
  const json f = body["response_fields"];
  body.erase("response_fields");
  if (f.is_null()) return paths;
  constexpr size_t kMaxPaths = 64, kMaxPath = 256;
  if (!f.is_array() || f.size() > kMaxPaths) {
    throw bad("response_fields must be an array of at most 64 paths (strings)", "response_fields");
  }
  for (const json& p : f) {
    if (!p.is_string() || p.get<std::string>().size() > kMaxPath) {
      throw bad("response_fields: each path must be a string of at most 256 bytes", "response_fields");
    }
    paths.push_back(p.get<std::string>());
  }
  return paths;
}

}  // namespace

GenerationRequest parse_count_tokens(const json& body, const ServerOptions& server, const ModelSpec& model) {
  // The tools' text is part of the prompt the request would make; a body that counts is one that
  // would run (its sampling, sfcl options and structured output are checked too).
  return parse_fields(Api::anthropic, body, server, model, true);
}

GenerationRequest parse_request(Api api, const json& body, const ServerOptions& server, const ModelSpec& model) {
  // A Responses body is read as the chat body it stands for (server/api/responses_request.cpp).
  GenerationRequest r;
  if (api == Api::openai_responses) {
    r = parse_fields(Api::openai_chat, responses_to_chat(body, server), server, model);
  } else if (api == Api::llama_completion) {
    // llama-server's /completion: the completions body, but without n_predict it runs to the
    // server's default length (llama-server: to the end of the context), not OpenAI's 16 tokens.
    json native = body;
    const bool unbounded = !native.contains("n_predict") || native["n_predict"] == -1;
    if (native.is_object() && unbounded && !native.contains("max_tokens")) {
      native["n_predict"] = server.default_max_tokens;
    }
    std::vector<std::string> fields = response_fields(native);
    r = parse_fields(Api::openai_completions, native, server, model);
    r.response_fields = std::move(fields);
  } else {
    r = parse_fields(api, body, server, model);
  }
  // -n caps every request, as llama-server's n_predict does: clamped, not refused.
  if (server.n_predict > 0) r.options.max_tokens = std::min(r.options.max_tokens, server.n_predict);
  return r;
}

std::string requested_model(const json& body) {
  if (!body.is_object() || !body.contains("model") || !body["model"].is_string()) return {};
  return body["model"].get<std::string>();
}

json parse_body_json(const std::string& body) {
  check_json_values(body);  // before the tree is built: server/api/json_budget.h
  try {
    return json::parse(body);
  } catch (const json::exception& e) {
    // e.what() starts with "[json.exception.parse_error.101] parse error at ..." (or
    // out_of_range.406 "number overflow parsing '1e309'"): keep the words after the library's tag.
    std::string why = e.what();
    if (const size_t tag = why.find("] "); why.rfind("[json.exception", 0) == 0 && tag != std::string::npos) {
      why = why.substr(tag + 2);
    }
    throw ApiError(400, "invalid_request_error", "the request body is not valid JSON: " + why);
  }
}

}  // namespace sfcl::server
