#include "gateway/backend_client.h"

#include <algorithm>
#include <climits>
#include <nlohmann/json.hpp>
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

BackendClient::BackendClient(BackendAddress address, double timeout_s, double call_timeout_s)
    : address_(std::move(address)),
      timeout_s_(timeout_s),
      call_timeout_s_(call_timeout_s),
      protocol_(make_protocol(address_.api)) {}

BackendClient::~BackendClient() = default;

BackendInfo BackendClient::props() { return protocol_->props(*this); }

std::vector<Token> BackendClient::tokenize(std::string_view text) { return protocol_->tokenize(*this, text); }

void check_backend_info(const std::string& url, const BackendInfo& info) {
  constexpr size_t kMaxName = 256;
  for (const std::string* name : {&info.model, &info.model_path}) {
    const bool control = std::any_of(name->begin(), name->end(),
                                     [](char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F; });
    if (control || name->size() > (name == &info.model ? kMaxName : size_t{4096})) {
      throw std::runtime_error("backend " + url + ": the model name or path it reports (/props, /v1/models) " +
                               (control ? "holds control characters" : "is too long") + "; it is not used");
    }
  }
  if (info.n_ctx < 0 || info.n_ctx > (1 << 24) || info.total_slots < 0 || info.total_slots > 65536) {
    throw std::runtime_error("backend " + url + ": it reports n_ctx " + std::to_string(info.n_ctx) + " and " +
                             std::to_string(info.total_slots) + " slots; out of range");
  }
}

std::vector<Token> read_token_ids(std::string_view body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  std::vector<Token> out;
  if (!j.is_object() || !j.contains("tokens") || !j["tokens"].is_array()) return out;
  for (const auto& t : j["tokens"]) {
    const nlohmann::json& id = t.is_object() && t.contains("id") ? t["id"] : t;
    out.push_back(id.is_number_integer() && id.get<int64_t>() >= 0 && id.get<int64_t>() <= INT32_MAX
                      ? static_cast<Token>(id.get<int64_t>())
                      : -1);
  }
  return out;
}

std::string printable_excerpt(std::string_view text) {
  std::string out(text.substr(0, kMaxBackendErrorBytes));
  for (char& ch : out) {
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) ch = ' ';
  }
  if (text.size() > kMaxBackendErrorBytes) out += " [cut at " + std::to_string(kMaxBackendErrorBytes) + " bytes]";
  return out;
}

namespace {

// The first id of `ids` outside [0, n), or -1 when all are in it.
template <class Range, class Id>
int64_t first_outside(const Range& ids, size_t n, Id id) {
  for (const auto& x : ids) {
    const int64_t v = id(x);
    if (v < 0 || static_cast<uint64_t>(v) >= n) return v;
  }
  return -1;
}

}  // namespace

StreamResult BackendClient::complete(const CompletionRequest& req,
                                     const std::function<bool(const CompletionEvent&)>& on_event,
                                     const std::function<bool()>& cancelled) {
  budget_ = CallBudget{};
  const size_t tokens = static_cast<size_t>(std::max(1, req.n_predict));
  budget_.max_bytes = kBackendBaseBytes + tokens * kBackendBytesPerToken;
  if (call_timeout_s_ > 0) {
    budget_.deadline =
        std::chrono::steady_clock::now() +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(call_timeout_s_));
  }
  if (cancelled) budget_.cancelled = &cancelled;
  // Token ids are checked by the protocols as each event is read (ids_in_vocabulary).
  StreamResult r = protocol_->complete(*this, req, on_event);
  if (budget_.client_left) {
    drop_client();  // the backend stops generating
    r.end = StreamEnd::cancelled;
    r.error.clear();
  } else if (!budget_.stopped.empty()) {
    drop_client();
    r.end = StreamEnd::failed;
    r.error = "backend " + address_.url + ": " + budget_.stopped;
  }
  budget_.cancelled = nullptr;
  return r;
}

bool BackendClient::ids_in_vocabulary(std::span<const Token> tokens, std::span<const TopProb> top,
                                      std::span<const PositionProbs> positions) {
  if (n_vocab_ == 0) return true;
  int64_t bad = first_outside(tokens, n_vocab_, [](Token t) { return int64_t{t}; });
  if (bad < 0) bad = first_outside(top, n_vocab_, [](const TopProb& p) { return int64_t{p.id}; });
  if (bad < 0) bad = first_outside(positions, n_vocab_, [](const PositionProbs& p) { return int64_t{p.id}; });
  if (bad < 0) return true;
  stop_call("it sent token id " + std::to_string(bad) + ", outside the vocabulary of " + std::to_string(n_vocab_) +
            " tokens (is it serving another model?)");
  return false;
}

bool BackendClient::charge(size_t bytes) {
  budget_.bytes += bytes;
  if (budget_.cancelled != nullptr && (*budget_.cancelled)()) {
    budget_.client_left = true;
    return false;
  }
  if (budget_.bytes > budget_.max_bytes) {
    stop_call("its answer is over " + std::to_string(budget_.max_bytes) + " bytes for the tokens asked");
    return false;
  }
  if (std::chrono::steady_clock::now() > budget_.deadline) {
    stop_call("the call did not end within --backend-call-timeout");
    return false;
  }
  return true;
}

void BackendClient::stop_call(std::string why) {
  if (budget_.stopped.empty()) budget_.stopped = std::move(why);
}

std::optional<BackendClient::Fetched> BackendClient::fetch(const std::string& path, const std::string& body) {
  Fetched out;
  bool over = false;
  const auto receive = [&](const char* data, size_t len) {
    if (out.body.size() + len > kMaxBackendInfoBytes) {
      over = true;
      return false;
    }
    out.body.append(data, len);
    return true;
  };
  httplib::Request req;
  req.method = body.empty() ? "GET" : "POST";
  req.path = path;
  if (!body.empty()) {
    req.body = body;
    req.set_header("Content-Type", "application/json");
  }
  req.content_receiver = [&](const char* data, size_t len, uint64_t, uint64_t) { return receive(data, len); };
  httplib::Response res;
  httplib::Error err = httplib::Error::Success;
  if (!client().send(req, res, err) || over) {
    drop_client();
    return std::nullopt;
  }
  out.status = res.status;
  return out;
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
