#include "gateway/backend_client.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace sfcl::gateway {

using nlohmann::json;

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

BackendClient::BackendClient(BackendAddress address, double timeout_s)
    : address_(std::move(address)), timeout_s_(timeout_s) {}

httplib::Client& BackendClient::client() {
  if (!client_) {
    client_ = std::make_unique<httplib::Client>(address_.host, address_.port);
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

BackendInfo BackendClient::props() {
  if (address_.api == BackendApi::openai) return openai_props();
  auto r = client().Get("/props");
  if (!r || r->status != 200) {
    client_.reset();
    throw std::runtime_error("backend " + address_.url + " did not answer GET /props" +
                             (r ? " (HTTP " + std::to_string(r->status) + ")" : ""));
  }
  const json j = json::parse(r->body, nullptr, false);
  if (!j.is_object()) throw std::runtime_error("backend " + address_.url + ": /props is not JSON");
  BackendInfo info;
  info.model = j.value("model_alias", j.value("model_path", std::string()));
  info.model_path = j.value("model_path", std::string());
  info.chat_template = j.value("chat_template", std::string());
  info.total_slots = j.value("total_slots", 1);
  if (j.contains("default_generation_settings")) info.n_ctx = j["default_generation_settings"].value("n_ctx", 0);
  return info;
}

std::vector<Token> BackendClient::tokenize(std::string_view text) {
  if (address_.api == BackendApi::openai) return openai_tokenize(text);
  const json body = {{"content", text}, {"add_special", false}, {"parse_special", false}};
  auto r = client().Post("/tokenize", body.dump(), "application/json");
  if (!r || r->status != 200) {
    client_.reset();
    throw std::runtime_error("backend " + address_.url + " did not answer POST /tokenize");
  }
  const json j = json::parse(r->body, nullptr, false);
  std::vector<Token> out;
  if (j.is_object() && j.contains("tokens")) {
    for (const auto& t : j["tokens"]) out.push_back(t.is_object() ? t.value("id", -1) : t.get<Token>());
  }
  return out;
}

bool BackendClient::healthy() {
  auto r = client().Get("/health");
  if (!r) client_.reset();
  return r && r->status == 200;
}

StreamResult BackendClient::complete(const CompletionRequest& req,
                                     const std::function<bool(std::span<const Token>)>& on_tokens) {
  if (address_.api == BackendApi::openai) return openai_complete(req, on_tokens);
  json prompt = json::array();
  for (Token t : req.prompt) prompt.push_back(t);
  for (Token t : req.prompt_tail) prompt.push_back(t);
  json bias = json::array();
  for (const auto& [tok, b] : req.bias) {
    if (std::isinf(b) && b < 0) {
      bias.push_back({tok, false});
    } else {
      bias.push_back({tok, b});
    }
  }
  const json body = {
      {"prompt", std::move(prompt)}, {"n_predict", req.n_predict},   {"stream", true},
      {"return_tokens", true},       {"cache_prompt", true},         {"temperature", req.sampling.temperature},
      {"top_k", req.sampling.top_k}, {"top_p", req.sampling.top_p},  {"min_p", req.sampling.min_p},
      {"seed", req.sampling.seed},   {"logit_bias", std::move(bias)}};
  body_ = body.dump();
  pending_.clear();
  StreamResult out;
  int status = 0;
  std::string error_body;
  bool cancelled = false;
  bool stopped = false;
  bool received = false;
  httplib::Request hreq;
  hreq.method = "POST";
  hreq.path = "/completion";
  hreq.body = body_;
  hreq.set_header("Content-Type", "application/json");
  hreq.response_handler = [&](const httplib::Response& res) {
    status = res.status;
    return true;
  };
  hreq.content_receiver = [&](const char* data, size_t len, uint64_t, uint64_t) {
    received = true;
    if (status != 200) {
      error_body.append(data, len);
      return true;
    }
    pending_.append(data, len);
    size_t start = 0;
    while (true) {
      const size_t end = pending_.find("\n\n", start);
      if (end == std::string::npos) break;
      const std::string_view event(pending_.data() + start, end - start);
      start = end + 2;
      if (!event.starts_with("data: ")) continue;
      const json j = json::parse(event.substr(6), nullptr, false);
      if (!j.is_object()) continue;
      if (j.contains("error")) {
        error_body = j["error"].dump();
        stopped = true;
        return false;
      }
      tokens_.clear();
      if (const auto it = j.find("tokens"); it != j.end() && it->is_array()) {
        for (const auto& t : *it) tokens_.push_back(t.get<Token>());
      }
      if (!tokens_.empty() && !on_tokens(tokens_)) {
        cancelled = true;
        return false;
      }
      if (j.value("stop", false)) stopped = true;
    }
    pending_.erase(0, start);
    return true;
  };
  httplib::Response res;
  httplib::Error err = httplib::Error::Success;
  // A kept-alive connection the backend has closed meanwhile fails before any byte: once more on a
  // new one before the backend counts as failed.
  const bool reused = client_ != nullptr;
  bool ok = client().send(hreq, res, err);
  if (!ok && reused && !received && status == 0) {
    client_.reset();
    ok = client().send(hreq, res, err);
  }
  if (cancelled) {
    client_.reset();  // the connection is closed, so the backend stops generating
    out.end = StreamEnd::cancelled;
    return out;
  }
  if (!ok && !(stopped && status == 200)) {
    client_.reset();
    out.end = StreamEnd::failed;
    out.error = "backend " + address_.url + ": " + httplib::to_string(err);
    return out;
  }
  if (status != 200) {
    out.end = status >= 500 ? StreamEnd::failed : StreamEnd::rejected;
    out.error = "backend " + address_.url + ": HTTP " + std::to_string(status) + " " + error_body;
    return out;
  }
  if (!stopped) {
    // The body ended without the final event: the backend died mid-answer.
    client_.reset();
    out.end = StreamEnd::failed;
    out.error = "backend " + address_.url + ": the stream ended early";
    return out;
  }
  if (!error_body.empty()) {
    out.end = StreamEnd::failed;
    out.error = "backend " + address_.url + ": " + error_body;
  }
  return out;
}

}  // namespace sfcl::gateway
