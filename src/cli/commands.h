// Each subcommand registers itself on the CLI11 app; the returned runner gives the exit code.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

namespace sfcl::cli {

// A user-facing error: one line on stderr, exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using Runner = std::function<int()>;
using Register = Runner (*)(CLI::App&);

// The one shape of a command: an options struct `Opts`, `add_flags(CLI::App&, Opts&)` declaring its
// flags on the subcommand, and `run(const Opts&)` doing the work (both found next to Opts by ADL).
template <typename Opts>
Runner add_command(CLI::App& app, const std::string& name, const std::string& help) {
  auto* cmd = app.add_subcommand(name, help);
  auto opts = std::make_shared<Opts>();
  add_flags(*cmd, *opts);
  return [opts]() -> int { return run(*opts); };
}

// Registers `commands` in order (the order of --help), parses argv and runs the chosen command;
// maps parse and usage errors to one line on stderr and exit code 2.
int run_app(int argc, char** argv, std::span<const Register> commands);

Runner register_generate(CLI::App& app);
Runner register_make_test_model(CLI::App& app);
Runner register_make_test_lora(CLI::App& app);
Runner register_anchors(CLI::App& app);
Runner register_serve(CLI::App& app);
Runner register_gateway(CLI::App& app);
Runner register_keygen(CLI::App& app);
Runner register_verify(CLI::App& app);
Runner register_eval_spans(CLI::App& app);

}  // namespace sfcl::cli
