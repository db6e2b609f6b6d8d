#include "cli/default_model.h"

#include <filesystem>
#include <system_error>

namespace sfcl::cli {

std::string installed_demo_model() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path model = exe.parent_path().parent_path() / "share" / "sfcl" / "sfcl-demo.gguf";
  return fs::is_regular_file(model, ec) ? model.string() : std::string();
}

}  // namespace sfcl::cli
