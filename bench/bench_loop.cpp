// The check loop's own work per decode step (sampling, logit cache, lexing, checks), without the
// model's forward pass, on a small byte vocabulary and on Qwen2's 151,936-token one: what grows
// with the vocabulary. Results: docs/BENCHMARKS.md ("Per-step cost by vocabulary size").
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
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

// 0: byte vocabulary, 1: Qwen2's, 2: the committed demo model's (byte-level SPM plus CJK and merges).
const engine::Model& bench_model(int which) {
  static BenchModel byte("byte");
  static BenchModel qwen2("qwen2");
  if (which == 2) {
    static const auto demo = engine::Model::load({std::filesystem::path(SFCL_SOURCE_DIR) / "demo/sfcl-demo.gguf"});
    return *demo;
  }
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

// With a JSON-schema grammar (structured output, mode off): per sampled token, on a random row in
// which the model either follows a valid answer (its next token 20 above the rest: the usual case
// for a model that was asked for JSON) or writes freely (the grammar rejects most of its choices).
// `grammar_first` 1: the grammar is applied to the whole vocabulary before the chain at every
// token; 0: check-first (engine::SamplingOptions::grammar_first). Results: docs/BENCHMARKS.md
// ("Sampling under a grammar").
const std::string kGrammarSchema =
    R"({"type":"object","properties":{"name":{"type":"string"},"note":{"type":"string"},)"
    R"("n":{"type":"integer"}},"required":["name","note","n"]})";
const std::string kGrammarAnswer =
    R"({"name": "Invoice INV-7", "note": "The total of twelve thousand five hundred dollars is due on )"
    R"(the fifteenth of June, after the goods arrive at the warehouse in good order.", "n": 7})";

void BM_GrammarStep(benchmark::State& state) {
  const engine::Model& model = bench_model(static_cast<int>(state.range(0)));
  const bool follows = state.range(1) != 0;
  std::vector<float> logits(static_cast<size_t>(model.n_vocab()));
  std::mt19937 rng(3);
  std::normal_distribution<float> dist(0.0F, 2.0F);
  for (auto& x : logits) x = dist(rng);
  std::vector<engine::Token> answer = model.tokenize(kGrammarAnswer, false, false);
  answer.push_back(model.eos());
  anchor::SourceIndex index;
  engine::Context ctx(model, {4096, 64, 1, 1});
  decode::Options o;
  o.mode = decode::Mode::off;
  o.sampling = {state.range(2) != 0 ? 0.8F : 0.0F, 40, 0.95F, 0.05F, 7};
  o.sampling.grammar_first = state.range(3) != 0;
  o.grammar.gbnf = engine::json_schema_grammar(kGrammarSchema);
  if (follows) {
    o.logit_hook = [&answer](std::span<float> row, std::span<const engine::Token> out) {
      if (out.size() < answer.size() && std::equal(out.begin(), out.end(), answer.begin())) {
        row[static_cast<size_t>(answer[out.size()])] += 20.0F;
      }
    };
  }
  const auto prompt = model.tokenize("Answer:", true, false);
  int64_t steps = 0;
  while (state.KeepRunning()) {
    state.PauseTiming();
    o.max_tokens = 200;
    decode::Sequence seq(model, o, index, {});
    seq.start(prompt, 0, 0);
    state.ResumeTiming();
    for (int i = 0; i < 200 && !seq.done(); ++i) {
      seq.on_logits(logits.data(), ctx);
      ++steps;
    }
  }
  state.counters["per_step"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["n_vocab"] = model.n_vocab();
}
BENCHMARK(BM_GrammarStep)
    ->ArgsProduct({{2, 1}, {1, 0}, {0, 1}, {1, 0}})
    ->ArgNames({"vocab", "follows", "sampled", "grammar_first"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
