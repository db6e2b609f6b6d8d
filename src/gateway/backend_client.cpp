#include "gateway/backend_client.h"

#include <stdexcept>

#include "gateway/llama_protocol.h"
#include "gateway/openai_protocol.h"

namespace sfcl::gateway {

BackendAddress parse_backend_url(const std::string& url) {
  std::string rest = url;
  if (rest.starts_with("http://")) rest = rest.substr(7);
  if (rest.starts_with("https://")) throw std::invalid_argument("backend " + url + ": https is not supported");
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  const size_t colon = rest.rfind(':');
  if (colon == std::string::npos || colon == 0 || rest.find('/') != std::string::npos) {
    throw std::invalid_argument("backend " + url + ": expected http://host:port");
  }
  BackendAddress a;
  a.url = "http://" + rest;
  a.host = rest.substr(0, colon);
  try {
    a.port = std::stoi(rest.substr(colon + 1));
  } catch (const std::exception&) {
    throw std::invalid_argument("backend " + url + ": bad port");
  }
  if (a.port <= 0 || a.port > 65535) throw std::invalid_argument("backend " + url + ": bad port");
  return a;
}

std::unique_ptr<BackendProtocol> make_protocol(BackendApi api) {
  if (api == BackendApi::openai) return std::make_unique<OpenAIProtocol>();
  return std::make_unique<LlamaProtocol>();
}

BackendClient::BackendClient(BackendAddress address, double timeout_s)
    : address_(std::move(address)), timeout_s_(timeout_s), protocol_(make_protocol(address_.api)) {}

BackendClient::~BackendClient() = default;

BackendInfo BackendClient::props() { return protocol_->props(*this); }

std::vector<Token> BackendClient::tokenize(std::string_view text) { return protocol_->tokenize(*this, text); }

StreamResult BackendClient::complete(const CompletionRequest& req,
                                     const std::function<bool(const CompletionEvent&)>& on_event) {
  return protocol_->complete(*this, req, on_event);
}

void BackendClient::drop_client() {
  const std::lock_guard<std::mutex> lk(client_mu_);
  client_.reset();
}

void BackendClient::arm() {
  const std::lock_guard<std::mutex> lk(client_mu_);
  aborted_ = false;
}

void BackendClient::abort() {
  const std::lock_guard<std::mutex> lk(client_mu_);
  aborted_ = true;
  if (client_) client_->stop();  // shuts the socket down: the call's blocked read fails now
}

httplib::Client& BackendClient::client() {
  if (!client_) {
    auto c = std::make_unique<httplib::Client>(address_.host, address_.port);
    const std::lock_guard<std::mutex> lk(client_mu_);
    client_ = std::move(c);
    if (aborted_) client_->stop();  // aborted before this connection existed: it fails at once too
    const auto secs = static_cast<time_t>(timeout_s_);
    const auto usecs = static_cast<time_t>((timeout_s_ - static_cast<double>(secs)) * 1e6);
    client_->set_connection_timeout(secs, usecs);
    client_->set_read_timeout(secs, usecs);
    client_->set_write_timeout(secs, usecs);
    client_->set_keep_alive(true);
    // A request goes out as two writes (headers, then body): with Nagle's algorithm the body of a
    // call on a kept-alive connection waits for the backend's delayed ACK.
    client_->set_tcp_nodelay(true);
  }
  return *client_;
}

bool BackendClient::healthy() {
  auto r = client().Get("/health");
  if (!r) drop_client();
  return r && r->status == 200;
}

bool BackendClient::send(httplib::Request& req, httplib::Response& res, httplib::Error& err,
                         const std::function<bool()>& nothing_arrived) {
  // A kept-alive connection the backend has closed meanwhile fails before any byte: once more on a
  // new one before the backend counts as failed.
  const bool reused = client_ != nullptr;
  bool ok = client().send(req, res, err);
  if (!ok && reused && nothing_arrived() && !aborted_) {
    drop_client();
    ok = client().send(req, res, err);
  }
  return ok;
}

}  // namespace sfcl::gateway
