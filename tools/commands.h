// The sfcl subcommands that need the demo trainer and eval, or the benchmark and probe tooling.
#pragma once
#include "cli/commands.h"

namespace sfcl::tools {

using cli::Runner;

Runner register_train_demo(CLI::App& app);
Runner register_eval(CLI::App& app);
Runner register_make_eval_set(CLI::App& app);
Runner register_probe(CLI::App& app);
Runner register_bench(CLI::App& app);
Runner register_eval_check(CLI::App& app);

}  // namespace sfcl::tools
