// Process lifecycle of `sfcl gateway`: as `sfcl serve` (server/lifecycle.cpp), with the backends
// learnt and checked instead of a model loaded.
#include "gateway/gateway.h"

#include <signal.h>
#include <sodium.h>

#include <cstdio>
#include <filesystem>
#include <thread>

#include "server/access.h"
#include "server/dialect.h"
#include "server/http/server.h"
#include "server/routes.h"
#include "server/state.h"

namespace sfcl::gateway {

const char* const kTokenizerProbe =
    "Invoice INV-2024-7966: $12,500.00 due June 15, 2024 (5.9%).\n发票号码 天津宏达建设集团 <b>x</b>";

namespace {

using server::State;
using Clock = std::chrono::steady_clock;

server::http::Limits limits_of(const server::ServerOptions& o, int32_t slots, int32_t queue) {
  server::http::Limits l;
  l.max_body = o.max_body;
  l.max_header_bytes = o.max_header_bytes;
  l.max_headers = static_cast<size_t>(std::max(1, o.max_headers));
  l.max_connections = std::max(1, o.max_connections);
  l.header_timeout_s = o.header_timeout_s;
  l.idle_timeout_s = o.idle_timeout_s;
  l.body_timeout_s = o.body_timeout_s;
  l.write_timeout_s = o.write_timeout_s;
  // Generation handlers block for their whole answer: a thread per admitted request, and a few
  // more keep /health and the refusals quick.
  l.workers = std::min(slots + queue + 8, 1024);
  return l;
}

server::http::Hooks hooks_of(State& st, const server::http::Router& routes) {
  server::http::Hooks h;
  h.before_body = [&st](const server::http::Request& req, server::http::Response& res) {
    return server::screen_request(st, req, res);
  };
  h.handle = [&st, &routes](server::http::Request& req, server::http::Response& res) {
    server::dispatch(routes, st, req, res);
  };
  h.reject = [&st](const server::http::Request& req, int status, const std::string& message) {
    const server::ErrorTypes& types = server::dialect_for(server::api_of_path(req.path)).errors();
    const std::string type = status == 413   ? types.too_large
                             : status == 503 ? types.unavailable
                             : status >= 500 ? types.server
                                             : "invalid_request_error";
    server::http::Response res;
    server::send_api_error(res, req.path, status, type, message);
    server::add_cors_headers(st, req, res);
    return res;
  };
  h.log = [&st](const server::http::Request& req, const server::http::Response& res, Clock::duration took) {
    server::log_http(st, req, res, took);
  };
  return h;
}

// The first backend to answer /props, within the startup timeout.
BackendInfo learn(const std::vector<BackendAddress>& backends, double timeout_s, double call_timeout_s) {
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  std::string last;
  while (true) {
    for (const auto& a : backends) {
      try {
        BackendClient c(a, call_timeout_s);
        return c.props();
      } catch (const std::exception& e) {
        last = e.what();
      }
    }
    if (Clock::now() >= deadline) throw std::runtime_error("no backend answered at startup: " + last);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

// Every backend that answers must tokenise as the local vocabulary does: the loop detokenises the
// backends' tokens and sends them token prompts.
void check_tokenizers(const engine::Model& vocab, const std::vector<BackendAddress>& backends, double call_timeout_s) {
  const std::vector<Token> want = vocab.tokenize(kTokenizerProbe, false, false);
  for (const auto& a : backends) {
    BackendClient c(a, call_timeout_s);
    std::vector<Token> got;
    try {
      got = c.tokenize(kTokenizerProbe);
    } catch (const std::exception&) {
      continue;  // down now: the health checks bring it in later
    }
    if (got != want) {
      throw std::runtime_error("backend " + a.url + " tokenises differently from --tokenizer (" +
                               std::to_string(got.size()) + " tokens vs " + std::to_string(want.size()) +
                               " for the probe text): give the GGUF of the model the backends serve");
    }
  }
}

nlohmann::json backends_json(const Pool& pool, const RemoteScheduler& sched) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& b : pool.status()) {
    list.push_back({{"url", b.url},
                    {"healthy", b.healthy},
                    {"outstanding", b.outstanding},
                    {"requests", b.requests},
                    {"failures", b.failures}});
  }
  const GatewayCounters c = sched.counters();
  return {{"backends", list},
          {"calls", c.calls},
          {"constrained_calls", c.constrained_calls},
          {"rewinds", c.rewinds},
          {"rewind_calls", c.rewind_calls},
          {"rewind_ms_total", static_cast<double>(c.rewind_ns) / 1e6},
          {"failovers", c.failovers},
          {"tokens", c.tokens},
          {"local_tokens", c.local_tokens}};
}

}  // namespace

int run_gateway(const GatewayOptions& options) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not initialise");
  if (options.backends.empty()) throw std::invalid_argument("at least one --backend is required");
  std::vector<BackendAddress> addresses;
  for (const auto& url : options.backends) addresses.push_back(parse_backend_url(url));

  // The backends' model and template first: its id names the served model before anything listens.
  BackendInfo info;
  try {
    info = learn(addresses, options.startup_timeout_s, options.pool.timeout_s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    return 2;
  }

  State st;
  st.opt = options.server;
  if (st.opt.models.empty()) st.opt.models.emplace_back();
  auto planned = std::make_unique<server::ServedModel>();
  planned->spec = st.opt.models.front();
  planned->spec.path = options.tokenizer;
  if (planned->spec.id.empty()) {
    planned->spec.id = std::filesystem::path(info.model.empty() ? options.tokenizer : info.model).stem().string();
  }
  planned->mode = server::mode_of(st.opt, planned->spec);
  server::ServedModel& served = *planned;
  st.models.push_back(std::move(planned));
  spdlog::set_pattern(options.server.log_format == "json" ? "%v" : "[%Y-%m-%d %H:%M:%S.%e] [%l] %v");
  st.metrics = std::make_unique<metrics::Metrics>(st.opt.mode, st.opt.drift_threshold);
  if (!st.opt.sign_key_path.empty()) st.key = server::load_signing_key(st.opt.sign_key_path);
  if (!st.opt.kb_path.empty()) {
    auto kb = std::make_shared<anchor::SourceIndex>();
    kb->add_knowledge(anchor::load_knowledge(st.opt.kb_path));
    st.kb = std::move(kb);
  }
  const int32_t slots = static_cast<int32_t>(addresses.size()) * options.pool.slots_per_backend;
  st.opt.scheduler.n_parallel = slots;
  st.opt.scheduler.queue_limit = options.remote.queue_limit;

  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);

  server::http::Router routes;
  server::install_routes(routes, st);
  std::unique_ptr<Pool> pool;
  RemoteScheduler* remote = nullptr;
  routes.Get("/v1/gateway/backends", [&](const server::http::Request&, server::http::Response& res) {
    if (pool == nullptr || remote == nullptr) {
      res.status = 503;
      res.set_content(R"({"status":"loading"})", "application/json");
      return;
    }
    res.set_content(backends_json(*pool, *remote).dump(), "application/json");
  });
  server::http::Server svr(limits_of(st.opt, slots, options.remote.queue_limit), hooks_of(st, routes));
  int port = 0;
  try {
    port = svr.bind(st.opt.host, st.opt.port);
  } catch (const std::exception& e) {
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    return 2;
  }
  std::fprintf(stderr, "sfcl: gateway listening on http://%s:%d (%zu backends)\n", st.opt.host.c_str(), port,
               addresses.size());
  svr.start();

  std::thread signals([&] {
    int sig = 0;
    sigwait(&set, &sig);
    std::fprintf(stderr, "sfcl: signal %d: draining (%d in flight)\n", sig, st.in_flight.load());
    st.draining = true;
    std::thread second([&] {
      int s2 = 0;
      sigwait(&set, &s2);
      std::_Exit(1);
    });
    second.detach();
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(st.opt.drain_timeout_s));
    while (st.in_flight.load() > 0 && Clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (st.ready.load()) served.scheduler->stop();
    svr.stop();
  });

  try {
    engine::ModelOptions mo;
    mo.path = options.tokenizer;
    mo.vocab_only = true;
    // The backend's own template unless one is given (llama-server's /props chat_template).
    mo.chat_template = !st.opt.chat_template.empty() ? st.opt.chat_template : info.chat_template;
    served.model = engine::Model::load(mo);
    check_tokenizers(*served.model, addresses, options.pool.timeout_s);
    RemoteOptions ro = options.remote;
    if (info.n_ctx > 0) ro.n_ctx = info.n_ctx;
    st.opt.scheduler.n_ctx_per_slot = static_cast<uint32_t>(ro.n_ctx);
    std::shared_ptr<const std::vector<Token>> script;
    if (!st.opt.test_script.empty()) {
      auto toks = std::make_shared<std::vector<Token>>(served.model->tokenize(st.opt.test_script, false, false));
      served.script = toks;
      script = toks;
    }
    pool = std::make_unique<Pool>(addresses, options.pool);
    auto sched = std::make_unique<RemoteScheduler>(*served.model, *pool, ro, script);
    remote = sched.get();
    served.scheduler = std::move(sched);
    st.ready = true;
    std::fprintf(stderr, "sfcl: ready: %s via %zu backends x %d slots x %d tokens, sfcl mode %s\n",
                 served.spec.id.c_str(), addresses.size(), options.pool.slots_per_backend, ro.n_ctx,
                 std::string(decode::mode_name(st.opt.mode)).c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    pthread_kill(signals.native_handle(), SIGTERM);  // NOLINT(bugprone-bad-signal-to-kill-thread): wakes its sigwait
    signals.join();
    return 2;
  }
  signals.join();
  served.scheduler->stop();
  served.scheduler.reset();  // before the pool it uses
  std::fprintf(stderr, "sfcl: stopped\n");
  return 0;
}

}  // namespace sfcl::gateway
