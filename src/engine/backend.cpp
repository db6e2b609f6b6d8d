#include <cstdio>
#include <cstdlib>
#include <mutex>

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
