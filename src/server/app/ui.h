// The playground page and its scripts, embedded into the binary at build time (cmake/SfclUi.cmake
// generates ui_files() from web/ and clients/js/). Nothing here knows the HTTP library: a route
// asks ui_asset() for a path and sends what it gets.
#pragma once
#include <optional>
#include <span>
#include <string_view>

namespace sfcl::server {

struct EmbeddedFile {
  std::string_view path;  // the URL path it is served at ("/" is the page)
  std::string_view body;
};

// Every embedded file (generated source).
std::span<const EmbeddedFile> ui_files();

struct UiAsset {
  std::string_view content_type;
  std::string_view body;
};

// The file served at `path` with its content type, or nullopt when the playground has none.
std::optional<UiAsset> ui_asset(std::string_view path);

// Whether `path` is one of the playground's (these need no API key: they hold no data).
bool is_ui_path(std::string_view path);

}  // namespace sfcl::server
