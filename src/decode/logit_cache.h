// Logits of the last few output positions, so a rewind samples again without re-decoding the
// token before it (one llama_decode saved per backtrack). Slot i % slots() holds the logits output
// token i was sampled from, when its tag says so. The rows come from a process-wide pool and go
// back to it when the cache ends, so the next request's cache takes them as they are (no mapping,
// no page faults; docs/SCALING.md, 'RSS under a long run').
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

namespace sfcl::decode {

// A LogitCache's deleter: gives its rows back to the pool instead of freeing them.
struct LogitRowsToPool {
  size_t floats = 0;
  void operator()(float* rows) const;
};

class LogitCache {
 public:
  // At most this many floats per sequence (4 MiB): the cache is per sequence, and a server runs many.
  static constexpr size_t kMaxFloats = size_t{1} << 20;
  // Fewer slots than this would miss rewinds to the divergence inside an anchor a few tokens back.
  static constexpr size_t kMinSlots = 4;
  // A rewind goes back about one anchor; more slots than this would hold logits no rewind reaches.
  static constexpr size_t kMaxSlots = 32;

  LogitCache() = default;
  // Enables the cache for rows of `n_vocab` logits (32 positions of a small vocabulary, 8 of a
  // 128k one).
  explicit LogitCache(size_t n_vocab);

  // Stores the logits output token `index` is sampled from (a replay passes its own slot).
  void store(size_t index, const float* logits);
  // The logits stored for output token `index`, or nullptr.
  [[nodiscard]] const float* find(size_t index) const;
  // Forgets positions after `index`: they belong to a continuation a rewind removed.
  void forget_after(size_t index);
  [[nodiscard]] size_t slots() const { return tags_.size(); }

  // Rows the pool holds for the next caches, all sizes together (for tests and metrics).
  [[nodiscard]] static size_t pooled_rows_bytes();

 private:
  static constexpr size_t kEmpty = static_cast<size_t>(-1);
  size_t n_vocab_ = 0;
  std::unique_ptr<float[], LogitRowsToPool> rows_;  // slots() rows of n_vocab_, from the first store
  std::vector<size_t> tags_;                        // output index whose logits each slot holds, or kEmpty
};

}  // namespace sfcl::decode
