#include "decode/logit_cache.h"

#include <algorithm>

namespace sfcl::decode {

LogitCache::LogitCache(size_t n_vocab) : n_vocab_(n_vocab) {
  const size_t slots = std::clamp<size_t>(kMaxFloats / std::max<size_t>(n_vocab, 1), kMinSlots, kMaxSlots);
  rows_.assign(slots * n_vocab, 0.0F);
  tags_.assign(slots, kEmpty);
}

void LogitCache::store(size_t index, const float* logits) {
  if (tags_.empty()) return;
  const size_t slot = index % tags_.size();
  float* dst = rows_.data() + slot * n_vocab_;
  if (dst != logits) std::copy(logits, logits + n_vocab_, dst);
  tags_[slot] = index;
}

const float* LogitCache::find(size_t index) const {
  if (tags_.empty()) return nullptr;
  const size_t slot = index % tags_.size();
  if (tags_[slot] != index) return nullptr;
  return rows_.data() + slot * n_vocab_;
}

void LogitCache::forget_after(size_t index) {
  for (auto& tag : tags_) {
    if (tag != kEmpty && tag > index) tag = kEmpty;
  }
}

}  // namespace sfcl::decode
