// The OpenAI-compatible completions protocol as vLLM serves it, for `--backend-api openai`: the
// request body of a streamed POST /v1/completions with a token-id prompt, and the token ids read
// back from its SSE events in each of the forms the servers use (docs/SCALING.md, "Backend
// protocols"). OpenAIProtocol sends and receives on a BackendClient's connection; the functions of
// sfcl::gateway::openai only build and read.
#pragma once
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "gateway/backend_client.h"
#include "gateway/backend_protocol.h"
#include "gateway/completion_stream.h"
#include "gateway/llama_protocol.h"

namespace sfcl::gateway::openai {

// A banned token's bias: the most negative bias the OpenAI API allows (vLLM clamps to ±100).
constexpr float kBanBias = -100.0F;

// The JSON body for `req`. `model` is the id /v1/models names (omitted when empty).
void completion_body(const CompletionRequest& req, const std::string& model, std::string& out);

struct StreamEvent {
  bool finished = false;  // finish_reason set, or the closing [DONE]
  bool failed = false;    // the backend reported an error in the stream
  // The backend streamed text but no token ids: it does not serve the fields the gateway needs.
  bool no_ids = false;
  std::string error;
  // llama-server's `logprobs.content[].bytes`, joined: the bytes the event releases, which include
  // those of tokens it held inside a UTF-8 character (held_tokens.h); empty when not sent.
  std::string text;
  int64_t sampled = -1;  // usage.completion_tokens of the last chunk; -1 when not sent
  // The raw log-probability of the chunk's last token (llama-server's logprobs.content[].logprob,
  // vLLM's token_logprobs); NaN when not sent.
  double logprob = std::numeric_limits<double>::quiet_NaN();
};

// Reads one SSE event's data (what follows "data: "); appends the ids it carries to `tokens`, and
// sets `top` (when given) to the raw top tokens of the position of its last token, most likely
// first (llama-server's logprobs.content[].top_logprobs, vLLM's top_logprobs keyed "token_id:N"):
// `choices[0].token_ids` (vLLM's return_token_ids), else `choices[0].logprobs.content[].id`
// (llama-server), else `choices[0].logprobs.tokens[]` as "token_id:N" (vLLM's
// return_tokens_as_token_ids).
// With `rows`, also every position the chunk reports log-probabilities for.
StreamEvent read_event(std::string_view data, std::vector<Token>& tokens, std::vector<TopProb>* top = nullptr,
                       PositionRows* rows = nullptr);

// GET /v1/models: the first model's id, its context length (vLLM's max_model_len) and, when the
// model it was loaded from is a GGUF file (vLLM's `root`), that path.
void read_models(std::string_view body, BackendInfo& info);

// POST /tokenize's answer (vLLM's and llama-server's share `tokens`).
std::vector<Token> read_tokens(std::string_view body);

}  // namespace sfcl::gateway::openai

namespace sfcl::gateway {

class OpenAIProtocol final : public BackendProtocol {
 public:
  // GET /v1/models, with llama-server's /props beside it where the backend serves that too.
  BackendInfo props(BackendClient& c) override;
  std::vector<Token> tokenize(BackendClient& c, std::string_view text) override;
  StreamResult complete(BackendClient& c, const CompletionRequest& req,
                        const std::function<bool(const CompletionEvent&)>& on_event) override;
  [[nodiscard]] bool reports_progress() const override { return false; }
  [[nodiscard]] bool reports_wide_top() const override { return false; }

 private:
  struct Call;  // what one call saw (openai_protocol.cpp)
  // One SSE event of the call's stream; false ends the call.
  bool on_sse_event(BackendClient& c, Call& call, std::string_view event,
                    const std::function<bool(const CompletionEvent&)>& on_event);
  // What the call's end was, once the transport returned `ok` (else `err`).
  StreamResult end_of(BackendClient& c, const Call& call, bool ok, httplib::Error err);
  // Whether the backend also serves llama-server's native API (asked once).
  bool serves_native(BackendClient& c);
  LlamaProtocol native_;  // the calls not streamed, where the backend serves it (serves_native)
  std::string model_;     // the model id the OpenAI API names (/v1/models)
  std::string body_;      // request body, reused
  SseSplitter sse_;
  std::vector<Token> tokens_;
  std::vector<TopProb> top_;
  PositionRows rows_;
  int native_answers_ = -1;  // serves_native(): -1 not asked yet
};

}  // namespace sfcl::gateway
