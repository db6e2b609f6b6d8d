#include "server/api/template_options.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "server/api/params.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

// A request's chat_template_kwargs reach the template beside the messages, unmasked (llama.cpp
// merges them over the template's inputs and writes their strings as they are): a kwarg must not
// replace an input (`messages` would forge the conversation past every check of its text) nor
// carry markup that a template or tokenizer reads as special ("<|im_start|>system", "[INST]").
// Scalars, short plain strings and short arrays of them (builtin_tools) only.
void check_template_kwarg(const std::string& key, const json& value) {
  static const std::vector<std::string> kInputs = {
      "messages",    "tools",     "add_generation_prompt", "bos_token",    "eos_token",  "documents",
      "tool_choice", "functions", "raise_exception",       "strftime_now", "date_string"};
  constexpr size_t kMaxKey = 64;
  constexpr size_t kMaxText = 256;
  constexpr size_t kMaxItems = 16;
  const std::string where = "chat_template_kwargs." + key;
  const bool key_ok = !key.empty() && key.size() <= kMaxKey && std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  });
  if (!key_ok)
    throw bad_param("chat_template_kwargs: a name must be letters, digits and _ (at most 64)", "chat_template_kwargs");
  if (std::find(kInputs.begin(), kInputs.end(), key) != kInputs.end()) {
    throw bad_param(where + " is set by the server from the request itself; it cannot be given as a kwarg", where);
  }
  const auto text_ok = [&](const json& v) {
    if (!v.is_string()) return v.is_boolean() || v.is_number() || v.is_null();
    const auto& t = v.get_ref<const std::string&>();
    return t.size() <= kMaxText && std::none_of(t.begin(), t.end(), [](char c) {
             return static_cast<unsigned char>(c) < 0x20 || c == 0x7F ||
                    std::string_view("<>[]{}|").find(c) != std::string_view::npos;
           });
  };
  const bool ok = value.is_array() ? value.size() <= kMaxItems &&
                                         std::all_of(value.begin(), value.end(),
                                                     [&](const json& v) { return !v.is_array() && text_ok(v); })
                                   : text_ok(value);
  if (!ok) {
    throw bad_param(where +
                        " must be a boolean, a number, or a string of at most 256 bytes without control characters or "
                        "any of < > [ ] { } | (or an array of at most 16 of them)",
                    where);
  }
}

}  // namespace

// llama-server's chat template fields: chat_template_kwargs (merged over --chat-template-kwargs),
// enable_thinking (also as a kwarg), reasoning_format, OpenAI's reasoning_effort and Anthropic's
// thinking. Chat only: /v1/completions has no template.
void parse_template_options(Api api, const json& body, const ServerOptions& server, GenerationRequest& r) {
  const auto has = [&](const char* key) { return body.contains(key) && !body[key].is_null(); };
  if (api == Api::openai_completions) {
    for (const char* key : {"chat_template_kwargs", "enable_thinking", "reasoning_format", "reasoning_effort"}) {
      if (has(key)) throw bad_param(std::string(key) + " applies to chat requests, not /v1/completions", key);
    }
    return;
  }
  r.template_kwargs = server.chat_template_kwargs;
  r.reasoning_format = server.reasoning_format;
  if (has("chat_template_kwargs")) {
    const json& kw = body["chat_template_kwargs"];
    if (!kw.is_object()) throw bad_param("chat_template_kwargs must be an object", "chat_template_kwargs");
    constexpr size_t kMaxKwargs = 32;
    if (kw.size() > kMaxKwargs) throw bad_param("chat_template_kwargs: at most 32 entries", "chat_template_kwargs");
    for (const auto& [key, value] : kw.items()) {
      check_template_kwarg(key, value);
      r.template_kwargs[key] = value.dump();
    }
  }
  if (const auto it = r.template_kwargs.find("enable_thinking"); it != r.template_kwargs.end()) {
    if (it->second != "true" && it->second != "false") {
      throw bad_param("chat_template_kwargs.enable_thinking must be a boolean", "chat_template_kwargs.enable_thinking");
    }
    r.enable_thinking = it->second == "true";
  }
  if (has("enable_thinking")) {
    if (!body["enable_thinking"].is_boolean()) throw bad_param("enable_thinking must be a boolean", "enable_thinking");
    r.enable_thinking = body["enable_thinking"].get<bool>();
  }
  if (has("reasoning_format")) {
    const json& f = body["reasoning_format"];
    static const std::vector<std::string> kFormats = {"none", "auto", "deepseek", "deepseek-legacy"};
    if (!f.is_string() || std::find(kFormats.begin(), kFormats.end(), f.get<std::string>()) == kFormats.end()) {
      throw bad_param("reasoning_format must be \"none\", \"auto\", \"deepseek\" or \"deepseek-legacy\"",
                      "reasoning_format");
    }
    r.reasoning_format = f.get<std::string>();
  }
  if (api == Api::openai_chat && has("reasoning_effort")) {
    const json& e = body["reasoning_effort"];
    if (!e.is_string()) throw bad_param("reasoning_effort must be a string", "reasoning_effort");
    if (e == "none") {
      r.enable_thinking = false;
    } else {
      check_template_kwarg("reasoning_effort", e);
      r.template_kwargs["reasoning_effort"] = e.dump();
    }
  }
  if (api == Api::anthropic && has("thinking")) {
    const json& t = body["thinking"];
    const std::string type = type_of(t, "thinking");
    if (type != "enabled" && type != "disabled" && type != "adaptive") {
      throw bad_param("thinking.type must be \"enabled\" (with \"budget_tokens\": N), \"disabled\" or \"adaptive\"",
                      "thinking.type");
    }
    // The budget is the API's contract, not enforced here (the template decides what thinking
    // is), but it must be one: a positive integer.
    if (type == "enabled" && (!t.contains("budget_tokens") || !t["budget_tokens"].is_number_integer() ||
                              t["budget_tokens"].get<int64_t>() < 1)) {
      throw bad_param("thinking.budget_tokens must be a positive integer when thinking is enabled",
                      "thinking.budget_tokens");
    }
    r.enable_thinking = type != "disabled";
  }
}

}  // namespace sfcl::server
