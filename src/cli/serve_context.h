// The slot and context flags of `sfcl serve`: --parallel (-np), --ctx (per slot, sfcl's) and
// -c/--ctx-size (the total over the slots, llama-server's), defined here once.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>

#include "server/runtime/runtime.h"

namespace sfcl::cli {

struct ContextFlags {
  CLI::Option* per_slot = nullptr;
  CLI::Option* total = nullptr;
  std::shared_ptr<uint32_t> total_tokens = std::make_shared<uint32_t>(0);
};

// Declares the flags on `cmd`, bound to `s` (which must outlive the parse).
ContextFlags add_context_size_flags(CLI::App& cmd, server::SchedulerOptions& s);

// llama.cpp's split of a total context over n slots without a unified KV cache: the total and
// each slot's share rounded up to a multiple of 256 (llama_context's n_ctx_seq), so -c 4096 -np 4
// is 4 x 1024 and -c 256 -np 3 is 3 x 256.
uint32_t per_slot_context(uint32_t total, int32_t n_parallel);

// After parsing: the later of --ctx and -c/--ctx-size sets the slots' size (flag > env > file, as
// every option); a share below 64 tokens is a UsageError.
void resolve_context_size(const CLI::App& cmd, const ContextFlags& flags, server::SchedulerOptions& s);

}  // namespace sfcl::cli
