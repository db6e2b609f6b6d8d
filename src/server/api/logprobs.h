// OpenAI log-probabilities: the request fields (chat: logprobs + top_logprobs; completions:
// logprobs: N) and the response shapes built from decode::TokenLogprob entries.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>

#include "decode/decode.h"
#include "server/api/types.h"

namespace sfcl::server {

// decode::Options::logprobs for the request: -1 when not asked for. A 400 names the field when a
// value is out of range, or top_logprobs comes without logprobs: true.
int32_t logprobs_of(Api api, const nlohmann::json& body);

// Chat: {"content": [{token, logprob, bytes, top_logprobs}], "refusal": null}.
nlohmann::json chat_logprobs(std::span<const decode::TokenLogprob> entries);
// Completions: {tokens, token_logprobs, top_logprobs, text_offset}; `text_offset` are byte offsets
// into the completion text.
nlohmann::json completion_logprobs(std::span<const decode::TokenLogprob> entries);

}  // namespace sfcl::server
