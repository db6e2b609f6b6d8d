// Process lifecycle of `sfcl gateway`: as `sfcl serve` (what both share is in server/app/process.h),
// with the backends learnt and checked instead of a model loaded.
#include "gateway/gateway.h"

#include <sodium.h>

#include <cstdio>
#include <filesystem>
#include <thread>

#include "gateway/tokenizer_source.h"
#include "server/app/app.h"
#include "server/http/http.h"

namespace sfcl::gateway {

const char* const kTokenizerProbe =
    "Invoice INV-2024-7966: $12,500.00 due June 15, 2024 (5.9%).\n发票号码 天津宏达建设集团 <b>x</b>";

namespace {

using server::State;
using Clock = std::chrono::steady_clock;

// HTTP worker threads at most (server/app/process.h, http_limits): more than `sfcl serve`'s, as a
// gateway holds many more streams than one engine's slots (docs/SCALING.md, "Sizing").
constexpr int32_t kMaxWorkers = 1024;

// The API's model id for what a backend names its model: the file name without .gguf
// (llama-server's model path), or the last part of vLLM's id ("Qwen/Qwen2.5-7B" -> "Qwen2.5-7B").
std::string model_id_of(const std::string& model) {
  std::string name = std::filesystem::path(model).filename().string();
  if (name.ends_with(".gguf")) name.resize(name.size() - 5);
  return name.empty() ? model : name;
}

// The first backend to answer /props (or /v1/models), within the startup timeout; `answered` is
// its URL.
BackendInfo learn(const std::vector<BackendAddress>& backends, double timeout_s, double call_timeout_s,
                  std::string& answered) {
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  std::string last;
  while (true) {
    for (const auto& a : backends) {
      try {
        BackendClient c(a, call_timeout_s);
        BackendInfo info = c.props();
        answered = a.url;
        return info;
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
void check_tokenizers(const engine::Model& vocab, const std::string& vocab_path,
                      const std::vector<BackendAddress>& backends, double call_timeout_s) {
  const std::vector<Token> want = vocab.tokenize(kTokenizerProbe, false, false);
  for (const auto& a : backends) {
    BackendClient c(a, call_timeout_s);
    std::vector<Token> got;
    try {
      got = c.tokenize(kTokenizerProbe);
    } catch (const std::exception& e) {
      // Down now: the health checks bring it in later. Up without a working /tokenize, its
      // vocabulary cannot be checked, and serving through it could write the wrong text.
      if (!c.healthy()) continue;
      throw std::runtime_error(std::string(e.what()) + ", though it answers /health: its tokenizer cannot be checked");
    }
    if (got != want) {
      throw std::runtime_error("backend " + a.url + " tokenises differently from " + vocab_path + " (" +
                               std::to_string(got.size()) + " tokens vs " + std::to_string(want.size()) +
                               " for the probe text): give --tokenizer with the GGUF of the model the backends serve");
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
          {"rewind_prompt_evaluated", c.rewind_prompt_evaluated},
          {"rewind_calls_reported", c.rewind_calls_reported},
          {"failovers", c.failovers},
          {"tokens", c.tokens},
          {"local_tokens", c.local_tokens},
          {"checked_bans", c.checked_bans},
          {"bias_entries", c.bias_entries}};
}

// The one model the gateway serves, as st.opt names it (the backends' model id unless one is
// given) with the tokenizer's vocabulary; its weights and scheduler come once the server listens.
server::ServedModel& plan_model(State& st, const BackendInfo& info, const TokenizerSource& vocab) {
  if (st.opt.models.empty()) st.opt.models.emplace_back();
  auto planned = std::make_unique<server::ServedModel>();
  planned->spec = st.opt.models.front();
  planned->spec.path = vocab.path;
  if (planned->spec.id.empty()) {
    planned->spec.id = model_id_of(info.model.empty() ? vocab.path : info.model);
  }
  planned->mode = server::mode_of(st.opt, planned->spec);
  server::ServedModel& served = *planned;
  st.models.push_back(std::move(planned));
  return served;
}

// Loads the vocabulary, checks the backends' tokenizers against it, and starts the pool and the
// remote scheduler (`pool`, `remote`); then st is ready. Throws what fails.
void start_remote(State& st, server::ServedModel& served, const GatewayOptions& options, const BackendInfo& info,
                  const TokenizerSource& vocab, const std::vector<BackendAddress>& addresses,
                  std::unique_ptr<Pool>& pool, RemoteScheduler*& remote) {
  engine::ModelOptions mo;
  mo.path = vocab.path;
  mo.vocab_only = true;
  // The backend's own template unless one is given (llama-server's /props chat_template).
  mo.chat_template = !st.opt.chat_template.empty() ? st.opt.chat_template : info.chat_template;
  served.model = engine::Model::load(mo);
  check_tokenizers(*served.model, vocab.path, addresses, options.pool.timeout_s);
  RemoteOptions ro = options.remote;
  if (info.n_ctx > 0) ro.n_ctx = info.n_ctx;
  st.opt.scheduler.n_ctx_per_slot = static_cast<uint32_t>(ro.n_ctx);
  std::shared_ptr<const std::vector<Token>> script;
  if (!st.opt.test_script.empty()) {
    auto toks = std::make_shared<std::vector<Token>>(served.model->tokenize(st.opt.test_script, false, false));
    served.script = toks;
    script = toks;
  }
  // Backends down at startup, and any that comes back after a failure, are checked by the pool.
  PoolOptions po = options.pool;
  po.probe_text = kTokenizerProbe;
  po.probe_tokens = served.model->tokenize(kTokenizerProbe, false, false);
  pool = std::make_unique<Pool>(addresses, po);
  auto sched = std::make_unique<RemoteScheduler>(*served.model, *pool, ro, script);
  remote = sched.get();
  served.scheduler = std::move(sched);
  st.ready = true;
  std::fprintf(stderr, "sfcl: ready: %s via %zu backends x %d slots x %d tokens, sfcl mode %s\n",
               served.spec.id.c_str(), addresses.size(), options.pool.slots_per_backend, ro.n_ctx,
               std::string(decode::mode_name(st.opt.checks.mode)).c_str());
}

}  // namespace

int run_gateway(const GatewayOptions& options) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not initialise");
  if (options.backends.empty()) throw std::invalid_argument("at least one --backend is required");
  std::vector<BackendAddress> addresses;
  for (const auto& url : options.backends) {
    addresses.push_back(parse_backend_url(url));
    addresses.back().api = options.api;
  }

  // The backends' model and template first: its id names the served model before anything listens.
  BackendInfo info;
  TokenizerSource vocab;
  try {
    std::string answered;
    info = learn(addresses, options.startup_timeout_s, options.pool.timeout_s, answered);
    vocab = choose_tokenizer(options.tokenizer, info, answered);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    return 2;
  }
  std::fprintf(stderr, "sfcl: tokenizer: the vocabulary of %s (%s)\n", vocab.path.c_str(), vocab.origin.c_str());

  State st;
  st.opt = options.server;
  server::ServedModel& served = plan_model(st, info, vocab);
  server::start_services(st);
  st.opt.scheduler.n_parallel = static_cast<int32_t>(addresses.size()) * options.pool.slots_per_backend;
  st.opt.scheduler.queue_limit = options.remote.queue_limit;

  server::ShutdownSignals signals;

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
  server::http::Server svr(server::http_limits(st.opt, kMaxWorkers), server::http_hooks(st, routes));
  int port = 0;
  try {
    port = svr.bind(st.opt.host, st.opt.port);
  } catch (const std::exception& e) {
    signals.release();
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    return 2;
  }
  std::fprintf(stderr, "sfcl: gateway listening on http://%s:%d (%zu backends)\n", st.opt.host.c_str(), port,
               addresses.size());
  svr.start();

  signals.start(st, svr);

  try {
    start_remote(st, served, options, info, vocab, addresses, pool, remote);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    signals.abort();
    return 2;
  }
  signals.wait();
  served.scheduler->stop();
  served.scheduler.reset();  // before the pool it uses
  std::fprintf(stderr, "sfcl: stopped\n");
  return 0;
}

}  // namespace sfcl::gateway
