// Internal to src/engine: the step every GGUF writer ends with (tensors in, file out atomically).
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"

struct gguf_context;

namespace sfcl::engine {

// Frees a gguf_context (gguf_free) when it goes out of scope.
struct GgufFree {
  void operator()(gguf_context* g) const;
};
using GgufPtr = std::unique_ptr<gguf_context, GgufFree>;

// The llama architecture's hyperparameter keys (general.architecture = "llama").
void set_llama_hparams(gguf_context* g, const LlamaHParams& hp, const std::string& name);
// Adds `tensors` (f32) to `g` and writes it to `path` through a temporary file; `g` stays owned by
// the caller. Throws EngineError.
void write_gguf_file(const std::filesystem::path& path, gguf_context* g, const std::vector<NamedTensor>& tensors);

}  // namespace sfcl::engine
