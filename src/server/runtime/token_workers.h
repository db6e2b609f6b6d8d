// The per-token work of one decode step, shared between the scheduler thread and helper threads:
// each slot's sampling, detokenising, lexer, checker and stream write depend on that slot alone,
// so with many streams they run side by side instead of one after another (docs/SCALING.md).
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace sfcl::server {

// `--check-threads` when it is 0: half the machine's hardware threads, 1 to 8 (on a 2-core machine
// the work stays on the scheduler thread).
int32_t auto_check_threads();

class TokenWorkers {
 public:
  // `threads`: the scheduler thread plus threads - 1 helpers (1 = no helper, all work runs inline).
  explicit TokenWorkers(int32_t threads);
  ~TokenWorkers();
  TokenWorkers(const TokenWorkers&) = delete;
  TokenWorkers& operator=(const TokenWorkers&) = delete;

  // Calls fn(i) once for each i in [0, n), on this thread and the helpers, and returns when every
  // call has returned. `fn` must not throw. Allocates nothing.
  template <typename F>
  void run(size_t n, F& fn) {
    run_erased(n, &fn, [](void* f, size_t i) { (*static_cast<F*>(f))(i); });
  }
  [[nodiscard]] int32_t threads() const { return static_cast<int32_t>(helpers_.size()) + 1; }

 private:
  using Call = void (*)(void*, size_t);
  void run_erased(size_t n, void* fn, Call call);
  void helper();
  void drain();  // takes indices until none is left

  std::vector<std::thread> helpers_;
  std::mutex mu_;
  std::condition_variable start_;
  std::condition_variable done_;
  uint64_t generation_ = 0;  // under mu_: a new batch of work
  bool stop_ = false;
  int32_t busy_helpers_ = 0;  // under mu_: helpers inside this batch
  // The batch, set under mu_ before generation_ moves.
  void* fn_ = nullptr;
  Call call_ = nullptr;
  size_t n_ = 0;
  std::atomic<size_t> next_{0};
};

}  // namespace sfcl::server
