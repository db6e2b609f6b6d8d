// The gateway's job runner: each job's check loop (decode::Sequence) runs here, on tokens a
// backend samples. A backtrack cancels the backend's stream and asks again from the accepted
// prefix with the failed token banned (logit_bias); the backend's prompt cache makes that cheap.
// A backend that fails mid-answer is replaced by another that continues from the same prefix, so
// the client's stream goes on with nothing lost or repeated (docs/SCALING.md).
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "gateway/pool.h"
#include "server/runtime/runtime.h"

namespace sfcl::gateway {

struct RemoteOptions {
  int32_t queue_limit = 64;       // jobs waiting beyond the free slots; more get 429
  double queue_timeout_s = 60.0;  // a job waits this long for a healthy backend's slot
  int32_t n_ctx = 4096;           // tokens per backend slot (the smallest backend's)
  int32_t max_failovers = 4;      // backends a job may move to before it fails
  // Greedy answers: a call that starts under a ban or an allow-list asks the backend for the raw
  // top tokens (n_probs) of each position, so the loop can check the tokens that follow and decide
  // constrained positions itself instead of one call each. Each such token costs the backend one
  // pass over the vocabulary: a call asks for at most raw_prob_budget / n_vocab of them; 0 = never.
  int64_t raw_prob_budget = int64_t{1} << 21;
};

// What the gateway's calls cost (GET /v1/gateway/backends; docs/BENCHMARKS.md).
struct GatewayCounters {
  int64_t calls = 0;              // completion calls to backends
  int64_t constrained_calls = 0;  // one-token calls with a ban or allow-list
  int64_t rewind_calls = 0;       // calls that continue after a rewind
  int64_t rewinds = 0;
  int64_t rewind_ns = 0;  // from a rewind to the first token of the next stream
  // What the calls after a rewind cost the backends in prompt: the tokens they evaluated (not
  // served from cache), over the calls that reported it (llama-server, at a call's end).
  int64_t rewind_prompt_evaluated = 0;
  int64_t rewind_calls_reported = 0;
  int64_t failovers = 0;
  int64_t tokens = 0;        // tokens the backends streamed to the loop
  int64_t local_tokens = 0;  // tokens the loop chose from a backend's raw top tokens, without a call
  int64_t checked_bans = 0;  // calls whose first position's ban the loop checked instead of sending it
  int64_t bias_entries = 0;  // logit_bias entries sent, over all calls
};

class RemoteScheduler final : public server::JobRunner {
 public:
  // `script`: test hook, the tokens a request's output follows (boosted by logit_bias).
  RemoteScheduler(const engine::Model& vocab, Pool& pool, const RemoteOptions& options,
                  std::shared_ptr<const std::vector<Token>> script = nullptr);
  ~RemoteScheduler() override;
  RemoteScheduler(const RemoteScheduler&) = delete;
  RemoteScheduler& operator=(const RemoteScheduler&) = delete;

  bool submit(const std::shared_ptr<server::Job>& job) override;
  [[nodiscard]] server::SchedulerStats stats() const override;
  void stop() override;
  [[nodiscard]] std::string logprobs_refusal(bool logit_bias) const override;
  [[nodiscard]] std::string unavailable() const override;
  [[nodiscard]] GatewayCounters counters() const;

 private:
  class Answer;  // one job's answer, call by call (remote_answer.cpp)
  void worker();
  void run(const std::shared_ptr<server::Job>& job, std::vector<std::unique_ptr<BackendClient>>& clients);

  const engine::Model& model_;
  PartialPieces pieces_;  // reads back tokens a backend's stream held inside a UTF-8 character
  Pool& pool_;
  RemoteOptions options_;
  std::shared_ptr<const std::vector<Token>> script_;
  std::deque<std::shared_ptr<server::Job>> queue_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::atomic<bool> stopping_{false};
  std::atomic<int32_t> busy_{0};
  std::atomic<int64_t> prompt_tokens_{0};
  struct AtomicCounters {
    std::atomic<int64_t> calls{0}, constrained_calls{0}, rewind_calls{0}, rewinds{0}, rewind_ns{0},
        rewind_prompt_evaluated{0}, rewind_calls_reported{0}, failovers{0}, tokens{0}, local_tokens{0}, checked_bans{0},
        bias_entries{0};
  } counters_;
  std::vector<std::thread> workers_;
};

}  // namespace sfcl::gateway
