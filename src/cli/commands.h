// Each subcommand registers itself on the CLI11 app; the callback returns the exit code.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <stdexcept>
#include <string>

namespace sfcl::cli {

// A user-facing error: one line on stderr, exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using Runner = std::function<int()>;

Runner register_generate(CLI::App& app);
Runner register_make_test_model(CLI::App& app);
Runner register_anchors(CLI::App& app);
Runner register_serve(CLI::App& app);
Runner register_train_demo(CLI::App& app);
Runner register_eval(CLI::App& app);
Runner register_keys(CLI::App& app);
Runner register_probe(CLI::App& app);
Runner register_bench(CLI::App& app);
Runner register_eval_check(CLI::App& app);

}  // namespace sfcl::cli
