// Small I/O helpers for the CLI: read a file or stdin, JSON shapes shared by subcommands.
#pragma once
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "anchor/anchor.h"
#include "cli/commands.h"
#include "decode/decode.h"
#include "util/utf8.h"

namespace sfcl::cli {

// "-" (or empty) is stdin. A terminal or an empty stdin is an error: a command that read nothing
// would otherwise print nothing and exit 0, which looks like a pass.
inline std::string read_input(const std::string& path) {
  if (path.empty() || path == "-") {
    if (::isatty(STDIN_FILENO) != 0) throw UsageError("no input: give a FILE, or pipe text to stdin (-)");
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    if (ss.str().empty()) throw UsageError("stdin is empty: give a FILE, or pipe text to stdin (-)");
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read file: " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace sfcl::cli
