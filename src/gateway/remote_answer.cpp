// One answer of the gateway (RemoteScheduler::run): the job's check loop on tokens the backends
// sample, call by call. The loop decides what it can from the raw top tokens it has, and asks a
// backend for the rest; a rewind, a failover or a refused token starts the next call. The calls
// themselves are in remote_call.cpp.
#include "gateway/remote_answer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/report.h"

namespace sfcl::gateway {

using server::Job;
using server::JobEvent;
using Clock = std::chrono::steady_clock;

namespace {

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

}  // namespace

RemoteScheduler::Answer::Answer(RemoteScheduler& s, const std::shared_ptr<Job>& job,
                                std::vector<std::unique_ptr<BackendClient>>& clients)
    : s_(s),
      job_(job),
      clients_(clients),
      seq_(s.model_, job->options, *job->sources, server::job_event_sink(job)),
      engine_(static_cast<size_t>(s.options_.n_ctx)),
      raw_window_(static_cast<int32_t>(
          std::min<int64_t>(s.options_.raw_prob_budget / std::max(1, s.model_.n_vocab()), 1 << 20))),
      affinity_(prefix_hash(job->prompt)),
      wait_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s.options_.queue_timeout_s))),
      raw_ok_(raw_window_ > 0 && job->options.mode != decode::Mode::off && job->logit_bias.empty() &&
              s.script_ == nullptr),
      // Grows past this only for long answers (a row per output position).
      rows_(std::min<size_t>(static_cast<size_t>(std::max(0, job->options.max_tokens)) + 2, 512)),
      logprobs_(job->options.logprobs),
      top_k_(job->options.sampling.top_k),
      draw_ok_(raw_window_ > 0 && job->options.mode != decode::Mode::off && job->logit_bias.empty() &&
               s.script_ == nullptr && logprobs_ < 0 && top_k_ > 0 && top_k_ <= kMaxDrawTopK) {
  seq_.start(job->prompt, 0, 0);
  req_.sampling = job->options.sampling;
  gone_ = [this] { return job_->channel.cancelled() || s_.stopping_; };
}

RemoteScheduler::Answer::~Answer() {
  if (backend_) s_.pool_.release(*backend_);
}

void RemoteScheduler::run(const std::shared_ptr<Job>& job, std::vector<std::unique_ptr<BackendClient>>& clients) {
  prompt_tokens_ += static_cast<int64_t>(job->prompt.size());
  job->options.n_ctx_seq = options_.n_ctx;
  Answer(*this, job, clients).run();
}

void RemoteScheduler::Answer::run() {
  while (!seq_.done() && step() == Next::go_on) {
  }
  if (backend_) s_.pool_.release(*backend_);
  backend_.reset();
  finish_job(job_, seq_.result(), error_, error_status_);
}

RemoteScheduler::Answer::Next RemoteScheduler::Answer::step() {
  if (job_->channel.cancelled() || s_.stopping_) {
    seq_.cancel();
    if (s_.stopping_) error_ = "server shutting down";
    return Next::stop;
  }
  const decode::NextToken next = seq_.next_token();
  if (next.forced) {  // an abstain marker: written by the loop, not the backend
    write(*next.forced);
    return Next::go_on;
  }
  if (probe_at_ == seq_.output_tokens().size()) {
    if (!have_backend()) return Next::stop;
    probe_row(*probe_at_);
    probe_at_.reset();
    write(probe_token_);  // null where the token is not among the position's top tokens either
    return Next::go_on;
  }
  probe_at_.reset();
  // The only token any sampler could pick; with logprobs asked, the backend's call reports its
  // own unless its position's raw top tokens do.
  const auto sole = sole_candidate(next);
  if (sole && (logprobs_ < 0 || !std::isnan(logprob_in(rows_.at(seq_.output_tokens().size()), *sole)))) {
    write(*sole);
    return Next::go_on;
  }
  if (const auto pick = pick_locally(next)) {
    ++s_.counters_.local_tokens;
    write(*pick);
    return Next::go_on;
  }
  if (!have_backend()) return Next::stop;
  Call c = plan_call(next);
  const StreamResult r = call(c);
  return after_call(c, r);
}

void RemoteScheduler::Answer::admit(int32_t cached) {
  if (admitted_) return;
  admitted_ = true;
  job_->channel.mark_admitted(std::max(0, cached));
}

// `sampled_logprob`: the backend's for `t` when it sampled t there; otherwise t's is looked up
// among the raw top tokens of its position, and stays unknown (NaN) when not among them.
void RemoteScheduler::Answer::write(Token t, double sampled_logprob) {
  const size_t pos = seq_.output_tokens().size();
  rows_.keep_through(pos);
  if (logprobs_ >= 0) {
    decode::ReportedLogprob reported;
    reported_top_.clear();
    for (const TopProb& p : rows_.at(pos)) reported_top_.emplace_back(p.id, static_cast<float>(p.logprob));
    reported.top = reported_top_;
    reported.logprob = static_cast<float>(std::isnan(sampled_logprob) ? logprob_in(rows_.at(pos), t) : sampled_logprob);
    seq_.on_token(t, engine_, reported);
  } else {
    seq_.on_token(t, engine_);
  }
  rows_.keep_through(seq_.output_tokens().size());
}

// The loop's greedy pick at the output's next position from the raw top tokens there.
std::optional<Token> RemoteScheduler::Answer::pick_locally(const decode::NextToken& now) {
  const size_t pos = seq_.output_tokens().size();
  if (!raw_ok_ || now.temperature != 0.0F || (pos == decided_at_ && decisions_ >= kMaxDecisionsPerPosition)) {
    return std::nullopt;
  }
  const std::optional<Token> pick = greedy_from_top(rows_.at(pos), now);
  if (pick) {
    decisions_ = pos == decided_at_ ? decisions_ + 1 : 1;
    decided_at_ = pos;
  }
  return pick;
}

bool RemoteScheduler::Answer::have_backend() {
  if (!backend_) {
    // A new answer with no backend healthy fails at once (503); one under way waits a little for
    // its backend to pass a probe again (one failed call takes a backend out), about two of the
    // longest backoffs.
    const auto now = Clock::now();
    std::optional<Clock::time_point> return_by;
    if (calls_made_ > 0) {
      return_by = now + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(2 * s_.pool_.options().backoff_max_s + 2.0));
    }
    backend_ = s_.pool_.acquire(affinity_, avoid_, now + wait_, return_by);
  }
  if (!backend_) {
    // Neither is the engine's failure: 503, and the client may retry.
    error_status_ = 503;
    if (s_.stopping_) {
      error_ = "server shutting down";
    } else if (!s_.pool_.any_healthy()) {
      error_ = s_.unavailable();
    } else {
      error_ = "no backend slot became free within --queue-timeout";
    }
  }
  return backend_.has_value();
}

void RemoteScheduler::Answer::probe_row(size_t pos) {
  probe_.prompt = seq_.prompt_tokens();
  probe_.prompt_tail = seq_.output_tokens();
  probe_.bias.assign(1, {s_.model_.eos(), kProbeBias});
  probe_.n_predict = 1;
  probe_.n_probs = decode::TokenLogprob::kMaxTop;  // the most a client may ask: the widest net for the token
  probe_.sampling = job_->options.sampling;
  probe_.sampling.temperature = 0.0F;
  probe_.sampling.seed = 0;
  probe_.inside_character = s_.pieces_.ends_inside_character(seq_.output_tokens());
  s_.pool_.count_request(*backend_);
  ++s_.counters_.calls;
  s_.counters_.bias_entries += static_cast<int64_t>(probe_.bias.size());
  const CallGuard guard(s_.pool_, *backend_, *clients_[*backend_]);
  clients_[*backend_]->complete(
      probe_,
      [&](const CompletionEvent& ev) {
        if (!ev.top.empty()) rows_.store(pos, ev.top);
        return true;
      },
      gone_);
}

RemoteScheduler::Answer::Next RemoteScheduler::Answer::after_call(const Call& c, const StreamResult& r) {
  lost_ = r.lost;
  if (engine_.rewound) {
    ++s_.counters_.rewinds;
    after_rewind_ = true;
    rewound_at_ = Clock::now();
  }
  if (r.end == StreamEnd::failed && seq_.done()) {
    // The answer was complete; only the backend's last event (its report) did not come.
    std::fprintf(stderr, "sfcl: %s after the answer's last token; the answer is complete\n", r.error.c_str());
    return Next::stop;
  }
  if (r.end == StreamEnd::failed) {
    const bool last = failovers_ + 1 > s_.options_.max_failovers;
    std::fprintf(stderr, "sfcl: %s; %s\n", r.error.c_str(),
                 last ? "the answer fails (--max-failovers)" : "the answer continues on another backend");
    // Whatever the loop took from this backend stays: the next one continues after it.
    s_.pool_.mark_failed(*backend_);
    s_.pool_.release(*backend_);
    avoid_ = backend_;
    backend_.reset();
    ++s_.counters_.failovers;
    if (++failovers_ > s_.options_.max_failovers) {
      // The backends' addresses and errors are the operator's, in the log above; not the client's.
      error_ = "the backend calls for this answer failed " + std::to_string(failovers_) +
               " times in a row (--max-failovers " + std::to_string(s_.options_.max_failovers) + ")";
      return Next::stop;
    }
    return Next::go_on;
  }
  s_.pool_.mark_served(*backend_);
  if (r.end == StreamEnd::rejected) {
    // Why the backend refused the call is the client's to know; which backend it was is not.
    std::fprintf(stderr, "sfcl: %s; the answer fails\n", r.error.c_str());
    const std::string named = "backend " + s_.pool_.address(*backend_).url + ": ";
    error_ = "the backend refused the call: " +
             (r.error.starts_with(named) ? r.error.substr(named.size()) : std::string("see the gateway's log"));
    return Next::stop;
  }
  // A token the loop did not take (the grammar rejected it) is banned on the next call.
  empty_streams_ = c.received == 0 && !seq_.done() ? empty_streams_ + 1 : 0;
  refused_calls_ = c.received > 0 && c.taken == 0 && !seq_.done() ? refused_calls_ + 1 : 0;
  if (c.loose_refused) {
    loose_refused_at_ = c.at;
  } else if (c.taken > 0) {
    loose_refused_at_ = std::numeric_limits<size_t>::max();
  }
  if (empty_streams_ >= kMaxEmptyStreams) {
    error_ = "backend " + s_.pool_.address(*backend_).url + " returned no tokens";
    return Next::stop;
  }
  if (refused_calls_ >= kMaxRefusedCalls) {
    error_ = "backend " + s_.pool_.address(*backend_).url + " keeps sampling tokens its logit_bias bans";
    return Next::stop;
  }
  return Next::go_on;
}

}  // namespace sfcl::gateway
