// Host-memory prompt cache (llama-server's --cache-ram): KV states of sequences a slot gave up,
// kept in RAM under a byte limit, least recently used first out. A prompt that shares a longer
// prefix with a saved state than with any free slot's cache is restored from it instead of being
// processed again (docs/DESIGN.md, 'Serving').
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <span>
#include <vector>

#include "engine/engine.h"

namespace sfcl::server {

class PromptCache {
 public:
  struct Entry {
    std::vector<engine::Token> tokens;  // what the saved cells hold, positions 0..size-1
    std::vector<uint8_t> state;         // engine::Context::save_state
    std::vector<float> lora;            // the LoRA scales the cells were computed under
  };

  explicit PromptCache(size_t limit_bytes) : limit_(limit_bytes) {}

  // Saves the state of a sequence that holds `tokens`: `fill` writes it (false: nothing saved).
  // Skipped when an entry already holds `tokens` (or more after them) or when `bytes` exceed the
  // limit; entries whose tokens `tokens` extends are dropped, then the least recently used ones until
  // the new entry fits. Returns true when saved. `lora`: the adapter scales the cells were computed
  // under; an entry serves only prompts run under the same scales (and extends only such entries).
  bool save(std::span<const engine::Token> tokens, size_t bytes, const std::function<bool(std::vector<uint8_t>&)>& fill,
            std::span<const float> lora = {});
  // The entry under `lora` sharing the longest prefix with `prompt`, when that prefix is longer than
  // `longer_than`; it becomes the most recently used. `common` is the prefix length.
  const Entry* find(std::span<const engine::Token> prompt, size_t longer_than, size_t& common,
                    std::span<const float> lora = {});
  // Forgets `entry` (one find returned): a state the context could not restore would be found,
  // and fail, again for every prompt that shares its prefix.
  void drop(const Entry* entry);

  [[nodiscard]] size_t bytes() const { return bytes_; }
  [[nodiscard]] size_t entries() const { return entries_.size(); }
  [[nodiscard]] size_t limit() const { return limit_; }

 private:
  size_t limit_;
  size_t bytes_ = 0;
  std::list<Entry> entries_;  // least recently used first
};

}  // namespace sfcl::server
