// The backtrack and fallback policy of the check loop: where to rewind for an unsupported anchor,
// what to ban there, and which fallback runs once its retries are spent (docs/DESIGN.md,
// 'Backtracking').
#include <algorithm>

#include "decode/state.h"
#include "util/assert.h"
#include "util/utf8.h"

namespace sfcl::decode {

using anchor::Anchor;
using verify::Verdict;

namespace {
// Continuations banned, at most, for extending a value (constrained or emitted) into one the
// sources do not state; then the value is kept as it is.
constexpr int32_t kMaxExtensionBans = 4;
// After this many bans of the word that extends a constrained value, the separator before it is
// banned too (a model that keeps reaching for another suffix: "Ltd.", "Corp.", ...).
constexpr int32_t kWordBansBeforeSeparator = 2;
}  // namespace

size_t Sequence::State::divergence_token(const Anchor& a, size_t first) const {
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

bool Sequence::State::ban_constrained_extension(const Anchor& a, size_t first, Engine& ctx) {
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

bool Sequence::State::reject_emitted_extension(const Anchor& a, Engine& ctx) {
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

std::string Sequence::State::first_token_prefix(const Anchor& a, size_t first) const {
  const size_t from = output.token_start(first);
  return output.text().substr(from, a.start - from);
}

bool Sequence::State::build_candidates(const Anchor& a, size_t first) {
  if (!constrainer.build(model, sources, a, bound_field(sources, output.text(), a), first_token_prefix(a, first))) {
    return false;
  }
  if (!sampler.has_grammar()) return true;
  // Only values the output's grammar can hold at the anchor's place: a JSON number holds no
  // "$12,500.00", and a value the grammar cuts short would end the output mid-JSON.
  constrainer.retain([&](std::span<const Token> c) { return grammar_accepts(first, c); });
  sampler.reset_grammar(output.tokens());  // back to the state of the text as it stands
  return constrainer.candidate_count() > 0;
}

bool Sequence::State::keep_prefix(size_t first, size_t upto) {
  const auto kept =
      upto <= first ? std::span<const Token>() : std::span<const Token>(output.tokens()).subspan(first, upto - first);
  return constrainer.keep_prefix(kept);
}

void Sequence::State::prepare_retry_check(const Anchor& a, size_t first, size_t rewind_to) {
  retry.reset();
  if (opt.mode != Mode::anchor || opt.fallback != Fallback::constrain || rewind_to < first) return;
  if (!build_candidates(a, first) || !keep_prefix(first, rewind_to)) return;
  constrainer.set_depth(rewind_to - first);
  retry = RetryCheck{rewind_to, first, a, std::string(text_of(a))};
}

bool Sequence::State::handle_unsupported(const Anchor& a, const verify::CheckResult& r, size_t first, size_t rewind_to,
                                         Engine& ctx) {
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
  // Constrain writes only a value of the anchor's own type; with none in the sources it abstains.
  const bool constrain_policy = opt.fallback == Fallback::constrain;
  bool constrain = constrain_policy && build_candidates(a, first);
  std::string marker;
  if (!constrain && !grammar_takes(first, marker_tokens(a, first, marker))) {
    // The output's grammar has no room for the marker here (a JSON number, a short string): a
    // source value of the anchor's type when there is one, else the value stays, flagged. Either
    // way the report says what the client gets (docs/DESIGN.md, 'Tools and structured output').
    constrain = !constrain_policy && build_candidates(a, first);
    if (!constrain) {
      fallback_event(a, Fallback::flag, {}, r.reason);
      record(a, r, first, true);
      return false;
    }
  }
  fallback_event(a, constrain ? Fallback::constrain : Fallback::abstain, {}, r.reason);
  if (!constrain) {
    abstain(a, r, first, ctx);
    return true;
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

std::vector<Token> Sequence::State::marker_tokens(const Anchor& a, size_t first, std::string& marker) const {
  // The marker speaks the answer's language: Chinese after Chinese text.
  const bool zh =
      utf8::has_han(std::string_view(output.text()).substr(0, a.start)) || (a.start == 0 && utf8::has_han(text_of(a)));
  marker = zh ? opt.abstain_marker_zh : opt.abstain_marker;
  return model.tokenize(first_token_prefix(a, first) + marker, false, false);
}

bool Sequence::State::grammar_accepts(size_t first, std::span<const Token> tokens) {
  sampler.reset_grammar(std::span<const Token>(output.tokens()).first(first));
  for (const Token t : tokens) {
    if (!sampler.accept_forced(t)) return false;
  }
  return true;
}

bool Sequence::State::grammar_takes(size_t first, std::span<const Token> tokens) {
  if (!sampler.has_grammar()) return true;
  const bool takes = grammar_accepts(first, tokens);
  sampler.reset_grammar(output.tokens());  // back to the state of the text as it stands
  return takes;
}

void Sequence::State::marker_rejected() {
  const size_t at = abstainer.drop();
  if (at == Abstainer::kNone) return;
  const size_t from = at < output.size() ? output.token_start(at) : output.text().size();
  std::erase_if(res.anchors, [&](const AnchorRecord& r) { return r.anchor.start >= from; });
}

void Sequence::State::abstain(const Anchor& a, const verify::CheckResult& r, size_t first, Engine& ctx) {
  AnchorRecord rec = make_record(a);  // numbered before the rewind drops later records
  rec.verdict = Verdict::unsupported;
  rec.reason = r.reason;
  rec.confidence = r.confidence;
  rec.checked = true;
  rec.flagged = true;
  rec.attempts = backtracker.attempts(first);
  std::string marker;
  std::vector<Token> tokens = marker_tokens(a, first, marker);  // before the rewind cuts the text
  rewind(ctx, first);
  // The record stands for what the client reads: the marker where the value was.
  rec.text = marker;
  rec.anchor.end = rec.anchor.start + static_cast<uint32_t>(marker.size());
  const size_t n_ctx = opt.n_ctx_seq > 0 ? static_cast<size_t>(opt.n_ctx_seq) : ctx.n_ctx();
  if (static_cast<int64_t>(first + tokens.size()) > opt.max_tokens || prompt.size() + first + tokens.size() >= n_ctx) {
    // A marker cut by the token limit (or a full context) would read as text of its own ("[not in"): the output ends
    // before the value instead, and the record says nothing was written in its place.
    rec.text.clear();
    rec.anchor.end = rec.anchor.start;
    res.anchors.push_back(std::move(rec));
    backtracker.stop();
    finish(StopReason::max_tokens);
    return;
  }
  res.anchors.push_back(std::move(rec));
  abstainer.start(std::move(tokens), first);
}

}  // namespace sfcl::decode
