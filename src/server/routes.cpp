#include "server/routes.h"

#include <set>

#include "report/report.h"
#include "server/admission.h"
#include "server/auth.h"
#include "server/dialect.h"
#include "server/http_util.h"
#include "server/stream.h"
#include "server/verdicts.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

void send_error(httplib::Response& res, Api api, const ApiError& e) { set_json(res, e.status, error_body(api, e)); }

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

void start_stream(State& st, const Dialect& dialect, const Admitted& a, ResponseInfo info, const std::string& endpoint,
                  httplib::Response& res) {
  const decode::Mode mode = a.req.options.mode;
  set_status_headers(res, st.opt.compat_headers, mode, stream_status(mode, !a.job->sources->empty()));
  res.set_header("Cache-Control", "no-cache");
  auto s = std::make_shared<Stream>();
  s->job = a.job;
  s->dialect = &dialect;
  s->info = std::move(info);
  s->mode = mode;
  s->ping_ms = st.opt.ping_interval_ms;
  s->key = st.key ? &*st.key : nullptr;
  res.set_chunked_content_provider(
      "text/event-stream", [s](size_t, httplib::DataSink& sink) { return stream_step(*s, sink); },
      [s, stp = &st, endpoint](bool) {
        JobChannel& ch = s->job->channel;
        if (!ch.is_finished()) ch.cancel();
        // A cancelled job ends at the scheduler's next step; the log line does not wait for it.
        log_request(*stp, s->info.id, endpoint, s->mode, ch.is_finished() ? &ch.wait_finished() : nullptr,
                    ch.cached_tokens(), s->start, true);
        --stp->in_flight;
      });
}

void handle_generation(State& st, Api api, const httplib::Request& http, httplib::Response& res) {
  const Dialect& dialect = dialect_for(api);
  if (!st.ready) throw ApiError(503, dialect.errors().unavailable, "model is loading");
  if (st.draining) throw ApiError(503, dialect.errors().unavailable, "server is shutting down");
  Admitted a = admit_request(st, api, http);
  if (!st.scheduler->submit(a.job)) {
    throw ApiError(
        429, "rate_limit_error",
        "the request queue is full (" + std::to_string(st.opt.scheduler.queue_limit) + " waiting); retry later");
  }
  const auto start = std::chrono::steady_clock::now();
  ResponseInfo info{random_id(dialect.id_prefix()), a.req.model, unix_now()};
  info.shape = a.job->shape;
  ++st.in_flight;
  if (a.req.stream) {
    start_stream(st, dialect, a, std::move(info), http.path, res);
    return;
  }
  struct Guard {
    State& st;
    ~Guard() { --st.in_flight; }
  } guard{st};
  const decode::Mode mode = a.req.options.mode;
  const JobOutcome& outcome = a.job->channel.wait_finished();
  const int32_t cached = a.job->channel.cached_tokens();
  if (!outcome.error.empty()) throw ApiError(500, dialect.errors().server, outcome.error);
  json out = dialect.response(info, outcome.result, cached);
  out["sfcl"] = final_sfcl(outcome.result, mode, true, st.key ? &*st.key : nullptr, info.id);
  set_status_headers(res, st.opt.compat_headers, mode, out["sfcl"]["status"].get<std::string>());
  if (st.key) {
    res.set_header("X-SFCL-Signature", out["sfcl"]["signature"].get<std::string>());
    res.set_header("X-SFCL-Request-Id", info.id);
  }
  set_json(res, 200, out);
  log_request(st, info.id, http.path, mode, &outcome, cached, start, false);
}

json parse_json_body(const std::string& body) {
  try {
    return json::parse(body);
  } catch (const json::exception& e) {
    throw ApiError(400, "invalid_request_error", std::string("invalid JSON body: ") + e.what());
  }
}

json models_list(const State& st) {
  const json m = {
      {"id", st.opt.model_id},
      {"object", "model"},
      {"type", "model"},
      {"created", unix_now()},
      {"created_at", "1970-01-01T00:00:00Z"},
      {"owned_by", "sfcl"},
      {"display_name", st.opt.model_id},
      {"sfcl", {{"mode", std::string(decode::mode_name(st.opt.mode))}, {"layer_status", layer_status(st.opt.mode)}}}};
  return {{"object", "list"},
          {"data", json::array({m})},
          {"has_more", false},
          {"first_id", st.opt.model_id},
          {"last_id", st.opt.model_id}};
}

void health(State& st, httplib::Response& r) {
  if (!st.ready) {
    set_json(r, 503, {{"status", "loading"}});
    return;
  }
  if (st.draining) {
    set_json(r, 503, {{"status", "draining"}});
    return;
  }
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

void install_error_handlers(httplib::Server& svr, State& st) {
  svr.set_pre_routing_handler([&st](const httplib::Request& req, httplib::Response& res) {
    if (st.opt.api_keys.empty() || req.path == "/health") return httplib::Server::HandlerResponse::Unhandled;
    const std::string key = presented_key(req);
    if (!key.empty() && key_matches(key, st.opt.api_keys)) return httplib::Server::HandlerResponse::Unhandled;
    const Api api = api_of_path(req.path);
    send_error(res, api,
               ApiError(401, dialect_for(api).errors().auth,
                        key.empty() ? "missing API key (x-api-key or Authorization: Bearer)" : "invalid API key"));
    return httplib::Server::HandlerResponse::Handled;
  });
  svr.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    const Api api = api_of_path(req.path);
    if (res.status == 413) {
      send_error(res, api,
                 ApiError(413, dialect_for(api).errors().too_large, "request body is larger than the server's limit"));
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
    const Api api = api_of_path(req.path);
    send_error(res, api, ApiError(500, dialect_for(api).errors().server, "internal error"));
  });
  svr.set_logger([&st](const httplib::Request& req, const httplib::Response& res) {
    static const std::set<std::string> known = {
        "/v1/messages", "/v1/messages/count_tokens", "/v1/chat/completions", "/v1/completions", "/v1/models", "/health",
        "/metrics",     "/v1/sfcl/public-key"};
    st.metrics->request(known.count(req.path) ? req.path : "other", res.status);
  });
}

}  // namespace

void install_routes(httplib::Server& svr, State& st) {
  auto guarded = [](Api api, auto&& fn) {
    return [api, fn](const httplib::Request& req, httplib::Response& res) {
      try {
        fn(req, res);
      } catch (const ApiError& e) {
        send_error(res, api, e);
      } catch (const std::exception& e) {
        send_error(res, api, ApiError(500, dialect_for(api).errors().server, e.what()));
      }
    };
  };
  for (const auto& [path, api] :
       {std::pair{"/v1/messages", Api::anthropic}, std::pair{"/v1/chat/completions", Api::openai_chat},
        std::pair{"/v1/completions", Api::openai_completions}}) {
    svr.Post(path, guarded(api, [&st, api = api](const httplib::Request& q, httplib::Response& r) {
               handle_generation(st, api, q, r);
             }));
  }
  svr.Post("/v1/messages/count_tokens", guarded(Api::anthropic, [&st](const httplib::Request& q, httplib::Response& r) {
             if (!st.ready) throw ApiError(503, "overloaded_error", "model is loading");
             const GenerationRequest req = parse_count_tokens(parse_json_body(q.body), st.opt);
             set_json(r, 200, {{"input_tokens", tokenize_request(st, req).size()}});
           }));
  svr.Get("/v1/models", [&st](const httplib::Request&, httplib::Response& r) { set_json(r, 200, models_list(st)); });
  svr.Get("/health", [&st](const httplib::Request&, httplib::Response& r) { health(st, r); });
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
  install_error_handlers(svr, st);
}

}  // namespace sfcl::server
