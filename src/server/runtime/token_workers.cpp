#include "server/runtime/token_workers.h"

#include <algorithm>

namespace sfcl::server {

int32_t auto_check_threads() {
  const auto hw = static_cast<int32_t>(std::thread::hardware_concurrency());
  return std::clamp(hw / 2, 1, 8);
}

TokenWorkers::TokenWorkers(int32_t threads) {
  for (int32_t i = 1; i < threads; ++i) helpers_.emplace_back([this] { helper(); });
}

TokenWorkers::~TokenWorkers() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& t : helpers_) t.join();
}

void TokenWorkers::drain() {
  for (size_t i = next_.fetch_add(1); i < n_; i = next_.fetch_add(1)) call_(fn_, i);
}

void TokenWorkers::run_erased(size_t n, void* fn, Call call) {
  // A helper's wake-up costs more than one slot's work: small steps stay on this thread.
  if (helpers_.empty() || n < 2) {
    for (size_t i = 0; i < n; ++i) call(fn, i);
    return;
  }
  {
    std::lock_guard lock(mu_);
    fn_ = fn;
    call_ = call;
    n_ = n;
    next_.store(0);
    busy_helpers_ = static_cast<int32_t>(helpers_.size());
    ++generation_;
  }
  start_.notify_all();
  drain();
  // Every helper leaves the batch before the next one is set up (they read fn_, call_ and n_).
  std::unique_lock lock(mu_);
  done_.wait(lock, [&] { return busy_helpers_ == 0; });
}

void TokenWorkers::helper() {
  uint64_t seen = 0;
  while (true) {
    {
      std::unique_lock lock(mu_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    drain();
    bool last = false;
    {
      std::lock_guard lock(mu_);
      last = --busy_helpers_ == 0;
    }
    if (last) done_.notify_one();
  }
}

}  // namespace sfcl::server
