// sfcl: one binary, subcommands. Thin: parse flags, call the library, map errors to exit 2.
#include <cstdio>
#include <exception>
#include <vector>

#include "cli/commands.h"
#include "cli/config.h"

int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape): CLI11 setup only
  CLI::App app{"sfcl: LLM inference on llama.cpp that checks the facts a model writes while it writes them"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "sfcl 0.1.0 (llama.cpp v0.4.0)");
  std::vector<std::pair<CLI::App*, sfcl::cli::Runner>> runners;
  auto add = [&](sfcl::cli::Runner (*reg)(CLI::App&)) {
    const size_t before = app.get_subcommands({}).size();
    sfcl::cli::Runner r = reg(app);
    const auto subs = app.get_subcommands({});
    for (size_t i = before; i < subs.size(); ++i) runners.emplace_back(subs[i], r);  // a registration may add several
  };
  add(sfcl::cli::register_serve);
  add(sfcl::cli::register_generate);
  add(sfcl::cli::register_anchors);
  add(sfcl::cli::register_make_test_model);
  add(sfcl::cli::register_train_demo);
  add(sfcl::cli::register_eval);
  add(sfcl::cli::register_keys);
  add(sfcl::cli::register_probe);
  add(sfcl::cli::register_bench);
  add(sfcl::cli::register_eval_check);
  std::vector<std::string> args;
  try {
    args = sfcl::cli::expand_serve_args(std::vector<std::string>(argv, argv + argc));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    return 2;
  }
  std::vector<char*> cargs;
  cargs.reserve(args.size());
  for (auto& a : args) cargs.push_back(a.data());
  try {
    app.parse(static_cast<int>(cargs.size()), cargs.data());
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::fprintf(stderr, "sfcl: error: %s (see --help)\n", e.what());
    return 2;
  }
  try {
    for (auto& [sub, run] : runners) {
      if (sub->parsed()) return run();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    return 2;
  }
  return 2;
}
