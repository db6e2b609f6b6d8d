#include "server/api/params.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace sfcl::server {

using nlohmann::json;

ApiError bad_param(const std::string& message, const std::string& param) {
  return {400, "invalid_request_error", message, param};
}

int64_t integer_in(const json& body, const char* key, int64_t lo, int64_t hi, int64_t fallback,
                   const std::string& prefix) {
  if (!body.contains(key) || body[key].is_null()) return fallback;
  const json& v = body[key];
  const std::string name = prefix + key;
  const std::string range = " from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (!v.is_number_integer()) throw bad_param(name + " must be an integer" + range, name);
  // Unsigned values above INT64_MAX must not wrap to negatives on the way to int64_t.
  const bool above = v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(hi);
  if (above || v.get<int64_t>() < lo || v.get<int64_t>() > hi) {
    throw bad_param(name + " is " + v.dump() + "; it must be an integer" + range, name);
  }
  return v.get<int64_t>();
}

double option_value(const json& body, const char* key, util::OptionKind kind, double lo, double hi,
                    const std::string& prefix) {
  const json& v = body[key];
  const std::string name = prefix + key;
  switch (kind) {
    case util::OptionKind::number: {
      if (!v.is_number()) throw bad_param(name + " must be a number", name);
      const double x = v.get<double>();
      char range[64];
      std::snprintf(range, sizeof range, " from %g to %g", lo, hi);
      if (x < lo || x > hi) throw bad_param(name + " is " + v.dump() + "; it must be a number" + range, name);
      return x;
    }
    case util::OptionKind::integer:
      return static_cast<double>(integer_in(body, key, static_cast<int64_t>(lo), static_cast<int64_t>(hi), 0, prefix));
    case util::OptionKind::boolean:
      if (!v.is_boolean()) throw bad_param(name + " must be a boolean", name);
      return v.get<bool>() ? 1.0 : 0.0;
    case util::OptionKind::choice:
      break;
  }
  throw std::logic_error("option_value: a choice");
}

void bad_choice(std::span<const std::string_view> choices, const std::string& name) {
  std::string names;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) names += i + 1 == choices.size() ? " or " : ", ";
    names.append(1, '"').append(choices[i]).append(1, '"');
  }
  throw bad_param(name + " must be " + names, name);
}

void check_text(const std::string& text, const std::string& where) {
  if (text.find('\0') != std::string::npos) {
    throw bad_param(where + " contains a NUL character (\\u0000), which this server does not accept in text", where);
  }
}

namespace {

float bias_value(const json& b, const std::string& name) {
  if (b.is_boolean() && !b.get<bool>()) return -std::numeric_limits<float>::infinity();
  if (!b.is_number() || b.get<double>() < -100.0 || b.get<double>() > 100.0) {
    throw bad_param(name + " must be a number from -100 to 100, or false to ban the token", name);
  }
  return static_cast<float>(b.get<double>());
}

// Text whose tokens get the bias (llama-server tokenises any string of the array form).
void add_text_bias(LogitBias& out, const std::string& key, float bias, const std::string& name) {
  constexpr size_t kMaxText = 256;
  if (key.empty() || key.size() > kMaxText) {
    throw bad_param(name + ": a token id, or a text of 1 to 256 bytes whose tokens get the bias", name);
  }
  check_text(key, name);
  out.texts.emplace_back(key, bias);
}

// An object key of digits is a token id (OpenAI's form); any other is text.
void add_bias(LogitBias& out, const std::string& key, float bias, const std::string& name) {
  const bool digits = !key.empty() && key.size() <= 9 && key.find_first_not_of("0123456789") == std::string::npos;
  if (digits) {
    out.ids.emplace_back(static_cast<engine::Token>(std::stol(key)), bias);
  } else {
    add_text_bias(out, key, bias, name);
  }
}

}  // namespace

LogitBias logit_bias_of(const json& value) {
  LogitBias out;
  if (value.is_null()) return out;
  constexpr size_t kMaxEntries = 1024;
  if (value.size() > kMaxEntries) {
    throw bad_param(
        "logit_bias has " + std::to_string(value.size()) + " entries; at most " + std::to_string(kMaxEntries),
        "logit_bias");
  }
  if (value.is_object()) {
    for (const auto& [key, bias] : value.items())
      add_bias(out, key, bias_value(bias, "logit_bias." + key), "logit_bias");
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      const json& pair = value[i];
      const std::string name = "logit_bias[" + std::to_string(i) + "]";
      const bool id = pair.is_array() && pair.size() == 2 && pair[0].is_number_integer() &&
                      pair[0].get<int64_t>() >= 0 && pair[0].get<int64_t>() <= 999999999;
      const bool text = pair.is_array() && pair.size() == 2 && pair[0].is_string();
      if (!id && !text) throw bad_param(name + " must be [token id, bias] or [text, bias]", name);
      if (id) {
        out.ids.emplace_back(pair[0].get<engine::Token>(), bias_value(pair[1], name));
      } else {
        add_text_bias(out, pair[0].get<std::string>(), bias_value(pair[1], name), name);
      }
    }
  } else {
    throw bad_param("logit_bias must be an object {\"token id\": bias} or an array of [token id, bias]", "logit_bias");
  }
  return out;
}

std::vector<LoraScale> lora_of(const json& value, const std::string& param) {
  std::vector<LoraScale> out;
  if (value.is_null()) return out;
  constexpr size_t kMaxEntries = 64;
  if (!value.is_array()) throw bad_param(param + " must be an array of {\"id\": N, \"scale\": X}", param);
  if (value.size() > kMaxEntries) {
    throw bad_param(param + " has " + std::to_string(value.size()) + " entries; at most " + std::to_string(kMaxEntries),
                    param);
  }
  for (size_t i = 0; i < value.size(); ++i) {
    const json& e = value[i];
    const std::string name = param + "[" + std::to_string(i) + "]";
    if (!e.is_object() || !e.contains("id") || !e["id"].is_number_integer() || e["id"].get<int64_t>() < 0 ||
        e["id"].get<int64_t>() > 1000000) {
      throw bad_param(name + ".id must be an adapter's id, an integer from 0 (GET /lora-adapters lists them)",
                      name + ".id");
    }
    if (!e.contains("scale") || !e["scale"].is_number() || !std::isfinite(e["scale"].get<double>()) ||
        std::abs(e["scale"].get<double>()) > 1e6) {
      throw bad_param(name + ".scale must be a finite number", name + ".scale");
    }
    out.push_back({e["id"].get<int32_t>(), e["scale"].get<float>()});
  }
  return out;
}

std::string type_of(const json& o, const std::string& where) {
  if (!o.is_object() || !o.contains("type") || o["type"].is_null()) return {};
  if (!o["type"].is_string()) throw bad_param(where + ".type must be a string", where + ".type");
  return o["type"].get<std::string>();
}

bool include_usage_of(const json& body) {
  if (!body.contains("stream_options") || body["stream_options"].is_null()) return false;
  const json& so = body["stream_options"];
  if (!so.is_object()) throw bad_param("stream_options must be an object", "stream_options");
  for (const auto& [key, v] : so.items()) {
    if (key != "include_usage" && key != "include_obfuscation") {
      throw bad_param(
          "unknown parameter 'stream_options." + key + "' (stream_options takes include_usage and include_obfuscation)",
          "stream_options." + key);
    }
    if (!v.is_null() && !v.is_boolean())
      throw bad_param("stream_options." + key + " must be a boolean", "stream_options." + key);
  }
  if (!so.contains("include_usage") || so["include_usage"].is_null()) return false;
  return so["include_usage"].get<bool>();
}

namespace {

bool is_set(const json& body, const char* key) { return body.contains(key) && !body[key].is_null(); }

[[noreturn]] void refuse(const std::string& key, const std::string& why) {
  throw bad_param(key + " is not supported by this server" + why, key);
}

// Anthropic: {"user_id": string}; OpenAI: at most 16 string values (keys up to 64 bytes, values up
// to 512), as each API documents it.
void check_metadata(Api api, const json& body) {
  if (!is_set(body, "metadata")) return;
  const json& m = body["metadata"];
  if (!m.is_object()) throw bad_param("metadata must be an object", "metadata");
  if (api == Api::anthropic) {
    for (const auto& [key, v] : m.items()) {
      if (key != "user_id")
        throw bad_param("metadata." + key + ": only metadata.user_id is accepted", "metadata." + key);
      if (!v.is_null() && (!v.is_string() || v.get<std::string>().size() > 256)) {
        throw bad_param("metadata.user_id must be a string of at most 256 bytes", "metadata.user_id");
      }
    }
    return;
  }
  if (m.size() > 16) throw bad_param("metadata: at most 16 keys", "metadata");
  for (const auto& [key, v] : m.items()) {
    if (key.size() > 64) throw bad_param("metadata keys are at most 64 bytes", "metadata");
    if (!v.is_string() || v.get<std::string>().size() > 512) {
      throw bad_param("metadata." + key + " must be a string of at most 512 bytes", "metadata." + key);
    }
  }
}

// A string field whose value is one of `values`.
void check_one_of(const json& body, const char* key, std::initializer_list<std::string_view> values) {
  if (!is_set(body, key)) return;
  const json& v = body[key];
  if (v.is_string() && std::find(values.begin(), values.end(), v.get_ref<const std::string&>()) != values.end()) {
    return;
  }
  std::string list;
  for (const std::string_view value : values) list += (list.empty() ? "\"" : ", \"") + std::string(value) + "\"";
  throw bad_param(std::string(key) + " must be one of " + list, key);
}

// llama-server's add_generation_prompt and continue_final_message. sfcl continues a final assistant
// message (no generation prompt after it) and otherwise opens the assistant's turn, so each is taken
// where it says what sfcl does and refused where it asks for another prompt; both true is a
// contradiction (llama-server's 400 too).
void check_continuation(const json& body) {
  for (const char* key : {"add_generation_prompt", "continue_final_message"}) {
    if (is_set(body, key) && !body[key].is_boolean()) throw bad_param(std::string(key) + " must be a boolean", key);
  }
  const json& msgs = body.contains("messages") ? body["messages"] : json();
  const bool final_assistant =
      msgs.is_array() && !msgs.empty() && msgs.back().is_object() && msgs.back().value("role", json()) == "assistant";
  const auto given = [&](const char* key, bool value) { return is_set(body, key) && body[key] == value; };
  // As llama-server: add_generation_prompt defaults to true, so continuing needs it set to false.
  if (given("continue_final_message", true) && !given("add_generation_prompt", false)) {
    throw bad_param("continue_final_message needs add_generation_prompt: false (both true is a contradiction)",
                    "continue_final_message");
  }
  if (given("continue_final_message", true) && !final_assistant) {
    throw bad_param("continue_final_message: the last message must be the assistant's, to be continued",
                    "continue_final_message");
  }
  if (given("add_generation_prompt", false) && !final_assistant) {
    refuse("add_generation_prompt", " (false only with a final assistant message, which is continued)");
  }
  if (given("continue_final_message", false) && final_assistant) {
    refuse("continue_final_message", " (a final assistant message is always continued)");
  }
}

// The hints sfcl accepts and ignores still have the types and values each API documents: a wrong
// one is a client's bug, which the official APIs answer with 400 as well.
void check_hints(Api api, const json& body) {
  if (api == Api::anthropic) {
    check_one_of(body, "service_tier", {"auto", "standard_only"});
    return;
  }
  check_one_of(body, "service_tier", {"auto", "default", "flex", "scale", "priority"});
  check_one_of(body, "reasoning_effort", {"none", "minimal", "low", "medium", "high", "xhigh"});
  if (api == Api::openai_chat) check_one_of(body, "verbosity", {"low", "medium", "high"});
  for (const char* key : {"user", "prompt_cache_key", "safety_identifier"}) {
    if (is_set(body, key) && !body[key].is_string()) throw bad_param(std::string(key) + " must be a string", key);
  }
  if (is_set(body, "store") && !body["store"].is_boolean()) throw bad_param("store must be a boolean", "store");
}

// llama-server's samplers sfcl does not have: accepted at the value that turns each off (what
// llama.cpp's web UI sends), refused otherwise. Their tuning fields are then inert and pass.
void refuse_other_samplers(const json& body) {
  struct Off {
    const char* key;
    double off;
  };
  for (const Off& s :
       {Off{"dynatemp_range", 0.0}, Off{"mirostat", 0.0}, Off{"typical_p", 1.0}, Off{"repeat_penalty", 1.0},
        Off{"dry_multiplier", 0.0}, Off{"xtc_probability", 0.0}, Off{"n_probs", 0.0}, Off{"min_keep", 0.0}}) {
    if (is_set(body, s.key) && (!body[s.key].is_number() || body[s.key].get<double>() != s.off)) {
      refuse(s.key, " (only " + json(s.off).dump() + ": that sampler is off here)");
    }
  }
  for (const char* key : {"top_n_sigma", "adaptive_target"}) {  // negative = off
    if (is_set(body, key) && (!body[key].is_number() || body[key].get<double>() >= 0.0)) {
      refuse(key, " (only a negative value: that sampler is off here)");
    }
  }
  if (is_set(body, "echo") && body["echo"] != false) refuse("echo", " (the prompt is not repeated in the answer)");
  for (const char* key : {"n_indent", "t_max_prompt_ms", "t_max_predict_ms", "n_cmpl", "n_cache_reuse"}) {
    if (is_set(body, key) && body[key] != 0 && body[key] != -1) refuse(key, "");
  }
  for (const char* key : {"post_sampling_probs", "return_tokens"}) {
    if (is_set(body, key) && body[key] != false) refuse(key, " (no per-token output yet)");
  }
  // /completion takes response_fields out before this (server/api/request.cpp).
  if (is_set(body, "response_fields")) refuse("response_fields", " (llama-server's /completion takes it)");
  for (const char* key :
       {"reasoning_budget_tokens", "reasoning_budget_message", "reasoning_control", "thinking_budget_tokens"}) {
    if (is_set(body, key)) refuse(key, "");
  }
  check_continuation(body);
}

}  // namespace

void refuse_unsupported(Api api, const json& body) {
  refuse_unknown_fields(api, body);
  check_metadata(api, body);
  check_hints(api, body);
  refuse_other_samplers(body);
  if (api == Api::anthropic) {
    for (const char* key : {"container", "mcp_servers", "context_management"}) {
      if (is_set(body, key)) refuse(key, "");
    }
    return;
  }
  if (api == Api::openai_completions) {
    if (is_set(body, "best_of") && body["best_of"] != 1) refuse("best_of", " (only 1)");
    if (is_set(body, "suffix")) refuse("suffix", " (no fill-in-the-middle)");
  }
  for (const char* key : {"presence_penalty", "frequency_penalty"}) {
    if (is_set(body, key) && body[key] != 0) refuse(key, " (only 0)");
  }
  for (const char* key : {"audio", "prediction", "web_search_options", "functions", "function_call"}) {
    if (is_set(body, key)) refuse(key, "");
  }
  if (is_set(body, "modalities") && body["modalities"] != json::array({"text"})) refuse("modalities", " (text only)");
}

namespace {
constexpr int32_t kMaxChoices = 128;
}  // namespace

int32_t choices_of(const json& body, const ServerOptions& server) {
  const int32_t cap = std::clamp(server.scheduler.n_parallel * kChoicesPerSlot, 1, kMaxChoices);
  const int64_t n = integer_in(body, "n", 1, kMaxChoices, 1);
  if (n > cap) {
    throw bad_param("n: at most " + std::to_string(cap) + " choices per request on this server (" +
                        std::to_string(server.scheduler.n_parallel) + " slots x " + std::to_string(kChoicesPerSlot) +
                        ")",
                    "n");
  }
  return static_cast<int32_t>(n);
}

}  // namespace sfcl::server
