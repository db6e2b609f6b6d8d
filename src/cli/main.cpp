// sfcl: one binary, subcommands. Thin: parse flags, call the library, map errors to exit 2.
#include <cstdio>
#include <exception>
#include <vector>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"sfcl: LLM inference on llama.cpp that checks the facts a model writes while it writes them"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "sfcl 0.1.0 (llama.cpp v0.4.0)");
  std::vector<std::pair<CLI::App*, sfcl::cli::Runner>> runners;
  auto add = [&](sfcl::cli::Runner (*reg)(CLI::App&)) {
    const size_t before = app.get_subcommands({}).size();
    sfcl::cli::Runner r = reg(app);
    runners.emplace_back(app.get_subcommands({})[before], std::move(r));
  };
  add(sfcl::cli::register_serve);
  add(sfcl::cli::register_generate);
  add(sfcl::cli::register_anchors);
  add(sfcl::cli::register_make_test_model);
  add(sfcl::cli::register_train_demo);
  try {
    app.parse(argc, argv);
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
