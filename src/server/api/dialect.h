// One API dialect (Anthropic Messages, OpenAI chat, OpenAI completions, OpenAI Responses): how its responses,
// stream chunks, usage and errors look. Everything API-specific the routes need goes through it.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "decode/decode.h"
#include "server/api/types.h"

namespace sfcl::server {

struct ReplyShape;
struct ToolStream;

// What identifies one response across its stream chunks.
struct ResponseInfo {
  std::string id;
  std::string model;
  int64_t created = 0;
  bool include_usage = false;                 // OpenAI streams: a final usage chunk (stream_options.include_usage)
  std::shared_ptr<const ReplyShape> shape{};  // set for tools: text and tool calls as blocks (server/api/tools.h)
  int32_t choice = 0;                         // OpenAI n > 1: this choice's index (server/app/choices.h)
  bool more_choices = false;                  // n > 1: stream_close leaves the stream's end to stream_end
  std::shared_ptr<ToolStream> tool_stream{};  // streams with tools: what went out (server/api/tool_stream.h)
  bool timings = false;                       // llama-server's timings_per_token: the stream's end carries timings
  // llama-server's /completion: the request's generation_settings (llama_generation_settings).
  std::shared_ptr<const nlohmann::json> settings{};
};

// Which error type each situation gets in the dialect's error shape.
struct ErrorTypes {
  const char* server;       // the engine failed (500)
  const char* unavailable;  // loading or draining (503)
  const char* auth;         // missing or wrong API key (401)
  const char* too_large;    // body over --max-body (413)
};

class Dialect {
 public:
  virtual ~Dialect() = default;
  [[nodiscard]] virtual const char* id_prefix() const = 0;
  [[nodiscard]] virtual const ErrorTypes& errors() const = 0;
  [[nodiscard]] virtual nlohmann::json error_body(const ApiError& e) const = 0;
  [[nodiscard]] virtual nlohmann::json usage(const decode::Result& r, int32_t cached_tokens) const = 0;
  // The non-stream response, without its "sfcl" object.
  [[nodiscard]] virtual nlohmann::json response(const ResponseInfo& info, const decode::Result& r,
                                                int32_t cached_tokens) const = 0;
  // Stream pieces, each one or more complete SSE messages.
  [[nodiscard]] virtual std::string stream_open(const ResponseInfo& info, int32_t prompt_tokens,
                                                int32_t cached_tokens) const = 0;
  [[nodiscard]] virtual std::string stream_text(const ResponseInfo& info, const std::string& text) const = 0;
  // Text with its tokens' log-probabilities (decode::Options::logprobs); dialects without them
  // send the text alone.
  [[nodiscard]] virtual std::string stream_tokens(const ResponseInfo& info, const std::string& text,
                                                  std::span<const decode::TokenLogprob> /*logprobs*/) const {
    return stream_text(info, text);
  }
  // `event`: report::event_json (it carries "event": its name).
  [[nodiscard]] virtual std::string stream_event(const ResponseInfo& info, const nlohmann::json& event) const = 0;
  [[nodiscard]] virtual std::string stream_ping() const = 0;
  // llama-server's return_progress: `progress` is {total, cache, processed, time_ms}, `timings`
  // llama_timings_json or null; dialects llama-server reports it in send it as it does, the others
  // nothing.
  [[nodiscard]] virtual std::string stream_progress(const ResponseInfo& /*info*/, const nlohmann::json& /*progress*/,
                                                    const nlohmann::json& /*timings*/) const {
    return {};
  }
  // llama-server's timings_per_token: text with the timings so far (llama_timings_json), where the
  // dialect has a place for them; the others send the text alone.
  [[nodiscard]] virtual std::string stream_text_timed(const ResponseInfo& info, const std::string& text,
                                                      const nlohmann::json& /*timings*/) const {
    return stream_text(info, text);
  }
  // The dialect's streams keep state of their own in ResponseInfo::tool_stream (Responses: the
  // events' sequence numbers and output items), allocated with or without tools.
  [[nodiscard]] virtual bool keeps_stream_state() const { return false; }
  [[nodiscard]] virtual std::string stream_close(const ResponseInfo& info, const decode::Result& r,
                                                 int32_t cached_tokens, nlohmann::json sfcl) const = 0;
  [[nodiscard]] virtual std::string stream_error(const std::string& message) const = 0;
  // n > 1: after every choice's stream_close (with more_choices), the end of the stream: usage of
  // all choices when asked for, then the terminator.
  [[nodiscard]] virtual std::string stream_end(const ResponseInfo& /*info*/, const nlohmann::json& /*usage*/) const {
    return {};
  }
};

const Dialect& dialect_for(Api api);
// The dialect a path speaks (errors of unknown paths use Anthropic's shape).
Api api_of_path(const std::string& path);
// The metrics label of a path: the known routes (the paths without /v1 count as their /v1 twin),
// else "other".
std::string metrics_path(const std::string& path);
inline nlohmann::json error_body(Api api, const ApiError& e) { return dialect_for(api).error_body(e); }

// Defined in anthropic.cpp, openai.cpp and responses.cpp.
const Dialect& anthropic_dialect();
const Dialect& openai_chat_dialect();
const Dialect& openai_completions_dialect();
const Dialect& openai_responses_dialect();  // responses.cpp
const Dialect& llama_completion_dialect();  // llama_completion.cpp: llama-server's native /completion
// The generation_settings llama-server's /completion answers with: the parameters the request ran
// under (sampling, lengths, stops, grammar, adapters) and `logit_bias` as [{"bias", "token"}] with
// the bans (ignore_eos's end-of-generation tokens) as null, as llama-server writes -inf. The
// samplers sfcl refuses unless neutral are not listed.
nlohmann::json llama_generation_settings(const GenerationRequest& req,
                                         std::span<const std::pair<engine::Token, float>> logit_bias,
                                         std::span<const float> lora);
// llama-server's timings object: cache_n, prompt_n, prompt_ms, prompt_per_token_ms,
// prompt_per_second, predicted_n, predicted_ms, predicted_per_token_ms, predicted_per_second (the
// generation rate over the tokens after the first, which comes from the prompt's logits).
nlohmann::json llama_timings_json(int32_t cache_n, int32_t prompt_n, double prompt_ms, int32_t predicted_n,
                                  double predicted_ms);
// The timings of a finished answer (`cached` prompt tokens reused).
nlohmann::json llama_timings_json(const decode::Result& r, int32_t cached);
// llama-server's response_fields on /completion: only these paths of `response` ("a/b" reaches
// into objects), each under its path as the key; a path that is not there is left out.
nlohmann::json llama_response_fields(const std::vector<std::string>& paths, const nlohmann::json& response);

}  // namespace sfcl::server
