#include "decode/logit_cache.h"

#include <algorithm>

namespace sfcl::decode {

LogitCache::LogitCache(size_t n_vocab) : n_vocab_(n_vocab) {
  const size_t slots = std::clamp<size_t>(kMaxFloats / std::max<size_t>(n_vocab, 1), kMinSlots, kMaxSlots);
  tags_.assign(slots, kEmpty);
}

void LogitCache::store(size_t index, const float* logits) {
  if (tags_.empty()) return;
  // Rows are allocated at the first store and left uninitialised: the tags say which hold logits,
  // and a sequence that never stores (the gateway's, whose logits stay on the backend) never pays
  // for up to 4 MiB of zeroed pages.
  if (!rows_) rows_ = std::make_unique_for_overwrite<float[]>(tags_.size() * n_vocab_);
  const size_t slot = index % tags_.size();
  float* dst = rows_.get() + slot * n_vocab_;
  if (dst != logits) std::copy(logits, logits + n_vocab_, dst);
  tags_[slot] = index;
}

const float* LogitCache::find(size_t index) const {
  if (tags_.empty()) return nullptr;
  const size_t slot = index % tags_.size();
  if (tags_[slot] != index) return nullptr;
  return rows_.get() + slot * n_vocab_;
}

void LogitCache::forget_after(size_t index) {
  for (auto& tag : tags_) {
    if (tag != kEmpty && tag > index) tag = kEmpty;
  }
}

}  // namespace sfcl::decode
