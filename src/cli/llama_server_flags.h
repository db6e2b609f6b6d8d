// llama-server's command line on sfcl: the one table of llama.cpp spellings that sfcl's own
// options do not declare. Each is an alias of an sfcl flag, accepted without effect (what it asks
// for is what sfcl does anyway, or it only tunes llama-server's speed), or refused with the reason.
// tests/cli/llama_flags_test.cpp runs every flag of the pinned llama-server through it.
#pragma once
#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sfcl::cli {

enum class LlamaFlagKind { alias, ignored, refused };

struct LlamaFlag {
  std::string_view spelling;
  LlamaFlagKind kind;
  // alias: the sfcl flag; ignored and refused: why.
  std::string_view meaning;
  // Values an ignored flag takes (dropped with it).
  int values = 0;
};

// Every entry (for --help and the tests).
const std::vector<LlamaFlag>& llama_flags();

// A flag refused because sfcl has no such behaviour; what() is the one line run_app prints.
class RefusedFlag : public std::runtime_error {
 public:
  RefusedFlag(const std::string& flag, std::string_view why);
};

// Rewrites args (argv of one sfcl command) in place: aliases ("-ngl 99", "-ngl=99") become their
// sfcl flag where `command` declares it; for `serve`, ignored flags are dropped with their values
// and a refused one throws RefusedFlag. Stops at "--".
void apply_llama_flags(std::vector<std::string>& args, const CLI::App& command);

// The --help footer of `sfcl serve`: the llama-server flags accepted without effect.
std::string llama_flags_help();

}  // namespace sfcl::cli
