// HTTP routes, streaming, auth, health and shutdown of `sfcl serve`.
#include "server/server.h"

#include <signal.h>
#include <sodium.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <thread>

#include "anchor/anchor.h"
#include "metrics/metrics.h"
#include "server/http_util.h"
#include "server/request.h"
#include "server/signing.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

struct State {
  ServerOptions opt;
  std::unique_ptr<engine::Model> model;
  std::unique_ptr<Scheduler> scheduler;
  // The knowledge base, indexed once at startup; each request's index starts from it without
  // copying it (re-indexing 10,000 entries per request cost ~74 ms of CPU: BM_RequestIndexWithKnowledge).
  std::shared_ptr<const anchor::SourceIndex> kb;
  std::atomic<bool> ready{false};
  std::atomic<bool> draining{false};
  std::atomic<int32_t> in_flight{0};
  std::shared_ptr<std::vector<engine::Token>> script;  // test hook, see ServerOptions
  std::unique_ptr<metrics::Metrics> metrics;
  std::optional<SigningKey> key;
  std::atomic<bool> was_degraded{false};
};

// One structured log line: JSON object or "msg key=value ...".
void log_line(const State& st, spdlog::level::level_enum level, const std::string& msg, const json& fields) {
  if (st.opt.log_format == "json") {
    json j = fields;
    j["msg"] = msg;
    j["level"] = spdlog::level::to_string_view(level).data();
    j["ts"] = unix_now();
    spdlog::log(level, "{}", j.dump(-1, ' ', false, json::error_handler_t::replace));
    return;
  }
  std::string line = msg;
  for (const auto& [k, v] : fields.items()) line += " " + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  spdlog::log(level, "{}", line);
}

Api api_of(const std::string& path) {
  if (path.rfind("/v1/chat/", 0) == 0) return Api::openai_chat;
  if (path.rfind("/v1/completions", 0) == 0) return Api::openai_completions;
  return Api::anthropic;
}

void send_error(httplib::Response& res, Api api, const ApiError& e) { set_json(res, e.status, error_body(api, e)); }

std::string layer_status(decode::Mode mode) { return mode == decode::Mode::anchor ? "zeroed-v2" : "legacy"; }

void set_status_headers(httplib::Response& res, const State& st, decode::Mode mode, const std::string& status) {
  res.set_header("X-SFCL-Status", status);
  if (st.opt.compat_headers) {
    res.set_header("x-anthropic-layer-status", layer_status(mode));
    res.set_header("X-Anthropic-SFCL-Status", status);
  }
}

json sfcl_summary(const decode::Result& r, decode::Mode mode, bool with_anchors) {
  json j = {{"mode", std::string(decode::mode_name(mode))},
            {"status", r.status},
            {"anchors_checked", r.stats.checked()},
            {"confirmed", r.stats.verdicts[0]},
            {"unsupported", r.stats.verdicts[1]},
            {"unverifiable", r.stats.verdicts[2]},
            {"backtracks", r.stats.backtracks},
            {"regenerated_tokens", r.stats.regenerated_tokens},
            {"fallbacks", r.stats.fallbacks}};
  if (with_anchors) {
    json anchors = json::array();
    for (const auto& a : r.anchors) {
      json x = {{"anchor_id", a.id},
                {"kind", std::string(anchor::kind_name(anchor::kind_of(a.anchor.type)))},
                {"type", std::string(anchor::type_name(a.anchor.type))},
                {"text", a.text},
                {"norm", a.anchor.norm},
                {"start", a.anchor.start},
                {"end", a.anchor.end},
                {"verdict", std::string(verify::verdict_name(a.verdict))},
                {"confidence", a.confidence},
                {"checked", a.checked}};
      if (a.flagged) x["flagged"] = true;
      if (a.constrained) x["constrained"] = true;
      if (a.other_field) x["other_field"] = true;
      if (a.attempts > 0) x["backtracks"] = a.attempts;
      if (a.checked && a.verdict == verify::Verdict::confirmed) {
        x["source"] = {{"message", a.support_source}, {"start", a.support_start}, {"end", a.support_end}};
      }
      anchors.push_back(std::move(x));
    }
    j["anchors"] = std::move(anchors);
  }
  return j;
}

struct Prepared {
  std::shared_ptr<Job> job;
  GenerationRequest req;
  std::string initial_status;
};

std::vector<engine::Token> tokenize_request(const State& st, const GenerationRequest& req) {
  std::string text;
  if (req.raw) {
    text = req.raw_prompt;
  } else {
    text = st.model->apply_chat_template(req.messages, true) + req.prefill;
  }
  return st.model->tokenize(text, true, true);
}

Prepared prepare(State& st, Api api, const httplib::Request& http) {
  json body;
  try {
    body = json::parse(http.body);
  } catch (const json::exception& e) {
    throw ApiError(400, "invalid_request_error", std::string("invalid JSON body: ") + e.what());
  }
  Prepared p;
  p.req = parse_request(api, body, st.opt);
  if (http.get_header_value("X-SFCL-Events") == "1") p.req.events = true;
  auto job = std::make_shared<Job>();
  job->options = p.req.options;
  if (st.script) {
    job->options.logit_hook = [script = st.script, eos = st.model->eos()](std::span<float> logits,
                                                                          std::span<const engine::Token> out) {
      if (out.size() > script->size() || !std::equal(out.begin(), out.end(), script->begin())) return;
      logits[static_cast<size_t>(out.size() == script->size() ? eos : (*script)[out.size()])] += 1000.0F;
    };
  }
  job->want_events = p.req.events;
  job->sources = st.kb ? std::make_shared<anchor::SourceIndex>(st.kb) : std::make_shared<anchor::SourceIndex>();
  for (const auto& m : p.req.messages) job->sources->add_source(m.content);
  if (!p.req.prefill.empty()) job->sources->add_source(p.req.prefill);
  if (p.req.raw) job->sources->add_source(p.req.raw_prompt);
  for (const auto& s : p.req.extra_sources) job->sources->add_source(s);
  job->prompt = tokenize_request(st, p.req);
  job->metrics = st.metrics.get();
  if (st.metrics) {
    metrics::Metrics* m = st.metrics.get();
    job->options.on_check = [m](const anchor::Anchor& a, const verify::CheckResult& r, int64_t ns) {
      m->check(a.type, r.verdict, r.confidence, static_cast<double>(ns) * 1e-9, r.checked);
    };
  }
  // Admission by decision points and prompt size; anchor spam is counted and logged.
  std::string all_text;
  for (const auto& m : p.req.messages) all_text += m.content + "\n";
  all_text += p.req.prefill + p.req.raw_prompt;
  for (const auto& s : p.req.extra_sources) all_text += "\n" + s;
  const auto dp = anchor::count_decision_points(all_text);
  if (st.opt.max_decision_points > 0 && static_cast<int64_t>(dp.total) > st.opt.max_decision_points) {
    if (st.metrics) st.metrics->admission_rejected("decision_points");
    throw ApiError(400, "invalid_request_error",
                   "the request has " + std::to_string(dp.total) + " decision points; this server accepts at most " +
                       std::to_string(st.opt.max_decision_points));
  }
  if (all_text.size() >= 256 &&
      static_cast<double>(dp.anchors) * 1024.0 / static_cast<double>(all_text.size()) > st.opt.spam_anchors_per_kb) {
    if (st.metrics) st.metrics->anchor_spam();
    log_line(st, spdlog::level::warn, "anchor spam",
             {{"anchors", dp.anchors}, {"bytes", all_text.size()}, {"decision_points", dp.total}});
  }
  if (st.opt.max_prompt_tokens > 0 && static_cast<int32_t>(job->prompt.size()) > st.opt.max_prompt_tokens) {
    if (st.metrics) st.metrics->admission_rejected("prompt_tokens");
    throw ApiError(400, "invalid_request_error",
                   "prompt is " + std::to_string(job->prompt.size()) + " tokens; this server accepts at most " +
                       std::to_string(st.opt.max_prompt_tokens));
  }
  const auto limit = st.opt.scheduler.n_ctx_per_slot;
  if (job->prompt.size() + 1 >= limit) {
    throw ApiError(400, "invalid_request_error",
                   "prompt is too long: " + std::to_string(job->prompt.size()) + " tokens, but the context holds " +
                       std::to_string(limit) + " tokens per request");
  }
  p.job = job;
  p.initial_status = decode::status_string(p.req.options.mode, !job->sources->empty(), {});
  return p;
}

std::string anthropic_stop(const decode::Result& r) { return std::string(decode::stop_reason_name(r.stop_reason)); }
std::string openai_finish(const decode::Result& r) {
  return r.stop_reason == decode::StopReason::max_tokens ? "length" : "stop";
}

json anthropic_usage(const decode::Result& r, int32_t cached_tokens) {
  return {{"input_tokens", r.prompt_tokens - cached_tokens},
          {"output_tokens", r.output_tokens},
          {"cache_read_input_tokens", cached_tokens},
          {"cache_creation_input_tokens", 0}};
}

json openai_usage(const decode::Result& r, int32_t cached_tokens) {
  return {{"prompt_tokens", r.prompt_tokens},
          {"completion_tokens", r.output_tokens},
          {"total_tokens", r.prompt_tokens + r.output_tokens},
          {"prompt_tokens_details", {{"cached_tokens", cached_tokens}}}};
}

// The streaming state machine shared by both APIs.
struct Stream {
  std::shared_ptr<Job> job;
  Api api;
  std::string id;
  std::string model;
  decode::Mode mode;
  int phase = 0;
  int64_t created = unix_now();
  int ping_ms = 10000;
  const SigningKey* key = nullptr;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

// The final `sfcl` object of a response; with a signing key it carries the anchors it signs.
json final_sfcl(const decode::Result& r, decode::Mode mode, bool with_anchors, const SigningKey* key,
                const std::string& id) {
  json j = sfcl_summary(r, mode, with_anchors || key != nullptr);
  if (key != nullptr) {
    j["request_id"] = id;
    j["signature"] = sign_base64(*key, signed_message(id, r.status, j["anchors"].dump()));
  }
  return j;
}

bool write(httplib::DataSink& sink, const std::string& s) { return sink.write(s.data(), s.size()); }

json openai_chunk(const Stream& s, const json& delta, const json& finish) {
  if (s.api == Api::openai_completions) {
    return {{"id", s.id},
            {"object", "text_completion"},
            {"created", s.created},
            {"model", s.model},
            {"choices", json::array({{{"index", 0},
                                      {"text", delta.value("content", "")},
                                      {"logprobs", nullptr},
                                      {"finish_reason", finish}}})}};
  }
  return {
      {"id", s.id},
      {"object", "chat.completion.chunk"},
      {"created", s.created},
      {"model", s.model},
      {"choices", json::array({{{"index", 0}, {"delta", delta}, {"logprobs", nullptr}, {"finish_reason", finish}}})}};
}

bool stream_step(Stream& s, httplib::DataSink& sink) {
  Job& job = *s.job;
  if (s.phase == 0) {
    const int32_t cached = job.channel.wait_admitted();
    bool ok = true;
    if (s.api == Api::anthropic) {
      json msg = {{"id", s.id},
                  {"type", "message"},
                  {"role", "assistant"},
                  {"model", s.model},
                  {"content", json::array()},
                  {"stop_reason", nullptr},
                  {"stop_sequence", nullptr},
                  {"usage",
                   {{"input_tokens", static_cast<int32_t>(job.prompt.size()) - cached},
                    {"output_tokens", 0},
                    {"cache_read_input_tokens", cached},
                    {"cache_creation_input_tokens", 0}}}};
      ok = write(sink, sse("message_start", {{"type", "message_start"}, {"message", msg}})) &&
           write(sink, sse("content_block_start", {{"type", "content_block_start"},
                                                   {"index", 0},
                                                   {"content_block", {{"type", "text"}, {"text", ""}}}})) &&
           write(sink, sse("ping", {{"type", "ping"}}));
    } else if (s.api == Api::openai_chat) {
      ok = write(sink, sse_data(openai_chunk(s, {{"role", "assistant"}, {"content", ""}}, nullptr)));
    }
    s.phase = 1;
    if (!ok) job.channel.cancel();
    return ok;
  }
  if (s.phase == 2) return false;
  JobChannel::Batch batch = job.channel.wait_events(std::chrono::milliseconds(s.ping_ms));
  std::vector<JobEvent>& events = batch.events;
  const bool finished = batch.outcome != nullptr;
  std::string out;
  for (auto& e : events) {
    if (e.kind == JobEvent::Kind::text) {
      if (e.text.empty()) continue;
      if (s.api == Api::anthropic) {
        out +=
            sse("content_block_delta",
                {{"type", "content_block_delta"}, {"index", 0}, {"delta", {{"type", "text_delta"}, {"text", e.text}}}});
      } else {
        out += sse_data(openai_chunk(s, {{"content", e.text}}, nullptr));
      }
    } else {
      const char* name = e.kind == JobEvent::Kind::anchor_confirmed ? "anchor_confirmed"
                         : e.kind == JobEvent::Kind::backtrack      ? "backtrack"
                                                                    : "fallback";
      out += sse(name, e.data);
    }
  }
  if (out.empty() && !finished) {
    // Nothing new for a while (long prompt, backtracking): keep the connection alive.
    out = s.api == Api::anthropic ? sse("ping", {{"type", "ping"}}) : std::string(": ping\n\n");
  }
  if (finished) {
    const decode::Result& r = batch.outcome->result;
    const int32_t cached = job.channel.cached_tokens();
    if (!batch.outcome->error.empty()) {
      const std::string& error = batch.outcome->error;
      if (s.api == Api::anthropic) {
        out += sse("error", {{"type", "error"}, {"error", {{"type", "api_error"}, {"message", error}}}});
      } else {
        out += sse_data(
            {{"error", {{"message", error}, {"type", "server_error"}, {"param", nullptr}, {"code", nullptr}}}});
      }
    } else if (s.api == Api::anthropic) {
      out += sse("content_block_stop", {{"type", "content_block_stop"}, {"index", 0}});
      out +=
          sse("message_delta", {{"type", "message_delta"},
                                {"delta",
                                 {{"stop_reason", anthropic_stop(r)},
                                  {"stop_sequence", r.stop_sequence.empty() ? json(nullptr) : json(r.stop_sequence)}}},
                                {"usage", anthropic_usage(r, cached)},
                                {"sfcl", final_sfcl(r, s.mode, false, s.key, s.id)}});
      out += sse("message_stop", {{"type", "message_stop"}});
    } else {
      json last = openai_chunk(s, json::object(), openai_finish(r));
      last["usage"] = openai_usage(r, cached);
      last["sfcl"] = final_sfcl(r, s.mode, false, s.key, s.id);
      out += sse_data(last);
      out += "data: [DONE]\n\n";
    }
  }
  if (!out.empty() && !write(sink, out)) {
    job.channel.cancel();  // client gone: the scheduler frees the slot
    return false;
  }
  if (finished) {
    s.phase = 2;
    sink.done();
  }
  return true;
}

// `outcome` is null when the client went away before the job ended.
void log_request(const State& st, const std::string& id, const std::string& endpoint, const JobOutcome* outcome,
                 int32_t cached_tokens, std::chrono::steady_clock::time_point start, bool stream) {
  static const decode::Result kNone;
  const decode::Result& r = outcome != nullptr ? outcome->result : kNone;
  const bool failed = outcome != nullptr && !outcome->error.empty();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  log_line(st, failed ? spdlog::level::err : spdlog::level::info, "request",
           {{"id", id},
            {"endpoint", endpoint},
            {"stream", stream},
            {"outcome", failed ? "error" : (outcome != nullptr && !outcome->cancelled ? "ok" : "cancelled")},
            {"prompt_tokens", r.prompt_tokens},
            {"cached_tokens", cached_tokens},
            {"output_tokens", r.output_tokens},
            {"anchors", r.stats.checked()},
            {"backtracks", r.stats.backtracks},
            {"latency_ms", static_cast<int64_t>(ms)},
            {"sfcl_status", r.status}});
}

void handle_generation(State& st, Api api, const httplib::Request& http, httplib::Response& res) {
  if (!st.ready) throw ApiError(503, api == Api::anthropic ? "overloaded_error" : "server_error", "model is loading");
  if (st.draining)
    throw ApiError(503, api == Api::anthropic ? "overloaded_error" : "server_error", "server is shutting down");
  Prepared p = prepare(st, api, http);
  if (!st.scheduler->submit(p.job)) {
    throw ApiError(
        429, "rate_limit_error",
        "the request queue is full (" + std::to_string(st.opt.scheduler.queue_limit) + " waiting); retry later");
  }
  const auto start = std::chrono::steady_clock::now();
  const decode::Mode mode = p.req.options.mode;
  const std::string id = random_id(api == Api::anthropic ? "msg_" : api == Api::openai_chat ? "chatcmpl-" : "cmpl-");
  ++st.in_flight;
  if (p.req.stream) {
    set_status_headers(res, st, mode, p.initial_status);
    res.set_header("Cache-Control", "no-cache");
    auto s = std::make_shared<Stream>();
    s->job = p.job;
    s->api = api;
    s->id = id;
    s->model = p.req.model;
    s->mode = mode;
    s->ping_ms = st.opt.ping_interval_ms;
    s->key = st.key ? &*st.key : nullptr;
    auto* stp = &st;
    const std::string endpoint = http.path;
    res.set_chunked_content_provider(
        "text/event-stream", [s](size_t, httplib::DataSink& sink) { return stream_step(*s, sink); },
        [s, stp, endpoint](bool) {
          JobChannel& ch = s->job->channel;
          if (!ch.is_finished()) ch.cancel();
          // After a cancel the job ends at the scheduler's next step; the log does not wait for it.
          log_request(*stp, s->id, endpoint, ch.is_finished() ? &ch.wait_finished() : nullptr, ch.cached_tokens(),
                      s->start, true);
          --stp->in_flight;
        });
    return;
  }
  struct Guard {
    State& st;
    ~Guard() { --st.in_flight; }
  } guard{st};
  const JobOutcome& outcome = p.job->channel.wait_finished();
  const int32_t cached = p.job->channel.cached_tokens();
  if (!outcome.error.empty()) {
    throw ApiError(500, api == Api::anthropic ? "api_error" : "server_error", outcome.error);
  }
  const decode::Result& r = outcome.result;
  set_status_headers(res, st, mode, r.status);
  json out;
  if (api == Api::anthropic) {
    out = {{"id", id},
           {"type", "message"},
           {"role", "assistant"},
           {"model", p.req.model},
           {"content", json::array({{{"type", "text"}, {"text", r.text}}})},
           {"stop_reason", anthropic_stop(r)},
           {"stop_sequence", r.stop_sequence.empty() ? json(nullptr) : json(r.stop_sequence)},
           {"usage", anthropic_usage(r, cached)}};
  } else if (api == Api::openai_chat) {
    out = {{"id", id},
           {"object", "chat.completion"},
           {"created", unix_now()},
           {"model", p.req.model},
           {"choices", json::array({{{"index", 0},
                                     {"message", {{"role", "assistant"}, {"content", r.text}, {"refusal", nullptr}}},
                                     {"logprobs", nullptr},
                                     {"finish_reason", openai_finish(r)}}})},
           {"usage", openai_usage(r, cached)}};
  } else {
    out = {
        {"id", id},
        {"object", "text_completion"},
        {"created", unix_now()},
        {"model", p.req.model},
        {"choices",
         json::array({{{"index", 0}, {"text", r.text}, {"logprobs", nullptr}, {"finish_reason", openai_finish(r)}}})},
        {"usage", openai_usage(r, cached)}};
  }
  out["sfcl"] = final_sfcl(r, mode, true, st.key ? &*st.key : nullptr, id);
  if (st.key) {
    res.set_header("X-SFCL-Signature", out["sfcl"]["signature"].get<std::string>());
    res.set_header("X-SFCL-Request-Id", id);
  }
  set_json(res, 200, out);
  log_request(st, id, http.path, &outcome, cached, start, false);
}

bool key_matches(const std::string& given, const std::vector<std::string>& keys) {
  // Constant-time: compare fixed-size hashes with sodium_memcmp, and always scan every key.
  unsigned char g[32];
  crypto_generichash(g, sizeof g, reinterpret_cast<const unsigned char*>(given.data()), given.size(), nullptr, 0);
  bool ok = false;
  for (const auto& k : keys) {
    unsigned char h[32];
    crypto_generichash(h, sizeof h, reinterpret_cast<const unsigned char*>(k.data()), k.size(), nullptr, 0);
    ok |= sodium_memcmp(g, h, sizeof g) == 0;
  }
  return ok;
}

void install_routes(httplib::Server& svr, State& st) {
  auto guarded = [](Api api, auto&& fn) {
    return [api, fn](const httplib::Request& req, httplib::Response& res) {
      try {
        fn(req, res);
      } catch (const ApiError& e) {
        send_error(res, api, e);
      } catch (const std::exception& e) {
        send_error(res, api, ApiError(500, api == Api::anthropic ? "api_error" : "server_error", e.what()));
      }
    };
  };
  svr.Post("/v1/messages", guarded(Api::anthropic, [&st](const httplib::Request& q, httplib::Response& r) {
             handle_generation(st, Api::anthropic, q, r);
           }));
  svr.Post("/v1/chat/completions", guarded(Api::openai_chat, [&st](const httplib::Request& q, httplib::Response& r) {
             handle_generation(st, Api::openai_chat, q, r);
           }));
  svr.Post("/v1/completions", guarded(Api::openai_completions, [&st](const httplib::Request& q, httplib::Response& r) {
             handle_generation(st, Api::openai_completions, q, r);
           }));
  svr.Post("/v1/messages/count_tokens", guarded(Api::anthropic, [&st](const httplib::Request& q, httplib::Response& r) {
             if (!st.ready) throw ApiError(503, "overloaded_error", "model is loading");
             json body;
             try {
               body = json::parse(q.body);
             } catch (const json::exception& e) {
               throw ApiError(400, "invalid_request_error", std::string("invalid JSON body: ") + e.what());
             }
             const GenerationRequest req = parse_count_tokens(body, st.opt);
             set_json(r, 200, {{"input_tokens", tokenize_request(st, req).size()}});
           }));
  svr.Get("/v1/models", [&st](const httplib::Request&, httplib::Response& r) {
    const json m = {
        {"id", st.opt.model_id},
        {"object", "model"},
        {"type", "model"},
        {"created", unix_now()},
        {"created_at", "1970-01-01T00:00:00Z"},
        {"owned_by", "sfcl"},
        {"display_name", st.opt.model_id},
        {"sfcl", {{"mode", std::string(decode::mode_name(st.opt.mode))}, {"layer_status", layer_status(st.opt.mode)}}}};
    set_json(r, 200,
             {{"object", "list"},
              {"data", json::array({m})},
              {"has_more", false},
              {"first_id", st.opt.model_id},
              {"last_id", st.opt.model_id}});
  });
  svr.Get("/health", [&st](const httplib::Request&, httplib::Response& r) {
    if (!st.ready) {
      set_json(r, 503, {{"status", "loading"}});
    } else if (st.draining) {
      set_json(r, 503, {{"status", "draining"}});
    } else {
      const auto s = st.scheduler->stats();
      const bool degraded = st.metrics->degraded();
      if (degraded != st.was_degraded.exchange(degraded)) {
        log_line(st, degraded ? spdlog::level::warn : spdlog::level::info,
                 degraded ? "drift monitor: degraded" : "drift monitor: recovered", {{"drift", st.metrics->drift()}});
      }
      set_json(r, 200,
               {{"status", degraded ? "degraded" : "ok"},
                {"slots", st.opt.scheduler.n_parallel},
                {"slots_busy", s.busy_slots},
                {"queue", s.queued},
                {"confidence_drift", st.metrics->drift()}});
    }
  });
  svr.Get("/metrics", [&st](const httplib::Request&, httplib::Response& r) {
    if (st.scheduler) {
      const auto s = st.scheduler->stats();
      st.metrics->set_load(s.busy_slots, s.queued);
    }
    r.set_content(st.metrics->serialize(), "text/plain; version=0.0.4; charset=utf-8");
  });
  svr.Get("/v1/sfcl/public-key", [&st](const httplib::Request&, httplib::Response& r) {
    if (!st.key) {
      send_error(r, Api::anthropic,
                 ApiError(404, "not_found_error", "this server does not sign verdicts (no --sign-key)"));
      return;
    }
    set_json(
        r, 200,
        {{"algorithm", "ed25519"},
         {"public_key", to_hex(st.key->public_key.data(), st.key->public_key.size())},
         {"signed_message", "sfcl-signature-v1\\n<request id>\\n<X-SFCL-Status>\\n<hex sha256 of sfcl.anchors JSON>"}});
  });
  svr.set_logger([&st](const httplib::Request& req, const httplib::Response& res) {
    static const std::set<std::string> known = {
        "/v1/messages", "/v1/messages/count_tokens", "/v1/chat/completions", "/v1/completions", "/v1/models", "/health",
        "/metrics",     "/v1/sfcl/public-key"};
    st.metrics->request(known.count(req.path) ? req.path : "other", res.status);
  });
  svr.set_pre_routing_handler([&st](const httplib::Request& req, httplib::Response& res) {
    if (st.opt.api_keys.empty() || req.path == "/health") return httplib::Server::HandlerResponse::Unhandled;
    std::string key = req.get_header_value("x-api-key");
    const std::string auth = req.get_header_value("Authorization");
    if (key.empty() && auth.rfind("Bearer ", 0) == 0) key = auth.substr(7);
    if (!key.empty() && key_matches(key, st.opt.api_keys)) return httplib::Server::HandlerResponse::Unhandled;
    const Api api = api_of(req.path);
    send_error(res, api,
               ApiError(401, api == Api::anthropic ? "authentication_error" : "invalid_request_error",
                        key.empty() ? "missing API key (x-api-key or Authorization: Bearer)" : "invalid API key"));
    return httplib::Server::HandlerResponse::Handled;
  });
  svr.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    const Api api = api_of(req.path);
    if (res.status == 413) {
      send_error(res, api,
                 ApiError(413, api == Api::anthropic ? "request_too_large" : "invalid_request_error",
                          "request body is larger than the server's limit"));
    } else if (res.status == 404) {
      send_error(res, api, ApiError(404, "not_found_error", "no route for " + req.method + " " + req.path));
    } else if (res.status == 405) {
      send_error(res, api,
                 ApiError(405, "invalid_request_error", "method " + req.method + " not allowed on " + req.path));
    } else {
      send_error(res, api, ApiError(res.status, "invalid_request_error", "bad request"));
    }
  });
  svr.set_exception_handler([](const httplib::Request& req, httplib::Response& res, const std::exception_ptr&) {
    const Api api = api_of(req.path);
    send_error(res, api, ApiError(500, api == Api::anthropic ? "api_error" : "server_error", "internal error"));
  });
}

}  // namespace

int serve(const ServerOptions& options) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not initialise");
  State st;
  st.opt = options;
  if (options.log_format == "json") {
    spdlog::set_pattern("%v");
  } else {
    spdlog::set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%l] %v");
  }
  st.metrics = std::make_unique<metrics::Metrics>(options.mode, options.drift_threshold);
  if (!options.sign_key_path.empty()) st.key = load_signing_key(options.sign_key_path);
  if (st.opt.model_id.empty()) st.opt.model_id = std::filesystem::path(options.model_path).stem().string();
  if (!st.opt.kb_path.empty()) {
    auto kb = std::make_shared<anchor::SourceIndex>();
    kb->add_knowledge(anchor::load_knowledge(st.opt.kb_path));
    st.kb = std::move(kb);
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(options.model_path, ec)) {
    throw engine::EngineError("model file not found: " + options.model_path);
  }

  // Signals go to one thread (sigwait): first SIGTERM/SIGINT drains, a second one exits at once.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);

  httplib::Server svr;
  svr.new_task_queue = [n = options.scheduler.n_parallel + options.scheduler.queue_limit + 8] {
    return new httplib::ThreadPool(static_cast<size_t>(std::min(n, 512)));
  };
  svr.set_payload_max_length(options.max_body);
  svr.set_read_timeout(60, 0);
  svr.set_write_timeout(60, 0);
  install_routes(svr, st);
  int port = options.port;
  if (port == 0) {
    port = svr.bind_to_any_port(options.host);
  } else if (!svr.bind_to_port(options.host, port)) {
    port = -1;
  }
  if (port < 0) throw std::runtime_error("cannot listen on " + options.host + ":" + std::to_string(options.port));
  std::fprintf(stderr, "sfcl: listening on http://%s:%d (loading %s)\n", options.host.c_str(), port,
               options.model_path.c_str());
  std::thread http([&] { svr.listen_after_bind(); });

  std::atomic<bool> stop_now{false};
  std::thread signals([&] {
    int sig = 0;
    sigwait(&set, &sig);
    std::fprintf(stderr, "sfcl: signal %d: draining (%d in flight)\n", sig, st.in_flight.load());
    st.draining = true;
    std::thread second([&] {
      int s2 = 0;
      sigwait(&set, &s2);
      std::fprintf(stderr, "sfcl: second signal: exiting now\n");
      std::_Exit(1);
    });
    second.detach();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(st.opt.drain_timeout_s);
    while (st.in_flight.load() > 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    stop_now = true;
    svr.stop();
  });

  try {
    st.model = engine::Model::load({options.model_path});
    if (!options.test_script.empty()) {
      st.script = std::make_shared<std::vector<engine::Token>>(st.model->tokenize(options.test_script, false, false));
    }
    st.scheduler = std::make_unique<Scheduler>(*st.model, options.scheduler);
    // Warm-up: one short generation through the real path before reporting ready.
    auto warm = std::make_shared<Job>();
    warm->prompt = st.model->tokenize("warm up", true, false);
    warm->options.max_tokens = 2;
    warm->options.mode = decode::Mode::off;
    warm->sources = std::make_shared<anchor::SourceIndex>();
    if (st.scheduler->submit(warm)) warm->channel.wait_finished();
    if (options.test_ready_delay_ms > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(options.test_ready_delay_ms));
    st.ready = true;
    std::fprintf(stderr, "sfcl: ready: %s, %d slots x %u tokens, sfcl mode %s\n", st.opt.model_id.c_str(),
                 options.scheduler.n_parallel, options.scheduler.n_ctx_per_slot,
                 std::string(decode::mode_name(options.mode)).c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    svr.stop();
    http.join();
    pthread_kill(signals.native_handle(), SIGTERM);  // NOLINT(bugprone-bad-signal-to-kill-thread): wakes its sigwait
    signals.join();
    return 2;
  }
  http.join();
  if (!stop_now) {
    pthread_kill(signals.native_handle(), SIGTERM);  // NOLINT(bugprone-bad-signal-to-kill-thread): wakes its sigwait
  }
  signals.join();
  st.scheduler->stop();
  std::fprintf(stderr, "sfcl: stopped\n");
  return 0;
}

}  // namespace sfcl::server
