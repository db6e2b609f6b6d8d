// Process lifecycle of `sfcl serve`: check the model file, listen, load, warm up, report ready; on
// the first SIGTERM or SIGINT drain (refuse new work, let in-flight responses finish until
// --drain-timeout, then end what is left with an error in the API's shape and exit), on a second
// one exit at once.
#include <signal.h>
#include <sodium.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "server/access.h"
#include "server/dialect.h"
#include "server/http/server.h"
#include "server/routes.h"
#include "server/server.h"
#include "server/state.h"

namespace sfcl::server {

namespace {

// One short generation through the real path before reporting ready.
void warm_up(ServedModel& m) {
  auto warm = std::make_shared<Job>();
  warm->prompt = m.model->tokenize("warm up", true, false);
  warm->options.max_tokens = 2;
  warm->options.mode = decode::Mode::off;
  warm->sources = std::make_shared<anchor::SourceIndex>();
  if (m.scheduler->submit(warm)) warm->channel.wait_finished();
}

// The served models' names and defaults, before anything loads: ids from the file names, and no
// name (id or alias) given to two models.
void plan_models(State& st) {
  for (const ModelSpec& spec : st.opt.models) {
    auto m = std::make_unique<ServedModel>();
    m->spec = spec;
    if (m->spec.id.empty()) m->spec.id = std::filesystem::path(spec.path).stem().string();
    m->mode = mode_of(st.opt, spec);
    st.models.push_back(std::move(m));
  }
  if (st.models.empty()) throw engine::EngineError("no model to serve");
  for (size_t i = 0; i < st.models.size(); ++i) {
    std::vector<std::string> names = st.models[i]->spec.aliases;
    names.push_back(st.models[i]->spec.id);
    for (size_t j = 0; j < i; ++j) {
      for (const auto& name : names) {
        if (st.models[j]->named(name)) {
          throw engine::EngineError("the name " + name + " is given to two models (--model-id, --alias)");
        }
      }
    }
  }
}

void load_model(const State& st, ServedModel& m) {
  engine::ModelOptions mo = st.opt.model_options;
  mo.path = m.spec.path;
  mo.chat_template = m.spec.chat_template.empty() ? st.opt.chat_template : m.spec.chat_template;
  m.model = engine::Model::load(mo);
  if (!st.opt.test_script.empty()) {
    m.script = std::make_shared<std::vector<engine::Token>>(m.model->tokenize(st.opt.test_script, false, false));
  }
  m.scheduler = std::make_unique<Scheduler>(*m.model, st.opt.scheduler);
  warm_up(m);
}

void stop_schedulers(State& st) {
  for (auto& m : st.models) {
    if (m->scheduler) m->scheduler->stop();
  }
}

// A file that is not GGUF is refused before the port is bound (loading it takes a while; the
// port stays free for a working server).
void check_model_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw engine::EngineError("model file not found: " + path);
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  if (!in.read(magic, sizeof magic) || std::string(magic, sizeof magic) != "GGUF") {
    throw engine::EngineError("not a GGUF model file: " + path);
  }
}

http::Limits limits_of(const ServerOptions& o) {
  http::Limits l;
  l.max_body = o.max_body;
  l.max_header_bytes = o.max_header_bytes;
  l.max_headers = static_cast<size_t>(std::max(1, o.max_headers));
  l.max_connections = std::max(1, o.max_connections);
  l.header_timeout_s = o.header_timeout_s;
  l.idle_timeout_s = o.idle_timeout_s;
  l.body_timeout_s = o.body_timeout_s;
  l.write_timeout_s = o.write_timeout_s;
  // Generation handlers block for their whole answer; every admitted request (slots + queue)
  // gets a thread, and a few more keep /health and the refusals quick.
  l.workers = std::min(o.scheduler.n_parallel + o.scheduler.queue_limit + 8, 512);
  return l;
}

http::Hooks hooks_of(State& st, const http::Router& routes) {
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
  h.log = [&st](const http::Request& req, const http::Response& res, std::chrono::steady_clock::duration took) {
    log_http(st, req, res, took);
  };
  return h;
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
  plan_models(st);
  if (!st.opt.kb_path.empty()) {
    auto kb = std::make_shared<anchor::SourceIndex>();
    kb->add_knowledge(anchor::load_knowledge(st.opt.kb_path));
    st.kb = std::move(kb);
  }
  for (const auto& m : st.models) check_model_file(m->spec.path);

  // Signals go to one thread (sigwait): first SIGTERM/SIGINT drains, a second one exits at once.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);

  http::Router routes;
  install_routes(routes, st);
  http::Server svr(limits_of(options), hooks_of(st, routes));
  int port = 0;
  try {
    port = svr.bind(options.host, options.port);
  } catch (const std::exception& e) {
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    return 2;
  }
  std::string files;
  for (const auto& m : st.models) files += (files.empty() ? "" : ", ") + m->spec.path;
  std::fprintf(stderr, "sfcl: listening on http://%s:%d (loading %s)\n", options.host.c_str(), port, files.c_str());
  svr.start();

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
    using clock = std::chrono::steady_clock;
    const auto drain =
        std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(st.opt.drain_timeout_s));
    const auto deadline = clock::now() + drain;
    // What is still running a little before the deadline is ended by stopping the scheduler:
    // each job fails, so a stream ends with its API's error event and a waiting request with a
    // 500, rather than the connection just closing; the rest of the time writes those out.
    const auto cut = deadline - std::min<clock::duration>(std::chrono::milliseconds(500), drain / 4);
    while (st.in_flight.load() > 0 && clock::now() < cut) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (st.in_flight.load() > 0 && st.ready.load()) {
      std::fprintf(stderr, "sfcl: drain timeout: ending %d responses\n", st.in_flight.load());
      stop_schedulers(st);
      while (st.in_flight.load() > 0 && clock::now() < deadline) {
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

  try {
    for (auto& m : st.models) load_model(st, *m);
    if (options.test_ready_delay_ms > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(options.test_ready_delay_ms));
    st.ready = true;
    for (const auto& m : st.models) {
      std::fprintf(stderr, "sfcl: ready: %s, %d slots x %u tokens, sfcl mode %s\n", m->spec.id.c_str(),
                   options.scheduler.n_parallel, options.scheduler.n_ctx_per_slot,
                   std::string(decode::mode_name(m->mode)).c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    pthread_kill(signals.native_handle(), SIGTERM);  // NOLINT(bugprone-bad-signal-to-kill-thread): wakes its sigwait
    signals.join();
    return 2;
  }
  signals.join();
  stop_schedulers(st);
  std::fprintf(stderr, "sfcl: stopped\n");
  return 0;
}

}  // namespace sfcl::server
