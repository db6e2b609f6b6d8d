#include "report/report.h"

#include <cstdio>

#include "util/utf8.h"

namespace sfcl::report {

using nlohmann::json;

json raw_anchor_json(const anchor::Anchor& a, const std::string& id, std::string_view text) {
  json x = {{"anchor_id", id},
            {"anchor_type", std::string(anchor::type_name(a.type))},
            {"anchor_kind", std::string(anchor::kind_name(anchor::kind_of(a.type)))},
            {"text", std::string(text)},
            {"norm", a.norm},
            {"start", a.start},
            {"end", a.end}};
  if (a.ambiguous) {
    x["ambiguous"] = true;
    x["alt_norm"] = a.alt_norm;
  }
  return x;
}

namespace {
// Structural anchors (JSON boundaries and keys, XML tags, code signatures) and connectives other than
// obligations are never fact-checked: "unchecked", not "unverifiable", which says a value went out
// that no source could check (a request with no source text).
std::string verdict_text(const anchor::Anchor& a, bool checked, verify::Verdict v) {
  if (!checked && !verify::is_checkable(a)) return "unchecked";
  return std::string(verify::verdict_name(v));
}
}  // namespace

json check_json(const anchor::Anchor& a, const std::string& id, std::string_view text, std::string_view field,
                const verify::CheckResult& r, const anchor::SourceIndex& index) {
  json j = raw_anchor_json(a, id, text);
  j["verdict"] = verdict_text(a, r.checked, r.verdict);
  j["confidence"] = r.confidence;
  j["checked"] = r.checked;
  if (!field.empty()) j["field"] = std::string(field);
  if (r.other_field) j["other_field"] = true;
  if (r.reason != verify::Reason::none) j["reason"] = std::string(verify::reason_name(r.reason));
  if (r.verbatim) j["verbatim"] = true;
  if (r.verdict == verify::Verdict::confirmed && anchor::kind_of(a.type) == anchor::Kind::entity) {
    // The role the confirmation matched (docs/ANCHORS.md, "Roles"), or null where none was read.
    j["role"] = nullptr;
    if (r.role_matched && !r.role.empty()) j["role"] = utf8::sanitize(r.role);
  }
  if (r.verdict == verify::Verdict::derived) {
    j["derivation"] = std::string(verify::derivation_name(r.derivation));
    json ops = json::array();
    for (int64_t op : r.operands) {
      if (op < 0) continue;
      const auto& s = index.anchors()[static_cast<size_t>(op)];
      ops.push_back({{"text", s.text}, {"source", s.source}, {"start", s.anchor.start}, {"end", s.anchor.end}});
    }
    j["operands"] = std::move(ops);
  }
  if (r.span.source >= 0 || r.support >= 0) {
    j["support"] = {{"source", r.span.source}, {"start", r.span.start}, {"end", r.span.end}};
  }
  return j;
}

std::vector<json> check_text(std::string_view text, const anchor::LexerOptions& lo, verify::Checker& checker) {
  std::vector<json> out;
  const auto anchors = anchor::extract(text, lo);
  for (size_t i = 0; i < anchors.size(); ++i) {
    const auto& a = anchors[i];
    const std::string_view field = anchor::field_label(text, a.start);
    const std::string_view surface = text.substr(a.start, a.end - a.start);
    const auto r = checker.check(a, field, surface, text.substr(0, a.start), text.substr(a.end));
    out.push_back(check_json(a, anchor::anchor_id(a.type, i + 1), utf8::sanitize(surface), utf8::sanitize(field), r,
                             checker.index()));
  }
  return out;
}

json anchor_json(const decode::AnchorRecord& a) {
  json x = raw_anchor_json(a.anchor, a.id, a.text);
  x["verdict"] = verdict_text(a.anchor, a.checked, a.verdict);
  x["confidence"] = a.confidence;
  x["checked"] = a.checked;
  if (a.flagged) x["flagged"] = true;
  if (a.constrained) x["constrained"] = true;
  if (a.other_field) x["other_field"] = true;
  if (a.reason != verify::Reason::none) x["reason"] = std::string(verify::reason_name(a.reason));
  if (a.verbatim) x["verbatim"] = true;
  if (a.checked && a.verdict == verify::Verdict::confirmed && anchor::kind_of(a.anchor.type) == anchor::Kind::entity) {
    // The role the confirmation matched, or null where none was read (docs/ANCHORS.md, "Roles").
    x["role"] = a.role.empty() ? json(nullptr) : json(utf8::sanitize(a.role));
  }
  if (a.derivation != verify::Derivation::none) x["derivation"] = std::string(verify::derivation_name(a.derivation));
  if (a.attempts > 0) x["backtracks"] = a.attempts;
  if (a.checked && (a.verdict == verify::Verdict::confirmed || a.verdict == verify::Verdict::derived ||
                    a.verdict == verify::Verdict::constrained)) {
    x["source"] = {{"message", a.support_source}, {"start", a.support_start}, {"end", a.support_end}};
  }
  return x;
}

std::string_view event_name(decode::Event::Kind kind) {
  using K = decode::Event::Kind;
  switch (kind) {
    case K::token:
      return "token";
    case K::anchor_confirmed:
      return "anchor_confirmed";
    case K::anchor_checked:
      return "anchor_checked";
    case K::backtrack:
      return "backtrack";
    case K::fallback:
      return "fallback";
  }
  return "token";
}

json event_json(const decode::Event& e) {
  using K = decode::Event::Kind;
  if (e.kind == K::token || e.anchor == nullptr) return nullptr;
  json j = anchor_json(*e.anchor);
  j["event"] = std::string(event_name(e.kind));
  if (e.kind == K::backtrack || e.kind == K::fallback) {
    // Both follow a check that found the anchor unsupported; the loop's record of the removed
    // attempt carries no verdict of its own.
    j["verdict"] = std::string(verify::verdict_name(verify::Verdict::unsupported));
    j["checked"] = true;
  }
  if (e.kind == K::backtrack) {
    j["attempt"] = e.attempt;
    j["removed"] = std::string(e.text);
    j["reason"] = std::string(e.reason);
  } else if (e.kind == K::fallback) {
    j["policy"] = std::string(decode::fallback_name(e.policy));
    if (!e.reason.empty()) j["reason"] = std::string(e.reason);
  }
  return j;
}

json unchecked_anchor_event(const decode::AnchorRecord& a) {
  json j = anchor_json(a);
  j["event"] = std::string(event_name(decode::Event::Kind::anchor_checked));
  return j;
}

int64_t anchor_count(const decode::Result& r) {
  int64_t n = 0;
  for (const auto& a : r.anchors) n += a.checked ? 1 : 0;
  return n;
}

double avg_backtrack(const decode::Result& r) {
  const int64_t n = anchor_count(r);
  return n > 0 ? static_cast<double>(r.stats.backtracks) / static_cast<double>(n) : 0.0;
}

int64_t delivered_count(const decode::Result& r, verify::Verdict v) {
  int64_t n = 0;
  for (const auto& a : r.anchors) n += a.verdict == v && (a.checked || v == verify::Verdict::unverifiable) ? 1 : 0;
  return n;
}

// Confirmed values whose role was not read (`role: null`): counted apart from those whose role
// matched, since they were confirmed on the value alone.
int64_t role_unread_count(const decode::Result& r) {
  int64_t n = 0;
  for (const auto& a : r.anchors) {
    n += a.checked && a.verdict == verify::Verdict::confirmed && verify::has_role(a.anchor.type) && a.role.empty();
  }
  return n;
}

int64_t unverifiable_count(const decode::Result& r) {
  // Structural and logic anchors are reported unchecked, not unverifiable: only values count.
  int64_t n = 0;
  for (const auto& a : r.anchors) {
    n += a.verdict == verify::Verdict::unverifiable && anchor::kind_of(a.anchor.type) == anchor::Kind::entity ? 1 : 0;
  }
  return n;
}

// "unverifiable=N" says how many delivered values nothing could check (a request with no source
// text): they reached the client unchecked, and the header says so.
std::string status_line(const decode::Result& r, decode::Mode mode) {
  if (mode == decode::Mode::off) return "off";
  const int64_t unverifiable = unverifiable_count(r);
  char buf[128];
  if (!r.active) {
    if (unverifiable == 0) return "inactive";
    std::snprintf(buf, sizeof buf, "inactive; unverifiable=%lld", static_cast<long long>(unverifiable));
    return buf;
  }
  int n = std::snprintf(buf, sizeof buf, "active; anchor_count=%lld; avg_backtrack=%.2f",
                        static_cast<long long>(anchor_count(r)), avg_backtrack(r));
  const int64_t constrained = delivered_count(r, verify::Verdict::constrained);
  if (constrained > 0 && n > 0 && static_cast<size_t>(n) < sizeof buf) {
    n += std::snprintf(buf + n, sizeof buf - static_cast<size_t>(n), "; constrained=%lld",
                       static_cast<long long>(constrained));
  }
  if (unverifiable > 0 && n > 0 && static_cast<size_t>(n) < sizeof buf) {
    std::snprintf(buf + n, sizeof buf - static_cast<size_t>(n), "; unverifiable=%lld",
                  static_cast<long long>(unverifiable));
  }
  return buf;
}

json summary_json(const decode::Result& r, decode::Mode mode) {
  return {{"mode", std::string(decode::mode_name(mode))},
          {"status", status_line(r, mode)},
          {"anchor_count", anchor_count(r)},
          {"anchors_checked", r.stats.checked()},
          // Verdicts of what was delivered (an anchor backtracked and written again counts once, with
          // the verdict of what the client got); `anchors_checked` counts every check.
          {"confirmed", delivered_count(r, verify::Verdict::confirmed)},
          {"confirmed_role_unread", role_unread_count(r)},
          {"derived", delivered_count(r, verify::Verdict::derived)},
          {"constrained", delivered_count(r, verify::Verdict::constrained)},
          {"unsupported", delivered_count(r, verify::Verdict::unsupported)},
          {"unverifiable", unverifiable_count(r)},
          {"backtracks", r.stats.backtracks},
          {"regenerated_tokens", r.stats.regenerated_tokens},
          {"fallbacks", r.stats.fallbacks}};
}

json anchors_json(const decode::Result& r) {
  json anchors = json::array();
  for (const auto& a : r.anchors) anchors.push_back(anchor_json(a));
  return anchors;
}

}  // namespace sfcl::report
