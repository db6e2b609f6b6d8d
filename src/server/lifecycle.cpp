// Process lifecycle of `sfcl serve`: load, listen, warm up, report ready; on the first SIGTERM or
// SIGINT drain (refuse new work, let in-flight responses finish), on a second one exit at once.
#include <signal.h>
#include <sodium.h>

#include <cstdio>
#include <filesystem>
#include <thread>

#include "server/routes.h"
#include "server/server.h"
#include "server/state.h"

namespace sfcl::server {

namespace {

// One short generation through the real path before reporting ready.
void warm_up(State& st) {
  auto warm = std::make_shared<Job>();
  warm->prompt = st.model->tokenize("warm up", true, false);
  warm->options.max_tokens = 2;
  warm->options.mode = decode::Mode::off;
  warm->sources = std::make_shared<anchor::SourceIndex>();
  if (st.scheduler->submit(warm)) warm->channel.wait_finished();
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
    st.model = engine::Model::load({options.model_path, 0, options.chat_template});
    if (!options.test_script.empty()) {
      st.script = std::make_shared<std::vector<engine::Token>>(st.model->tokenize(options.test_script, false, false));
    }
    st.scheduler = std::make_unique<Scheduler>(*st.model, options.scheduler);
    warm_up(st);
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
