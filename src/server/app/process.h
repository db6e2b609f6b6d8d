// What every sfcl process that serves the API sets up around its schedulers (`sfcl serve`, and
// `sfcl gateway` in front of remote engines): the services State holds, the HTTP transport's
// limits and hooks, and shutdown on SIGTERM/SIGINT (drain, then stop).
#pragma once
#include <signal.h>

#include <cstdint>
#include <thread>

#include "server/app/state.h"
#include "server/http/router.h"
#include "server/http/server.h"

namespace sfcl::server {

// The log pattern, metrics, signing key and knowledge base that st.opt asks for.
void start_services(State& st);

// The transport's limits from the options: generation handlers block for their whole answer, so a
// worker per admitted request (st.opt.scheduler's slots + queue) and a few more that keep /health
// and the refusals quick, at most `max_workers`.
http::Limits http_limits(const ServerOptions& o, int32_t max_workers);

// Screening, routing, refusals in each API's error shape, and the access log.
http::Hooks http_hooks(State& st, const http::Router& routes);

void stop_schedulers(State& st);

// SIGTERM and SIGINT, taken by one thread (sigwait). The first drains: new work is refused,
// in-flight responses finish until --drain-timeout, those left are ended through their schedulers
// (an error in their API's shape), and the HTTP server stops. A second signal exits at once.
class ShutdownSignals {
 public:
  // Blocks both signals in this thread and every thread it starts later: construct it first.
  // After start(), wait() or abort() must run before it is destroyed.
  ShutdownSignals();
  ShutdownSignals(const ShutdownSignals&) = delete;
  ShutdownSignals& operator=(const ShutdownSignals&) = delete;

  // Nothing was started (the port could not be bound): the signals are delivered again.
  void release();
  void start(State& st, http::Server& svr);
  // Startup failed after start(): shuts down as a signal would, and waits for it.
  void abort();
  // Serving until a signal has drained and stopped the server.
  void wait();

 private:
  sigset_t set_{};
  std::thread thread_;
};

}  // namespace sfcl::server
