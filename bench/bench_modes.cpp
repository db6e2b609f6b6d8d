// off vs anchor vs per-token on the same grounded prompts, interleaved: the modes part of
// `sfcl bench` (tools/bench_modes.h) without the CLI, for profiling and quick runs.
// Usage: sfcl_bench_modes [model.gguf] [reps] [eval-set.jsonl]
// An empty or missing model path writes a tiny random-weight model (2 layers x 128) and uses it.
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "engine/engine.h"
#include "tools/bench_modes.h"

int main(int argc, char** argv) {
  using namespace sfcl;
  tools::ModesBenchOptions o;
  o.model = argc > 1 ? argv[1] : "";
  o.reps = argc > 2 ? std::max(5, std::atoi(argv[2])) : 7;
  o.set = argc > 3 ? argv[3] : SFCL_SOURCE_DIR "/demo/eval.jsonl";
  o.items = 20;
  if (o.model.empty()) {
    o.model = std::filesystem::temp_directory_path() / "sfcl-bench-tiny.gguf";
    engine::LlamaHParams hp;
    hp.n_embd = 128;
    hp.n_layer = 2;
    hp.n_head = 4;
    hp.n_head_kv = 4;
    hp.n_ff = 512;
    hp.n_ctx = 2048;
    engine::write_tiny_test_model(o.model, 3, hp);
  }
  tools::print_modes(tools::run_modes_bench(o));
  return 0;
}
