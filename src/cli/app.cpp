// The sfcl command line: registration, argument checks CLI11 does not make, parsing, exit codes.
#include <cctype>
#include <cstdio>
#include <exception>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "cli/config.h"
#include "cli/llama_server_flags.h"

namespace sfcl::cli {
namespace {

void collect_short_names(const CLI::App& app, std::set<std::string>& out) {
  for (const CLI::Option* opt : app.get_options()) {
    for (const auto& s : opt->get_snames()) out.insert(s);
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) collect_short_names(*sub, out);
}

bool all_digits(std::string_view s) {
  for (const char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return false;
  }
  return !s.empty();
}

// CLI11 reads `-ngl 99` (llama.cpp's spelling) as `-n gl` and then blames --max-tokens. A single-dash
// word is accepted only as a negative number or a known short option with its number attached (-t4).
std::string unknown_single_dash(const std::vector<std::string>& args, const std::set<std::string>& short_names) {
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;  // everything after is positional
    if (a.size() <= 2 || a[0] != '-' || a[1] == '-') continue;
    if (std::isdigit(static_cast<unsigned char>(a[1])) != 0 || a[1] == '.') continue;  // -1, -0.5, .5
    if (short_names.contains(a.substr(1, 1)) && all_digits(std::string_view(a).substr(2))) continue;
    return a;
  }
  return {};
}

// The subcommand args name (its first word that is one), or null.
const CLI::App* chosen_command(const CLI::App& app, const std::vector<std::string>& args) {
  for (size_t i = 1; i < args.size(); ++i) {
    for (const CLI::App* sub : app.get_subcommands({})) {
      if (sub->check_name(args[i])) return sub;
    }
  }
  return nullptr;
}

// CLI11 says "The following argument was not expected: --x"; the single-dash check says "unknown
// option -x". One wording for both, naming the first argument left over.
std::string unknown_options(const CLI::App& app) {
  const std::vector<std::string> rest = app.remaining(true);
  return "unknown option " + (rest.empty() ? std::string("?") : rest.front()) + " (see --help)";
}

}  // namespace

int run_app(int argc, char** argv, std::span<const Register> commands) {
  CLI::App app{"sfcl: LLM inference on llama.cpp that checks the facts a model writes while it writes them"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "sfcl 0.1.0 (llama.cpp v0.4.0)");
  std::vector<std::pair<CLI::App*, Runner>> runners;
  for (const Register reg : commands) {
    const size_t before = app.get_subcommands({}).size();
    Runner r = reg(app);
    const auto subs = app.get_subcommands({});
    for (size_t i = before; i < subs.size(); ++i) runners.emplace_back(subs[i], r);  // a registration may add several
  }
  std::vector<std::string> args;
  try {
    args = expand_serve_args(std::vector<std::string>(argv, argv + argc));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    return 2;
  }
  try {
    if (const CLI::App* command = chosen_command(app, args); command != nullptr) apply_llama_flags(args, *command);
  } catch (const RefusedFlag& e) {
    std::fprintf(stderr, "sfcl: error: %s\n", e.what());
    return 2;
  }
  std::set<std::string> short_names;
  collect_short_names(app, short_names);
  if (const std::string bad = unknown_single_dash(args, short_names); !bad.empty()) {
    std::fprintf(stderr, "sfcl: error: unknown option %s (see --help)\n", bad.c_str());
    return 2;
  }
  std::vector<char*> cargs;
  cargs.reserve(args.size());
  for (auto& a : args) cargs.push_back(a.data());
  try {
    app.parse(static_cast<int>(cargs.size()), cargs.data());
  } catch (const CLI::ExtrasError&) {
    std::fprintf(stderr, "sfcl: error: %s\n", unknown_options(app).c_str());
    return 2;
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

}  // namespace sfcl::cli
