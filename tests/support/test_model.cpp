#include "support/test_model.h"

#include <unistd.h>

#include "engine/engine.h"

namespace sfcl::test {

const std::filesystem::path& tiny_model_path() {
  static const std::filesystem::path path = [] {
    auto p = std::filesystem::temp_directory_path() / ("sfcl-test-tiny-" + std::to_string(::getpid()) + ".gguf");
    engine::LlamaHParams hp;
    hp.n_embd = 64;
    hp.n_layer = 2;
    hp.n_head = 4;
    hp.n_head_kv = 2;
    hp.n_ff = 128;
    hp.n_ctx = 2048;
    engine::write_tiny_test_model(p, 7, hp);
    return p;
  }();
  return path;
}

}  // namespace sfcl::test
