#include "gateway/openai_protocol.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>

namespace sfcl::gateway {

using nlohmann::json;

namespace openai {

namespace {

constexpr uint32_t kRandomSeed = 0xFFFFFFFFU;  // engine::SamplingOptions: a new seed per request
constexpr std::string_view kTokenIdPrefix = "token_id:";

bool is_ban(float bias) { return std::isinf(bias) && bias < 0; }

// The object form keys each token once: bans win (the scheduler's "a ban wins"), other biases on
// the same token add up, as llama-server's list form does.
json bias_object(const std::vector<std::pair<Token, float>>& bias) {
  std::unordered_map<Token, float> merged;
  for (const auto& [tok, b] : bias) {
    const auto it = merged.try_emplace(tok, 0.0F).first;
    if (is_ban(it->second)) continue;
    it->second = is_ban(b) ? b : it->second + b;
  }
  json out = json::object();
  for (const auto& [tok, b] : merged) out[std::to_string(tok)] = is_ban(b) ? kBanBias : b;
  return out;
}

// The allow-list less what is banned (a ban wins), each id once, for vLLM's allowed_token_ids,
// which masks every other token where a +100 bias only outweighs them; empty when there is no
// list, or nothing on it is left (the bias alone then decides, as through llama-server).
json allowed_ids(const CompletionRequest& req) {
  std::vector<Token> ids = req.allowed;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::erase_if(ids, [&](Token t) {
    return std::any_of(req.bias.begin(), req.bias.end(),
                       [&](const auto& b) { return b.first == t && is_ban(b.second); });
  });
  return ids;
}

bool read_token_string(const json& s, std::vector<Token>& tokens) {
  if (!s.is_string()) return false;
  const auto& str = s.get_ref<const std::string&>();
  if (!str.starts_with(kTokenIdPrefix)) return false;
  Token id = 0;
  const char* first = str.data() + kTokenIdPrefix.size();
  const char* last = str.data() + str.size();
  const auto [ptr, ec] = std::from_chars(first, last, id);
  if (ec != std::errc() || ptr != last) return false;
  tokens.push_back(id);
  return true;
}

// The ids of one choice; false when it carries text but no ids in any known form.
bool read_choice_ids(const json& choice, std::vector<Token>& tokens, std::string& bytes_out) {
  if (const auto ids = choice.find("token_ids"); ids != choice.end() && ids->is_array()) {
    for (const auto& t : *ids) tokens.push_back(t.get<Token>());
    return true;
  }
  const auto lp = choice.find("logprobs");
  if (lp != choice.end() && lp->is_object()) {
    if (const auto content = lp->find("content"); content != lp->end() && content->is_array()) {
      for (const auto& entry : *content) {
        if (!entry.is_object() || !entry.contains("id")) return false;
        tokens.push_back(entry["id"].get<Token>());
        if (const auto bytes = entry.find("bytes"); bytes != entry.end() && bytes->is_array()) {
          for (const auto& b : *bytes) bytes_out += static_cast<char>(b.get<uint8_t>());
        }
      }
      return true;
    }
    if (const auto strs = lp->find("tokens"); strs != lp->end() && strs->is_array()) {
      for (const auto& s : *strs) {
        if (!read_token_string(s, tokens)) return false;
      }
      return true;
    }
  }
  // A chunk with no text (the closing one) carries no ids in either server.
  const auto text = choice.find("text");
  return text == choice.end() || !text->is_string() || text->get_ref<const std::string&>().empty();
}

double logprob_of(const json& v) {
  return v.is_number() ? v.get<double>() : -std::numeric_limits<double>::infinity();  // null: -inf
}

// Every position the chunk reports: its token's log-probability and the position's top tokens.
void read_position_logprobs(const json& choice, PositionRows& out) {
  const auto lp = choice.find("logprobs");
  if (lp == choice.end() || !lp->is_object()) return;
  const auto add_top = [&](Token id, double logprob) { out.top.push_back({id, logprob}); };
  if (const auto content = lp->find("content"); content != lp->end() && content->is_array()) {
    for (const json& e : *content) {
      PositionProbs pos;
      pos.top_begin = static_cast<uint32_t>(out.top.size());
      if (const auto id = e.find("id"); id != e.end()) pos.id = id->get<Token>();
      if (const auto own = e.find("logprob"); own != e.end()) pos.logprob = logprob_of(*own);
      if (const auto alts = e.find("top_logprobs"); alts != e.end() && alts->is_array()) {
        for (const json& alt : *alts) add_top(alt.at("id").get<Token>(), logprob_of(alt.at("logprob")));
      }
      pos.top_end = static_cast<uint32_t>(out.top.size());
      out.positions.push_back(pos);
    }
    return;
  }
  const auto own = lp->find("token_logprobs");
  const auto alts = lp->find("top_logprobs");
  const size_t n_own = own != lp->end() && own->is_array() ? own->size() : 0;
  const size_t n_alts = alts != lp->end() && alts->is_array() ? alts->size() : 0;
  std::vector<Token> id;
  for (size_t i = 0; i < std::max(n_own, n_alts); ++i) {
    PositionProbs pos;
    pos.top_begin = static_cast<uint32_t>(out.top.size());
    if (i < n_own) pos.logprob = logprob_of((*own)[i]);
    if (i < n_alts && (*alts)[i].is_object()) {
      for (const auto& [key, value] : (*alts)[i].items()) {
        id.clear();
        if (!read_token_string(json(key), id)) continue;
        add_top(id[0], logprob_of(value));
      }
      // An object has no order: most likely first, as llama-server lists them.
      std::stable_sort(out.top.begin() + pos.top_begin, out.top.end(),
                       [](const TopProb& a, const TopProb& b) { return a.logprob > b.logprob; });
    }
    pos.top_end = static_cast<uint32_t>(out.top.size());
    out.positions.push_back(pos);
  }
}

}  // namespace

void completion_body(const CompletionRequest& req, const std::string& model, std::string& out) {
  json prompt = json::array();
  for (Token t : req.prompt) prompt.push_back(t);
  for (Token t : req.prompt_tail) prompt.push_back(t);
  json body = {{"prompt", std::move(prompt)},
               {"max_tokens", std::max(1, req.n_predict)},
               {"stream", true},
               {"temperature", req.sampling.temperature},
               {"top_p", req.sampling.top_p},
               {"min_p", req.sampling.min_p},
               // Penalties off whatever the server's defaults (vLLM's generation config, llama-server's
               // flags): the check loop's sampler has none. OpenAI's names, vLLM's
               // repetition_penalty, and llama-server's own chain as on its native API (each
               // server ignores the other's fields).
               {"presence_penalty", 0.0},
               {"frequency_penalty", 0.0},
               {"repetition_penalty", 1.0},
               {"repeat_penalty", 1.0},
               {"dry_multiplier", 0.0},
               {"mirostat", 0},
               {"dynatemp_range", 0.0},
               {"min_keep", 1},
               {"samplers", req.sampling.temperature > 0.0F ? json::array({"top_k", "top_p", "min_p", "temperature"})
                                                            : json::array({"temperature"})},
               // The sampled ids: llama-server puts them in logprobs.content[].id, vLLM in
               // logprobs.tokens as "token_id:N" and, in newer releases, in token_ids.
               // Also the raw top tokens of each position, as n_probs asks llama-server's native API.
               {"logprobs", std::max(1, req.n_probs)},
               {"return_tokens_as_token_ids", true},
               {"return_token_ids", true},
               {"logit_bias", bias_object(req.bias)}};
  if (!model.empty()) body["model"] = model;
  if (const json allowed = allowed_ids(req); !allowed.empty()) body["allowed_token_ids"] = allowed;
  if (req.inside_character) body["chat_parser"] = kRawTextParser;  // llama-server's; vLLM ignores it
  // 0 means off for sfcl; older vLLM releases refuse 0, and both servers read -1 as off.
  body["top_k"] = req.sampling.top_k > 0 ? req.sampling.top_k : -1;
  if (req.sampling.seed != kRandomSeed) body["seed"] = req.sampling.seed;
  out = body.dump();
}

StreamEvent read_event(std::string_view data, std::vector<Token>& tokens, std::vector<TopProb>* top,
                       PositionRows* rows) {
  StreamEvent ev;
  PositionRows own_rows;
  if (rows == nullptr && top != nullptr) rows = &own_rows;
  if (top != nullptr) top->clear();
  if (rows != nullptr) {
    rows->positions.clear();
    rows->top.clear();
  }
  if (data == "[DONE]") {
    ev.finished = true;
    return ev;
  }
  const json j = json::parse(data, nullptr, false);
  if (!j.is_object()) return ev;
  if (j.contains("error") || j.value("object", std::string()) == "error") {
    ev.failed = true;
    ev.error = j.contains("error") ? j["error"].dump() : j.dump();
    return ev;
  }
  const auto choices = j.find("choices");
  if (choices == j.end() || !choices->is_array() || choices->empty()) return ev;  // e.g. a usage chunk
  const json& choice = (*choices)[0];
  if (!choice.is_object()) return ev;
  bool ids = false;
  try {
    ids = read_choice_ids(choice, tokens, ev.text);
  } catch (const json::exception&) {  // an id that is not an integer
    ids = false;
  }
  if (!ids) {
    ev.no_ids = true;
    ev.error =
        "the stream carries no token ids (it needs logprobs with llama-server's ids or vLLM's "
        "return_tokens_as_token_ids)";
    return ev;
  }
  if (rows != nullptr) {
    try {
      read_position_logprobs(choice, *rows);
    } catch (const json::exception&) {  // a shape neither server writes: no log-probabilities
      rows->positions.clear();
      rows->top.clear();
    }
    if (!rows->positions.empty()) {  // the last token's
      const PositionProbs& last = rows->positions.back();
      ev.logprob = last.logprob;
      if (top != nullptr) top->assign(rows->top.begin() + last.top_begin, rows->top.begin() + last.top_end);
    }
  }
  if (const auto fr = choice.find("finish_reason"); fr != choice.end() && !fr->is_null()) ev.finished = true;
  if (const auto usage = j.find("usage"); usage != j.end() && usage->is_object()) {
    const auto n = usage->find("completion_tokens");
    if (n != usage->end() && n->is_number_integer()) ev.sampled = n->get<int64_t>();
  }
  return ev;
}

void read_models(std::string_view body, BackendInfo& info) {
  const json j = json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("data") || !j["data"].is_array() || j["data"].empty()) {
    throw std::runtime_error("/v1/models lists no model");
  }
  const json& m = j["data"][0];
  if (!m.is_object()) throw std::runtime_error("/v1/models lists no model");
  info.model = m.value("id", std::string());
  if (m.contains("max_model_len") && m["max_model_len"].is_number_integer()) {
    info.n_ctx = m["max_model_len"].get<int32_t>();
  } else if (m.contains("meta") && m["meta"].is_object()) {
    info.n_ctx = m["meta"].value("n_ctx", 0);
  }
  const std::string root = m.value("root", std::string());
  if (root.ends_with(".gguf")) info.model_path = root;
}

std::vector<Token> read_tokens(std::string_view body) { return read_token_ids(body); }

}  // namespace openai

namespace {

// The model id requests name (older vLLM releases require it); empty when not listed.
std::string listed_model(BackendClient& c) {
  const auto r = c.fetch("/v1/models");
  if (!r || r->status != 200) return {};
  BackendInfo info;
  try {
    openai::read_models(r->body, info);
  } catch (const std::exception&) {
    return {};
  }
  return info.model;
}

}  // namespace

BackendInfo OpenAIProtocol::props(BackendClient& c) {
  const auto r = c.fetch("/v1/models");
  if (!r || r->status != 200) {
    c.drop_client();
    throw std::runtime_error("backend " + c.address_.url + " did not answer GET /v1/models" +
                             (r ? " (HTTP " + std::to_string(r->status) + ")" : ""));
  }
  BackendInfo info;
  try {
    openai::read_models(r->body, info);
  } catch (const std::exception& e) {
    throw std::runtime_error("backend " + c.address_.url + ": " + e.what());
  }
  model_ = info.model;
  // llama-server serves its native /props beside the OpenAI API: the template, the context per
  // slot and the GGUF it loaded. vLLM has none (404), and what /v1/models said stands.
  BackendAddress native = c.address_;
  native.api = BackendApi::llama;
  try {
    const BackendInfo p = BackendClient(native, c.timeout_s_).props();
    info.chat_template = p.chat_template;
    info.model_path = p.model_path.empty() ? info.model_path : p.model_path;
    info.total_slots = p.total_slots;
    if (p.n_ctx > 0) info.n_ctx = p.n_ctx;
  } catch (const std::exception&) {
  }
  check_backend_info(c.address_.url, info);
  return info;
}

std::vector<Token> OpenAIProtocol::tokenize(BackendClient& c, std::string_view text) {
  if (model_.empty()) model_ = listed_model(c);
  json body = {{"prompt", text}, {"add_special_tokens", false}};
  if (!model_.empty()) body["model"] = model_;
  const auto r = c.fetch("/tokenize", body.dump());
  if (!r) {
    c.drop_client();
    throw std::runtime_error("backend " + c.address_.url + " did not answer POST /tokenize");
  }
  std::vector<Token> out = r->status == 200 ? openai::read_tokens(r->body) : std::vector<Token>{};
  if (!out.empty() || text.empty()) return out;
  // llama-server names the fields differently (and answers vLLM's with no tokens).
  BackendAddress native = c.address_;
  native.api = BackendApi::llama;
  return BackendClient(native, c.timeout_s_).tokenize(text);
}

// What one /v1/completions call saw, as its handlers fill it in.
struct OpenAIProtocol::Call {
  // A backend whose bias cannot outweigh the logits would sample a banned token: refused rather
  // than written (bans are -100 here, not -inf).
  std::vector<Token> banned;  // sorted
  // The OpenAI API adds the sampled token to a position's list when it is not among the top n
  // asked for: that entry is not the (n+1)-th most likely, so no list goes past n.
  uint32_t n_top = 1;
  int64_t sampled = -1;
  StreamResult out;
  int status = 0;
  std::string error_body;
  bool cancelled = false;
  bool finished = false;
  bool refused = false;
  bool received = false;
};

StreamResult OpenAIProtocol::complete(BackendClient& c, const CompletionRequest& req,
                                      const std::function<bool(const CompletionEvent&)>& on_event) {
  // A call not streamed goes to llama-server's native /completion where the backend serves it too:
  // its answer names every token.
  if (req.whole && serves_native(c)) return native_.complete(c, req, on_event);
  if (model_.empty()) model_ = listed_model(c);
  openai::completion_body(req, model_, body_);
  Call call;
  for (const auto& [tok, b] : req.bias) {
    if (std::isinf(b) && b < 0) call.banned.push_back(tok);
  }
  std::sort(call.banned.begin(), call.banned.end());
  call.n_top = static_cast<uint32_t>(std::max(1, req.n_probs));
  sse_.clear();
  c.held_.clear();
  httplib::Request hreq;
  hreq.method = "POST";
  hreq.path = "/v1/completions";
  hreq.body = body_;
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
    const bool go_on = sse_.feed(std::string_view(data, len),
                                 [&](std::string_view event) { return on_sse_event(c, call, event, on_event); });
    if (sse_.overflowed())
      c.stop_call("an event of its stream is over " + std::to_string(sse_.max_event_bytes()) + " bytes");
    return go_on;
  };
  httplib::Response res;
  httplib::Error err = httplib::Error::Success;
  const bool ok = c.send(hreq, res, err, [&] { return !call.received && call.status == 0; });
  return end_of(c, call, ok, err);
}

bool OpenAIProtocol::on_sse_event(BackendClient& c, Call& call, std::string_view event,
                                  const std::function<bool(const CompletionEvent&)>& on_event) {
  tokens_.clear();
  const openai::StreamEvent ev = openai::read_event(event, tokens_, &top_, &rows_);
  if (!c.ids_in_vocabulary(tokens_, rows_.top, rows_.positions) || !c.ids_in_vocabulary({}, top_, {})) return false;
  for (PositionProbs& p : rows_.positions) p.top_end = std::min(p.top_end, p.top_begin + call.n_top);
  if (top_.size() > call.n_top) top_.resize(call.n_top);
  if (ev.failed || ev.no_ids) {
    call.error_body = ev.error;
    call.refused = ev.no_ids;
    call.finished = ev.failed;
    return false;
  }
  if (ev.sampled >= 0) call.sampled = ev.sampled;
  if (tokens_.empty()) {
    if (ev.finished) call.finished = true;
    return true;
  }
  // llama-server names only an event's last token; those it held before it come back first.
  if (!c.held_.expand(tokens_, ev.text, -1)) {
    call.out.lost = true;
    call.cancelled = true;
    return false;
  }
  for (Token t : c.held_.ids()) {
    if (std::binary_search(call.banned.begin(), call.banned.end(), t)) {
      call.error_body = "the backend sampled banned token " + std::to_string(t) + " (its logit_bias is too weak)";
      call.refused = true;
      return false;
    }
  }
  CompletionEvent delivered;
  delivered.tokens = c.held_.ids();
  delivered.top = top_;  // those of the last token
  delivered.logprob = ev.logprob;
  delivered.positions = rows_.positions;
  delivered.all_top = rows_.top;
  if (!on_event(delivered)) {
    call.cancelled = true;
    return false;
  }
  if (ev.finished) call.finished = true;
  return true;
}

StreamResult OpenAIProtocol::end_of(BackendClient& c, const Call& call, bool ok, httplib::Error err) {
  StreamResult out = call.out;
  const std::string who = "backend " + c.address_.url + ": ";
  if (call.cancelled || call.refused) {
    c.drop_client();  // closing the connection stops the backend's generation
    out.end = call.cancelled ? StreamEnd::cancelled : StreamEnd::rejected;
    if (call.refused) out.error = who + printable_excerpt(call.error_body);
    return out;
  }
  if (call.status != 200 && call.status != 0) {
    out.end = call.status >= 500 ? StreamEnd::failed : StreamEnd::rejected;
    out.error = who + "HTTP " + std::to_string(call.status) + " " + printable_excerpt(call.error_body);
    return out;
  }
  if (!call.finished) {  // refused, reset, timed out, or the body ended before the last chunk
    c.drop_client();
    out.end = StreamEnd::failed;
    out.error = who + (ok ? "the stream ended early" : httplib::to_string(err));
    return out;
  }
  if (!call.error_body.empty()) {
    c.drop_client();
    out.end = StreamEnd::failed;
    out.error = who + printable_excerpt(call.error_body);
  }
  // The stream ended inside a character: its last tokens were sampled and never sent.
  if (c.held_.lost(call.sampled)) out.lost = true;
  return out;
}

bool OpenAIProtocol::serves_native(BackendClient& c) {
  if (native_answers_ < 0) {
    auto r = c.fetch("/props");
    if (!r) r = c.fetch("/props");  // a kept-alive connection the backend closed meanwhile: once more on a new one
    if (!r) {                       // asked again next time
      c.drop_client();
      return false;
    }
    native_answers_ = r->status == 200 ? 1 : 0;
  }
  return native_answers_ == 1;
}

}  // namespace sfcl::gateway
