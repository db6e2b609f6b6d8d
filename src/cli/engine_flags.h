// llama.cpp's model and context flags (GPU offload, KV cache types, flash attention, batch
// sizes), spelled as llama-server spells them, shared by `serve`, `generate` and `bench`.
#pragma once
#include <CLI/CLI.hpp>

#include "engine/engine.h"

namespace sfcl::cli {

// llama.cpp's multi-letter single-dash spellings (-ngl, -fa, ...) reach these through
// llama_short_flag() in app.cpp: CLI11 only knows one-letter short names.
// --n-gpu-layers, --main-gpu, -sm/--split-mode, -ts/--tensor-split, --no-mmap, --mlock.
void add_model_flags(CLI::App& cmd, engine::ModelOptions& model);
// --flash-attn, --cache-type-k, --cache-type-v, --ubatch-size, --threads-batch.
void add_context_flags(CLI::App& cmd, engine::ContextOptions& context);

}  // namespace sfcl::cli
