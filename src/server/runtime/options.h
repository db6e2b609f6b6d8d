// What a local Scheduler is made with: slots, context sizes, queue, KV cache and prompt cache.
#pragma once
#include <cstdint>

#include "engine/engine.h"

namespace sfcl::server {

struct SchedulerOptions {
  int32_t n_parallel = 4;
  uint32_t n_ctx_per_slot = 4096;
  uint32_t n_batch = 512;
  int32_t n_threads = 0;
  int32_t queue_limit = 64;
  // Threads for the per-token work after each decode, the scheduler thread included (--check-threads;
  // 0 = auto_check_threads()).
  int32_t check_threads = 0;
  // KV cache types, flash attention, ubatch, batch threads; the sizes and slot count above win.
  engine::ContextOptions context;
  // Host-memory prompt cache (--cache-ram): MiB of KV states kept for prompts no slot holds any
  // more; 0 = off.
  uint32_t cache_ram_mib = 2048;
  // Slots with fewer cached tokens are not saved: processing them again costs about as little.
  uint32_t cache_min_tokens = 64;
  // true: one KV cache all slots share (llama.cpp's kv_unified, as llama-server's default), so any
  // set of slots decodes in one pass over the weights; false (--no-kv-unified): a KV stream per
  // slot, whose attention spans only its own cells but which llama.cpp batches in one pass only
  // when the slots' sequence ids are consecutive (docs/DESIGN.md, "Serving").
  bool kv_unified = true;
};

}  // namespace sfcl::server
