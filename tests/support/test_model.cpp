#include "support/test_model.h"

#include <unistd.h>

#include <map>
#include <memory>

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

// Small shape, real vocabulary: the embedding table is most of the file (tied output).
struct TempVocabModel {
  std::filesystem::path path;
  explicit TempVocabModel(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             ("sfcl-test-" + name + "-" + std::to_string(::getpid()) + ".gguf")) {
    engine::LlamaHParams hp;
    hp.n_embd = 32;
    hp.n_layer = 2;
    hp.n_head = 4;
    hp.n_head_kv = 2;
    hp.n_ff = 64;
    hp.n_ctx = 2048;
    hp.tie_output = true;
    engine::write_random_model_on_vocab(path, vocab_file(name), 7, hp);
  }
  ~TempVocabModel() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  TempVocabModel(const TempVocabModel&) = delete;
  TempVocabModel& operator=(const TempVocabModel&) = delete;
  static std::filesystem::path vocab_file(const std::string& name) {
    return std::filesystem::path(SFCL_VOCAB_DIR) / ("ggml-vocab-" + name + ".gguf");
  }
};

}  // namespace

std::filesystem::path vocab_model_path(const std::string& name) {
  static std::map<std::string, std::unique_ptr<TempVocabModel>> models;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(TempVocabModel::vocab_file(name), ec)) return {};
  auto& slot = models[name];
  if (!slot) slot = std::make_unique<TempVocabModel>(name);
  return slot->path;
}

const std::filesystem::path& tiny_model_path() {
  static const TempModel model;
  return model.path;
}

const engine::Model* loaded_model(const std::string& name) {
  static std::map<std::string, std::unique_ptr<engine::Model>> models;
  auto& slot = models[name];
  if (!slot) {
    const auto path = name == "byte" ? tiny_model_path() : vocab_model_path(name);
    if (path.empty()) return nullptr;
    slot = engine::Model::load({path});
  }
  return slot.get();
}

}  // namespace sfcl::test
