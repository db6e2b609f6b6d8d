// The check side of one sequence's loop: checking each completed anchor (timed, with the
// constrained verdict for what the fallback wrote), recording what is delivered and the events that
// report it, and the per-token legacy mode's sentence checks. Sampling and emission are loop.cpp's;
// the backtrack and fallback policy is backtrack.cpp's.
#include <algorithm>
#include <chrono>

#include "decode/state.h"

namespace sfcl::decode {

using anchor::Anchor;
using verify::Verdict;
using Clock = std::chrono::steady_clock;

namespace {
int64_t elapsed_ns(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
}
}  // namespace

AnchorRecord Sequence::State::make_record(const Anchor& a, std::string_view text) const {
  AnchorRecord rec;
  rec.anchor = a;
  rec.id = anchor::anchor_id(a.type, res.anchors.size() + 1);
  rec.text = text.empty() ? std::string(text_of(a)) : std::string(text);
  return rec;
}

void Sequence::State::record(const Anchor& a, const verify::CheckResult& r, size_t first, bool flagged) {
  AnchorRecord rec = make_record(a);
  rec.verdict = r.verdict;
  rec.confidence = r.confidence;
  rec.checked = r.checked;
  rec.flagged = flagged;
  rec.other_field = r.other_field;
  rec.constrained = constrainer.constrained(first);
  rec.attempts = backtracker.attempts(first);
  rec.reason = r.reason;
  rec.derivation = r.derivation;
  rec.verbatim = r.verbatim;
  if (r.role_matched) rec.role.assign(r.role);
  if (r.span.source >= 0 || r.support >= 0) {
    rec.support_source = r.span.source;
    rec.support_start = r.span.start;
    rec.support_end = r.span.end;
  }
  // BRS counts backtracks the model itself resolved: a value the fallback wrote is not one.
  if (r.verdict == Verdict::confirmed && rec.attempts > 0) res.stats.backtracks_resolved += rec.attempts;
  res.anchors.push_back(std::move(rec));
  if (sink && r.checked) {
    Event e;
    e.kind = r.verdict == Verdict::confirmed ? Event::Kind::anchor_confirmed : Event::Kind::anchor_checked;
    e.anchor = &res.anchors.back();
    sink(e);
  }
}

void Sequence::State::backtrack_event(const Anchor& a, const verify::CheckResult& r, int32_t attempt) {
  if (!sink) return;
  AnchorRecord tmp = make_record(a);
  tmp.confidence = r.confidence;
  Event e;
  e.kind = Event::Kind::backtrack;
  e.anchor = &tmp;
  e.text = tmp.text;
  e.reason = verify::reason_name(r.reason);
  e.attempt = attempt;
  sink(e);
}

void Sequence::State::fallback_event(const Anchor& a, Fallback policy, std::string_view failed, verify::Reason reason) {
  ++res.stats.fallbacks;
  if (!sink) return;
  const AnchorRecord tmp = make_record(a, failed);
  Event e;
  e.kind = Event::Kind::fallback;
  e.anchor = &tmp;
  e.policy = policy;
  e.reason = verify::reason_name(reason);
  sink(e);
}

verify::CheckResult Sequence::State::timed_check(const Anchor& a) {
  const auto t0 = Clock::now();
  // The stream knows only what precedes the value (verify.h: the derivation cue is skipped here).
  const std::string_view before = std::string_view(output.text()).substr(0, a.start);
  verify::CheckResult r = checker.check(a, anchor::field_label(output.text(), a.start), text_of(a), before);
  // What the constrain fallback wrote is grounded by construction, not confirmed: it says so in
  // every report (events, sfcl.anchors, status header, metrics).
  if (r.checked && r.verdict != Verdict::unsupported && constrainer.constrained(output.token_at(a.start))) {
    r.verdict = Verdict::constrained;
  }
  const int64_t ns = elapsed_ns(t0);
  res.stats.checks += 1;
  res.stats.check_ns_total += ns;
  res.stats.check_ns_max = std::max(res.stats.check_ns_max, ns);
  if (opt.on_check) opt.on_check(a, r, ns);
  return r;
}

void Sequence::State::count(const verify::CheckResult& r, bool confidence) {
  ++res.stats.anchors_seen;
  if (confidence) note_confidence(r);
  if (r.checked) ++res.stats.verdicts[static_cast<size_t>(r.verdict)];
}

void Sequence::State::note_confidence(const verify::CheckResult& r) {
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

bool Sequence::State::process_anchor_mode(Engine& ctx) {
  const bool rewound = check_new_anchors(ctx);
  new_anchors.clear();
  return rewound;
}

bool Sequence::State::check_new_anchors(Engine& ctx) {
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

bool Sequence::State::process_per_token(Engine& ctx, bool final) {
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

}  // namespace sfcl::decode
