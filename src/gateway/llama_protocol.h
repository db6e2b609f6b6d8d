// llama-server's native API as a backend protocol: GET /props, POST /tokenize, and POST /completion
// with a token-id prompt and return_tokens, streamed (write_completion_body, backend_client.h).
#pragma once
#include <httplib.h>

#include <functional>
#include <string>
#include <string_view>

#include "gateway/backend_protocol.h"
#include "gateway/completion_stream.h"

namespace sfcl::gateway {

class LlamaProtocol final : public BackendProtocol {
 public:
  // Throws std::runtime_error naming the backend when it does not answer as llama-server does.
  BackendInfo props(BackendClient& c) override;
  std::vector<Token> tokenize(BackendClient& c, std::string_view text) override;
  StreamResult complete(BackendClient& c, const CompletionRequest& req,
                        const std::function<bool(const CompletionEvent&)>& on_event) override;
  [[nodiscard]] bool reports_progress() const override { return true; }
  [[nodiscard]] bool reports_wide_top() const override { return true; }

 private:
  struct Call;  // what one call saw (llama_protocol.cpp)
  // One event of the call's stream (or its one answer when not streamed); false ends the call.
  bool on_payload(BackendClient& c, Call& call, std::string_view payload,
                  const std::function<bool(const CompletionEvent&)>& on_event);
  // What the call's end was, once the transport returned `ok` (else `err`).
  StreamResult end_of(BackendClient& c, const Call& call, bool ok, httplib::Error err);
  std::string body_;  // request body, reused
  SseSplitter sse_;
  CompletionEventParser events_;
};

}  // namespace sfcl::gateway
