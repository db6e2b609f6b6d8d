// The serving engine: N slots decoded together (continuous batching, one llama_decode per step),
// a bounded queue, per-slot prefix reuse of the KV cache, cancellation when a client goes away.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "decode/decode.h"
#include "metrics/metrics.h"

namespace sfcl::server {

// What the decode thread tells the HTTP thread of one request.
struct JobEvent {  // NOLINT(bugprone-exception-escape): strings and json, moved between threads
  enum class Kind : uint8_t { text, anchor_confirmed, backtrack, fallback };
  Kind kind = Kind::text;
  std::string text;
  nlohmann::json data;
};

struct Job {
  // input (set before submit)
  std::vector<engine::Token> prompt;
  decode::Options options;
  std::shared_ptr<anchor::SourceIndex> sources;
  bool want_events = false;
  metrics::Metrics* metrics = nullptr;  // optional
  std::chrono::steady_clock::time_point last_text{};

  // output channel (guarded by mu)
  std::mutex mu;
  std::condition_variable cv;
  std::deque<JobEvent> events;
  bool admitted = false;      // a slot took it (cached_tokens is known)
  int32_t cached_tokens = 0;  // prompt tokens reused from the slot's KV cache
  bool finished = false;
  std::string error;  // set when the engine failed
  decode::Result result;
  std::atomic<bool> cancelled{false};

  std::chrono::steady_clock::time_point enqueued = std::chrono::steady_clock::now();
};

struct SchedulerOptions {
  int32_t n_parallel = 4;
  uint32_t n_ctx_per_slot = 4096;
  uint32_t n_batch = 512;
  int32_t n_threads = 0;
  int32_t queue_limit = 64;
};

struct SchedulerStats {
  int32_t busy_slots = 0;
  int32_t queued = 0;
  int64_t prompt_tokens = 0;
  int64_t reused_tokens = 0;
};

class Scheduler {
 public:
  Scheduler(const engine::Model& model, const SchedulerOptions& options);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // False when the queue is full (the caller answers 429).
  bool submit(const std::shared_ptr<Job>& job);
  [[nodiscard]] SchedulerStats stats() const;
  [[nodiscard]] const SchedulerOptions& options() const { return options_; }
  void stop();

 private:
  struct Slot {
    int32_t id = 0;
    std::shared_ptr<Job> job;
    std::unique_ptr<decode::Sequence> seq;
    size_t fed = 0;                     // tokens of seq->pending() already in the batch
    std::vector<engine::Token> cached;  // tokens in this slot's KV cache (prefix reuse)
  };
  void loop();
  void admit();
  void finish(Slot& slot, const std::string& error = {});

  const engine::Model& model_;
  SchedulerOptions options_;
  std::unique_ptr<engine::Context> ctx_;
  std::vector<Slot> slots_;
  std::deque<std::shared_ptr<Job>> queue_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::atomic<int32_t> busy_{0};
  std::atomic<int64_t> prompt_tokens_{0};
  std::atomic<int64_t> reused_tokens_{0};
  std::thread thread_;
};

}  // namespace sfcl::server
