// Every request field each endpoint knows (the official OpenAI and Anthropic APIs, llama-server's
// own, sfcl's): a field outside these lists is a 400 naming it, so a typo ("max_tokenz") is not
// silently ignored. Which known fields are supported, accepted and ignored, or refused is in the
// README's field table; refuse_unsupported (params.cpp) refuses the unimplemented ones by name.
#include <algorithm>
#include <array>
#include <string_view>

#include "server/api/params.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

using Names = std::vector<std::string_view>;

// llama-server's request fields that sfcl implements or accepts, on every generation endpoint.
const Names kLlamaServer = {
    // supported
    "logit_bias", "json_schema", "grammar", "n_predict", "id_slot", "return_progress", "timings_per_token",
    // accepted and ignored: sfcl always reuses the KV prefix, sends its own pings, and samples on
    // the CPU
    "cache_prompt", "sse_ping_interval", "backend_sampling", "verbose",
    // known, refused unless neutral by refuse_unsupported
    "dynatemp_range", "dynatemp_exponent", "mirostat", "mirostat_tau", "mirostat_eta", "typical_p", "repeat_penalty",
    "repeat_last_n", "dry_multiplier", "dry_base", "dry_allowed_length", "dry_penalty_last_n", "dry_sequence_breakers",
    "xtc_probability", "xtc_threshold", "top_n_sigma", "min_keep", "n_keep", "n_discard", "ignore_eos", "n_probs",
    "samplers", "lora", "adaptive_target", "adaptive_decay", "n_indent", "t_max_prompt_ms", "t_max_predict_ms",
    "post_sampling_probs", "return_tokens", "response_fields", "echo", "n_cmpl", "n_cache_reuse",
    "reasoning_budget_tokens", "reasoning_budget_message", "reasoning_control", "thinking_budget_tokens"};

// OpenAI chat completions, llama-server's chat additions, and sfcl.
const Names kOpenAIChat = {"model", "messages", "max_tokens", "max_completion_tokens", "n", "stream", "stream_options",
                           "stop", "tools", "tool_choice", "parallel_tool_calls", "response_format", "reasoning_effort",
                           // accepted and ignored (hints that do not change the answer)
                           "user", "store", "metadata", "service_tier", "prompt_cache_key", "safety_identifier",
                           "verbosity",
                           // refused by refuse_unsupported unless neutral
                           "frequency_penalty", "presence_penalty", "logprobs", "top_logprobs", "audio", "modalities",
                           "prediction", "web_search_options", "functions", "function_call",
                           // llama-server's chat fields
                           "chat_template_kwargs", "enable_thinking", "reasoning_format", "add_generation_prompt",
                           "continue_final_message", "sfcl"};

// OpenAI Responses (POST /v1/responses: server/api/responses_request.cpp), with llama-server's chat
// fields and sfcl's.
const Names kOpenAIResponses = {"model", "input", "instructions", "max_output_tokens", "stream", "tools", "tool_choice",
                                "parallel_tool_calls", "text", "reasoning",
                                // accepted and ignored (hints, and options of OpenAI's storage and built-in tools)
                                "store", "metadata", "user", "safety_identifier", "prompt_cache_key",
                                "prompt_cache_retention", "prompt_cache_options", "service_tier", "include",
                                "stream_options", "max_tool_calls", "context_management", "moderation",
                                // refused unless neutral (they need stored responses)
                                "previous_response_id", "conversation", "background", "prompt", "truncation",
                                "top_logprobs",
                                // llama-server's chat fields
                                "chat_template_kwargs", "enable_thinking", "reasoning_format", "sfcl"};

// OpenAI legacy completions (chat-only fields are known so that their own 400 says where they go).
const Names kOpenAICompletions = {"model",
                                  "prompt",
                                  "max_tokens",
                                  "max_completion_tokens",
                                  "n",
                                  "stream",
                                  "stream_options",
                                  "stop",
                                  "user",
                                  "store",
                                  "metadata",
                                  "service_tier",
                                  "frequency_penalty",
                                  "presence_penalty",
                                  "logprobs",
                                  "top_logprobs",
                                  "echo",
                                  "best_of",
                                  "suffix",
                                  "tools",
                                  "tool_choice",
                                  "response_format",
                                  "chat_template_kwargs",
                                  "enable_thinking",
                                  "reasoning_format",
                                  "reasoning_effort",
                                  "sfcl"};

// Anthropic Messages (count_tokens takes the same body: a request's body counts as it would run).
const Names kAnthropic = {"model",
                          "messages",
                          "max_tokens",
                          "system",
                          "stop_sequences",
                          "stream",
                          "metadata",
                          "tools",
                          "tool_choice",
                          "thinking",
                          "service_tier",
                          "container",
                          "mcp_servers",
                          "context_management",
                          "response_format",
                          "chat_template_kwargs",
                          "enable_thinking",
                          "reasoning_format",
                          "sfcl"};

// The sampling fields every dialect takes (engine::sampling_options(): the official APIs'
// temperature and top_p, llama-server's top_k, min_p and seed).
const Names kSampling = [] {
  Names names;
  for (const engine::SamplingOption& option : engine::sampling_options()) names.push_back(option.field);
  return names;
}();

// A request's "sfcl" object: the check options' fields (decode::check_options()) and the server's
// own (parse_sfcl in request.cpp).
const Names kSfcl = [] {
  Names names;
  for (const decode::CheckOption& option : decode::check_options()) names.push_back(option.field);
  names.insert(names.end(), {"events", "abstain_marker", "sources"});
  return names;
}();

// Levenshtein distance, for the "did you mean" of a typo.
size_t distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

[[noreturn]] void unknown(const std::string& key, const std::string& prefix, const std::vector<const Names*>& lists) {
  std::string_view best;
  size_t best_distance = 3;  // two edits at most
  for (const Names* names : lists) {
    for (const auto name : *names) {
      const size_t d = distance(key, name);
      if (d < best_distance) {
        best_distance = d;
        best = name;
      }
    }
  }
  const std::string name = prefix + key;
  // The name as JSON escapes it: a control character (a NUL) would end the message early.
  std::string shown;
  for (const char c : name) {
    if (static_cast<unsigned char>(c) < 0x20) {
      constexpr std::string_view kHex = "0123456789abcdef";
      shown.append("\\u00").push_back(kHex[static_cast<unsigned char>(c) >> 4]);
      shown.push_back(kHex[static_cast<unsigned char>(c) & 0xF]);
    } else {
      shown.push_back(c);
    }
  }
  std::string message = "unknown parameter '" + shown + "'";
  if (!best.empty()) message += " (did you mean '" + prefix + std::string(best) + "'?)";
  throw bad_param(message, name);
}

void check_names(const json& body, const std::vector<const Names*>& lists, const std::string& prefix) {
  for (const auto& [key, value] : body.items()) {
    const bool known = std::any_of(lists.begin(), lists.end(), [&key = key](const Names* names) {
      return std::find(names->begin(), names->end(), key) != names->end();
    });
    if (!known) unknown(key, prefix, lists);
  }
}

}  // namespace

void refuse_unknown_fields(Api api, const json& body) {
  if (!body.is_object()) return;
  switch (api) {
    case Api::anthropic:
      check_names(body, {&kAnthropic, &kSampling, &kLlamaServer}, "");
      break;
    case Api::openai_chat:
      check_names(body, {&kOpenAIChat, &kSampling, &kLlamaServer}, "");
      break;
    case Api::openai_completions:
    case Api::llama_completion:
      check_names(body, {&kOpenAICompletions, &kSampling, &kLlamaServer}, "");
      break;
    case Api::openai_responses:
      check_names(body, {&kOpenAIResponses, &kSampling, &kLlamaServer}, "");
      break;
  }
  if (body.contains("sfcl") && body["sfcl"].is_object()) check_names(body["sfcl"], {&kSfcl}, "sfcl.");
}

std::span<const std::string_view> sfcl_option_names() { return kSfcl; }

bool responses_passes_through(std::string_view key) {
  static const Names kChatOwn = {"chat_template_kwargs", "enable_thinking", "reasoning_format", "sfcl"};
  return std::find(kLlamaServer.begin(), kLlamaServer.end(), key) != kLlamaServer.end() ||
         std::find(kSampling.begin(), kSampling.end(), key) != kSampling.end() ||
         std::find(kChatOwn.begin(), kChatOwn.end(), key) != kChatOwn.end();
}

void refuse_unknown_fields(const json& body, const std::vector<std::string_view>& known) {
  if (body.is_object()) check_names(body, {&known}, "");
}

}  // namespace sfcl::server
