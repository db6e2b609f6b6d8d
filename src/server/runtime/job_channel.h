// JobChannel: the one protocol between an HTTP handler and the scheduler's decode thread for one
// request. Every piece of shared state is private and read or written under the channel's own
// mutex, so neither side can touch it unlocked (the decode thread writes, the HTTP thread waits).
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "decode/decode.h"

namespace sfcl::server {

// What the decode thread tells the HTTP thread of one request.
// llama-server's timings_per_token: the counts and times so far, for text and progress events.
struct JobTimings {
  bool set = false;
  int32_t cache_n = 0;      // prompt tokens reused from the cache
  int32_t prompt_n = 0;     // prompt tokens processed beyond them
  double prompt_ms = 0.0;   // from admission to the first text (or to now, while the prompt is fed)
  int32_t predicted_n = 0;  // output tokens so far
  double predicted_ms = 0.0;
};

struct JobEvent {  // NOLINT(bugprone-exception-escape): strings and json, moved between threads
  enum class Kind : uint8_t { text, anchor_confirmed, anchor_checked, backtrack, fallback, progress };
  Kind kind = Kind::text;
  std::string text;                            // text: the delivered chunk
  std::vector<decode::TokenLogprob> logprobs;  // text: its tokens' log-probabilities (when asked for)
  nlohmann::json data;  // every other kind: the event's JSON (report::event_json; progress: prompt_progress)
  JobTimings timings;   // text and progress, with timings_per_token
};

// How a job ended; immutable once the channel is finished.
struct JobOutcome {
  decode::Result result;
  std::string error;     // non-empty when the engine failed or the server stopped
  int32_t status = 500;  // the HTTP status a response not yet started answers `error` with
  bool cancelled = false;
};

class JobChannel {
 public:
  // --- decode thread ---
  // A slot took the job; `cached_tokens` prompt tokens were reused from its KV cache.
  void mark_admitted(int32_t cached_tokens);
  void push_event(JobEvent event);
  void finish(decode::Result result);
  void fail(std::string error, int32_t status = 500);

  // --- HTTP thread ---
  // The client went away: the scheduler frees the slot at its next step.
  void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  [[nodiscard]] bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

  // Blocks until a slot took the job (or it ended first); returns the reused prompt tokens.
  int32_t wait_admitted();
  struct Batch {
    std::vector<JobEvent> events;
    const JobOutcome* outcome = nullptr;  // set once the job has ended (after these events)
  };
  // Blocks until there are events or the job ended, at most `timeout`; takes what is there.
  Batch wait_events(std::chrono::milliseconds timeout);
  // Blocks until the job ended.
  const JobOutcome& wait_finished();
  // Blocks until the job ended, at most `timeout`; null when it has not.
  const JobOutcome* wait_finished_for(std::chrono::milliseconds timeout);
  [[nodiscard]] bool is_finished() const;
  [[nodiscard]] int32_t cached_tokens() const;

 private:
  void end(JobOutcome outcome);

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<JobEvent> events_;
  bool admitted_ = false;
  int32_t cached_tokens_ = 0;
  bool finished_ = false;
  JobOutcome outcome_;
  std::atomic<bool> cancelled_{false};
};

}  // namespace sfcl::server
