// How the gateway speaks to a backend: one BackendProtocol per BackendApi, each in a file of its
// own (llama_protocol.h: llama-server's native API; openai_protocol.h: the OpenAI-compatible
// completions API as vLLM serves it; docs/SCALING.md, "Backend protocols"). A protocol turns
// BackendClient's calls into HTTP requests on the client's connection and reads the answers back;
// what it can do that the answer loop relies on is asked here, not by the protocol's name.
#pragma once
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "gateway/backend_client.h"

namespace sfcl::gateway {

class BackendProtocol {
 public:
  BackendProtocol() = default;
  virtual ~BackendProtocol() = default;
  BackendProtocol(const BackendProtocol&) = delete;
  BackendProtocol& operator=(const BackendProtocol&) = delete;

  // BackendClient::props, tokenize and complete, over `c`'s connection.
  virtual BackendInfo props(BackendClient& c) = 0;
  virtual std::vector<Token> tokenize(BackendClient& c, std::string_view text) = 0;
  virtual StreamResult complete(BackendClient& c, const CompletionRequest& req,
                                const std::function<bool(const CompletionEvent&)>& on_event) = 0;

  // A streamed call reports the prompt tokens the backend reused from its cache before it processes
  // the prompt (CompletionRequest::progress; llama-server's return_progress).
  [[nodiscard]] virtual bool reports_progress() const = 0;
  // A call reports as many raw top tokens per position as the gateway's own draw at a banned
  // position asks for (4 * top_k + 8); vLLM caps logprobs at 20 by default.
  [[nodiscard]] virtual bool reports_wide_top() const = 0;
};

// The protocol of `api`.
std::unique_ptr<BackendProtocol> make_protocol(BackendApi api);

}  // namespace sfcl::gateway
