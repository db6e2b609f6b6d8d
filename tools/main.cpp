// sfcl: one binary, subcommands. The library commands come from src/cli; the demo trainer, eval,
// benchmarks and probe from tools/. The order here is the order of `sfcl --help`.
#include "cli/commands.h"
#include "tools/commands.h"

int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape): CLI11 setup only
  using namespace sfcl;
  const cli::Register commands[] = {
      cli::register_serve,           cli::register_gateway,        cli::register_generate,        cli::register_anchors,
      cli::register_make_test_model, cli::register_make_test_lora, tools::register_train_demo,    tools::register_eval,
      tools::register_eval_check,    cli::register_eval_spans,     tools::register_make_eval_set, cli::register_keygen,
      cli::register_verify,          tools::register_probe,        tools::register_bench};
  return cli::run_app(argc, argv, commands);
}
