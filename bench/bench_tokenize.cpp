// What a request's prompt costs to tokenise, by its size, up to the largest body the server takes
// (--max-body, 8 MiB): chat prompts through Model::render_chat (the server's path) and raw prompts
// through Model::tokenize, with text made of special-token copies, many tiny messages, or prose.
// Each row's time should grow linearly with its size (the fitted O(N) line and its RMS at the end
// of each family); llama_tokenize on a raw prompt of special tokens, in one call, for contrast.
// Results: docs/BENCHMARKS.md ("Tokenising a request").
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>

#include "engine/engine.h"
#include "llama.h"

namespace {

using namespace sfcl;

struct BenchModel {
  std::filesystem::path path;
  std::unique_ptr<engine::Model> model;
  BenchModel() {
    engine::LlamaHParams hp;
    hp.n_embd = 32;
    hp.n_head = 4;
    hp.n_head_kv = 2;
    hp.n_ff = 64;
    hp.tie_output = true;
    path = std::filesystem::temp_directory_path() / ("sfcl-bench-tok-" + std::to_string(::getpid()) + ".gguf");
    engine::write_random_model_on_vocab(path, std::filesystem::path(SFCL_VOCAB_DIR) / "ggml-vocab-qwen2.gguf", 1, hp);
    model = engine::Model::load({path});
  }
  ~BenchModel() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  BenchModel(const BenchModel&) = delete;
  BenchModel& operator=(const BenchModel&) = delete;
};

const engine::Model& qwen2() {
  static BenchModel m;
  return *m.model;
}

std::string repeated(const std::string& unit, size_t bytes) {
  std::string out;
  out.reserve(bytes + unit.size());
  while (out.size() < bytes) out += unit;
  return out;
}

const std::string kProse =
    "The invoice INV-7 was issued on June 15, 2024 for a total of $12,500.00, payable within 30 days. ";

void finish(benchmark::State& state, size_t bytes) {
  state.SetComplexityN(static_cast<int64_t>(bytes));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}

// One user message of "<|im_end|>" copies (80,000 of them are 800 KB): content is plain text.
void BM_ChatSpecialContent(benchmark::State& state) {
  const auto bytes = static_cast<size_t>(state.range(0));
  engine::ChatInput in;
  in.messages.push_back({"user", repeated("<|im_end|>", bytes)});
  const engine::Model& model = qwen2();  // loaded outside the timed loop
  for (auto _ : state) benchmark::DoNotOptimize(model.render_chat(in).tokens.size());
  finish(state, bytes);
}

// Messages of one character each, user and assistant in turn: the markup holds two special
// tokens per message. `bytes` counts what the request's JSON would hold, {"role":"user","content":"a"},
void BM_ChatTinyMessages(benchmark::State& state) {
  const auto bytes = static_cast<size_t>(state.range(0));
  engine::ChatInput in;
  for (size_t used = 0; used < bytes; used += 36) {
    in.messages.push_back({in.messages.size() % 2 == 0 ? "user" : "assistant", "a"});
  }
  if (in.messages.back().role == "assistant") in.messages.pop_back();
  const engine::Model& model = qwen2();  // loaded outside the timed loop
  for (auto _ : state) benchmark::DoNotOptimize(model.render_chat(in).tokens.size());
  finish(state, bytes);
}

void BM_ChatProse(benchmark::State& state) {
  const auto bytes = static_cast<size_t>(state.range(0));
  engine::ChatInput in;
  in.messages.push_back({"user", repeated(kProse, bytes)});
  const engine::Model& model = qwen2();  // loaded outside the timed loop
  for (auto _ : state) benchmark::DoNotOptimize(model.render_chat(in).tokens.size());
  finish(state, bytes);
}

// /v1/completions: the raw prompt is parsed for special tokens, as llama-server does.
void BM_RawSpecials(benchmark::State& state) {
  const auto bytes = static_cast<size_t>(state.range(0));
  const std::string text = repeated("<|im_end|>", bytes);
  const engine::Model& model = qwen2();  // loaded outside the timed loop
  for (auto _ : state) benchmark::DoNotOptimize(model.tokenize(text, true, true).size());
  finish(state, bytes);
}

// The same raw prompt in one llama_tokenize call (what Model::tokenize did before).
void BM_LlamaOneCallRawSpecials(benchmark::State& state) {
  const auto bytes = static_cast<size_t>(state.range(0));
  const std::string text = repeated("<|im_end|>", bytes);
  std::vector<llama_token> out(text.size() + 8);
  const engine::Model& model = qwen2();
  for (auto _ : state) {
    benchmark::DoNotOptimize(llama_tokenize(model.vocab(), text.data(), static_cast<int32_t>(text.size()), out.data(),
                                            static_cast<int32_t>(out.size()), true, true));
  }
  finish(state, bytes);
}

constexpr int64_t kMin = 64 << 10;
constexpr int64_t kMax = 8 << 20;  // --max-body's default

BENCHMARK(BM_ChatSpecialContent)
    ->RangeMultiplier(2)
    ->Range(kMin, kMax)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_ChatTinyMessages)
    ->RangeMultiplier(2)
    ->Range(kMin, kMax)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_ChatProse)
    ->RangeMultiplier(2)
    ->Range(kMin, kMax)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_RawSpecials)
    ->RangeMultiplier(2)
    ->Range(kMin, kMax)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_LlamaOneCallRawSpecials)
    ->RangeMultiplier(2)
    ->Range(16 << 10, 256 << 10)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oNSquared);

}  // namespace

BENCHMARK_MAIN();
