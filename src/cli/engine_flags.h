// llama.cpp's model and context flags (GPU offload, KV cache types, flash attention, batch
// sizes), spelled as llama-server spells them, shared by `serve`, `generate` and `bench`.
#pragma once
#include <CLI/CLI.hpp>

#include "engine/engine.h"

namespace sfcl::cli {

// llama.cpp's multi-letter single-dash spellings (-ngl, -fa, ...) reach these through the alias
// table of cli/llama_server_flags.cpp: CLI11 only knows one-letter short names.
// --n-gpu-layers, --main-gpu, -sm/--split-mode, -ts/--tensor-split, --mmap/--no-mmap, --mlock;
// returns the --n-gpu-layers option (for note_cpu_only).
CLI::Option* add_model_flags(CLI::App& cmd, engine::ModelOptions& model);
// --lora FILE[,FILE...] and --lora-scaled FILE:SCALE[,...] (or FILE SCALE), each repeatable, in
// llama-server's spelling; --lora-init-without-apply loads them at scale 0.
void add_lora_flags(CLI::App& cmd, engine::ModelOptions& model);
// After parsing: an -ngl asking for GPU layers on a machine without a GPU backend says, on
// stderr, that the model runs on the CPU (llama.cpp would offload nothing without a word).
void note_cpu_only(const CLI::Option& ngl, const engine::ModelOptions& model);
// --flash-attn, --cache-type-k, --cache-type-v, --ubatch-size, --threads-batch.
void add_context_flags(CLI::App& cmd, engine::ContextOptions& context);

}  // namespace sfcl::cli
