// off vs anchor vs per-token on the same grounded prompts, interleaved: the modes part of
// `sfcl bench` (tools/bench_modes.h) without the CLI, for profiling and quick runs.
// Usage: sfcl_bench_modes [model.gguf] [reps] [eval-set.jsonl] [items]
// Defaults (also for an empty argument): the demo model and eval set of this source tree, 7 repetitions, 20 items.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "tools/bench_modes.h"

int main(int argc, char** argv) {
  sfcl::tools::ModesBenchOptions o;
  o.model = argc > 1 && argv[1][0] != '\0' ? argv[1] : SFCL_SOURCE_DIR "/demo/sfcl-demo.gguf";
  o.reps = argc > 2 ? std::max(5, std::atoi(argv[2])) : 7;
  o.set = argc > 3 && argv[3][0] != '\0' ? argv[3] : SFCL_SOURCE_DIR "/demo/eval.jsonl";
  o.items = argc > 4 ? std::max(1, std::atoi(argv[4])) : 20;
  try {
    sfcl::tools::print_modes(sfcl::tools::run_modes_bench(o));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sfcl_bench_modes: %s\n", e.what());
    return 2;
  }
  return 0;
}
