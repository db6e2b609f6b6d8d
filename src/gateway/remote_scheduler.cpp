#include "gateway/remote_scheduler.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "report/report.h"

namespace sfcl::gateway {

using server::Job;
using server::JobEvent;
using Clock = std::chrono::steady_clock;

namespace {

// A rewind reaches the backend through this: the accepted prefix got shorter, so the stream in
// flight no longer continues it.
class RemoteEngine final : public decode::Engine {
 public:
  explicit RemoteEngine(size_t n_ctx) : n_ctx_(n_ctx) {}
  void rewind(int32_t /*seq*/, int32_t /*pos*/) override { rewound = true; }
  [[nodiscard]] size_t n_ctx() const override { return n_ctx_; }
  bool rewound = false;

 private:
  size_t n_ctx_;
};

void finish_job(const std::shared_ptr<Job>& job, const decode::Result& result, const std::string& error) {
  if (job->metrics != nullptr && error.empty()) job->metrics->generation(result, 0);
  if (job->want_events && error.empty()) {
    for (const auto& a : result.anchors) {
      if (a.checked) continue;
      JobEvent ev;
      ev.kind = JobEvent::Kind::anchor_checked;
      ev.data = report::unchecked_anchor_event(a);
      job->channel.push_event(std::move(ev));
    }
  }
  if (error.empty()) {
    job->channel.finish(result);
  } else {
    job->channel.fail(error);
  }
}

// The test script's token at output position `out.size()` while the output follows it.
std::optional<Token> script_token(const std::vector<Token>* script, std::span<const Token> out, Token eos) {
  if (script == nullptr || out.size() > script->size() || !std::equal(out.begin(), out.end(), script->begin())) {
    return std::nullopt;
  }
  return out.size() == script->size() ? eos : (*script)[out.size()];
}

// llama-server adds a logit_bias to the logits; an allow-list (constrain fallback) is a bias that
// lifts the allowed tokens above every other, which keeps their order: greedy picks what the local
// loop would, and sampling sees their relative probabilities unchanged.
constexpr float kAllowBias = 100.0F;
constexpr float kScriptBias = 1000.0F;  // as the local test hook (server/admission.cpp)
constexpr float kBanned = -std::numeric_limits<float>::infinity();
// Streams that end with no token before the job fails (a backend that stops at once).
constexpr int kMaxEmptyStreams = 3;
// Calls in a row whose tokens the loop did not take (the grammar rejected them) before the job
// fails: a backend that honours logit_bias never returns a token banned there, so every refusal
// bans another one; one that ignores it would be asked for ever.
constexpr int kMaxRefusedCalls = 256;

}  // namespace

RemoteScheduler::RemoteScheduler(const engine::Model& vocab, Pool& pool, const RemoteOptions& options,
                                 std::shared_ptr<const std::vector<Token>> script)
    : model_(vocab), pool_(pool), options_(options), script_(std::move(script)) {
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
    const int32_t free_workers = static_cast<int32_t>(workers_.size()) - busy_.load();
    if (stop_ || static_cast<int32_t>(queue_.size()) >= options_.queue_limit + std::max(0, free_workers)) return false;
    queue_.push_back(job);
  }
  cv_.notify_one();
  return true;
}

server::SchedulerStats RemoteScheduler::stats() const {
  server::SchedulerStats s;
  {
    std::lock_guard<std::mutex> lk(mu_);
    s.queued = static_cast<int32_t>(queue_.size());
  }
  s.busy_slots = busy_.load();
  s.prompt_tokens = prompt_tokens_.load();
  return s;
}

GatewayCounters RemoteScheduler::counters() const {
  GatewayCounters c;
  c.calls = counters_.calls.load();
  c.constrained_calls = counters_.constrained_calls.load();
  c.rewind_calls = counters_.rewind_calls.load();
  c.rewinds = counters_.rewinds.load();
  c.rewind_ns = counters_.rewind_ns.load();
  c.failovers = counters_.failovers.load();
  c.tokens = counters_.tokens.load();
  return c;
}

void RemoteScheduler::worker() {
  std::vector<std::unique_ptr<BackendClient>> clients;  // one per backend, kept alive between jobs
  for (size_t i = 0; i < pool_.size(); ++i) {
    clients.push_back(std::make_unique<BackendClient>(pool_.address(i), pool_.options().timeout_s));
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
        if (!job->channel.is_finished()) job->channel.fail(e.what());
      }
    }
    --busy_;
  }
}

void RemoteScheduler::run(const std::shared_ptr<Job>& job, std::vector<std::unique_ptr<BackendClient>>& clients) {
  prompt_tokens_ += static_cast<int64_t>(job->prompt.size());
  job->options.n_ctx_seq = options_.n_ctx;
  decode::Sequence seq(model_, job->options, *job->sources, server::job_event_sink(job));
  seq.start(job->prompt, 0, 0);
  job->channel.mark_admitted(0);
  RemoteEngine engine(static_cast<size_t>(options_.n_ctx));
  const uint64_t affinity = prefix_hash(job->prompt);
  const auto wait =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options_.queue_timeout_s));
  std::optional<size_t> backend;
  std::optional<size_t> avoid;
  int32_t failovers = 0;
  int empty_streams = 0;
  int refused_calls = 0;
  bool after_rewind = false;
  Clock::time_point rewound_at{};
  std::string error;
  CompletionRequest req;
  req.sampling = job->options.sampling;
  while (!seq.done()) {
    if (job->channel.cancelled() || stopping_) {
      seq.cancel();
      if (stopping_) error = "server shutting down";
      break;
    }
    const decode::NextToken next = seq.next_token();
    if (next.forced) {  // an abstain marker: written by the loop, not the backend
      seq.on_token(*next.forced, engine);
      continue;
    }
    if (next.allowed.size() == 1) {  // one candidate left: the only token any sampler could pick
      seq.on_token(next.allowed.front(), engine);
      continue;
    }
    if (!backend) {
      backend = pool_.acquire(affinity, avoid, Clock::now() + wait);
      if (!backend) {
        error = stopping_ ? "server shutting down" : "no healthy backend with a free slot";
        break;
      }
    }
    req.sampling.temperature = next.temperature;
    req.prompt = seq.prompt_tokens();
    req.prompt_tail = seq.output_tokens();
    req.bias.assign(job->logit_bias.begin(), job->logit_bias.end());  // the request's own, at every position
    for (Token t : next.allowed) req.bias.emplace_back(t, kAllowBias);
    const auto scripted = script_token(script_.get(), seq.output_tokens(), model_.eos());
    if (scripted) req.bias.emplace_back(*scripted, kScriptBias);
    for (Token t : next.banned) req.bias.emplace_back(t, kBanned);  // last: a ban wins
    const bool single = !next.free() || scripted.has_value();
    const auto left = static_cast<int32_t>(job->options.max_tokens - static_cast<int32_t>(seq.output_tokens().size()));
    req.n_predict = single ? 1 : std::max(1, left);
    const size_t base = seq.output_tokens().size();
    size_t taken = 0;
    size_t received = 0;
    bool first = true;
    engine.rewound = false;
    pool_.count_request(*backend);
    ++counters_.calls;
    if (single) ++counters_.constrained_calls;
    if (after_rewind) ++counters_.rewind_calls;
    const StreamResult r = clients[*backend]->complete(req, [&](std::span<const Token> tokens) {
      for (Token t : tokens) {
        ++received;
        if (!first) {
          // Sampled with no ban or allow-list: fine only where the loop has none.
          if (job->channel.cancelled() || stopping_) return false;
          const decode::NextToken now = seq.next_token();
          if (!now.free() || now.temperature != req.sampling.temperature) return false;
          if (script_token(script_.get(), seq.output_tokens(), model_.eos())) return false;
        } else if (after_rewind) {
          counters_.rewind_ns +=
              std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - rewound_at).count();
          after_rewind = false;
        }
        first = false;
        ++counters_.tokens;
        seq.on_token(t, engine);
        ++taken;
        if (seq.done() || engine.rewound || seq.output_tokens().size() != base + taken) return false;
      }
      return true;
    });
    if (engine.rewound) {
      ++counters_.rewinds;
      after_rewind = true;
      rewound_at = Clock::now();
    }
    if (r.end == StreamEnd::failed) {
      std::fprintf(stderr, "sfcl: %s; the answer continues on another backend\n", r.error.c_str());
      // Whatever the loop took from this backend stays: the next one continues after it.
      pool_.mark_failed(*backend);
      pool_.release(*backend);
      avoid = backend;
      backend.reset();
      ++counters_.failovers;
      if (++failovers > options_.max_failovers) {
        error = r.error;
        break;
      }
      continue;
    }
    if (r.end == StreamEnd::rejected) {
      error = r.error;
      break;
    }
    // A token the loop did not take (the grammar rejected it) is banned on the next call.
    empty_streams = received == 0 && !seq.done() ? empty_streams + 1 : 0;
    refused_calls = received > 0 && taken == 0 && !seq.done() ? refused_calls + 1 : 0;
    if (empty_streams >= kMaxEmptyStreams) {
      error = "backend " + pool_.address(*backend).url + " returned no tokens";
      break;
    }
    if (refused_calls >= kMaxRefusedCalls) {
      error = "backend " + pool_.address(*backend).url + " keeps sampling tokens its logit_bias bans";
      break;
    }
  }
  if (backend) pool_.release(*backend);
  finish_job(job, seq.result(), error);
}

}  // namespace sfcl::gateway
