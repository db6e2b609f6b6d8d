#include "gateway/llama_protocol.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace sfcl::gateway {

using nlohmann::json;

BackendInfo LlamaProtocol::props(BackendClient& c) {
  const auto r = c.fetch("/props");
  if (!r || r->status != 200) {
    c.drop_client();
    throw std::runtime_error("backend " + c.address_.url + " did not answer GET /props" +
                             (r ? " (HTTP " + std::to_string(r->status) + ")" : ""));
  }
  const json j = json::parse(r->body, nullptr, false);
  if (!j.is_object()) throw std::runtime_error("backend " + c.address_.url + ": /props is not JSON");
  BackendInfo info;
  const auto text = [&](const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  info.model_path = text("model_path");
  info.model = text("model_alias").empty() ? info.model_path : text("model_alias");
  info.chat_template = text("chat_template");
  const auto it = j.find("total_slots");
  info.total_slots = it != j.end() && it->is_number_integer() ? it->get<int32_t>() : 1;
  if (j.contains("default_generation_settings") && j["default_generation_settings"].is_object()) {
    const json& d = j["default_generation_settings"];
    if (d.contains("n_ctx") && d["n_ctx"].is_number_integer()) info.n_ctx = d["n_ctx"].get<int32_t>();
  }
  check_backend_info(c.address_.url, info);
  return info;
}

std::vector<Token> LlamaProtocol::tokenize(BackendClient& c, std::string_view text) {
  const json body = {{"content", text}, {"add_special", false}, {"parse_special", false}};
  const auto r = c.fetch("/tokenize", body.dump());
  if (!r || r->status != 200) {
    c.drop_client();
    throw std::runtime_error("backend " + c.address_.url + " did not answer POST /tokenize");
  }
  return read_token_ids(r->body);
}

namespace {

void append_number(std::string& out, auto value) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  out.append(buf, ec == std::errc() ? end : buf);
}

}  // namespace

void write_completion_body(const CompletionRequest& req, std::string& out) {
  out.clear();
  out.reserve(64 + 8 * (req.prompt.size() + req.prompt_tail.size()) + 16 * req.bias.size());
  out += R"({"prompt":[)";
  bool first = true;
  for (const auto part : {req.prompt, req.prompt_tail}) {
    for (const Token t : part) {
      if (!first) out += ',';
      first = false;
      append_number(out, t);
    }
  }
  out += R"(],"n_predict":)";
  append_number(out, req.n_predict);
  const bool streamed = req.n_predict > 1 && !req.whole;
  out += streamed ? R"(,"stream":true)" : R"(,"stream":false)";
  if (streamed && req.progress) out += R"(,"return_progress":true)";
  out += R"(,"return_tokens":true,"cache_prompt":true,"temperature":)";
  append_number(out, req.sampling.temperature);
  out += R"(,"top_k":)";
  append_number(out, req.sampling.top_k);
  out += R"(,"top_p":)";
  append_number(out, req.sampling.top_p);
  out += R"(,"min_p":)";
  append_number(out, req.sampling.min_p);
  out += R"(,"seed":)";
  append_number(out, req.sampling.seed);
  // The chain is named, so a backend started with other sampling defaults (penalties, DRY, XTC,
  // mirostat, dynamic temperature) samples as the check loop's sampler does: top_k, top_p, min_p,
  // temperature, then the draw. Greedy, the temperature sampler alone keeps the first of the
  // highest logits in token order, as the loop's greedy sampler does on a tie.
  out += req.sampling.temperature > 0.0F ? R"(,"samplers":["top_k","top_p","min_p","temperature"])"
                                         : R"(,"samplers":["temperature"])";
  out += R"(,"mirostat":0,"dynatemp_range":0,"min_keep":1,"backend_sampling":false)";
  {
    // Always: a call's output may hold bytes that are not UTF-8 anywhere (a character cut at
    // either end, or byte tokens that make none), on which the default parser fails.
    out += R"(,"chat_parser":")";
    for (const char c : kRawTextParser) {
      if (c == '"') out += '\\';
      out += c;
    }
    out += '"';
  }
  if (req.n_probs > 0) {
    // post_sampling_probs false: the softmax of the raw logits, before logit_bias and temperature.
    out += R"(,"n_probs":)";
    append_number(out, req.n_probs);
    out += R"(,"post_sampling_probs":false)";
  }
  out += R"(,"logit_bias":[)";
  first = true;
  for (const auto& [tok, b] : req.bias) {
    if (!first) out += ',';
    first = false;
    out += '[';
    append_number(out, tok);
    out += ',';
    if (std::isinf(b) && b < 0) {
      out += "false";  // banned
    } else if (std::isfinite(b)) {
      append_number(out, b);
    } else {
      out += '0';
    }
    out += ']';
  }
  out += "]}";
}

// What one /completion call saw, as its handlers fill it in.
struct LlamaProtocol::Call {
  bool streamed = false;  // as write_completion_body asks
  StreamResult out;
  int status = 0;
  std::string error_body;
  std::string unstreamed;  // the one JSON answer of a call not streamed
  bool cancelled = false;
  bool stopped = false;
  bool received = false;
  int64_t predicted = -1;
  CompletionEvent event;
};

StreamResult LlamaProtocol::complete(BackendClient& c, const CompletionRequest& req,
                                     const std::function<bool(const CompletionEvent&)>& on_event) {
  write_completion_body(req, body_);
  Call call;
  call.streamed = req.n_predict > 1 && !req.whole;
  sse_.clear();
  c.held_.clear();
  const auto on_payload = [&](std::string_view payload) { return this->on_payload(c, call, payload, on_event); };
  httplib::Request hreq;
  hreq.method = "POST";
  hreq.path = "/completion";
  hreq.body = std::move(body_);
  hreq.set_header("Content-Type", "application/json");
  hreq.response_handler = [&](const httplib::Response& res) {
    call.status = res.status;
    return true;
  };
  hreq.content_receiver = [&](const char* data, size_t len, uint64_t, uint64_t) {
    call.received = true;
    if (!c.charge(len)) return false;
    if (call.status != 200) {
      keep_error_text(call.error_body, std::string_view(data, len));
      return true;
    }
    if (!call.streamed) {
      call.unstreamed.append(data, len);
      return true;
    }
    const bool go_on = sse_.feed(std::string_view(data, len), on_payload);
    if (sse_.overflowed())
      c.stop_call("an event of its stream is over " + std::to_string(sse_.max_event_bytes()) + " bytes");
    return go_on;
  };
  httplib::Response res;
  httplib::Error err = httplib::Error::Success;
  const bool ok = c.send(hreq, res, err, [&] { return !call.received && call.status == 0; });
  body_ = std::move(hreq.body);  // its capacity serves the next call
  if (ok && call.status == 200 && !call.streamed) on_payload(call.unstreamed);
  return end_of(c, call, ok, err);
}

bool LlamaProtocol::on_payload(BackendClient& c, Call& call, std::string_view payload,
                               const std::function<bool(const CompletionEvent&)>& on_event) {
  CompletionEvent& event = call.event;
  if (!events_.parse(payload, event)) return true;  // not JSON: skipped, as before
  if (!c.ids_in_vocabulary(event.tokens, event.all_top, event.positions)) return false;
  if (!event.error.empty()) {
    call.error_body.assign(event.error);
    call.stopped = true;
    return false;
  }
  if (event.predicted >= 0) call.predicted = event.predicted;
  if (!event.tokens.empty()) {
    // A stream's event names only its last token; those it held before it come back first.
    if (call.streamed && !c.held_.expand(event.tokens, event.text, event.predicted)) {
      call.out.lost = true;
      call.cancelled = true;
      return false;
    }
    if (call.streamed) event.tokens = c.held_.ids();
    // Not streamed, the top tokens are the last position's only when every token has its row
    // (a token held inside a character has none).
    if (!call.streamed && event.positions.size() != event.tokens.size()) {
      event.top = {};
      event.logprob = std::numeric_limits<double>::quiet_NaN();
    }
    if (!on_event(event)) {
      call.cancelled = true;
      return false;
    }
  } else if (event.cached >= 0 || event.evaluated >= 0) {
    // A progress event (the prompt's cached tokens), or the last one (what the prompt cost).
    if (!on_event(event) && !event.stop) {
      call.cancelled = true;
      return false;
    }
  }
  if (event.stop) call.stopped = true;
  return true;
}

StreamResult LlamaProtocol::end_of(BackendClient& c, const Call& call, bool ok, httplib::Error err) {
  StreamResult out = call.out;
  if (call.cancelled) {
    if (call.streamed) c.drop_client();  // the connection is closed, so the backend stops generating
    out.end = StreamEnd::cancelled;
    return out;
  }
  if (!ok && !(call.stopped && call.status == 200)) {
    c.drop_client();
    out.end = StreamEnd::failed;
    out.error = "backend " + c.address_.url + ": " + httplib::to_string(err);
    return out;
  }
  if (call.status != 200) {
    out.end = call.status >= 500 ? StreamEnd::failed : StreamEnd::rejected;
    out.error = "backend " + c.address_.url + ": HTTP " + std::to_string(call.status) + " " +
                printable_excerpt(call.error_body);
    return out;
  }
  if (!call.stopped) {
    // The body ended without the final event: the backend died mid-answer.
    c.drop_client();
    out.end = StreamEnd::failed;
    out.error = "backend " + c.address_.url + ": the stream ended early";
    return out;
  }
  if (!call.error_body.empty()) {
    out.end = StreamEnd::failed;
    out.error = "backend " + c.address_.url + ": " + printable_excerpt(call.error_body);
  }
  // The stream ended inside a character: its last tokens were sampled and never sent.
  if (call.streamed && c.held_.lost(call.predicted)) out.lost = true;
  return out;
}

}  // namespace sfcl::gateway
