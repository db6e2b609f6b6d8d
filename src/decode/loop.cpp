// The check loop of one sequence. Hot path per token: sample, append the piece, feed the
// incremental lexer, emit what is stable; the checker runs only when an anchor completes.
// The pieces it coordinates each live in their own file: OutputText (tokens <-> bytes, emission),
// LogitCache, Backtracker (attempts, bans, budget), Constrainer, Abstainer, SentenceScanner.
#include <algorithm>
#include <array>
#include <optional>
#include <span>

#include "decode/abstainer.h"
#include "decode/backtracker.h"
#include "decode/constrainer.h"
#include "decode/decode.h"
#include "decode/logit_cache.h"
#include "decode/output_text.h"
#include "decode/sentence_scanner.h"
#include "util/assert.h"

namespace sfcl::decode {

using anchor::Anchor;
using verify::Verdict;
using Clock = std::chrono::steady_clock;

namespace {
// Continuations banned, at most, for extending a value (constrained or emitted) into one the
// sources do not state; then the value is kept as it is.
constexpr int32_t kMaxExtensionBans = 4;
// After this many bans of the word that extends a constrained value, the separator before it is
// banned too (a model that keeps reaching for another suffix: "Ltd.", "Corp.", ...).
constexpr int32_t kWordBansBeforeSeparator = 2;
// Reserved capacity of the lexer's text and of the anchors completed by one token.
constexpr size_t kReservedBytes = 4096;
constexpr size_t kReservedAnchors = 16;

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

struct Sequence::State {
  State(const engine::Model& m, const Options& o, const anchor::SourceIndex& src, EventSink s)
      : model(m),
        opt(o),
        sources(src),
        sink(std::move(s)),
        checker(src, o.checker),
        sampler(m, o.sampling),
        lexer(src.options()),
        backtracker(o.max_tokens, o.max_backtracks) {
    for (auto& st : opt.stop) st = normalize_newlines(st);
    active = opt.mode != Mode::off && !sources.empty();
    lexer.reserve(kReservedBytes);
    new_anchors.reserve(kReservedAnchors);
    if (active) cache = LogitCache(static_cast<size_t>(m.n_vocab()));
  }

  const engine::Model& model;
  Options opt;
  const anchor::SourceIndex& sources;
  EventSink sink;
  verify::Checker checker;
  engine::Sampler sampler;
  anchor::Incremental lexer;

  std::vector<Token> prompt;
  OutputText output;
  int32_t seq = 0;
  std::vector<Token> input;  // what the next llama_decode processes
  int32_t input_pos = 0;
  bool finished = false;
  bool active = false;
  Result res;

  Backtracker backtracker;
  Constrainer constrainer;
  Abstainer abstainer;
  SentenceScanner sentences;
  LogitCache cache;
  std::optional<size_t> replay_index;  // set by a rewind that hit the cache: sample here from it

  // A retry whose first token is checked before it is sampled (see Constrainer::next_is_unlikely)
  struct RetryCheck {
    size_t index = 0;  // output position of the retry's first token
    size_t first = 0;  // the anchor's first token
    Anchor anchor;
    std::string text;  // the unsupported value
  };
  std::optional<RetryCheck> retry;

  std::vector<Anchor> new_anchors;     // completed by the last token (anchor mode)
  int32_t emitted_extension_bans = 0;  // continuations banned for extending an emitted anchor
  std::array<float, 8> recent{};       // confidences of the last checks (dynamic temperature)
  size_t n_recent = 0;
  std::vector<float> hooked;  // logits edited by Options::logit_hook

  [[nodiscard]] bool anchor_mode() const { return opt.mode == Mode::anchor && active; }
  [[nodiscard]] std::string_view text_of(const Anchor& a) const { return output.slice(a.start, a.end); }

  // ---------------------------------------------------------------- output
  void emit(size_t limit) {
    const std::string_view chunk = output.emit(limit);
    if (chunk.empty()) return;
    res.text.append(chunk);
    if (sink) {
      Event e;
      e.kind = Event::Kind::token;
      e.text = chunk;
      sink(e);
    }
  }

  // Emission limit: before any unchecked anchor (aligned to its token) and any partial stop.
  [[nodiscard]] size_t stable_limit() const {
    const size_t size = output.text().size();
    if (anchor_mode()) {
      const size_t stable = lexer.stable_end();
      if (stable < size) return output.size() == 0 ? 0 : output.token_start(output.token_at(stable));
    } else if (opt.mode == Mode::per_token && active) {
      return sentences.start();
    }
    return size;
  }

  void append_token(Token tok) {
    const size_t before = output.append(model, tok);
    if (output.text().size() > before && anchor_mode()) {
      const auto t0 = Clock::now();
      lexer.feed(std::string_view(output.text()).substr(before), new_anchors);
      res.stats.scan_ns_total += elapsed_ns(t0);
    }
  }

  // Keeps output tokens [0, index) and sets the input that gets logits for position `index`.
  void rewind(engine::Context& ctx, size_t index) {
    const size_t before = output.size();
    index = output.rewind(index);
    res.stats.regenerated_tokens += static_cast<int64_t>(before - index);
    const size_t size = output.text().size();
    if (anchor_mode()) {
      // Anchors re-reported from `resume` on are checked again; ones already emitted keep their
      // first record (emitted text is never retracted).
      const size_t resume = std::max(lexer.truncate(size), output.emitted());
      std::erase_if(res.anchors, [&](const AnchorRecord& r) { return r.anchor.start >= resume; });
    }
    if (opt.mode == Mode::per_token) sentences.clamp(size);
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

  // The llama boundary: positions are int32_t there.
  void set_input(engine::Context& ctx, std::span<const Token> tokens, size_t pos) {
    input_pos = static_cast<int32_t>(pos);
    ctx.rewind(seq, input_pos);
    input.assign(tokens.begin(), tokens.end());
  }

  // ---------------------------------------------------------------- records and events
  // The record of `a` as written (or with `text` instead, for a value that was replaced).
  [[nodiscard]] AnchorRecord make_record(const Anchor& a, std::string_view text = {}) const {
    AnchorRecord rec;
    rec.anchor = a;
    rec.id = anchor::anchor_id(a.type, res.anchors.size() + 1);
    rec.text = text.empty() ? std::string(text_of(a)) : std::string(text);
    return rec;
  }

  void record(const Anchor& a, const verify::CheckResult& r, size_t first, bool flagged) {
    AnchorRecord rec = make_record(a);
    rec.verdict = r.verdict;
    rec.confidence = r.confidence;
    rec.checked = r.checked;
    rec.flagged = flagged;
    rec.other_field = r.other_field;
    rec.constrained = constrainer.constrained(first);
    rec.attempts = backtracker.attempts(first);
    if (r.support >= 0) {
      const auto& s = sources.anchors()[static_cast<size_t>(r.support)];
      rec.support_source = s.source;
      rec.support_start = s.anchor.start;
      rec.support_end = s.anchor.end;
    }
    if (r.verdict == Verdict::confirmed && rec.attempts > 0) res.stats.backtracks_resolved += rec.attempts;
    res.anchors.push_back(std::move(rec));
    if (sink && r.checked) {
      Event e;
      e.kind = r.verdict == Verdict::confirmed ? Event::Kind::anchor_confirmed : Event::Kind::anchor_checked;
      e.anchor = &res.anchors.back();
      sink(e);
    }
  }

  void backtrack_event(const Anchor& a, const verify::CheckResult& r, int32_t attempt) {
    if (!sink) return;
    AnchorRecord tmp = make_record(a);
    tmp.confidence = r.confidence;
    Event e;
    e.kind = Event::Kind::backtrack;
    e.anchor = &tmp;
    e.text = tmp.text;
    e.reason = r.other_field ? "other_field" : "unsupported";
    e.attempt = attempt;
    sink(e);
  }

  void fallback_event(const Anchor& a, Fallback policy, std::string_view failed = {}) {
    ++res.stats.fallbacks;
    if (!sink) return;
    const AnchorRecord tmp = make_record(a, failed);
    Event e;
    e.kind = Event::Kind::fallback;
    e.anchor = &tmp;
    e.policy = policy;
    sink(e);
  }

  // ---------------------------------------------------------------- checks
  // Every check goes through here, so the stats and Options::on_check see all of them.
  verify::CheckResult timed_check(const Anchor& a) {
    const auto t0 = Clock::now();
    verify::CheckResult r = checker.check(a, anchor::field_label(output.text(), a.start));
    const int64_t ns = elapsed_ns(t0);
    res.stats.checks += 1;
    res.stats.check_ns_total += ns;
    res.stats.check_ns_max = std::max(res.stats.check_ns_max, ns);
    if (opt.on_check) opt.on_check(a, r, ns);
    return r;
  }

  // Counts a seen anchor's verdict (and feeds dynamic temperature when `confidence`).
  void count(const verify::CheckResult& r, bool confidence) {
    ++res.stats.anchors_seen;
    if (confidence) note_confidence(r);
    if (r.checked) ++res.stats.verdicts[static_cast<size_t>(r.verdict)];
  }

  void note_confidence(const verify::CheckResult& r) {
    if (!r.checked) return;
    res.stats.confidence_sum += r.confidence;
    if (!opt.dynamic_temperature) return;
    recent[n_recent % recent.size()] = r.confidence;
    ++n_recent;
    const size_t n = std::min(n_recent, recent.size());
    float mean = 0.0F;
    for (size_t i = 0; i < n; ++i) mean += recent[i];
    mean /= static_cast<float>(n);
    // High recent confidence allows a cooler sampler (docs/DESIGN.md, 'Dynamic temperature'):
    // > 0.85 -> 0.3; 0.7-0.85 -> 0.55; <= 0.7 -> 0.8
    sampler.set_temperature(mean > 0.85F ? 0.3F : (mean > 0.7F ? 0.55F : 0.8F));
  }

  // ---------------------------------------------------------------- backtracking
  // The token where the anchor departs from every source value of its type: the anchor's first
  // token when no source value shares its beginning. Banning the anchor's first token instead
  // would make the right value unreachable whenever it shares that token with the wrong one
  // ("$", "INV-2024-", "Section "), so every such retry would fail by construction.
  [[nodiscard]] size_t divergence_token(const Anchor& a, size_t first) const {
    const std::string_view written = text_of(a);
    const std::string_view field = bound_field(sources, output.text(), a);
    size_t common = 0;
    for (uint32_t i : sources.of_type(a.type)) {
      if (!in_field(sources, i, field)) continue;
      const std::string_view v = sources.anchors()[i].text;
      size_t n = 0;
      while (n < v.size() && n < written.size() && v[n] == written[n]) ++n;
      common = std::max(common, n);
    }
    if (common == 0) return first;
    const size_t byte = a.start + common;
    if (byte >= output.text().size()) return first;
    size_t k = output.token_at(byte);
    // Never split a character: byte tokens of one CJK character are rewound together.
    while (k > first && output.starts_mid_character(k)) --k;
    return k > first && k < output.size() ? k : first;
  }

  // The constrained value is grounded by construction; when what follows it makes the lexer read
  // a longer anchor that is not an exact source value ("Henry Hughes" + " Inc.", which n-gram
  // similarity may even accept), that continuation is banned and resampled.
  bool ban_constrained_extension(const Anchor& a, size_t first, engine::Context& ctx) {
    if (!constrainer.extended_by(a, first)) return false;
    if (constrainer.extension_bans() >= kMaxExtensionBans || !backtracker.within_budget(res.stats.decoded_tokens)) {
      return false;
    }
    // Only an exact source value may extend it ("Acme Labs" -> "Acme Labs LLC"); the checker may
    // confirm a longer name ("Henry Hughes Inc." by "Henry Hughes", suffixes aside) that the
    // source never wrote.
    const std::string_view written = text_of(a);
    for (uint32_t i : sources.of_type(a.type)) {
      if (sources.anchors()[i].text == written) return false;
    }
    // The word that extends it is banned first; then the separator before it, and gluing a letter
    // or digit on in its place ("Hughesby").
    const size_t value_end = constrainer.value_end();
    const bool separator = constrainer.extension_bans() >= kWordBansBeforeSeparator;
    size_t b = value_end;
    if (!separator) {
      while (b < a.end && output.text()[b] == ' ') ++b;
    }
    const size_t k = output.token_at(b);
    if (k <= first || k >= output.size()) return false;
    constrainer.count_extension_ban();
    backtracker.ban(k, output.tokens()[k]);
    // A token that starts right after the value (" Emma" in a subword vocabulary) is replaced by
    // one that must not glue a letter or digit onto it ("Hughes" + "00") either.
    const bool right_after = output.token_start(k) == value_end;
    if (separator || right_after) backtracker.ban_more(model.word_start_tokens());
    // A name goes on with any capitalised word ("Dr. Grace Hughes" + " David Brown"): with
    // subword tokens that word starts right after the value, and all of them are banned at once.
    if (right_after && a.type == anchor::Type::name) backtracker.ban_more(model.spaced_capital_tokens());
    rewind(ctx, k);
    return true;
  }

  // An emitted anchor that the text after a rewind extends into one the sources do not support:
  // emitted text stays, so the first token after it is banned and decoded again.
  bool reject_emitted_extension(const Anchor& a, engine::Context& ctx) {
    if (emitted_extension_bans >= kMaxExtensionBans || !backtracker.within_budget(res.stats.decoded_tokens)) {
      return false;
    }
    if (timed_check(a).verdict != Verdict::unsupported) return false;
    const size_t k = output.first_token_from(output.emitted());
    if (k >= output.size()) return false;
    ++emitted_extension_bans;
    backtracker.ban(k, output.tokens()[k]);
    rewind(ctx, k);
    return true;
  }

  // The bytes of the anchor's first token that precede the anchor (a token may start before it).
  [[nodiscard]] std::string first_token_prefix(const Anchor& a, size_t first) const {
    const size_t from = output.token_start(first);
    return output.text().substr(from, a.start - from);
  }

  // Candidates of the constrain fallback for `a`, alive when they begin with output [first, upto).
  bool build_candidates(const Anchor& a, size_t first) {
    return constrainer.build(model, sources, a, bound_field(sources, output.text(), a), first_token_prefix(a, first));
  }
  bool keep_prefix(size_t first, size_t upto) {
    const auto kept =
        upto <= first ? std::span<const Token>() : std::span<const Token>(output.tokens()).subspan(first, upto - first);
    return constrainer.keep_prefix(kept);
  }

  // A retry is worth its tokens only if the model can write a source value at the divergence: for
  // the constrain fallback, the first token of the retry is checked before it is sampled.
  void prepare_retry_check(const Anchor& a, size_t first, size_t rewind_to) {
    retry.reset();
    if (opt.mode != Mode::anchor || opt.fallback != Fallback::constrain || rewind_to < first) return;
    if (!build_candidates(a, first) || !keep_prefix(first, rewind_to)) return;
    constrainer.set_depth(rewind_to - first);
    retry = RetryCheck{rewind_to, first, a, std::string(text_of(a))};
  }

  // Backtrack or fall back for an unsupported anchor; true when the sequence was rewound.
  bool handle_unsupported(const Anchor& a, const verify::CheckResult& r, size_t first, size_t rewind_to,
                          engine::Context& ctx) {
    SFCL_ASSERT(first < output.size() && rewind_to < output.size(), "the anchor is in the output");
    const bool budget_left = backtracker.can_backtrack(res.stats.decoded_tokens);
    if (budget_left && backtracker.may_retry(first)) {
      const int32_t attempt = backtracker.add_attempt(first);
      ++res.stats.backtracks;
      backtrack_event(a, r, attempt);
      // Anchor mode rewinds to the divergence token and bans it there; per-token mode rewinds to
      // the sentence start and bans the anchor's first token.
      const size_t ban_at = std::max(first, rewind_to);
      backtracker.ban(ban_at, output.tokens()[ban_at]);
      prepare_retry_check(a, first, rewind_to);
      rewind(ctx, rewind_to);
      return true;
    }
    const bool fell_back = backtracker.fell_back(first);
    if (fell_back || !budget_left || opt.fallback == Fallback::flag) {
      if (!fell_back) fallback_event(a, Fallback::flag);
      backtracker.mark_fell_back(first);
      record(a, r, first, true);
      return false;
    }
    backtracker.mark_fell_back(first);
    fallback_event(a, opt.fallback);
    if (opt.fallback == Fallback::abstain) {
      const std::string prefix = first_token_prefix(a, first);  // before the rewind cuts the text
      AnchorRecord rec = make_record(a);                        // numbered before the rewind drops later records
      rec.verdict = Verdict::unsupported;
      rec.confidence = r.confidence;
      rec.checked = true;
      rec.flagged = true;
      rec.attempts = backtracker.attempts(first);
      rewind(ctx, first);
      res.anchors.push_back(std::move(rec));
      abstainer.start(model.tokenize(prefix + opt.abstain_marker, false, false), first);
      return true;
    }
    if (!build_candidates(a, first)) {
      record(a, r, first, true);
      return false;
    }
    // Keep the tokens before the divergence when some candidate starts with them: only the rest of
    // the value is resampled (the whole value otherwise).
    size_t from = std::max(first, rewind_to);
    if (!keep_prefix(first, from)) {
      from = first;
      keep_prefix(first, from);
    }
    constrainer.start(first, from);
    rewind(ctx, from);
    return true;
  }

  // ---------------------------------------------------------------- modes
  // Anchor mode: check anchors the lexer just completed. True when rewound.
  bool process_anchor_mode(engine::Context& ctx) {
    const bool rewound = check_new_anchors(ctx);
    new_anchors.clear();
    return rewound;
  }

  bool check_new_anchors(engine::Context& ctx) {
    for (const Anchor& a : new_anchors) {
      if (a.start < output.emitted()) {
        // Re-scanned after a rewind: recorded and emitted already, unless the new text made it
        // longer than what was emitted ("Grace Hughes" + " Smith").
        if (a.end > output.emitted() && reject_emitted_extension(a, ctx)) return true;
        continue;
      }
      ++res.stats.anchors_seen;
      const size_t first = output.token_at(a.start);
      if (abstainer.is_marker(first)) continue;
      const verify::CheckResult r = timed_check(a);
      note_confidence(r);
      if (r.checked) ++res.stats.verdicts[static_cast<size_t>(r.verdict)];
      if (ban_constrained_extension(a, first, ctx)) return true;
      if (r.verdict == Verdict::unsupported) {
        if (handle_unsupported(a, r, first, divergence_token(a, first), ctx)) return true;
        continue;
      }
      record(a, r, first, false);
    }
    return false;
  }

  // Per-token (legacy) mode: re-scan and re-check the whole current sentence at every token.
  bool process_per_token(engine::Context& ctx, bool final) {
    const auto t0 = Clock::now();
    const std::span<const Anchor> anchors = sentences.scan(output.text(), sources.options());
    res.stats.scan_ns_total += elapsed_ns(t0);
    const bool ends = sentences.ends(output.text(), final);
    for (const Anchor& a : anchors) {
      if (!ends && a.end >= output.text().size()) continue;  // still being written
      const verify::CheckResult r = timed_check(a);
      if (r.verdict != Verdict::unsupported) continue;
      const size_t first = output.token_at(a.start);
      if (backtracker.fell_back(first)) continue;
      count(r, false);
      const size_t sentence_first = output.token_at(sentences.start());
      const bool retries_left = backtracker.attempts(first) < opt.max_backtracks;
      const size_t back = retries_left ? std::min(sentence_first, first) : first;
      if (handle_unsupported(a, r, first, back, ctx)) return true;
    }
    if (ends) {
      for (const Anchor& a : anchors) {
        const size_t first = output.token_at(a.start);
        const verify::CheckResult r = timed_check(a);
        if (r.verdict == Verdict::unsupported && backtracker.fell_back(first)) continue;  // recorded as flagged
        count(r, true);
        record(a, r, first, false);
      }
      sentences.next_sentence(output.text().size());
    }
    return false;
  }

  bool process(engine::Context& ctx, bool final) {
    if (!active) return false;
    if (opt.mode == Mode::anchor) {
      if (final) lexer.finish(new_anchors);
      return process_anchor_mode(ctx);
    }
    if (opt.mode == Mode::per_token) return process_per_token(ctx, final);
    return false;
  }

  void finish(StopReason reason) {
    emit(output.text().size());
    finished = true;
    input.clear();
    res.stop_reason = reason;
    res.output_tokens = static_cast<int32_t>(output.size());
    res.status = status_string(opt.mode, active, res.stats);
    res.active = active;
  }

  // End of generation: flush anchors only the end proves complete. False when rewound.
  bool finalize(engine::Context& ctx, StopReason reason) {
    if (process(ctx, true)) return false;
    finish(reason);
    return true;
  }

  // ---------------------------------------------------------------- sampling
  Token next_token(const float* logits) {
    if (const auto forced = abstainer.next()) return *forced;
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

  // One sampled token (on_logits, replays).
  void step(const float* logits, engine::Context& ctx);
  void after_token(Token tok, engine::Context& ctx);
};

void Sequence::State::step(const float* logits, engine::Context& ctx) {
  if (finished) return;
  cache.store(output.size(), logits);  // before the hook: a replay applies the hook again
  if (opt.logit_hook) {
    hooked.assign(logits, logits + ctx.n_vocab());
    opt.logit_hook(hooked, output.tokens());
    logits = hooked.data();
  }
  const Token tok = next_token(logits);
  ++res.stats.decoded_tokens;
  if (tok < 0 || model.is_eog(tok)) {
    finalize(ctx, StopReason::end_turn);  // false when rewound: the loop goes on
    return;
  }
  append_token(tok);
  abstainer.drop_if_done();
  if (process(ctx, false)) return;  // backtracked: pending input already set
  after_token(tok, ctx);
}

// Stop sequences, emission, and the limits that end the output.
void Sequence::State::after_token(Token tok, engine::Context& ctx) {
  if (!opt.stop.empty()) {
    const StopMatch m = find_stop(output.text(), output.emitted(), opt.stop);
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
  const bool budget_spent = !backtracker.within_budget(res.stats.decoded_tokens);
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

void Sequence::on_logits(const float* logits, engine::Context& ctx) {
  State& s = *s_;
  SFCL_ASSERT(!s.input.empty() || s.finished, "on_logits follows a decode of the pending input");
  step(logits, ctx);
  // A rewind that hit the logit cache samples again at once, from the logits it had then.
  while (!s.finished && s.replay_index) {
    const float* cached = s.cache.find(*s.replay_index);
    s.replay_index.reset();
    step(cached, ctx);
  }
}

void Sequence::step(const float* logits, engine::Context& ctx) { s_->step(logits, ctx); }

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
