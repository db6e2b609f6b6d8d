#include "server/app/delivered.h"

#include <algorithm>
#include <cctype>

#include "server/api/signing.h"
#include "server/app/delivered_fields.h"

namespace sfcl::server {

using nlohmann::json;

namespace delivered {

bool only(Delivered& d, const json& j, const std::string& path, std::initializer_list<const char*> keys) {
  if (!j.is_object()) {
    d.unsigned_parts.push_back(path + " is not an object");
    return false;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    if (std::none_of(keys.begin(), keys.end(), [&key](const char* k) { return key == k; })) {
      d.unsigned_parts.push_back(path + "." + key);
    }
  }
  return true;
}

void expect(Delivered& d, const json& j, const char* key, const json& value, const std::string& path) {
  if (j.contains(key) && j[key] != value) d.unsigned_parts.push_back(path + "." + key + " = " + j[key].dump());
}

void fingerprint_at(Delivered& d, const json& j, const std::string& path) {
  if (!j.contains("system_fingerprint")) return;
  const std::string f = string_at(d, j, "system_fingerprint", path);
  const size_t dash = f.find('-');
  const auto all = [](std::string_view s, int (*is)(int)) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [is](char c) { return is(static_cast<unsigned char>(c)) != 0; });
  };
  const bool build_name = f.starts_with('b') && dash != std::string::npos && all(f.substr(1, dash - 1), isdigit) &&
                          all(std::string_view(f).substr(dash + 1), isalnum);
  if (!build_name || (!d.fingerprint.empty() && f != d.fingerprint)) {
    d.unsigned_parts.push_back(path + ".system_fingerprint = " + json(f).dump());
  } else {
    d.fingerprint = f;
  }
}

std::string string_at(Delivered& d, const json& j, const char* key, const std::string& path) {
  if (!j.contains(key)) return {};
  if (!j[key].is_string()) {
    d.unsigned_parts.push_back(path + "." + key + " is not a string");
    return {};
  }
  return j[key].get<std::string>();
}

void check_usage(Delivered& d, const json& usage, bool anthropic, const std::string& path) {
  if (anthropic) {
    only(d, usage, path, {"input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"});
    return;
  }
  if (!only(d, usage, path, {"prompt_tokens", "completion_tokens", "total_tokens", "prompt_tokens_details"})) return;
  if (usage.contains("prompt_tokens_details"))
    only(d, usage["prompt_tokens_details"], path + ".prompt_tokens_details", {"cached_tokens"});
  if (usage.value("total_tokens", json()) !=
      json(usage.value("prompt_tokens", 0) + usage.value("completion_tokens", 0))) {
    d.unsigned_parts.push_back(path + ".total_tokens is not prompt_tokens + completion_tokens");
  }
}

std::string type_of(const json& j) {
  return j.is_object() && j.contains("type") && j["type"].is_string() ? j["type"].get<std::string>() : "";
}

json anthropic_block(Delivered& d, const json& b, const std::string& path) {
  const std::string type = type_of(b);
  if (type == "text" && only(d, b, path, {"type", "text"})) {
    return {{"type", "text"}, {"text", string_at(d, b, "text", path)}};
  }
  if (type == "tool_use" && only(d, b, path, {"type", "id", "name", "input"})) {
    return {{"type", "tool_use"},
            {"id", string_at(d, b, "id", path)},
            {"name", string_at(d, b, "name", path)},
            {"input", b.value("input", json())}};
  }
  if (type == "thinking" && only(d, b, path, {"type", "thinking", "signature"})) {
    expect(d, b, "signature", "", path);  // the server's thinking blocks carry no signature of their own
    return {{"type", "thinking"}, {"thinking", string_at(d, b, "thinking", path)}};
  }
  if (type != "text" && type != "tool_use" && type != "thinking") {
    d.unsigned_parts.push_back(path + " (a block of type \"" + type + "\")");
  }
  return nullptr;
}

void final_sfcl_of(Delivered& d, DeliveredChoice& c, const json& sfcl, const std::string& at) {
  if (!sfcl.is_object() || !sfcl.contains("signature")) {
    d.unsigned_parts.push_back(at + ".sfcl carries no signature");
  } else if (c.sfcl.is_object()) {
    d.unsigned_parts.push_back(at + ".sfcl: a second signed sfcl object");
  } else {
    c.sfcl = sfcl;
  }
}

}  // namespace delivered

namespace {

using namespace delivered;

void read_anthropic(const json& b, Delivered& d) {
  d.anthropic = true;
  only(d, b, "body", {"id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage", "sfcl"});
  expect(d, b, "role", "assistant", "body");
  d.id = string_at(d, b, "id", "body");
  d.model = string_at(d, b, "model", "body");
  DeliveredChoice& c = d.choices.emplace_back();
  c.stop = string_at(d, b, "stop_reason", "body");
  c.stop_sequence = b.value("stop_sequence", json());
  d.usage = b.value("usage", json());
  if (d.usage.is_object()) check_usage(d, d.usage, true, "body.usage");
  c.sfcl = b.value("sfcl", json());
  const json content = b.value("content", json::array());
  if (!content.is_array()) d.unsigned_parts.push_back("body.content is not an array");
  for (size_t i = 0; content.is_array() && i < content.size(); ++i) {
    json block = anthropic_block(d, content[i], "body.content[" + std::to_string(i) + "]");
    if (!block.is_null()) c.blocks.push_back(std::move(block));
  }
}

json openai_message_blocks(Delivered& d, const json& m, const std::string& path) {
  if (!only(d, m, path, {"role", "content", "refusal", "tool_calls", "reasoning_content"})) return json::array();
  expect(d, m, "role", "assistant", path);
  expect(d, m, "refusal", nullptr, path);
  json calls = json::array();
  const json tool_calls = m.value("tool_calls", json::array());
  for (size_t i = 0; tool_calls.is_array() && i < tool_calls.size(); ++i) {
    const std::string at = path + ".tool_calls[" + std::to_string(i) + "]";
    const json& c = tool_calls[i];
    if (!only(d, c, at, {"id", "type", "function"})) continue;
    expect(d, c, "type", "function", at);
    const json fn = c.value("function", json::object());
    only(d, fn, at + ".function", {"name", "arguments"});
    calls.push_back({{"type", "tool_use"},
                     {"id", string_at(d, c, "id", at)},
                     {"name", string_at(d, fn, "name", at + ".function")},
                     {"input", tool_input(string_at(d, fn, "arguments", at + ".function"))}});
  }
  if (!tool_calls.is_array()) d.unsigned_parts.push_back(path + ".tool_calls is not an array");
  const json content = m.value("content", json());
  if (!content.is_null() && !content.is_string()) d.unsigned_parts.push_back(path + ".content is not a string");
  return neutral_blocks(m.value("reasoning_content", json()), content, std::move(calls));
}

// Choice i of a body: its message or text, its finish reason, and its sfcl object. With n > 1 each
// choice carries its own signed sfcl and choice 0's is the top-level one; with n = 1 the top-level
// sfcl is the only one.
void read_openai_choice(const json& b, const json& c, size_t i, const json& top, Delivered& d) {
  const std::string at = "body.choices[" + std::to_string(i) + "]";
  DeliveredChoice& choice = d.choices.emplace_back();
  choice.sfcl = i == 0 ? top : json();
  if (!only(d, c, at, {"index", "message", "text", "logprobs", "finish_reason", "sfcl"})) return;
  if (c.value("index", json()) != json(i)) d.unsigned_parts.push_back(at + ".index is not " + std::to_string(i));
  expect(d, c, "logprobs", nullptr, at);
  choice.stop = string_at(d, c, "finish_reason", at);
  if (c.contains("message") == c.contains("text")) d.unsigned_parts.push_back(at + ": neither a message nor a text");
  if (c.contains("message")) {
    expect(d, b, "object", "chat.completion", "body");
    choice.blocks = openai_message_blocks(d, c["message"], at + ".message");
  } else if (c.contains("text")) {
    expect(d, b, "object", "text_completion", "body");
    choice.blocks.push_back({{"type", "text"}, {"text", string_at(d, c, "text", at)}});
  }
  if (i == 0) {
    if (c.contains("sfcl") && c["sfcl"] != top)
      d.unsigned_parts.push_back(at + ".sfcl differs from the top-level sfcl");
  } else if (!c.contains("sfcl")) {
    d.unsigned_parts.push_back(at + " carries no signed sfcl of its own");
  } else {
    final_sfcl_of(d, choice, c["sfcl"], at);
  }
}

void read_openai(const json& b, Delivered& d) {
  only(d, b, "body", {"id", "object", "created", "model", "system_fingerprint", "choices", "usage", "sfcl"});
  fingerprint_at(d, b, "body");
  d.id = string_at(d, b, "id", "body");
  d.model = string_at(d, b, "model", "body");
  d.created = b.value("created", json());
  d.usage = b.value("usage", json());
  if (d.usage.is_object()) check_usage(d, d.usage, false, "body.usage");
  const json choices = b.value("choices", json::array());
  if (!choices.is_array() || choices.empty()) {
    d.unsigned_parts.push_back("body.choices: no choice 0");
    d.choices.emplace_back();
    return;
  }
  const json top = b.value("sfcl", json());
  for (size_t i = 0; i < choices.size(); ++i) read_openai_choice(b, choices[i], i, top, d);
}

}  // namespace

Delivered read_delivered(const std::string& body) {
  Delivered d;
  const json parsed = json::parse(body, nullptr, false);
  d.stream = !parsed.is_object();
  try {
    if (d.stream) {
      delivered::read_stream(body, d);
    } else if (parsed.value("type", json()) == "message") {
      read_anthropic(parsed, d);
    } else {
      read_openai(parsed, d);
    }
  } catch (const json::exception& e) {
    // A field of an unexpected JSON type: nothing the server writes, so nothing it signed.
    d.unsigned_parts.push_back(std::string("a field of another type than the server writes (") + e.what() + ")");
  }
  if (d.choices.empty()) d.choices.emplace_back();  // nothing read: choice 0 has no blocks
  return d;
}

}  // namespace sfcl::server
