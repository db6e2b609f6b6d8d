// What rendering one chat request costs (Model::render_chat, the server's and the gateway's path):
// a system and a user turn, and the same with two tools, on the demo model and on the Jinja
// templates real models carry (loaded vocabulary-only, as the gateway does). Each row runs in one
// of three ways (mode): llama.cpp analysing the template per request, no render cache (0); the
// analysis learnt at load, no render cache (1); learnt, and the render cache on (2, the default).
// Every iteration words the user turn differently (the same conversation shape), as a stream of
// requests would. Results: docs/BENCHMARKS.md ("Rendering a chat request").
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "engine/engine.h"

namespace {

using namespace sfcl;

struct Case {
  const char* name;
  std::filesystem::path model;
  std::string chat_template;  // a template file overriding the model's own; empty = its own
};

const std::filesystem::path kModels = std::filesystem::path(SFCL_SOURCE_DIR) / ".deps/llama.cpp/models";

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"demo", std::filesystem::path(SFCL_SOURCE_DIR) / "demo/sfcl-demo.gguf", ""},
      {"qwen2.5", kModels / "ggml-vocab-qwen2.gguf", (kModels / "templates/Qwen-Qwen2.5-7B-Instruct.jinja").string()},
      {"llama3.1", kModels / "ggml-vocab-llama-bpe.gguf",
       (kModels / "templates/meta-llama-Llama-3.1-8B-Instruct.jinja").string()},
      {"qwen3", kModels / "ggml-vocab-qwen2.gguf", (kModels / "templates/Qwen-Qwen3-0.6B.jinja").string()},
  };
  return all;
}

const engine::Model& model(size_t index, int64_t mode) {
  static std::map<std::pair<size_t, int64_t>, std::unique_ptr<engine::Model>> loaded;
  auto& slot = loaded[{index, mode}];
  if (!slot) {
    engine::ModelOptions o;
    o.path = cases()[index].model;
    o.chat_template = cases()[index].chat_template;
    o.vocab_only = true;
    o.reuse_template_analysis = mode > 0;
    o.template_render_cache = mode == 2 ? 64 : 0;
    slot = engine::Model::load(o);
  }
  return *slot;
}

engine::ChatInput request(bool tools) {
  engine::ChatInput in;
  in.messages.push_back({"system", "You answer questions about the attached document in one short paragraph."});
  in.messages.push_back({"user", "What was the total amount invoiced in March, and who approved it?"});
  if (tools) {
    in.tools.push_back({"get_weather", "The current weather in a city.",
                        R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})"});
    in.tools.push_back(
        {"lookup_invoice", "An invoice by its number.",
         R"({"type":"object","properties":{"number":{"type":"integer"},"year":{"type":"integer"}},"required":["number"]})"});
  }
  return in;
}

// Args: case index, tools (0/1), mode (0/1/2, above).
void BM_RenderChat(benchmark::State& state) {
  const auto index = static_cast<size_t>(state.range(0));
  const bool tools = state.range(1) != 0;
  const int64_t mode = state.range(2);
  const engine::Model& m = model(index, mode);
  engine::ChatInput in = request(tools);
  const std::string question = in.messages.back().content;
  int64_t n = 0;
  for (auto _ : state) {
    in.messages.back().content = question + " (invoice " + std::to_string(++n % 1000) + ")";
    engine::ChatPrompt p = m.render_chat(in);
    benchmark::DoNotOptimize(p);
  }
  static const char* const kModes[] = {" per-request", " learnt", " learnt+cache"};
  state.SetLabel(std::string(cases()[index].name) + (tools ? " tools" : " plain") + kModes[mode]);
}

void args(benchmark::internal::Benchmark* b) {
  for (int64_t c = 0; c < static_cast<int64_t>(cases().size()); ++c) {
    for (int64_t tools : {0, 1}) {
      for (int64_t mode : {0, 1, 2}) b->Args({c, tools, mode});
    }
  }
  b->ArgNames({"case", "tools", "mode"});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_RenderChat)->Apply(args);

}  // namespace

BENCHMARK_MAIN();
