// Reading line-oriented files (JSONL sets, knowledge files) with errors that name file and line.
#pragma once
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sfcl::util {

// Calls `fn(line)` for every line of `path` that is not blank. An exception from `fn` is rethrown
// as std::runtime_error "path:line: what"; a file that cannot be read throws "cannot read <what>:
// path".
template <typename Fn>
void for_each_line(const std::filesystem::path& path, std::string_view what, Fn&& fn) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + std::string(what) + ": " + path.string());
  std::string line;
  size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      fn(std::string_view(line));
    } catch (const std::exception& e) {
      throw std::runtime_error(path.string() + ":" + std::to_string(n) + ": " + e.what());
    }
  }
}

}  // namespace sfcl::util
