#include "gateway/remote_scheduler.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "gateway/greedy_pick.h"
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

// A backend call the pool may abort while it runs (Pool::begin_call).
class CallGuard {
 public:
  CallGuard(Pool& pool, size_t backend, BackendClient& client) : pool_(pool), backend_(backend), client_(client) {
    client_.arm();  // before the pool can abort it: an abort from then on holds
    pool_.begin_call(backend_, &client_);
  }
  ~CallGuard() { pool_.end_call(backend_, &client_); }
  CallGuard(const CallGuard&) = delete;
  CallGuard& operator=(const CallGuard&) = delete;

 private:
  Pool& pool_;
  size_t backend_;
  BackendClient& client_;
};

void finish_job(const std::shared_ptr<Job>& job, const decode::Result& result, const std::string& error,
                int32_t status) {
  if (job->metrics != nullptr && error.empty()) job->metrics->generation(result, job->channel.cached_tokens());
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
    job->channel.fail(error, status);
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
constexpr float kScriptBias = 1000.0F;  // as the local test hook (server/app/admission.cpp)
constexpr float kProbeBias = 1000.0F;   // outweighs every logit: a probe call's token is the end of generation
constexpr float kBanned = -std::numeric_limits<float>::infinity();
// Streams that end with no token before the job fails (a backend that stops at once).
constexpr int kMaxEmptyStreams = 3;
// Calls in a row whose tokens the loop did not take (the grammar rejected them) before the job
// fails: a backend that honours logit_bias never returns a token banned there, so every refusal
// bans another one; one that ignores it would be asked for ever.
constexpr int kMaxRefusedCalls = 256;
// Raw top tokens asked per position: two tell a free position (the best, and whether it ties).
constexpr int32_t kTopN = 4;
// Sampled answers draw a banned position in the gateway only for a chain this narrow (its top_k):
// the call asks for 4 * top_k + 8 raw top tokens of each position, so that top_k of them remain
// after a ban that takes most of the likeliest (the word-start ban after a number: digits).
constexpr int32_t kMaxDrawTopK = 64;
// A free call asks for raw top tokens only if it may go on this far (or to the answer's end).
constexpr int32_t kMinFreeRawWindow = 256;
constexpr double kUnknownLogprob = std::numeric_limits<double>::quiet_NaN();

// The seed of an answer's n-th call (or of the gateway's own sampler) from the request's: random
// stays random (the backend, or the sampler, seeds itself), a fixed one gives a fixed sequence.
uint32_t call_seed(uint32_t seed, uint64_t n) {
  if (seed == 0xFFFFFFFFU) return seed;
  uint64_t z = (uint64_t{seed} << 32 | 0x5f3759dfU) + n * 0x9E3779B97F4A7C15ULL;  // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  const auto out = static_cast<uint32_t>(z ^ (z >> 31));
  return out == 0xFFFFFFFFU ? 0 : out;
}

// Whether `ev` names every one of its tokens' positions, in order: one entry per token, and where
// the entries carry ids (llama-server's), the same ids.
bool every_position_reported(const CompletionEvent& ev) {
  if (ev.positions.size() != ev.tokens.size()) return false;
  for (size_t i = 0; i < ev.tokens.size(); ++i) {
    if (ev.positions[i].id >= 0 && ev.positions[i].id != ev.tokens[i]) return false;
  }
  return true;
}
// Decisions at one position from its top tokens (the loop may not take a token and constrain).
constexpr int kMaxDecisionsPerPosition = 4;

// `t`'s log-probability among a position's raw top tokens; NaN when not among them.
double logprob_in(std::span<const TopProb> top, Token t) {
  for (const TopProb& p : top) {
    if (p.id == t) return p.logprob;
  }
  return kUnknownLogprob;
}

// The raw top tokens the backends reported, by output position: row p is the distribution at
// position p given the output before it, so it holds until a token before p changes.
class TopRows {
 public:
  explicit TopRows(size_t capacity) { rows_.reserve(capacity); }
  // A token is written at `pos` (or the output was cut to `pos`): later rows described another output.
  void keep_through(size_t pos) {
    if (rows_.size() > pos + 1) rows_.resize(pos + 1);
  }
  void store(size_t pos, std::span<const TopProb> top) {
    rows_.resize(pos);  // rows before it that no backend reported stay empty
    Row& row = rows_.emplace_back();
    row.n = std::min(top.size(), row.top.size());
    std::copy_n(top.begin(), row.n, row.top.begin());
  }
  [[nodiscard]] std::span<const TopProb> at(size_t pos) const {
    if (pos >= rows_.size()) return {};
    return {rows_[pos].top.data(), rows_[pos].n};
  }

 private:
  struct Row {
    std::array<TopProb, decode::TokenLogprob::kMaxTop> top{};
    size_t n = 0;
  };
  std::vector<Row> rows_;
};

}  // namespace

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
    clients.push_back(std::make_unique<BackendClient>(pool_.address(i), pool_.options().timeout_s));
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
  // Admitted (the stream's head goes out) at the first call's first event, which tells the prompt
  // tokens the backend reused from its cache (as a local slot's admission does); a job that ends
  // before any call is admitted by its end.
  bool admitted = false;
  const auto admit = [&](int32_t cached) {
    if (admitted) return;
    admitted = true;
    job->channel.mark_admitted(std::max(0, cached));
  };
  int32_t error_status = 500;
  RemoteEngine engine(static_cast<size_t>(options_.n_ctx));
  const auto raw_window =
      static_cast<int32_t>(std::min<int64_t>(options_.raw_prob_budget / std::max(1, model_.n_vocab()), 1 << 20));
  const uint64_t affinity = prefix_hash(job->prompt);
  const auto wait =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options_.queue_timeout_s));
  std::optional<size_t> backend;
  std::optional<size_t> avoid;
  int32_t failovers = 0;
  int empty_streams = 0;
  int refused_calls = 0;
  bool after_rewind = false;
  // The position where a call without its bans returned no token the loop could take (none: max).
  size_t loose_refused_at = std::numeric_limits<size_t>::max();
  // The last call's stream ended inside a UTF-8 character: tokens it sampled never arrived.
  bool lost = false;
  Clock::time_point rewound_at{};
  std::string error;
  CompletionRequest req;
  req.sampling = job->options.sampling;
  // Greedy answers without a bias of the request's own: the raw order is the loop's order, so the
  // loop can check a constrained call's later tokens, and decide positions whose raw top tokens it
  // has, itself (docs/SCALING.md, "Calls").
  const bool raw_ok =
      raw_window > 0 && job->options.mode != decode::Mode::off && job->logit_bias.empty() && script_ == nullptr;
  // Grows past this only for long answers (a row per output position).
  TopRows rows(std::min<size_t>(static_cast<size_t>(std::max(0, job->options.max_tokens)) + 2, 512));
  size_t decided_at = std::numeric_limits<size_t>::max();
  int decisions = 0;
  // OpenAI logprobs: every call asks for the raw top tokens too (n_probs), whose log-probabilities
  // are those sfcl serve reports (docs/SCALING.md, "Log-probabilities").
  const int32_t logprobs = job->options.logprobs;
  std::vector<std::pair<Token, float>> reported_top;
  // Sampled answers (temperature > 0, the chain's top_k on, the same conditions otherwise): a call
  // under a ban does not send it either; the loop draws that position itself from the raw top
  // tokens the backend reports there, with a sampler of its own built as `sfcl serve`'s
  // (docs/SCALING.md, "Calls"). Not with logprobs asked (a drawn token past the 20 kept per
  // position would have none) nor on the OpenAI protocol (vLLM caps logprobs at 20 by default).
  const int32_t top_k = job->options.sampling.top_k;
  const bool draw_ok = raw_window > 0 && job->options.mode != decode::Mode::off && job->logit_bias.empty() &&
                       script_ == nullptr && logprobs < 0 && top_k > 0 && top_k <= kMaxDrawTopK;
  uint64_t calls_made = 0;                // this answer's calls so far (their seeds)
  std::optional<engine::Sampler> drawer;  // made at the first draw, with a seed of its own
  std::optional<DrawScratch> draw_scratch;
  const auto draw = [&](std::span<const TopProb> top, const decode::NextToken& now) -> std::optional<Token> {
    if (!drawer) {
      engine::SamplingOptions own = job->options.sampling;
      own.seed = call_seed(own.seed, ~uint64_t{0});
      drawer.emplace(model_, own);
      draw_scratch.emplace(static_cast<size_t>(model_.n_vocab()));
    }
    return draw_from_top(top, now, top_k, *drawer, *draw_scratch);
  };
  // `sampled_logprob`: the backend's for `t` when it sampled t there; otherwise t's is looked up
  // among the raw top tokens of its position, and stays unknown (NaN) when not among them.
  const auto write = [&](Token t, double sampled_logprob = kUnknownLogprob) {
    const size_t pos = seq.output_tokens().size();
    rows.keep_through(pos);
    if (logprobs >= 0) {
      decode::ReportedLogprob reported;
      reported_top.clear();
      for (const TopProb& p : rows.at(pos)) reported_top.emplace_back(p.id, static_cast<float>(p.logprob));
      reported.top = reported_top;
      reported.logprob =
          static_cast<float>(std::isnan(sampled_logprob) ? logprob_in(rows.at(pos), t) : sampled_logprob);
      seq.on_token(t, engine, reported);
    } else {
      seq.on_token(t, engine);
    }
    rows.keep_through(seq.output_tokens().size());
  };
  // The loop's greedy pick at the output's next position from the raw top tokens there.
  const auto pick_locally = [&](const decode::NextToken& now) -> std::optional<Token> {
    const size_t pos = seq.output_tokens().size();
    if (!raw_ok || now.temperature != 0.0F || (pos == decided_at && decisions >= kMaxDecisionsPerPosition)) {
      return std::nullopt;
    }
    const std::optional<Token> pick = greedy_from_top(rows.at(pos), now);
    if (pick) {
      decisions = pos == decided_at ? decisions + 1 : 1;
      decided_at = pos;
    }
    return pick;
  };
  const auto have_backend = [&] {
    if (!backend) {
      // A new answer with no backend healthy fails at once (503); one under way waits a little for
      // its backend to pass a probe again (one failed call takes a backend out), about two of the
      // longest backoffs.
      const auto now = Clock::now();
      std::optional<Clock::time_point> return_by;
      if (calls_made > 0) {
        return_by = now + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(2 * pool_.options().backoff_max_s + 2.0));
      }
      backend = pool_.acquire(affinity, avoid, now + wait, return_by);
    }
    if (!backend) {
      // Neither is the engine's failure: 503, and the client may retry.
      error_status = 503;
      if (stopping_) {
        error = "server shutting down";
      } else if (!pool_.any_healthy()) {
        error = unavailable();
      } else {
        error = "no backend slot became free within --queue-timeout";
      }
    }
    return backend.has_value();
  };
  // llama-server reports no log-probability for a token whose text ends inside a UTF-8 character
  // (it holds the token back). Such a token is not written from the stream: a one-token call at
  // its position whose token is the end of generation, which the backend does report, gives the
  // position's raw top tokens, then the token the stream sampled is written with its value from
  // there (not drawn again, which would skew what is sampled at temperature > 0) and the answer
  // goes on (docs/SCALING.md, "Log-probabilities").
  std::optional<size_t> probe_at;
  Token probe_token = -1;
  CompletionRequest probe;
  const auto probe_row = [&](size_t pos) {
    probe.prompt = seq.prompt_tokens();
    probe.prompt_tail = seq.output_tokens();
    probe.bias.assign(1, {model_.eos(), kProbeBias});
    probe.n_predict = 1;
    probe.n_probs = decode::TokenLogprob::kMaxTop;  // the most a client may ask: the widest net for the token
    probe.sampling = job->options.sampling;
    probe.sampling.temperature = 0.0F;
    probe.sampling.seed = 0;
    probe.inside_character = pieces_.ends_inside_character(seq.output_tokens());
    pool_.count_request(*backend);
    ++counters_.calls;
    counters_.bias_entries += static_cast<int64_t>(probe.bias.size());
    const CallGuard guard(pool_, *backend, *clients[*backend]);
    clients[*backend]->complete(probe, [&](const CompletionEvent& ev) {
      if (!ev.top.empty()) rows.store(pos, ev.top);
      return true;
    });
  };
  while (!seq.done()) {
    if (job->channel.cancelled() || stopping_) {
      seq.cancel();
      if (stopping_) error = "server shutting down";
      break;
    }
    const decode::NextToken next = seq.next_token();
    if (next.forced) {  // an abstain marker: written by the loop, not the backend
      write(*next.forced);
      continue;
    }
    if (probe_at == seq.output_tokens().size()) {
      if (!have_backend()) break;
      probe_row(*probe_at);
      probe_at.reset();
      write(probe_token);  // null where the token is not among the position's top tokens either
      continue;
    }
    probe_at.reset();
    // The only token any sampler could pick; with logprobs asked, the backend's call reports its
    // own unless its position's raw top tokens do.
    const auto sole = sole_candidate(next);
    if (sole && (logprobs < 0 || !std::isnan(logprob_in(rows.at(seq.output_tokens().size()), *sole)))) {
      write(*sole);
      continue;
    }
    if (const auto pick = pick_locally(next)) {
      ++counters_.local_tokens;
      write(*pick);
      continue;
    }
    if (!have_backend()) break;
    req.sampling.temperature = next.temperature;
    // Greedy draws nothing: a fixed seed spares the backend seeding a generator from the system
    // (std::random_device) for every call.
    // Sampled, each call gets a seed of its own, derived from the request's and the call's number:
    // llama-server seeds a new generator per request, so one seed for every call would draw the
    // first token of each with the same random number (a retry after a backtrack among them).
    req.sampling.seed = next.temperature == 0.0F ? 0 : call_seed(job->options.sampling.seed, calls_made);
    ++calls_made;
    req.prompt = seq.prompt_tokens();
    req.prompt_tail = seq.output_tokens();
    const size_t at = seq.output_tokens().size();
    const auto left = static_cast<int32_t>(job->options.max_tokens - static_cast<int32_t>(at));
    auto scripted = script_token(script_.get(), seq.output_tokens(), model_.eos());
    // As the local hook's boost goes through the sampler's grammar, the script only steers a position
    // to a token the loop's constraints leave: boosting one they exclude would have the backend
    // sample it on every call (a tool call's grammar rejects the script's prose).
    const auto excluded = [&](Token t) {
      return std::find(next.banned.begin(), next.banned.end(), t) != next.banned.end() ||
             (!next.allowed.empty() && std::find(next.allowed.begin(), next.allowed.end(), t) == next.allowed.end());
    };
    if (scripted && excluded(*scripted)) scripted.reset();
    const bool single = !next.free() || scripted.has_value();
    // Raw top tokens for at most raw_window positions: a constrained call goes on that far (each
    // later token checked); a free call asks for them when they cover the rest of the answer or
    // enough of it that the calls they split it into do not matter.
    const bool raw = raw_ok && next.temperature == 0.0F && (single || raw_window >= std::min(left, kMinFreeRawWindow));
    // With raw top tokens coming back, a ban (no allow-list) is checked here on the call's first
    // token instead of being sent: logit_bias holds at every position of a call, so its later
    // tokens would be sampled under a ban the loop no longer has, and the list is long (after a
    // value, every token that glues onto it: most of a real vocabulary). Only when that position's
    // top tokens cannot decide it does the call there carry the ban. An allow-list is still sent:
    // after a constrain fallback its tokens are seldom among the raw top ones.
    // (A position whose row is known was not decided from it: the call there carries the ban.)
    // Sampled, the same holds with the position drawn in the gateway from that call's raw top tokens.
    const bool drawn = draw_ok && next.temperature > 0.0F && next.allowed.empty() && !next.banned.empty() &&
                       !scripted && loose_refused_at != at && pool_.address(*backend).api == BackendApi::llama;
    const bool loose = drawn || (raw && next.allowed.empty() && !next.banned.empty() && !scripted &&
                                 rows.at(at).empty() && loose_refused_at != at);
    bool loose_refused = false;  // its first token: banned, and the top tokens there cannot say
    req.bias.assign(job->logit_bias.begin(), job->logit_bias.end());  // the request's own, at every position
    for (Token t : next.allowed) req.bias.emplace_back(t, kAllowBias);
    req.allowed.assign(next.allowed.begin(), next.allowed.end());
    if (scripted) req.bias.emplace_back(*scripted, kScriptBias);
    // A drawn call's own token is not used: it is made the end of generation, which the backend
    // always reports with its top tokens (one that ended inside a character would come without).
    if (drawn && model_.eos() >= 0) req.bias.emplace_back(model_.eos(), kProbeBias);
    if (!loose) {
      for (Token t : next.banned) req.bias.emplace_back(t, kBanned);  // last: a ban wins
    }
    req.n_probs = std::max({raw ? kTopN : 0, drawn ? 4 * top_k + 8 : 0, logprobs >= 0 ? std::max(1, logprobs) : 0});
    // A drawn call is one token: its top tokens are many (4 * top_k + 8), and a backend reporting
    // them for every token of a stream costs more than the call they would save.
    req.n_predict = raw ? std::clamp(left, 1, raw_window) : single ? 1 : std::max(1, left);
    // After a stream that ended inside a character, the same call not streamed returns every id
    // (docs/SCALING.md, "Characters split over tokens").
    req.whole = lost;
    req.inside_character = pieces_.ends_inside_character(seq.output_tokens());
    size_t taken = 0;
    size_t received = 0;
    bool first = true;
    engine.rewound = false;
    pool_.count_request(*backend);
    ++counters_.calls;
    if (single) ++counters_.constrained_calls;
    if (loose) ++counters_.checked_bans;
    counters_.bias_entries += static_cast<int64_t>(req.bias.size());
    const bool rewind_call = after_rewind;
    if (rewind_call) ++counters_.rewind_calls;
    // Takes one streamed token, or what the loop picks there instead; false when the stream no
    // longer continues the loop's output.
    const auto take = [&](Token sampled, std::span<const TopProb> top, double sampled_logprob) {
      if (seq.done()) return false;
      const size_t pos = seq.output_tokens().size();
      if (!top.empty()) rows.store(pos, top);
      bool diverged = false;
      for (int decision = 0; decision < kMaxDecisionsPerPosition; ++decision) {
        Token t = sampled;
        if (!first || loose) {
          if (job->channel.cancelled() || stopping_) return false;
          const decode::NextToken now = seq.next_token();
          if (now.forced) return false;
          if (const auto sole = sole_candidate(now)) {
            t = *sole;
          } else if (raw && now.temperature == 0.0F) {
            // From a call with no bias the backend's greedy pick is the most likely token (the
            // first of equal ones, as for the loop's sampler); where the loop allows it, it is the
            // loop's pick too, with or without a row of raw top tokens (a token the stream held
            // inside a character comes without one). Else the row decides.
            const bool backend_pick = req.bias.empty() && decision == 0 && now.allowed.empty() &&
                                      std::find(now.banned.begin(), now.banned.end(), sampled) == now.banned.end();
            if (!backend_pick) {
              const std::optional<Token> pick = greedy_from_top(rows.at(pos), now);
              if (!pick) {
                loose_refused = loose && pos == at;
                return false;
              }
              t = *pick;
            }
          } else if (drawn && now.temperature > 0.0F && now.allowed.empty() && !now.banned.empty()) {
            const std::optional<Token> d = draw(top, now);
            if (!d) {
              loose_refused = pos == at;
              return false;
            }
            t = *d;
          } else if (decision > 0 || !now.free() || now.temperature != req.sampling.temperature ||
                     script_token(script_.get(), seq.output_tokens(), model_.eos())) {
            // Sampled with no ban or allow-list: fine only where the loop has none.
            return false;
          }
        }
        // With logprobs asked, a token whose log-probability neither the backend's report nor its
        // position's raw top tokens give is not written from this stream: one the backend did not
        // sample gets a call of its own, one it held inside a character a probe of its position.
        if (logprobs >= 0) {
          const bool reported = t == sampled && !std::isnan(sampled_logprob);
          if (!reported && std::isnan(logprob_in(rows.at(pos), t))) {
            if (t != sampled) return false;
            probe_at = pos;
            probe_token = t;
            return false;
          }
        }
        first = false;
        if (t != sampled) {
          diverged = true;
          ++counters_.local_tokens;
        }
        write(t, t == sampled ? sampled_logprob : kUnknownLogprob);
        if (engine.rewound) return false;
        // After an end of generation it sampled, or the call's last token, the backend ends the
        // stream itself: its last event (what the call's prompt cost) is read rather than the
        // connection closed.
        if (seq.done()) {
          return !diverged && t == sampled &&
                 (model_.is_eog(t) || received == static_cast<size_t>(std::max(1, req.n_predict)));
        }
        if (seq.output_tokens().size() == pos + 1) {
          ++taken;
          return !diverged;  // past a token the backend did not sample, its stream is another answer
        }
        // Not taken: the loop constrains this position now; its raw top tokens may decide it.
      }
      return false;
    };
    req.progress = !admitted;
    // Only a streamed llama-server call reports its cache before the prompt is processed: before any
    // other the answer is admitted now, so the stream's head and pings do not wait for the prompt.
    if (!admitted && !(pool_.address(*backend).api == BackendApi::llama && req.n_predict > 1 && !req.whole)) admit(0);
    std::optional<CallGuard> guard(std::in_place, pool_, *backend, *clients[*backend]);
    const StreamResult r = clients[*backend]->complete(req, [&](const CompletionEvent& ev) {
      admit(ev.cached);
      if (rewind_call && ev.evaluated >= 0) {
        counters_.rewind_prompt_evaluated += ev.evaluated;
        ++counters_.rewind_calls_reported;
      }
      if (first && after_rewind) {
        counters_.rewind_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - rewound_at).count();
        after_rewind = false;
      }
      // Where the backend reported every token's position (a call not streamed, an OpenAI chunk of
      // several tokens), each token takes its own; else only the last token has them.
      const bool each = every_position_reported(ev);
      for (size_t i = 0; i < ev.tokens.size(); ++i) {
        ++counters_.tokens;
        ++received;
        std::span<const TopProb> top;
        double logprob = kUnknownLogprob;
        if (each) {
          const PositionProbs& p = ev.positions[i];
          top = ev.all_top.subspan(p.top_begin, p.top_end - p.top_begin);
          logprob = p.logprob;
        } else if (i + 1 == ev.tokens.size()) {
          top = ev.top;
          logprob = ev.logprob;
        }
        if (!take(ev.tokens[i], top, logprob)) return false;
      }
      return true;
    });
    guard.reset();
    lost = r.lost;
    if (engine.rewound) {
      ++counters_.rewinds;
      after_rewind = true;
      rewound_at = Clock::now();
    }
    if (r.end == StreamEnd::failed && seq.done()) {
      // The answer was complete; only the backend's last event (its report) did not come.
      std::fprintf(stderr, "sfcl: %s after the answer's last token; the answer is complete\n", r.error.c_str());
      break;
    }
    if (r.end == StreamEnd::failed) {
      const bool last = failovers + 1 > options_.max_failovers;
      std::fprintf(stderr, "sfcl: %s; %s\n", r.error.c_str(),
                   last ? "the answer fails (--max-failovers)" : "the answer continues on another backend");
      // Whatever the loop took from this backend stays: the next one continues after it.
      pool_.mark_failed(*backend);
      pool_.release(*backend);
      avoid = backend;
      backend.reset();
      ++counters_.failovers;
      if (++failovers > options_.max_failovers) {
        // The backends' addresses and errors are the operator's, in the log above; not the client's.
        error = "the backend calls for this answer failed " + std::to_string(failovers) +
                " times in a row (--max-failovers " + std::to_string(options_.max_failovers) + ")";
        break;
      }
      continue;
    }
    pool_.mark_served(*backend);
    if (r.end == StreamEnd::rejected) {
      // Why the backend refused the call is the client's to know; which backend it was is not.
      std::fprintf(stderr, "sfcl: %s; the answer fails\n", r.error.c_str());
      const std::string named = "backend " + pool_.address(*backend).url + ": ";
      error = "the backend refused the call: " +
              (r.error.starts_with(named) ? r.error.substr(named.size()) : std::string("see the gateway's log"));
      break;
    }
    // A token the loop did not take (the grammar rejected it) is banned on the next call.
    empty_streams = received == 0 && !seq.done() ? empty_streams + 1 : 0;
    refused_calls = received > 0 && taken == 0 && !seq.done() ? refused_calls + 1 : 0;
    if (loose_refused) {
      loose_refused_at = at;
    } else if (taken > 0) {
      loose_refused_at = std::numeric_limits<size_t>::max();
    }
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
  finish_job(job, seq.result(), error, error_status);
}

}  // namespace sfcl::gateway
