// Process lifecycle of `sfcl serve`: check the model file, listen, load, warm up, report ready; on
// the first SIGTERM or SIGINT drain (refuse new work, let in-flight responses finish until
// --drain-timeout, then end what is left with an error in the API's shape and exit), on a second
// one exit at once.
#include <sodium.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "server/app/app.h"
#include "server/app/process.h"
#include "server/app/routes.h"
#include "server/app/state.h"
#include "server/http/server.h"

namespace sfcl::server {

namespace {

// HTTP worker threads at most (server/app/process.h, http_limits).
constexpr int32_t kMaxWorkers = 512;

// One short generation through the real path before reporting ready.
void warm_up(ServedModel& m) {
  auto warm = std::make_shared<Job>();
  warm->prompt = m.model->tokenize("warm up", true, false);
  warm->options.max_tokens = 2;
  warm->options.mode = decode::Mode::off;
  warm->sources = std::make_shared<anchor::SourceIndex>();
  warm->warm_up = true;
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
  if (&m != st.models.front().get()) mo.lora.clear();  // adapters are the first model's (docs/API.md, 'LoRA adapters')
  m.model = engine::Model::load(mo);
  {
    std::lock_guard lock(m.lora_mu);
    for (const auto& a : m.model->lora_adapters()) m.lora_scales.push_back(a.scale);
  }
  if (!st.opt.test_script.empty()) {
    m.script = std::make_shared<std::vector<engine::Token>>(m.model->tokenize(st.opt.test_script, false, false));
  }
  m.scheduler = std::make_unique<Scheduler>(*m.model, st.opt.scheduler);
  if (st.opt.warmup) warm_up(m);
}

// A file that is not GGUF is refused before the port is bound (loading it takes a while; the
// port stays free for a working server).
void check_model_file(const std::string& path, const char* what = "model") {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw engine::EngineError(std::string(what) + " file not found: " + path);
  }
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  if (!in.read(magic, sizeof magic) || std::string(magic, sizeof magic) != "GGUF") {
    throw engine::EngineError("not a GGUF " + std::string(what) + " file: " + path);
  }
}

// --slot-save-path: made if missing, before the port is bound, so a typo is found at start.
void check_slot_save_path(const std::string& dir) {
  if (dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir, ec)) {
    throw engine::EngineError("--slot-save-path " + dir + " is not a directory and cannot be made one");
  }
}

}  // namespace

int serve(const ServerOptions& options) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not initialise");
  State st;
  st.opt = options;
  start_services(st);
  plan_models(st);
  for (const auto& m : st.models) check_model_file(m->spec.path);
  for (const auto& l : options.model_options.lora) check_model_file(l.path.string(), "LoRA adapter");
  check_slot_save_path(options.slot_save_path);

  ShutdownSignals signals;
  http::Router routes;
  install_routes(routes, st);
  http::Server svr(http_limits(options, kMaxWorkers), http_hooks(st, routes));
  int port = 0;
  try {
    port = svr.bind(options.host, options.port);
  } catch (const std::exception& e) {
    signals.release();
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    return 2;
  }
  std::string files;
  for (const auto& m : st.models) files += (files.empty() ? "" : ", ") + m->spec.path;
  std::fprintf(stderr, "sfcl: listening on http://%s:%d (loading %s)\n", options.host.c_str(), port, files.c_str());
  svr.start();

  signals.start(st, svr);

  try {
    for (auto& m : st.models) load_model(st, *m);
    load_embeddings(st);
    if (options.test_ready_delay_ms > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(options.test_ready_delay_ms));
    st.ready = true;
    for (const auto& m : st.models) {
      std::fprintf(stderr, "sfcl: ready: %s, %d slots x %u tokens, sfcl mode %s\n", m->spec.id.c_str(),
                   options.scheduler.n_parallel, options.scheduler.n_ctx_per_slot,
                   std::string(decode::mode_name(m->mode)).c_str());
      // Served as asked (prompts up to the slot's size are accepted), but said: past its training
      // context a model's answers degrade, and llama-server caps a slot there.
      const int32_t trained = m->model->n_ctx_train();
      if (trained > 0 && options.scheduler.n_ctx_per_slot > static_cast<uint32_t>(trained)) {
        std::fprintf(stderr,
                     "sfcl: warning: %s was trained on %d tokens of context; a slot of %u lets prompts and "
                     "answers run past it, where its output degrades (--ctx / --parallel)\n",
                     m->spec.id.c_str(), trained, options.scheduler.n_ctx_per_slot);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    signals.abort();
    return 2;
  }
  signals.wait();
  stop_schedulers(st);
  std::fprintf(stderr, "sfcl: stopped\n");
  return 0;
}

}  // namespace sfcl::server
