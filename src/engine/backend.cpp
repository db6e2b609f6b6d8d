#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>

#include "engine/engine.h"
#include "ggml-backend.h"
#include "llama.h"

namespace sfcl::engine {
namespace {
bool g_verbose = false;

void log_callback(ggml_log_level level, const char* text, void* /*user*/) {
  if (g_verbose || level == GGML_LOG_LEVEL_ERROR) {
    std::fputs(text, stderr);
  }
}

// An installed sfcl (make install) keeps its ggml backends in <prefix>/lib/sfcl next to
// <prefix>/bin/sfcl; found through /proc/self/exe so that the prefix can be moved.
std::string installed_backend_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path dir = exe.parent_path().parent_path() / "lib" / "sfcl";
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with("libggml-cpu-") && name.ends_with(".so")) return dir.string();
  }
  return {};
}
}  // namespace

void set_verbose_log(bool verbose) {
  g_verbose = verbose;
  llama_log_set(log_callback, nullptr);
}

void load_backends(const std::string& dir) {
  static std::once_flag once;
  std::call_once(once, [&] {
    llama_log_set(log_callback, nullptr);
    std::string path = dir;
    if (path.empty()) {
      if (const char* env = std::getenv("SFCL_BACKEND_DIR"); env != nullptr) path = env;
    }
    if (path.empty()) path = installed_backend_dir();
    if (path.empty()) path = SFCL_DEFAULT_BACKEND_DIR;
    if (!path.empty()) {
      ggml_backend_load_all_from_path(path.c_str());
    } else {
      ggml_backend_load_all();
    }
    llama_backend_init();
  });
}

}  // namespace sfcl::engine
