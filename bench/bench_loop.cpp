// The check loop's own work per decode step (sampling, logit cache, lexing, checks), without the
// model's forward pass, on a small byte vocabulary and on Qwen2's 151,936-token one: what grows
// with the vocabulary. Results: docs/BENCHMARKS.md ("Per-step cost by vocabulary size").
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <random>

#include "decode/decode.h"

namespace {

using namespace sfcl;

struct BenchModel {
  std::filesystem::path path;
  std::unique_ptr<engine::Model> model;
  explicit BenchModel(const std::string& vocab) {
    engine::LlamaHParams hp;
    hp.n_embd = 32;
    hp.n_head = 4;
    hp.n_head_kv = 2;
    hp.n_ff = 64;
    hp.tie_output = true;
    path =
        std::filesystem::temp_directory_path() / ("sfcl-bench-" + vocab + "-" + std::to_string(::getpid()) + ".gguf");
    if (vocab == "byte") {
      engine::write_tiny_test_model(path, 1, hp);
    } else {
      engine::write_random_model_on_vocab(
          path, std::filesystem::path(SFCL_VOCAB_DIR) / ("ggml-vocab-" + vocab + ".gguf"), 1, hp);
    }
    model = engine::Model::load({path});
  }
  ~BenchModel() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  BenchModel(const BenchModel&) = delete;
  BenchModel& operator=(const BenchModel&) = delete;
};

const engine::Model& bench_model(int which) {
  static BenchModel byte("byte");
  static BenchModel qwen2("qwen2");
  return which == 0 ? *byte.model : *qwen2.model;
}

// One on_logits call per iteration on a fixed random logits row (the forward pass is not run; the
// pending token is dropped), in `off` or `anchor` mode, llama-server's default sampler chain;
// `logprobs`: with OpenAI top_logprobs 20 (log-softmax and top-20 selection over the row).
void BM_LoopStep(benchmark::State& state) {
  const engine::Model& model = bench_model(static_cast<int>(state.range(0)));
  const auto mode = state.range(1) == 0 ? decode::Mode::off : decode::Mode::anchor;
  std::vector<float> logits(static_cast<size_t>(model.n_vocab()));
  std::mt19937 rng(3);
  std::normal_distribution<float> dist(0.0F, 2.0F);
  for (auto& x : logits) x = dist(rng);
  anchor::SourceIndex index;
  index.add_source("Invoice INV-7 total: $12,500.00 due June 15, 2024.");
  engine::Context ctx(model, {4096, 64, 1, 1});
  decode::Options o;
  o.mode = mode;
  o.logprobs = state.range(2) != 0 ? 20 : -1;
  o.sampling = {0.8F, 40, 0.95F, 0.05F, 7};
  const auto prompt = model.tokenize("Answer:", true, false);
  int64_t steps = 0;
  while (state.KeepRunning()) {
    state.PauseTiming();
    o.max_tokens = 2000;
    decode::Sequence seq(model, o, index, {});
    seq.start(prompt, 0, 0);
    state.ResumeTiming();
    for (int i = 0; i < 1000 && !seq.done(); ++i) {
      seq.on_logits(logits.data(), ctx);
      ++steps;
    }
  }
  state.counters["per_step"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["n_vocab"] = model.n_vocab();
}
BENCHMARK(BM_LoopStep)
    ->ArgsProduct({{0, 1}, {0, 1}, {0}})
    ->Args({0, 1, 1})
    ->Args({1, 1, 1})
    ->ArgNames({"qwen2", "anchor", "logprobs"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

}  // namespace

BENCHMARK_MAIN();
