#include "support/test_model.h"

#include <unistd.h>

#include "engine/engine.h"

namespace sfcl::test {
namespace {

// One file per test process (ctest runs each test in its own), removed when the process exits so
// test runs do not fill the temp dir.
struct TempModel {
  std::filesystem::path path;
  TempModel()
      : path(std::filesystem::temp_directory_path() / ("sfcl-test-tiny-" + std::to_string(::getpid()) + ".gguf")) {
    engine::LlamaHParams hp;
    hp.n_embd = 64;
    hp.n_layer = 2;
    hp.n_head = 4;
    hp.n_head_kv = 2;
    hp.n_ff = 128;
    hp.n_ctx = 2048;
    engine::write_tiny_test_model(path, 7, hp);
  }
  ~TempModel() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  TempModel(const TempModel&) = delete;
  TempModel& operator=(const TempModel&) = delete;
};

}  // namespace

const std::filesystem::path& tiny_model_path() {
  static const TempModel model;
  return model.path;
}

}  // namespace sfcl::test
