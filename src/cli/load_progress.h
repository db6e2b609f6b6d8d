// Model loading progress on stderr for `serve` and `generate`: a percentage that updates in place on
// a terminal, nothing when stderr is a pipe or file (logs and tests stay clean).
#pragma once
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace sfcl::cli {

inline std::function<void(float)> load_progress(const std::filesystem::path& model) {
  if (::isatty(STDERR_FILENO) == 0) return {};
  auto shown = std::make_shared<int>(-1);
  return [shown, name = model.filename().string()](float progress) {
    const int percent = static_cast<int>(progress * 100.0F);
    if (percent == *shown) return;
    *shown = percent;
    std::fprintf(stderr, "\rloading %s: %3d%%%s", name.c_str(), percent, percent >= 100 ? "\n" : "");
  };
}

}  // namespace sfcl::cli
