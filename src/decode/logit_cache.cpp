#include "decode/logit_cache.h"

#include <algorithm>
#include <mutex>
#include <utility>

namespace sfcl::decode {
namespace {

// Freed rows by size. A server's caches end and start all the time; kept here, the rows of its
// busiest moment serve the next requests. At most kMaxPooled are kept (more are freed), which no
// server with fewer slots than that reaches: a slot holds one cache at a time.
class RowPool {
 public:
  static constexpr size_t kMaxPooled = 256;

  float* take(size_t floats) {
    const std::lock_guard lock(mu_);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->first != floats) continue;
      float* rows = it->second;
      *it = free_.back();
      free_.pop_back();
      bytes_ -= floats * sizeof(float);
      return rows;
    }
    return nullptr;
  }

  void give(float* rows, size_t floats) {
    {
      const std::lock_guard lock(mu_);
      if (free_.size() < kMaxPooled) {
        free_.emplace_back(floats, rows);
        bytes_ += floats * sizeof(float);
        return;
      }
    }
    delete[] rows;  // NOLINT(cppcoreguidelines-owning-memory): allocated by new[] in store()
  }

  size_t bytes() {
    const std::lock_guard lock(mu_);
    return bytes_;
  }

 private:
  std::mutex mu_;
  std::vector<std::pair<size_t, float*>> free_;
  size_t bytes_ = 0;
};

RowPool& pool() {
  // Never destroyed: a cache that ends during static destruction still has a pool to give to.
  static auto* const p = new RowPool;  // NOLINT(cppcoreguidelines-owning-memory)
  return *p;
}

}  // namespace

void LogitRowsToPool::operator()(float* rows) const {
  if (rows != nullptr) pool().give(rows, floats);
}

size_t LogitCache::pooled_rows_bytes() { return pool().bytes(); }

LogitCache::LogitCache(size_t n_vocab) : n_vocab_(n_vocab) {
  const size_t slots = std::clamp<size_t>(kMaxFloats / std::max<size_t>(n_vocab, 1), kMinSlots, kMaxSlots);
  tags_.assign(slots, kEmpty);
}

void LogitCache::store(size_t index, const float* logits) {
  if (tags_.empty()) return;
  // Rows are taken at the first store and left uninitialised (the tags say which hold logits): a
  // sequence that never stores (the gateway's, whose logits stay on the backend) takes none.
  if (!rows_) {
    const size_t floats = tags_.size() * n_vocab_;
    float* rows = pool().take(floats);
    // NOLINTNEXTLINE(cppcoreguidelines-owning-memory): owned by rows_, whose deleter pools it
    if (rows == nullptr) rows = new float[floats];
    rows_ = std::unique_ptr<float[], LogitRowsToPool>(rows, LogitRowsToPool{floats});
  }
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
