// One backend call of a gateway answer (remote_answer.h): what it asks for, and the loop taking its
// streamed tokens one by one until the stream no longer continues the loop's output.
#include <algorithm>
#include <cmath>

#include "gateway/backend_protocol.h"
#include "gateway/remote_answer.h"

namespace sfcl::gateway {

using Clock = std::chrono::steady_clock;

namespace {

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

// The test script's token at output position `out.size()` while the output follows it.
std::optional<Token> script_token(const std::vector<Token>* script, std::span<const Token> out, Token eos) {
  if (script == nullptr || out.size() > script->size() || !std::equal(out.begin(), out.end(), script->begin())) {
    return std::nullopt;
  }
  return out.size() == script->size() ? eos : (*script)[out.size()];
}

// Whether a sampler under `next` may not pick `t`: banned, or not on its allow-list.
bool excluded(const decode::NextToken& next, Token t) {
  return std::find(next.banned.begin(), next.banned.end(), t) != next.banned.end() ||
         (!next.allowed.empty() && std::find(next.allowed.begin(), next.allowed.end(), t) == next.allowed.end());
}

}  // namespace

std::optional<Token> RemoteScheduler::Answer::draw(std::span<const TopProb> top, const decode::NextToken& now) {
  if (!drawer_) {
    engine::SamplingOptions own = job_->options.sampling;
    own.seed = call_seed(own.seed, ~uint64_t{0});
    drawer_.emplace(s_.model_, own);
    draw_scratch_.emplace(static_cast<size_t>(s_.model_.n_vocab()));
  }
  return draw_from_top(top, now, top_k_, *drawer_, *draw_scratch_);
}

RemoteScheduler::Answer::Call RemoteScheduler::Answer::plan_call(const decode::NextToken& next) {
  Call c;
  req_.sampling.temperature = next.temperature;
  // Greedy draws nothing: a fixed seed spares the backend seeding a generator from the system
  // (std::random_device) for every call.
  // Sampled, each call gets a seed of its own, derived from the request's and the call's number:
  // llama-server seeds a new generator per request, so one seed for every call would draw the
  // first token of each with the same random number (a retry after a backtrack among them).
  req_.sampling.seed = next.temperature == 0.0F ? 0 : call_seed(job_->options.sampling.seed, calls_made_);
  ++calls_made_;
  req_.prompt = seq_.prompt_tokens();
  req_.prompt_tail = seq_.output_tokens();
  c.at = seq_.output_tokens().size();
  const auto left = static_cast<int32_t>(job_->options.max_tokens - static_cast<int32_t>(c.at));
  auto scripted = script_token(s_.script_.get(), seq_.output_tokens(), s_.model_.eos());
  // As the local hook's boost goes through the sampler's grammar, the script only steers a position
  // to a token the loop's constraints leave: boosting one they exclude would have the backend
  // sample it on every call (a tool call's grammar rejects the script's prose).
  if (scripted && excluded(next, *scripted)) scripted.reset();
  c.single = !next.free() || scripted.has_value();
  // Raw top tokens for at most raw_window positions: a constrained call goes on that far (each
  // later token checked); a free call asks for them when they cover the rest of the answer or
  // enough of it that the calls they split it into do not matter.
  c.raw = raw_ok_ && next.temperature == 0.0F && (c.single || raw_window_ >= std::min(left, kMinFreeRawWindow));
  // With raw top tokens coming back, a ban (no allow-list) is checked here on the call's first
  // token instead of being sent: logit_bias holds at every position of a call, so its later
  // tokens would be sampled under a ban the loop no longer has, and the list is long (after a
  // value, every token that glues onto it: most of a real vocabulary). Only when that position's
  // top tokens cannot decide it does the call there carry the ban. An allow-list is still sent:
  // after a constrain fallback its tokens are seldom among the raw top ones.
  // (A position whose row is known was not decided from it: the call there carries the ban.)
  // Sampled, the same holds with the position drawn in the gateway from that call's raw top tokens.
  c.drawn = draw_ok_ && next.temperature > 0.0F && next.allowed.empty() && !next.banned.empty() && !scripted &&
            loose_refused_at_ != c.at && clients_[*backend_]->protocol().reports_wide_top();
  c.loose = c.drawn || (c.raw && next.allowed.empty() && !next.banned.empty() && !scripted && rows_.at(c.at).empty() &&
                        loose_refused_at_ != c.at);
  req_.bias.assign(job_->logit_bias.begin(), job_->logit_bias.end());  // the request's own, at every position
  for (Token t : next.allowed) req_.bias.emplace_back(t, kAllowBias);
  req_.allowed.assign(next.allowed.begin(), next.allowed.end());
  if (scripted) req_.bias.emplace_back(*scripted, kScriptBias);
  // A drawn call's own token is not used: it is made the end of generation, which the backend
  // always reports with its top tokens (one that ended inside a character would come without).
  if (c.drawn && s_.model_.eos() >= 0) req_.bias.emplace_back(s_.model_.eos(), kProbeBias);
  if (!c.loose) {
    for (Token t : next.banned) req_.bias.emplace_back(t, kBanned);  // last: a ban wins
  }
  req_.n_probs =
      std::max({c.raw ? kTopN : 0, c.drawn ? 4 * top_k_ + 8 : 0, logprobs_ >= 0 ? std::max(1, logprobs_) : 0});
  // A drawn call is one token: its top tokens are many (4 * top_k + 8), and a backend reporting
  // them for every token of a stream costs more than the call they would save.
  req_.n_predict = c.raw ? std::clamp(left, 1, raw_window_) : c.single ? 1 : std::max(1, left);
  // After a stream that ended inside a character, the same call not streamed returns every id
  // (docs/SCALING.md, "Characters split over tokens").
  req_.whole = lost_;
  req_.inside_character = s_.pieces_.ends_inside_character(seq_.output_tokens());
  return c;
}

StreamResult RemoteScheduler::Answer::call(Call& c) {
  engine_.rewound = false;
  s_.pool_.count_request(*backend_);
  ++s_.counters_.calls;
  if (c.single) ++s_.counters_.constrained_calls;
  if (c.loose) ++s_.counters_.checked_bans;
  s_.counters_.bias_entries += static_cast<int64_t>(req_.bias.size());
  c.rewind_call = after_rewind_;
  if (c.rewind_call) ++s_.counters_.rewind_calls;
  req_.progress = !admitted_;
  // Only a streamed llama-server call reports its cache before the prompt is processed: before any
  // other the answer is admitted now, so the stream's head and pings do not wait for the prompt.
  if (!admitted_ && !(clients_[*backend_]->protocol().reports_progress() && req_.n_predict > 1 && !req_.whole)) {
    admit(0);
  }
  const CallGuard guard(s_.pool_, *backend_, *clients_[*backend_]);
  return clients_[*backend_]->complete(
      req_, [&](const CompletionEvent& ev) { return on_event(c, ev); }, gone_);
}

bool RemoteScheduler::Answer::on_event(Call& c, const CompletionEvent& ev) {
  admit(ev.cached);
  if (c.rewind_call && ev.evaluated >= 0) {
    s_.counters_.rewind_prompt_evaluated += ev.evaluated;
    ++s_.counters_.rewind_calls_reported;
  }
  if (c.first && after_rewind_) {
    s_.counters_.rewind_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - rewound_at_).count();
    after_rewind_ = false;
  }
  // Where the backend reported every token's position (a call not streamed, an OpenAI chunk of
  // several tokens), each token takes its own; else only the last token has them.
  const bool each = every_position_reported(ev);
  for (size_t i = 0; i < ev.tokens.size(); ++i) {
    ++s_.counters_.tokens;
    ++c.received;
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
    if (!take(c, ev.tokens[i], top, logprob)) return false;
  }
  return true;
}

// Takes one streamed token, or what the loop picks there instead; false when the stream no
// longer continues the loop's output.
bool RemoteScheduler::Answer::take(Call& c, Token sampled, std::span<const TopProb> top, double sampled_logprob) {
  if (seq_.done()) return false;
  const size_t pos = seq_.output_tokens().size();
  if (!top.empty()) rows_.store(pos, top);
  bool diverged = false;
  for (int decision = 0; decision < kMaxDecisionsPerPosition; ++decision) {
    const std::optional<Token> chosen = choose(c, sampled, top, pos, decision);
    if (!chosen) return false;
    const Token t = *chosen;
    // With logprobs asked, a token whose log-probability neither the backend's report nor its
    // position's raw top tokens give is not written from this stream: one the backend did not
    // sample gets a call of its own, one it held inside a character a probe of its position.
    if (logprobs_ >= 0) {
      const bool reported = t == sampled && !std::isnan(sampled_logprob);
      if (!reported && std::isnan(logprob_in(rows_.at(pos), t))) {
        if (t != sampled) return false;
        probe_at_ = pos;
        probe_token_ = t;
        return false;
      }
    }
    c.first = false;
    if (t != sampled) {
      diverged = true;
      ++s_.counters_.local_tokens;
    }
    write(t, t == sampled ? sampled_logprob : kUnknownLogprob);
    if (engine_.rewound) return false;
    // After an end of generation it sampled, or the call's last token, the backend ends the
    // stream itself: its last event (what the call's prompt cost) is read rather than the
    // connection closed.
    if (seq_.done()) {
      return !diverged && t == sampled &&
             (s_.model_.is_eog(t) || c.received == static_cast<size_t>(std::max(1, req_.n_predict)));
    }
    if (seq_.output_tokens().size() == pos + 1) {
      ++c.taken;
      return !diverged;  // past a token the backend did not sample, its stream is another answer
    }
    // Not taken: the loop constrains this position now; its raw top tokens may decide it.
  }
  return false;
}

// The token the loop writes at `pos` for the streamed `sampled`: the sampled one where the loop
// has nothing against it, else what the loop picks there itself; nullopt when the stream no
// longer continues the loop's output.
std::optional<Token> RemoteScheduler::Answer::choose(Call& c, Token sampled, std::span<const TopProb> top, size_t pos,
                                                     int decision) {
  if (c.first && !c.loose) return sampled;
  if (job_->channel.cancelled() || s_.stopping_) return std::nullopt;
  const decode::NextToken now = seq_.next_token();
  if (now.forced) return std::nullopt;
  if (const auto sole = sole_candidate(now)) return *sole;
  if (c.raw && now.temperature == 0.0F) {
    // From a call with no bias the backend's greedy pick is the most likely token (the
    // first of equal ones, as for the loop's sampler); where the loop allows it, it is the
    // loop's pick too, with or without a row of raw top tokens (a token the stream held
    // inside a character comes without one). Else the row decides.
    const bool backend_pick = req_.bias.empty() && decision == 0 && now.allowed.empty() &&
                              std::find(now.banned.begin(), now.banned.end(), sampled) == now.banned.end();
    if (backend_pick) return sampled;
    const std::optional<Token> pick = greedy_from_top(rows_.at(pos), now);
    if (!pick) c.loose_refused = c.loose && pos == c.at;
    return pick;
  }
  if (c.drawn && now.temperature > 0.0F && now.allowed.empty() && !now.banned.empty()) {
    const std::optional<Token> d = draw(top, now);
    if (!d) c.loose_refused = pos == c.at;
    return d;
  }
  if (decision > 0 || !now.free() || now.temperature != req_.sampling.temperature ||
      script_token(s_.script_.get(), seq_.output_tokens(), s_.model_.eos())) {
    // Sampled with no ban or allow-list: fine only where the loop has none.
    return std::nullopt;
  }
  return sampled;
}

}  // namespace sfcl::gateway
