#include "server/app/process.h"

#include <cstdio>

#include "server/api/dialect.h"
#include "server/app/access.h"
#include "server/app/routes.h"

namespace sfcl::server {

using Clock = std::chrono::steady_clock;

void start_services(State& st) {
  spdlog::set_pattern(st.opt.log_format == "json" ? "%v" : "[%Y-%m-%d %H:%M:%S.%e] [%l] %v");
  st.metrics = std::make_unique<metrics::Metrics>(st.opt.checks.mode, st.opt.drift_threshold);
  if (!st.opt.sign_key_path.empty()) st.key = load_signing_key(st.opt.sign_key_path);
  if (st.opt.answer_cache_mib > 0) {
    st.answers =
        std::make_unique<AnswerCache>(static_cast<size_t>(st.opt.answer_cache_mib) << 20, st.opt.answer_cache_ttl_s);
  }
  if (!st.opt.kb_path.empty()) {
    auto kb = std::make_shared<anchor::SourceIndex>();
    kb->add_knowledge(anchor::load_knowledge(st.opt.kb_path));
    st.kb = std::move(kb);
  }
}

http::Limits http_limits(const ServerOptions& o, int32_t max_workers) {
  http::Limits l;
  l.max_body = o.max_body;
  l.max_header_bytes = o.max_header_bytes;
  l.max_headers = static_cast<size_t>(std::max(1, o.max_headers));
  l.max_connections = std::max(1, o.max_connections);
  l.header_timeout_s = o.header_timeout_s;
  l.idle_timeout_s = o.idle_timeout_s;
  l.body_timeout_s = o.body_timeout_s;
  l.write_timeout_s = o.write_timeout_s;
  l.workers = std::min(o.scheduler.n_parallel + o.scheduler.queue_limit + 8, max_workers);
  return l;
}

http::Hooks http_hooks(State& st, const http::Router& routes) {
  http::Hooks h;
  h.before_body = [&st](const http::Request& req, http::Response& res) { return screen_request(st, req, res); };
  h.handle = [&st, &routes](http::Request& req, http::Response& res) { dispatch(routes, st, req, res); };
  h.reject = [&st](const http::Request& req, int status, const std::string& message) {
    const ErrorTypes& types = dialect_for(api_of_path(req.path)).errors();
    const std::string type = status == 413   ? types.too_large
                             : status == 503 ? types.unavailable
                             : status >= 500 ? types.server
                                             : "invalid_request_error";
    http::Response res;
    send_api_error(res, req.path, status, type, message);
    add_cors_headers(st, req, res);
    return res;
  };
  h.log = [&st](const http::Request& req, const http::Response& res, Clock::duration took) {
    log_http(st, req, res, took);
  };
  return h;
}

void stop_schedulers(State& st) {
  for (auto& m : st.models) {
    if (m->scheduler) m->scheduler->stop();
  }
}

ShutdownSignals::ShutdownSignals() {
  sigemptyset(&set_);
  sigaddset(&set_, SIGTERM);
  sigaddset(&set_, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set_, nullptr);
}

void ShutdownSignals::release() { pthread_sigmask(SIG_UNBLOCK, &set_, nullptr); }

void ShutdownSignals::start(State& st, http::Server& svr) {
  thread_ = std::thread([this, &st, &svr] {
    int sig = 0;
    sigwait(&set_, &sig);
    std::fprintf(stderr, "sfcl: signal %d: draining (%d in flight)\n", sig, st.in_flight.load());
    st.draining = true;
    std::thread second([this] {
      int s2 = 0;
      sigwait(&set_, &s2);
      std::fprintf(stderr, "sfcl: second signal: exiting now\n");
      std::_Exit(1);
    });
    second.detach();
    const auto drain =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(st.opt.drain_timeout_s));
    const auto deadline = Clock::now() + drain;
    // What is still running a little before the deadline is ended by stopping the scheduler:
    // each job fails, so a stream ends with its API's error event and a waiting request with a
    // 500, rather than the connection just closing; the rest of the time writes those out.
    const auto cut = deadline - std::min<Clock::duration>(std::chrono::milliseconds(500), drain / 4);
    while (st.in_flight.load() > 0 && Clock::now() < cut) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (st.in_flight.load() > 0 && st.ready.load()) {
      std::fprintf(stderr, "sfcl: drain timeout: ending %d responses\n", st.in_flight.load());
      stop_schedulers(st);
      while (st.in_flight.load() > 0 && Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    // Whatever still holds a worker past the deadline does not hold the process.
    std::thread watchdog([deadline] {
      std::this_thread::sleep_until(deadline + std::chrono::milliseconds(500));
      std::fprintf(stderr, "sfcl: drain timeout passed: exiting now\n");
      std::_Exit(1);
    });
    watchdog.detach();
    svr.stop();
  });
}

void ShutdownSignals::abort() {
  pthread_kill(thread_.native_handle(), SIGTERM);  // NOLINT(bugprone-bad-signal-to-kill-thread): wakes its sigwait
  thread_.join();
}

void ShutdownSignals::wait() { thread_.join(); }

}  // namespace sfcl::server
