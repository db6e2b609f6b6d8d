#include "gateway/remote_scheduler.h"

#include <algorithm>
#include <cstdio>
#include <exception>

namespace sfcl::gateway {

using server::Job;

RemoteScheduler::RemoteScheduler(const engine::Model& vocab, Pool& pool, const RemoteOptions& options,
                                 std::shared_ptr<const std::vector<Token>> script)
    : model_(vocab), pieces_(vocab), pool_(pool), options_(options), script_(std::move(script)) {
  const int32_t n = std::max(1, pool.total_slots());
  for (int32_t i = 0; i < n; ++i) workers_.emplace_back([this] { worker(); });
}

RemoteScheduler::~RemoteScheduler() { stop(); }

void RemoteScheduler::stop() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stop_) return;
    stop_ = true;
  }
  stopping_ = true;
  cv_.notify_all();
  pool_.stop();  // wakes the workers waiting for a slot
  for (auto& t : workers_) t.join();
  for (auto& j : queue_) j->channel.fail("server shutting down");
  queue_.clear();
}

bool RemoteScheduler::submit(const std::shared_ptr<Job>& job) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stop_) return false;  // stop() walks the queue without the lock once it is set
    server::drop_cancelled(queue_);
    const int32_t free_workers = static_cast<int32_t>(workers_.size()) - busy_.load();
    if (static_cast<int32_t>(queue_.size()) >= options_.queue_limit + std::max(0, free_workers)) return false;
    queue_.push_back(job);
  }
  cv_.notify_one();
  return true;
}

server::SchedulerStats RemoteScheduler::stats() const {
  server::SchedulerStats s;
  {
    std::lock_guard<std::mutex> lk(mu_);
    // A job whose client left is not waiting for anything (submit drops it).
    s.queued = static_cast<int32_t>(
        std::count_if(queue_.begin(), queue_.end(), [](const auto& j) { return !j->channel.cancelled(); }));
  }
  s.busy_slots = busy_.load();
  s.prompt_tokens = prompt_tokens_.load();
  return s;
}

std::string RemoteScheduler::logprobs_refusal(bool logit_bias) const {
  if (logit_bias) {
    return "not available with logit_bias through the gateway (its backends report the distribution before "
           "logit_bias; docs/SCALING.md, \"Log-probabilities\")";
  }
  return {};
}

std::string RemoteScheduler::unavailable() const {
  if (pool_.any_healthy()) return {};
  return "no healthy backend: every backend failed its last call or health check (GET /v1/gateway/backends)";
}

GatewayCounters RemoteScheduler::counters() const {
  GatewayCounters c;
  c.calls = counters_.calls.load();
  c.constrained_calls = counters_.constrained_calls.load();
  c.rewind_calls = counters_.rewind_calls.load();
  c.rewinds = counters_.rewinds.load();
  c.rewind_ns = counters_.rewind_ns.load();
  c.rewind_prompt_evaluated = counters_.rewind_prompt_evaluated.load();
  c.rewind_calls_reported = counters_.rewind_calls_reported.load();
  c.failovers = counters_.failovers.load();
  c.tokens = counters_.tokens.load();
  c.local_tokens = counters_.local_tokens.load();
  c.checked_bans = counters_.checked_bans.load();
  c.bias_entries = counters_.bias_entries.load();
  return c;
}

void RemoteScheduler::worker() {
  std::vector<std::unique_ptr<BackendClient>> clients;  // one per backend, kept alive between jobs
  for (size_t i = 0; i < pool_.size(); ++i) {
    clients.push_back(
        std::make_unique<BackendClient>(pool_.address(i), pool_.options().timeout_s, pool_.options().call_timeout_s));
    clients.back()->set_pieces(&pieces_);
  }
  while (true) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lk(mu_);
      cv_.wait(lk, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      job = queue_.front();
      queue_.pop_front();
      ++busy_;
    }
    if (job->channel.cancelled()) {
      job->channel.finish({});
    } else {
      try {
        run(job, clients);
      } catch (const std::exception& e) {
        // What failed is the operator's to read (it may quote a backend); the client is told where.
        std::fprintf(stderr, "sfcl: an answer failed: %s\n", printable_excerpt(e.what()).c_str());
        if (!job->channel.is_finished()) job->channel.fail("the gateway failed on this answer; its log says why");
      }
    }
    --busy_;
  }
}

}  // namespace sfcl::gateway
