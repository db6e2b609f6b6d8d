#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "build-info.h"
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

int split_mode_from_name(const std::string& name) {
  if (name == "none") return LLAMA_SPLIT_MODE_NONE;
  if (name == "layer") return LLAMA_SPLIT_MODE_LAYER;
  if (name == "row") return LLAMA_SPLIT_MODE_ROW;
  throw EngineError("unknown split mode '" + name + "' (none, layer, row)");
}

int cache_type_from_name(const std::string& name) {
  // The KV cache types llama-server accepts for --cache-type-k/-v.
  static constexpr std::pair<std::string_view, ggml_type> kTypes[] = {
      {"f32", GGML_TYPE_F32},       {"f16", GGML_TYPE_F16},   {"bf16", GGML_TYPE_BF16},
      {"q8_0", GGML_TYPE_Q8_0},     {"q4_0", GGML_TYPE_Q4_0}, {"q4_1", GGML_TYPE_Q4_1},
      {"iq4_nl", GGML_TYPE_IQ4_NL}, {"q5_0", GGML_TYPE_Q5_0}, {"q5_1", GGML_TYPE_Q5_1}};
  for (const auto& [n, t] : kTypes) {
    if (n == name) return t;
  }
  throw EngineError("unknown KV cache type '" + name + "' (f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1)");
}

std::vector<std::string> backend_device_names() {
  std::vector<std::string> out;
  for (size_t i = 0; i < ggml_backend_dev_count(); ++i)
    out.emplace_back(ggml_backend_dev_name(ggml_backend_dev_get(i)));
  return out;
}

const std::string& llama_build() {
  static const std::string kBuild = llama_build_info();
  return kBuild;
}

}  // namespace sfcl::engine
