#include "server/app/ui.h"

#include <array>
#include <utility>

namespace sfcl::server {

namespace {

std::string_view content_type_of(std::string_view path) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kTypes = {{
      {".txt", "text/plain; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
  }};
  for (const auto& [ext, type] : kTypes) {
    if (path.ends_with(ext)) return type;
  }
  return "text/html; charset=utf-8";
}

}  // namespace

std::optional<UiAsset> ui_asset(std::string_view path) {
  for (const EmbeddedFile& f : ui_files()) {
    if (f.path == path) return UiAsset{content_type_of(path), f.body};
  }
  return std::nullopt;
}

bool is_ui_path(std::string_view path) { return path == "/" || path.starts_with("/ui/"); }

}  // namespace sfcl::server
