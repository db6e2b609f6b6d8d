#include "server/app/routes.h"

#include "report/report.h"
#include "server/api/dialect.h"
#include "server/api/stream.h"
#include "server/api/verdicts.h"
#include "server/app/access.h"
#include "server/app/admission.h"
#include "server/app/choices.h"
#include "server/app/llama_routes.h"
#include "server/app/lora.h"
#include "server/app/ui.h"
#include "server/http/auth.h"
#include "server/http/http_util.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

void send_error(http::Response& res, Api api, const ApiError& e) {
  set_json(res, e.status, error_body(api, e));
  if (e.status == 429 || e.status == 503) res.set_header("Retry-After", "1");
}

// One line per request; `outcome` is null when the client went away before the job ended.
void log_request(const State& st, const std::string& id, const std::string& endpoint, decode::Mode mode,
                 const JobOutcome* outcome, int32_t cached_tokens, std::chrono::steady_clock::time_point start,
                 bool stream) {
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
            {"anchors", report::anchor_count(r)},
            {"backtracks", r.stats.backtracks},
            {"latency_ms", static_cast<int64_t>(ms)},
            {"sfcl_status", outcome != nullptr ? report::status_line(r, mode) : "cancelled"}});
}

// What a stream sent, kept for the answer cache while it fits the cache's budget.
struct KeptStream {
  std::string bytes;
  bool too_large = false;
};

// A stream passed through to the client and kept; `whole` gets what was kept just before the stream's end
// is written, so that a client asking again at once finds it stored.
template <class Whole>
class RecordingSink : public http::StreamSink {
 public:
  RecordingSink(http::StreamSink& to, KeptStream& kept, size_t max_bytes, Whole& whole)
      : to_(to), kept_(kept), max_(max_bytes), whole_(whole) {}
  bool write(const char* data, size_t size) override {
    if (!kept_.too_large && kept_.bytes.size() + size <= max_) {
      kept_.bytes.append(data, size);
    } else {
      kept_.too_large = true;
      kept_.bytes.clear();
    }
    return to_.write(data, size);
  }
  void done() override {
    if (!kept_.too_large && !kept_.bytes.empty()) whole_(std::move(kept_.bytes));
    to_.done();
  }

 private:
  http::StreamSink& to_;
  KeptStream& kept_;
  size_t max_;
  Whole& whole_;
};

// Answers from the answer cache when `key` is there (X-SFCL-Cache: hit); false when it is not.
bool serve_cached(State& st, const std::string& key, const http::Request& http, bool stream, http::Response& res) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<AnswerCache::Answer> hit = st.answers->find(key);
  if (!hit) return false;
  for (auto& [name, value] : hit->headers) res.set_header(std::move(name), std::move(value));
  res.set_header("X-SFCL-Cache", "hit");
  res.set_content(std::move(hit->body), std::move(hit->content_type));
  res.logged = true;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  log_line(st, spdlog::level::info, "request",
           {{"endpoint", http.path}, {"stream", stream}, {"outcome", "cache_hit"}, {"latency_ms", ms}});
  return true;
}

// A completed answer's bytes into the answer cache, with the headers the handler set.
void keep_answer(State& st, const std::string& key, const http::Headers& sent, std::string body,
                 std::string content_type) {
  http::Headers headers;
  for (const auto& [name, value] : sent) {
    if (name != "X-SFCL-Cache") headers.emplace_back(name, value);
  }
  st.answers->store(key, {std::move(content_type), std::move(body), std::move(headers)});
}

void start_stream(State& st, const Dialect& dialect, const Admitted& a, ResponseInfo info, const std::string& endpoint,
                  const std::string& cache_key, http::Response& res) {
  res.logged = true;  // the stream's end writes the request's log line
  const decode::Mode mode = a.req.options.mode;
  set_status_headers(res, st.opt.compat_headers, mode, stream_status(mode, !a.job->sources->empty()));
  res.set_header("X-SFCL-Model", a.model->spec.id);
  res.set_header("Cache-Control", "no-cache");
  auto s = std::make_shared<Stream>();
  s->job = a.job;
  s->dialect = &dialect;
  s->info = std::move(info);
  s->mode = mode;
  s->ping_ms = st.opt.ping_interval_ms;
  s->key = st.key ? &*st.key : nullptr;
  // A client that leaves while text is held back is noticed at once, not at the next write.
  res.on_client_gone = [job = a.job] { job->channel.cancel(); };
  // With a cache key, what the client receives is kept, and stored once the answer completed.
  auto kept = cache_key.empty() ? nullptr : std::make_shared<KeptStream>();
  const size_t keep_max = st.answers ? st.answers->max_bytes() : 0;
  auto headers = std::make_shared<http::Headers>(kept ? res.headers : http::Headers{});
  res.set_chunked_content_provider(
      "text/event-stream",
      [s, stp = &st, kept, keep_max, headers, cache_key](http::StreamSink& sink) {
        if (!kept) return stream_step(*s, sink);
        auto whole = [&](std::string bytes) {
          const JobOutcome& outcome = s->job->channel.wait_finished();  // the stream ends only on an outcome
          if (outcome.error.empty() && !outcome.cancelled) {
            keep_answer(*stp, cache_key, *headers, std::move(bytes), "text/event-stream");
          }
        };
        RecordingSink recording(sink, *kept, keep_max, whole);
        return stream_step(*s, recording);
      },
      [s, stp = &st, endpoint](bool) {
        JobChannel& ch = s->job->channel;
        if (!ch.is_finished()) ch.cancel();
        const JobOutcome* outcome = ch.is_finished() ? &ch.wait_finished() : nullptr;
        // A cancelled job ends at the scheduler's next step; the log line does not wait for it.
        log_request(*stp, s->info.id, endpoint, s->mode, outcome, ch.cached_tokens(), s->start, true);
        --stp->in_flight;
      });
}

void handle_generation(State& st, Api api, const http::Request& http, http::Response& res) {
  const Dialect& dialect = dialect_for(api);
  if (!st.ready) throw ApiError(503, dialect.errors().unavailable, "model is loading");
  if (st.draining) throw ApiError(503, dialect.errors().unavailable, "server is shutting down");
  Admitted a = admit_request(st, api, http);
  if (const std::string why = a.model->scheduler->unavailable(); !why.empty()) {
    throw ApiError(503, dialect.errors().unavailable, why);
  }
  const std::string cache_key = st.answers ? answer_key(http, a.model->spec.id, a.req, a.job->lora) : "";
  if (!cache_key.empty()) {
    if (serve_cached(st, cache_key, http, a.req.stream, res)) return;
    res.set_header("X-SFCL-Cache", "miss");
  }
  if (a.req.n > 1) {  // OpenAI n: server/app/choices.cpp
    handle_choices(st, dialect, a, http, res);
    return;
  }
  if (!a.model->scheduler->submit(a.job)) {
    throw ApiError(
        429, "rate_limit_error",
        "the request queue is full (" + std::to_string(st.opt.scheduler.queue_limit) + " waiting); retry later");
  }
  const auto start = std::chrono::steady_clock::now();
  ResponseInfo info{random_id(dialect.id_prefix()), a.req.model, unix_now(), a.req.include_usage};
  if (&dialect == &llama_completion_dialect()) {
    info.settings =
        std::make_shared<const nlohmann::json>(llama_generation_settings(a.req, a.job->logit_bias, a.job->lora));
  }
  info.shape = a.job->shape;
  info.timings = a.job->timings_per_token;
  ++st.in_flight;
  if (a.req.stream) {
    start_stream(st, dialect, a, std::move(info), http.path, cache_key, res);
    return;
  }
  struct Guard {
    State& st;
    ~Guard() { --st.in_flight; }
  } guard{st};
  const decode::Mode mode = a.req.options.mode;
  // The client may leave while the decode thread works: then the job is cancelled (the
  // scheduler frees the slot at its next step) instead of generating for nobody.
  const JobOutcome* done = nullptr;
  while ((done = a.job->channel.wait_finished_for(std::chrono::milliseconds(100))) == nullptr) {
    if (http.client_gone()) {
      a.job->channel.cancel();
      res.status = 499;
      res.logged = true;
      log_request(st, info.id, http.path, mode, nullptr, 0, start, false);
      return;
    }
  }
  const JobOutcome& outcome = *done;
  const int32_t cached = a.job->channel.cached_tokens();
  if (!outcome.error.empty()) throw outcome_error(dialect, outcome);
  json out = dialect.response(info, outcome.result, cached);
  SignContext sign{info.id, info.model, info.created, a.job->request_sha256};
  sign.blocks = body_blocks(out, 0);  // as delivered: tool calls and thinking are blocks of their own
  out["sfcl"] = final_sfcl(outcome.result, mode, true, st.key ? &*st.key : nullptr, sign);
  set_status_headers(res, st.opt.compat_headers, mode, out["sfcl"]["status"].get<std::string>());
  res.set_header("X-SFCL-Model", a.model->spec.id);
  if (st.key) {
    res.set_header("X-SFCL-Signature", out["sfcl"]["signature"].get<std::string>());
    res.set_header("X-SFCL-Request-Id", info.id);
  }
  set_json(res, 200, a.req.response_fields.empty() ? out : llama_response_fields(a.req.response_fields, out));
  if (!cache_key.empty()) keep_answer(st, cache_key, res.headers, res.body, "application/json");
  res.logged = true;
  log_request(st, info.id, http.path, mode, &outcome, cached, start, false);
}

json models_list(const State& st) {
  json data = json::array();
  for (const auto& m : st.models) data.push_back(model_object(st, *m));
  return {{"object", "list"},
          {"data", std::move(data)},
          {"has_more", false},
          {"first_id", st.models.front()->spec.id},
          {"last_id", st.models.back()->spec.id}};
}

// Busy slots and queued requests over every model.
SchedulerStats load_of(const State& st) {
  SchedulerStats all;
  for (const auto& m : st.models) {
    if (!m->scheduler) continue;
    const SchedulerStats s = m->scheduler->stats();
    all.busy_slots += s.busy_slots;
    all.queued += s.queued;
    all.cache_hits += s.cache_hits;
    all.cache_restored_tokens += s.cache_restored_tokens;
    all.cache_bytes += s.cache_bytes;
    all.cache_entries += s.cache_entries;
    all.decodes += s.decodes;
    all.slots_fed += s.slots_fed;
    all.decode_ns += s.decode_ns;
    all.token_work_ns += s.token_work_ns;
    all.token_work_cpu_ns += s.token_work_cpu_ns;
    all.token_steps += s.token_steps;
    all.longest_sequence = std::max(all.longest_sequence, s.longest_sequence);
  }
  return all;
}

void health(State& st, http::Response& r) {
  if (!st.ready) {
    set_json(r, 503, {{"status", "loading"}});
    r.set_header("Retry-After", "1");
    return;
  }
  if (st.draining) {
    set_json(r, 503, {{"status", "draining"}});
    r.set_header("Retry-After", "1");
    return;
  }
  for (const auto& m : st.models) {
    if (std::string why = m->scheduler->unavailable(); !why.empty()) {
      set_json(r, 503, {{"status", "unavailable"}, {"reason", std::move(why)}});
      r.set_header("Retry-After", "1");
      return;
    }
  }
  const SchedulerStats s = load_of(st);
  const bool degraded = st.metrics->degraded();
  if (degraded != st.was_degraded.exchange(degraded)) {
    log_line(st, degraded ? spdlog::level::warn : spdlog::level::info,
             degraded ? "drift monitor: degraded" : "drift monitor: recovered", {{"drift", st.metrics->drift()}});
  }
  json body = {{"status", degraded ? "degraded" : "ok"},
               {"slots", st.opt.scheduler.n_parallel * static_cast<int32_t>(st.models.size())},
               {"slots_busy", s.busy_slots},
               {"queue", s.queued},
               {"confidence_drift", st.metrics->drift()}};
  if (st.answers) {
    const AnswerCache::Stats c = st.answers->stats();
    body["answer_cache"] = {{"entries", c.entries}, {"bytes", c.bytes}, {"hits", c.hits}, {"misses", c.misses}};
  }
  if (st.models.size() > 1) {  // each model has its own slots and queue
    json models = json::array();
    for (const auto& m : st.models) {
      const SchedulerStats ms = m->scheduler->stats();
      models.push_back({{"id", m->spec.id},
                        {"slots", st.opt.scheduler.n_parallel},
                        {"slots_busy", ms.busy_slots},
                        {"queue", ms.queued}});
    }
    body["models"] = std::move(models);
  }
  set_json(r, 200, body);
}

// A handler whose exceptions become the API's error shape: every route answers, none throws.
template <typename Fn>
http::Handler guarded(Api api, Fn fn) {
  return [api, fn](const http::Request& req, http::Response& res) {
    try {
      fn(req, res);
    } catch (const ApiError& e) {
      send_error(res, api, e);
    } catch (const std::bad_alloc&) {
      send_error(res, api, ApiError(503, dialect_for(api).errors().unavailable, "out of memory for this request"));
    } catch (const nlohmann::json::exception&) {
      send_error(res, api, ApiError(400, "invalid_request_error", "a request field has a type this server cannot use"));
    } catch (const std::exception& e) {
      send_error(res, api, ApiError(500, dialect_for(api).errors().server, e.what()));
    }
  };
}

// The generation endpoints of every dialect, and Anthropic's token count. Without /v1, /completions
// is llama-server's native /completion, as llama-server routes it.
void install_generation_routes(http::Router& svr, State& st) {
  for (const auto& [path, api] :
       {std::pair{"/v1/messages", Api::anthropic}, std::pair{"/v1/chat/completions", Api::openai_chat},
        std::pair{"/v1/completions", Api::openai_completions}, std::pair{"/chat/completions", Api::openai_chat},
        std::pair{"/completions", Api::llama_completion}, std::pair{"/v1/responses", Api::openai_responses},
        std::pair{"/responses", Api::openai_responses}, std::pair{"/completion", Api::llama_completion},
        std::pair{"/infill", Api::llama_completion}}) {
    svr.Post(path, guarded(api, [&st, api = api](const http::Request& q, http::Response& r) {
               handle_generation(st, api, q, r);
             }));
  }
  for (const auto& [path, api] : {std::pair{"/v1/messages/count_tokens", Api::anthropic},
                                  std::pair{"/v1/chat/completions/input_tokens", Api::openai_chat},
                                  std::pair{"/chat/completions/input_tokens", Api::openai_chat},
                                  std::pair{"/v1/responses/input_tokens", Api::openai_responses},
                                  std::pair{"/responses/input_tokens", Api::openai_responses}}) {
    svr.Post(path, guarded(api, [&st, api = api](const http::Request& q, http::Response& r) {
               if (!st.ready) throw ApiError(503, dialect_for(api).errors().unavailable, "model is loading");
               const ClientWork::Lease work = client_work_lease(st, api, q);
               set_json(r, 200, count_input_tokens(st, api, parse_body_json(q.body)));
             }));
  }
}

// Models, llama-server's own endpoints and embeddings.
void install_model_routes(http::Router& svr, State& st) {
  for (const char* path : {"/v1/models", "/models"}) {
    svr.Get(path, [&st](const http::Request&, http::Response& r) { set_json(r, 200, models_list(st)); });
  }
  // llama-server's conventions (server/app/llama_routes.h).
  for (const char* prefix : {"/v1/models/", "/models/"}) {
    svr.GetPrefix(prefix, guarded(Api::openai_chat, [&st, prefix](const http::Request& q, http::Response& r) {
                    set_json(r, 200, model_by_id(st, q.path.substr(std::string_view(prefix).size())));
                  }));
  }
  svr.Get("/props", guarded(Api::openai_chat, [&st](const http::Request& q, http::Response& r) {
            set_json(r, 200, props(st, q.target));
          }));
  svr.Get("/slots", guarded(Api::openai_chat, [&st](const http::Request& q, http::Response& r) {
            set_json(r, 200, slots(st, q.target));
          }));
  svr.PostPrefix("/slots/", guarded(Api::openai_chat, [&st](const http::Request& q, http::Response& r) {
                   set_json(r, 200,
                            slot_action(st, q.path.substr(std::string_view("/slots/").size()), q.target, q.body));
                 }));
  svr.Get("/lora-adapters", guarded(Api::openai_chat, [&st](const http::Request&, http::Response& r) {
            set_json(r, 200, lora_adapters(st));
          }));
  svr.Post("/lora-adapters", guarded(Api::openai_chat, [&st](const http::Request& q, http::Response& r) {
             set_json(r, 200, set_lora_adapters(st, parse_body_json(q.body)));
           }));
  for (const auto& [path, route] : llama_post_routes()) {
    svr.Post(path, guarded(Api::openai_chat, [&st, route = route](const http::Request& q, http::Response& r) {
               const ClientWork::Lease work = client_work_lease(st, Api::openai_chat, q);
               r.status = 200;
               r.set_content(route(st, parse_body_json(q.body)), "application/json");
             }));
  }
  // Embeddings (server/app/embeddings.h): OpenAI's shape, and llama-server's native one.
  svr.Post("/v1/embeddings", guarded(Api::openai_chat, [&st](const http::Request& q, http::Response& r) {
             handle_embeddings(st, q, r, true);
           }));
  for (const char* path : {"/embedding", "/embeddings"}) {
    svr.Post(path, guarded(Api::openai_chat,
                           [&st](const http::Request& q, http::Response& r) { handle_embeddings(st, q, r, false); }));
  }
}

// Health, metrics, the signing key and the playground.
void install_service_routes(http::Router& svr, State& st) {
  svr.Get("/health", [&st](const http::Request&, http::Response& r) { health(st, r); });
  svr.Get("/metrics", [&st](const http::Request&, http::Response& r) {
    if (!st.opt.metrics) {
      send_error(r, Api::openai_chat,
                 ApiError(501, "not_supported_error",
                          "this server does not serve metrics (started with --no-metrics); start it with --metrics"));
      return;
    }
    // The models' schedulers and weights are written by the loader until `ready`: read them after.
    if (st.ready.load()) {
      const SchedulerStats s = load_of(st);
      st.metrics->set_load(s.busy_slots, s.queued);
      st.metrics->set_decode(s.decodes, s.slots_fed, s.longest_sequence);
      st.metrics->set_step_time(s.decode_ns, s.token_work_ns, s.token_work_cpu_ns, s.token_steps);
      st.metrics->set_host_cache(s.cache_hits, s.cache_restored_tokens, s.cache_bytes, s.cache_entries);
      int64_t reused = 0;
      for (const auto& m : st.models) {
        if (m->model) reused += static_cast<int64_t>(m->model->chat_renders_reused());
      }
      st.metrics->set_renders_reused(reused);
    }
    r.set_header(
        "Process-Start-Time-Unix",
        std::to_string(std::chrono::duration_cast<std::chrono::seconds>(st.started.time_since_epoch()).count()));
    r.set_content(st.metrics->serialize(), "text/plain; version=0.0.4; charset=utf-8");
  });
  svr.Get("/v1/sfcl/public-key", [&st](const http::Request&, http::Response& r) {
    if (!st.key) {
      send_error(r, Api::anthropic,
                 ApiError(404, "not_found_error", "this server does not sign verdicts (no --sign-key)"));
      return;
    }
    set_json(r, 200,
             {{"algorithm", "ed25519"},
              {"public_key", to_hex(st.key->public_key.data(), st.key->public_key.size())},
              {"signed_message", "sfcl-signature-v2\\n<canonical JSON of sfcl.signed>"}});
  });
  if (st.opt.ui) {
    const http::Handler asset = [](const http::Request& q, http::Response& r) {
      if (const auto a = ui_asset(q.path)) {
        r.set_content(std::string(a->body.data(), a->body.size()), std::string(a->content_type));
      } else {
        send_error(r, Api::openai_chat, ApiError(404, "not_found_error", "no such page: " + q.path));
      }
    };
    svr.Get("/", asset);
    svr.GetPrefix("/ui/", asset);
  }
}

}  // namespace

void install_routes(http::Router& svr, State& st) {
  install_generation_routes(svr, st);
  install_model_routes(svr, st);
  install_service_routes(svr, st);
}

void dispatch(const http::Router& routes, State& st, const http::Request& req, http::Response& res) {
  http::Router::Match match = http::Router::Match::found;
  std::string allow;
  const http::Handler* handler = routes.find(req, match, allow);
  const Api api = api_of_path(req.path);
  try {
    if (handler != nullptr) {
      (*handler)(req, res);
    } else if (match == http::Router::Match::no_method) {
      send_error(res, api,
                 ApiError(405, "invalid_request_error", "method " + req.method + " not allowed on " + req.path));
      res.set_header("Allow", allow);
    } else {
      send_error(res, api, ApiError(404, "not_found_error", "no route for " + req.method + " " + req.path));
    }
  } catch (const std::exception&) {
    send_error(res, api, ApiError(500, dialect_for(api).errors().server, "internal error"));
  }
  add_cors_headers(st, req, res);
}

void log_http(State& st, const http::Request& req, const http::Response& res,
              std::chrono::steady_clock::duration took) {
  st.metrics->request(req.path.empty() ? "other" : metrics_path(req.path), res.status);
  if (res.logged) return;
  // No keys, no bodies: method, path without the query, status, time, peer.
  const double ms = std::chrono::duration<double, std::milli>(took).count();
  log_line(st, res.status >= 500 ? spdlog::level::warn : spdlog::level::info, "http",
           {{"method", req.method.empty() ? "-" : req.method},
            {"path", req.path.empty() ? "-" : req.path},
            {"status", res.status},
            {"latency_ms", static_cast<int64_t>(ms)},
            {"remote", req.remote}});
}

}  // namespace sfcl::server
