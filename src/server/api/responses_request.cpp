// Request side of the OpenAI Responses API (POST /v1/responses): its body is read into the chat
// completions body it stands for, then parsed as one (one parser for every API). The input
// items become messages (function calls and their outputs become tool calls and "tool"
// messages), instructions the system message, text.format the response_format, tools the chat
// tools. What needs stored responses (previous_response_id, conversation, item references) or
// built-in tools is refused by name: sfcl keeps no responses (docs/API.md, "Responses API").
#include "server/api/params.h"
#include "server/api/responses.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

bool present(const json& body, const char* key) { return body.contains(key) && !body[key].is_null(); }

std::string string_of(const json& o, const char* key, const std::string& where) {
  const std::string name = where + "." + key;
  if (!present(o, key)) throw bad_param(name + ": field required", name);
  if (!o[key].is_string()) throw bad_param(name + " must be a string", name);
  return o[key].get<std::string>();
}

// A message item's content: a string, or input_text / output_text parts (text only).
json content_of(const json& content, const std::string& where) {
  if (content.is_string()) return content;
  if (!content.is_array()) throw bad_param(where + " must be a string or an array of content parts", where);
  json parts = json::array();
  for (size_t i = 0; i < content.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    const std::string type = type_of(content[i], at);
    if (type == "input_text" || type == "output_text" || type == "text") {
      parts.push_back({{"type", "text"}, {"text", string_of(content[i], "text", at)}});
    } else if (type == "refusal") {
      parts.push_back({{"type", "text"}, {"text", string_of(content[i], "refusal", at)}});
    } else {
      throw bad_param(at + ": content part type \"" + type + "\" is not supported (this server reads text only)",
                      at + ".type");
    }
  }
  return parts;
}

// A function_call_output's output: a string, or input_text parts.
json output_of(const json& item, const std::string& where) {
  const std::string at = where + ".output";
  if (!present(item, "output")) throw bad_param(at + ": field required", at);
  const json& o = item["output"];
  if (o.is_string()) return o;
  if (!o.is_array()) throw bad_param(at + " must be a string or an array of input_text parts", at);
  std::string text;
  for (size_t i = 0; i < o.size(); ++i) {
    const std::string part = at + "[" + std::to_string(i) + "]";
    if (type_of(o[i], part) != "input_text") {
      throw bad_param(part + ": only input_text parts are supported in a function call's output", part);
    }
    text += string_of(o[i], "text", part);
  }
  return text;
}

void add_message(json& messages, const json& item, const std::string& where) {
  const std::string role = string_of(item, "role", where);
  if (role != "user" && role != "system" && role != "developer" && role != "assistant") {
    throw bad_param(where + ".role: must be user, system, developer or assistant", where + ".role");
  }
  if (!item.contains("content")) throw bad_param(where + ".content: field required", where + ".content");
  messages.push_back({{"role", role}, {"content", content_of(item["content"], where + ".content")}});
}

// Calls made in a row (and the assistant text just before them) are one assistant turn.
void add_function_call(json& messages, const json& item, const std::string& where) {
  const json call = {
      {"id", string_of(item, "call_id", where)},
      {"type", "function"},
      {"function", {{"name", string_of(item, "name", where)}, {"arguments", string_of(item, "arguments", where)}}}};
  if (!messages.empty() && messages.back()["role"] == "assistant") {
    json& last = messages.back();
    if (!last.contains("tool_calls")) last["tool_calls"] = json::array();
    last["tool_calls"].push_back(call);
    return;
  }
  messages.push_back({{"role", "assistant"}, {"content", nullptr}, {"tool_calls", json::array({call})}});
}

void add_input(json& messages, const json& input) {
  if (input.is_string()) {
    messages.push_back({{"role", "user"}, {"content", input}});
    return;
  }
  if (!input.is_array()) throw bad_param("input must be a string or an array of input items", "input");
  if (input.empty()) throw bad_param("input: at least one item is required", "input");
  for (size_t i = 0; i < input.size(); ++i) {
    const std::string where = "input[" + std::to_string(i) + "]";
    const json& item = input[i];
    if (!item.is_object()) throw bad_param(where + " must be an object", where);
    std::string type = type_of(item, where);
    if (type.empty() && item.contains("role")) type = "message";
    if (type == "message") {
      add_message(messages, item, where);
    } else if (type == "function_call") {
      add_function_call(messages, item, where);
    } else if (type == "function_call_output") {
      messages.push_back(
          {{"role", "tool"}, {"tool_call_id", string_of(item, "call_id", where)}, {"content", output_of(item, where)}});
    } else if (type == "reasoning") {
      continue;  // earlier reasoning is not part of the prompt (as Anthropic thinking blocks)
    } else if (type == "item_reference") {
      throw bad_param(where + ": item references need stored responses; this server stores none (send the items)",
                      where);
    } else {
      throw bad_param(where + ": input item type \"" + type + "\" is not supported (message, function_call, " +
                          "function_call_output and reasoning are)",
                      where + ".type");
    }
  }
}

json tools_of(const json& tools) {
  if (!tools.is_array()) throw bad_param("tools must be an array", "tools");
  json out = json::array();
  for (size_t i = 0; i < tools.size(); ++i) {
    const std::string where = "tools[" + std::to_string(i) + "]";
    const json& t = tools[i];
    if (!t.is_object()) throw bad_param(where + " must be an object", where);
    const std::string type = type_of(t, where);
    if (type != "function") {
      throw bad_param(where + ": tool type \"" + type + "\" is not supported (function tools only: this server " +
                          "runs no built-in tools)",
                      where + ".type");
    }
    json fn = {{"name", string_of(t, "name", where)}};
    for (const char* key : {"description", "parameters", "strict"}) {
      if (present(t, key)) fn[key] = t[key];
    }
    out.push_back({{"type", "function"}, {"function", std::move(fn)}});
  }
  return out;
}

json tool_choice_of(const json& c) {
  if (c.is_string()) return c;  // auto, none, required: the chat parser checks the word
  if (!c.is_object()) throw bad_param("tool_choice must be a string or an object", "tool_choice");
  const std::string type = type_of(c, "tool_choice");
  if (type != "function") {
    throw bad_param("tool_choice: type \"" + type + "\" is not supported (\"function\" with a name is)",
                    "tool_choice.type");
  }
  return {{"type", "function"}, {"function", {{"name", string_of(c, "name", "tool_choice")}}}};
}

// text: {format: {type: text | json_object | json_schema, ...}, verbosity}.
void text_options(const json& text, json& chat) {
  if (!text.is_object()) throw bad_param("text must be an object", "text");
  refuse_unknown_fields(text, {"format", "verbosity"});
  if (present(text, "verbosity")) chat["verbosity"] = text["verbosity"];
  if (!present(text, "format")) return;
  const json& f = text["format"];
  const std::string type = type_of(f, "text.format");
  if (type == "json_schema") {
    json schema = {{"name", f.contains("name") ? f["name"] : json("response")}};
    for (const char* key : {"schema", "strict", "description"}) {
      if (present(f, key)) schema[key] = f[key];
    }
    chat["response_format"] = {{"type", "json_schema"}, {"json_schema", std::move(schema)}};
  } else if (type == "json_object") {
    chat["response_format"] = {{"type", "json_object"}};
  } else if (type != "text") {
    throw bad_param("text.format.type must be \"text\", \"json_object\" or \"json_schema\"", "text.format.type");
  }
}

// Fields that need stored state or a feature this server does not have: refused unless null
// or neutral.
void refuse_stateful(const json& body) {
  for (const char* key : {"previous_response_id", "conversation"}) {
    if (present(body, key)) {
      throw bad_param(
          std::string(key) + " needs stored responses; this server stores none (send the whole conversation in input)",
          key);
    }
  }
  if (present(body, "background") && body["background"] != false) {
    throw bad_param("background responses are not supported (they need stored responses)", "background");
  }
  if (present(body, "prompt")) throw bad_param("prompt templates are not supported (send input)", "prompt");
  if (present(body, "truncation") && body["truncation"] != "disabled") {
    throw bad_param("truncation \"auto\" is not supported: an input over the context is a 400 (\"disabled\")",
                    "truncation");
  }
  if (present(body, "top_logprobs") && body["top_logprobs"] != 0) {
    throw bad_param("top_logprobs is not supported on /v1/responses (use /v1/chat/completions)", "top_logprobs");
  }
  if (present(body, "store") && !body["store"].is_boolean()) throw bad_param("store must be a boolean", "store");
}

}  // namespace

json responses_to_chat(const json& body, const ServerOptions& server) {
  if (!body.is_object()) throw bad_param("the request body must be a JSON object");
  refuse_unknown_fields(Api::openai_responses, body);
  refuse_stateful(body);
  json chat = json::object();
  json messages = json::array();
  if (present(body, "instructions")) {
    if (!body["instructions"].is_string()) throw bad_param("instructions must be a string", "instructions");
    messages.push_back({{"role", "system"}, {"content", body["instructions"]}});
  }
  if (!present(body, "input")) throw bad_param("input: field required", "input");
  add_input(messages, body["input"]);
  chat["messages"] = std::move(messages);
  if (present(body, "max_output_tokens")) {
    chat["max_tokens"] = integer_in(body, "max_output_tokens", 1, server.max_tokens_limit, 1);
  }
  if (present(body, "tools")) chat["tools"] = tools_of(body["tools"]);
  if (present(body, "tool_choice")) chat["tool_choice"] = tool_choice_of(body["tool_choice"]);
  if (present(body, "text")) text_options(body["text"], chat);
  if (present(body, "reasoning")) {
    const json& r = body["reasoning"];
    if (!r.is_object()) throw bad_param("reasoning must be an object", "reasoning");
    refuse_unknown_fields(r, {"effort", "summary", "generate_summary", "context"});
    if (present(r, "effort")) chat["reasoning_effort"] = r["effort"];
  }
  // The same meaning on both APIs, and llama-server's and sfcl's own fields: read by the chat parser.
  static const std::vector<std::string_view> kShared = {
      "model", "temperature", "top_p",        "stream",           "parallel_tool_calls",
      "user",  "metadata",    "service_tier", "prompt_cache_key", "safety_identifier"};
  for (const auto& [key, value] : body.items()) {
    if (std::find(kShared.begin(), kShared.end(), key) != kShared.end() || responses_passes_through(key)) {
      chat[key] = value;
    }
  }
  return chat;
}

}  // namespace sfcl::server
