// The check loop of one sequence. Hot path per token: sample, append the piece, feed the
// incremental lexer, emit what is stable; the checker runs only when an anchor completes.
// The pieces it coordinates each live in their own file (see state.h); the backtrack and
// fallback policy is in backtrack.cpp.
#include <algorithm>
#include <array>
#include <optional>
#include <span>

#include "decode/logprobs.h"
#include "decode/state.h"
#include "util/assert.h"

namespace sfcl::decode {

using anchor::Anchor;
using verify::Verdict;
using Clock = std::chrono::steady_clock;

namespace {
// Reserved capacity of the lexer's text and of the anchors completed by one token.
constexpr size_t kReservedBytes = 4096;
constexpr size_t kReservedAnchors = 16;
// Logprob entries reserved up front (a typical answer's tokens); longer answers grow the vectors.
constexpr int32_t kReservedLogprobs = 1024;

int64_t elapsed_ns(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
}

std::string normalize_newlines(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '\r') {
      out.push_back('\n');
      i += (i + 1 < s.size() && s[i + 1] == '\n') ? 2 : 1;
    } else if (s.substr(i, 2) == "\xC2\x85") {
      out.push_back('\n');
      i += 2;
    } else if (s.substr(i, 3) == "\xE2\x80\xA8" || s.substr(i, 3) == "\xE2\x80\xA9") {
      out.push_back('\n');
      i += 3;
    } else {
      out.push_back(s[i++]);
    }
  }
  return out;
}

}  // namespace

namespace {
// The local engine: a llama.cpp context whose logits the loop samples itself.
class ContextEngine final : public Engine {
 public:
  explicit ContextEngine(engine::Context& ctx) : ctx_(ctx) {}
  void rewind(int32_t seq, int32_t pos) override { ctx_.rewind(seq, pos); }
  [[nodiscard]] size_t n_ctx() const override { return ctx_.n_ctx(); }

 private:
  engine::Context& ctx_;
};
}  // namespace

Sequence::State::State(const engine::Model& m, const Options& o, const anchor::SourceIndex& src, EventSink s)
    : model(m),
      opt(o),
      sources(src),
      sink(std::move(s)),
      checker(src, o.checker),
      sampler(m, o.sampling),
      lexer(src.options()),
      backtracker(o.max_tokens, o.max_backtracks) {
  for (auto& st : opt.stop) {
    st = normalize_newlines(st);
    stop_span = std::max(stop_span, 3 * st.size());
  }
  // The loop checks whenever a mode is on: with no source text at all anchors are unverifiable, but
  // citations are still checked (nothing may invent a reference). The status says "inactive" then.
  active = opt.mode != Mode::off;
  grounded = sources.has_text();
  lexer.reserve(kReservedBytes);
  new_anchors.reserve(kReservedAnchors);
  if (active) cache = LogitCache(static_cast<size_t>(m.n_vocab()));
  if (!opt.grammar.gbnf.empty()) sampler.set_grammar(opt.grammar);
  res.logprobs = opt.logprobs = std::min(opt.logprobs, TokenLogprob::kMaxTop);
  if (opt.logprobs >= 0) {
    const auto n = static_cast<size_t>(std::clamp(opt.max_tokens, 0, kReservedLogprobs));
    logprobs.reserve(n);
    res.token_logprobs.reserve(n);
  }
}

void Sequence::State::emit(size_t limit, Delivery delivery) {
  const std::string_view chunk = output.emit(limit);
  const size_t delivered = opt.logprobs >= 0 ? deliver_logprobs(delivery) : 0;
  if (chunk.empty() && delivered == 0) return;
  res.text.append(chunk);
  if (sink) {
    Event e;
    e.kind = Event::Kind::token;
    e.text = chunk;
    e.logprobs = std::span<const TokenLogprob>(res.token_logprobs).last(delivered);
    sink(e);
  }
}

size_t Sequence::State::deliver_logprobs(Delivery delivery) {
  size_t n = res.token_logprobs.size();
  const size_t first = n;
  const size_t size = output.text().size();
  for (; n < logprobs.size(); ++n) {
    const size_t end = n + 1 < output.size() ? output.token_start(n + 1) : output.end_bytes();
    const bool whole = end <= output.emitted();
    // At the end every token counts (one ending inside a character too), except those after the
    // start of a stop sequence; one the stop sequence cut still delivered part of its text.
    const bool last = delivery == Delivery::end || (delivery == Delivery::stopped && output.token_start(n) < size);
    if (!whole && !last) break;
  }
  res.token_logprobs.insert(res.token_logprobs.end(), logprobs.begin() + static_cast<std::ptrdiff_t>(first),
                            logprobs.begin() + static_cast<std::ptrdiff_t>(n));
  return n - first;
}

void Sequence::State::record_logprob(std::span<const float> logits, Token tok, size_t index) {
  // A token replaces whatever a rewind left at its position.
  if (logprobs.size() > index) logprobs.resize(index);
  logprobs.emplace_back();
  compute_logprob(model, logits, tok, opt.logprobs, logprobs.back());
  logprobs.back().offset = output.token_start(index);
}

void Sequence::State::record_reported(Token tok, size_t index) {
  if (logprobs.size() > index) logprobs.resize(index);
  logprobs.emplace_back();
  // The loop may write another token than the engine's (an abstain marker): its own is unknown.
  reported_logprob(model, tok, reported, tok == reported_token, opt.logprobs, logprobs.back());
  logprobs.back().offset = output.token_start(index);
}

size_t Sequence::State::stable_limit() const {
  const size_t size = output.text().size();
  if (anchor_mode()) {
    const size_t stable = lexer.stable_end();
    if (stable < size) return output.size() == 0 ? 0 : output.token_start(output.token_at(stable));
  } else if (opt.mode == Mode::per_token && active) {
    return sentences.start();
  }
  return size;
}

void Sequence::State::append_token(Token tok) {
  const size_t before = output.append(model, tok);
  if (output.text().size() > before && anchor_mode()) {
    const auto t0 = Clock::now();
    lexer.feed(std::string_view(output.text()).substr(before), new_anchors);
    res.stats.scan_ns_total += elapsed_ns(t0);
  }
}

void Sequence::State::rewind(Engine& ctx, size_t index) {
  const size_t before = output.size();
  index = output.rewind(index);
  if (logprobs.size() > index) logprobs.resize(index);  // the removed tokens' entries go with them
  res.stats.regenerated_tokens += static_cast<int64_t>(before - index);
  // The grammar's state belongs to the text that stays (docs/DESIGN.md, 'Tools and structured output').
  sampler.reset_grammar(output.tokens());
  grammar_gate.reset();
  const size_t size = output.text().size();
  if (anchor_mode()) {
    // Anchors re-reported from `resume` on are checked again; ones already emitted keep their
    // first record (emitted text is never retracted).
    const size_t resume = std::max(lexer.truncate(size), output.emitted());
    std::erase_if(res.anchors, [&](const AnchorRecord& r) { return r.anchor.start >= resume; });
  }
  if (opt.mode == Mode::per_token) {
    // A sentence rewound to its start takes its records (an abstention's among them) with it.
    sentences.clamp(size);
    std::erase_if(res.anchors, [&](const AnchorRecord& r) { return r.anchor.start >= size; });
    backtracker.forget_fallbacks_after(index);
  }
  // The abstained anchor went with its marker: whatever is written there now is checked again.
  if (const size_t marker = abstainer.forget_from(index); marker != Abstainer::kNone) {
    backtracker.forget_fallback(marker);
  }
  const size_t n_prompt = prompt.size();
  cache.forget_after(index);
  if (cache.find(index) != nullptr) {
    // The token before `index` keeps its KV entry; on_logits samples again from its logits.
    set_input(ctx, {}, n_prompt + index);
    replay_index = index;
    ++res.stats.cached_rewinds;
    return;
  }
  // Re-decode the token before `index` to get fresh logits for it.
  const Token prev = index > 0 ? output.tokens()[index - 1] : prompt.back();
  set_input(ctx, std::span<const Token>(&prev, 1), n_prompt + index - 1);
}

void Sequence::State::set_input(Engine& ctx, std::span<const Token> tokens, size_t pos) {
  input_pos = static_cast<int32_t>(pos);
  ctx.rewind(seq, input_pos);
  input.assign(tokens.begin(), tokens.end());
}

bool Sequence::State::process(Engine& ctx, bool final) {
  if (!active) return false;
  if (opt.mode == Mode::anchor) {
    if (final) lexer.finish(new_anchors);
    return process_anchor_mode(ctx);
  }
  if (opt.mode == Mode::per_token) return process_per_token(ctx, final);
  return false;
}

void Sequence::State::finish(StopReason reason) {
  emit(output.text().size(), reason == StopReason::stop_sequence ? Delivery::stopped : Delivery::end);
  finished = true;
  input.clear();
  res.stop_reason = reason;
  res.output_tokens = static_cast<int32_t>(output.size());
  res.active = active && grounded;
}

bool Sequence::State::finalize(Engine& ctx, StopReason reason) {
  if (process(ctx, true)) return false;
  finish(reason);
  return true;
}

Token Sequence::State::next_token(const float* logits) {
  if (const auto forced = abstainer.next()) {
    // A marker the grammar does not allow here (inside a JSON number) is not written.
    if (sampler.accept_forced(*forced)) return *forced;
    marker_rejected();
  }
  const size_t index = output.size();
  if (retry) {
    // Decided at the first token after the rewind, or never.
    if (retry->index == index && !constrainer.active() &&
        constrainer.next_is_unlikely(logits, static_cast<size_t>(model.n_vocab()), backtracker.bans(),
                                     sampler.temperature())) {
      backtracker.mark_fell_back(retry->first);
      fallback_event(retry->anchor, Fallback::constrain, retry->text);
      constrainer.start(retry->first, retry->index);
    }
    retry.reset();
  }
  if (constrainer.active()) {
    const Constrainer::Choice choice = constrainer.choices(model.word_start_tokens());
    const Token t = sampler.sample(logits, choice.banned, choice.allowed);
    constrainer.advance(t, output.end_bytes());  // `t` starts right after the value
    return t;
  }
  return sampler.sample(logits, backtracker.bans_at(index), {});
}

void Sequence::State::step(const float* logits, Engine& ctx) {
  if (finished) return;
  // Before the hook: a replay applies the hook again. Only a checking mode rewinds to replay.
  if (active) cache.store(output.size(), logits);
  if (opt.logit_hook) {
    hooked.assign(logits, logits + model.n_vocab());
    opt.logit_hook(hooked, output.tokens());
    logits = hooked.data();
  }
  take(next_token(logits), ctx, logits);
}

NextToken Sequence::State::next_constraint() {
  NextToken next;
  next.temperature = sampler.temperature();
  if (finished) return next;
  if (const auto forced = abstainer.peek()) {
    next.forced = *forced;
    return next;
  }
  if (constrainer.active()) {
    const Constrainer::Choice choice = constrainer.choices(model.word_start_tokens());
    next.banned = choice.banned;
    next.allowed = choice.allowed;
    grammar_gate.narrow(next, sampler, !retry);
    return next;
  }
  next.banned = backtracker.bans_at(output.size());
  grammar_gate.narrow(next, sampler, !retry);
  return next;
}

void Sequence::State::step_sampled(Token sampled, Engine& ctx) {
  if (finished) return;
  Token tok = sampled;
  if (const auto forced = abstainer.next()) {
    // A marker the grammar does not allow is not written (as in next_token()): ask again.
    if (!sampler.accept_forced(*forced)) {
      marker_rejected();
      return;
    }
    tok = *forced;
  } else {
    const size_t index = output.size();
    if (retry) {
      // The retry check of next_token() on the one row a remote engine reveals: the token it
      // chose. Greedy, that is the same decision; sampled, one draw stands for the mass.
      const bool at_retry = retry->index == index && !constrainer.active();
      if (at_retry) {
        onehot.assign(static_cast<size_t>(model.n_vocab()), -1e30F);
        if (sampled >= 0 && sampled < model.n_vocab()) onehot[static_cast<size_t>(sampled)] = 0.0F;
      }
      if (at_retry &&
          constrainer.next_is_unlikely(onehot.data(), onehot.size(), backtracker.bans(), sampler.temperature())) {
        backtracker.mark_fell_back(retry->first);
        fallback_event(retry->anchor, Fallback::constrain, retry->text);
        constrainer.start(retry->first, retry->index);
        retry.reset();
        return;  // not taken: the engine samples again under the constraint
      }
      retry.reset();
    }
    // The engine sampled without the grammar: a token it rejects is banned here and sampled again
    // (docs/DESIGN.md, 'Gateway'). -1 (nothing allowed) ends the output as the local sampler's does.
    if (tok >= 0 && !sampler.accept_forced(tok)) {
      ++res.stats.grammar_rejections;
      grammar_gate.reject(tok, sampler);
      return;
    }
    if (constrainer.active()) constrainer.advance(tok, output.end_bytes());
  }
  grammar_gate.advance();
  take(tok, ctx);
}

void Sequence::State::take(Token tok, Engine& ctx, const float* logits) {
  ++res.stats.decoded_tokens;
  if (tok < 0 || model.is_eog(tok)) {
    finalize(ctx, StopReason::end_turn);  // false when rewound: the loop goes on
    return;
  }
  const size_t index = output.size();
  append_token(tok);
  if (opt.logprobs >= 0 && logits != nullptr) {
    record_logprob({logits, static_cast<size_t>(model.n_vocab())}, tok, index);
  } else if (opt.logprobs >= 0) {
    record_reported(tok, index);  // a remote engine sampled it: one entry per token all the same
  }
  abstainer.drop_if_done();
  if (process(ctx, false)) return;  // backtracked: pending input already set
  after_token(tok, ctx);
}

// Stop sequences, emission, and the limits that end the output.
void Sequence::State::after_token(Token tok, Engine& ctx) {
  if (!opt.stop.empty()) {
    if (const size_t shrunk = output.take_low_water(); shrunk < stop_scan + stop_span) {
      stop_scan = std::min(stop_scan, shrunk > stop_span ? shrunk - stop_span : 0);
    }
    const StopMatch m = find_stop(output.text(), std::max(output.emitted(), stop_scan), opt.stop);
    stop_scan = std::min(m.partial, output.text().size());
    if (m.start != std::string::npos) {
      output.truncate_text(m.start);
      if (anchor_mode()) lexer.truncate(m.start);
      if (finalize(ctx, StopReason::stop_sequence)) res.stop_sequence = opt.stop[m.which];
      return;
    }
    emit(std::min(stable_limit(), m.partial));
  } else {
    emit(stable_limit());
  }
  // A marker being written is finished first: its tokens were counted against max_tokens when it
  // started, and a cut one would read as text of its own.
  const bool budget_spent = !backtracker.within_budget(res.stats.decoded_tokens) && !abstainer.pending();
  if (static_cast<int64_t>(output.size()) >= opt.max_tokens || budget_spent) {
    if (budget_spent) backtracker.stop();
    finalize(ctx, StopReason::max_tokens);
    return;
  }
  input.assign(1, tok);
  input_pos = static_cast<int32_t>(prompt.size() + output.size() - 1);
  const int32_t limit = opt.n_ctx_seq > 0 ? opt.n_ctx_seq : static_cast<int32_t>(ctx.n_ctx());
  if (input_pos + 1 >= limit) {
    backtracker.stop();
    finalize(ctx, StopReason::max_tokens);  // context full
  }
}

Sequence::Sequence(const engine::Model& model, const Options& options, const anchor::SourceIndex& sources,
                   EventSink sink)
    : s_(std::make_unique<State>(model, options, sources, std::move(sink))) {}
Sequence::~Sequence() = default;

void Sequence::start(std::vector<Token> prompt, int32_t seq, int32_t reused) {
  State& s = *s_;
  if (prompt.empty()) throw engine::EngineError("empty prompt");
  s.prompt = std::move(prompt);
  s.seq = seq;
  const auto n = static_cast<int32_t>(s.prompt.size());
  reused = std::clamp(reused, 0, n - 1);  // the last prompt token is always decoded for logits
  s.input.assign(s.prompt.begin() + reused, s.prompt.end());
  s.input_pos = reused;
  s.res.prompt_tokens = n;
  s.res.cached_tokens = reused;
  if (s.opt.max_tokens <= 0) s.finish(StopReason::max_tokens);
}

std::span<const Token> Sequence::pending() const { return s_->input; }
int32_t Sequence::pending_pos() const { return s_->input_pos; }
int32_t Sequence::seq() const { return s_->seq; }
bool Sequence::done() const { return s_->finished; }
const Result& Sequence::result() const { return s_->res; }
const std::vector<Token>& Sequence::prompt_tokens() const { return s_->prompt; }
const std::vector<Token>& Sequence::output_tokens() const { return s_->output.tokens(); }

void Sequence::cancel() {
  if (!s_->finished) s_->finish(StopReason::end_turn);
}

void Sequence::on_logits(const float* logits, engine::Context& context) {
  ContextEngine ctx(context);
  on_logits(logits, ctx);
}

void Sequence::on_logits(const float* logits, Engine& ctx) {
  State& s = *s_;
  SFCL_ASSERT(!s.input.empty() || s.finished, "on_logits follows a decode of the pending input");
  s.step(logits, ctx);
  // A rewind that hit the logit cache samples again at once, from the logits it had then.
  while (!s.finished && s.replay_index) {
    const float* cached = s.cache.find(*s.replay_index);
    s.replay_index.reset();
    s.step(cached, ctx);
  }
}

void Sequence::step(const float* logits, engine::Context& context) {
  ContextEngine ctx(context);
  s_->step(logits, ctx);
}

NextToken Sequence::next_token() { return s_->next_constraint(); }

void Sequence::on_token(Token token, Engine& engine) { s_->step_sampled(token, engine); }

void Sequence::on_token(Token token, Engine& engine, const ReportedLogprob& reported) {
  s_->reported = &reported;
  s_->reported_token = token;
  s_->step_sampled(token, engine);
  s_->reported = nullptr;
}

Result generate(engine::Context& ctx, const std::vector<Token>& prompt, const Options& options,
                const anchor::SourceIndex& sources, const EventSink& sink) {
  if (prompt.size() >= ctx.n_ctx()) {
    throw engine::EngineError("prompt of " + std::to_string(prompt.size()) + " tokens does not fit the context of " +
                              std::to_string(ctx.n_ctx()) + " tokens");
  }
  Sequence seq(ctx.model(), options, sources, sink);
  ctx.clear(0);
  seq.start(prompt, 0, 0);
  while (!seq.done()) {
    ctx.decode(seq.pending(), seq.pending_pos(), 0);
    seq.on_logits(ctx.logits_last(), ctx);
  }
  return seq.result();
}

}  // namespace sfcl::decode
