#include "report/report.h"

#include <cstdio>

namespace sfcl::report {

using nlohmann::json;

json anchor_json(const decode::AnchorRecord& a) {
  json x = {{"anchor_id", a.id},
            {"anchor_type", std::string(anchor::type_name(a.anchor.type))},
            {"anchor_kind", std::string(anchor::kind_name(anchor::kind_of(a.anchor.type)))},
            {"text", a.text},
            {"norm", a.anchor.norm},
            {"start", a.anchor.start},
            {"end", a.anchor.end},
            {"verdict", std::string(verify::verdict_name(a.verdict))},
            {"confidence", a.confidence},
            {"checked", a.checked}};
  if (a.flagged) x["flagged"] = true;
  if (a.constrained) x["constrained"] = true;
  if (a.other_field) {
    x["other_field"] = true;
    x["reason"] = "other_field";
  }
  if (a.attempts > 0) x["backtracks"] = a.attempts;
  if (a.checked && a.verdict == verify::Verdict::confirmed) {
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

std::string status_line(const decode::Result& r, decode::Mode mode) {
  if (mode == decode::Mode::off) return "off";
  if (!r.active) return "inactive";
  char buf[96];
  std::snprintf(buf, sizeof buf, "active; anchor_count=%lld; avg_backtrack=%.2f",
                static_cast<long long>(anchor_count(r)), avg_backtrack(r));
  return buf;
}

json summary_json(const decode::Result& r, decode::Mode mode) {
  return {{"mode", std::string(decode::mode_name(mode))},
          {"status", status_line(r, mode)},
          {"anchor_count", anchor_count(r)},
          {"anchors_checked", r.stats.checked()},
          {"confirmed", r.stats.verdicts[0]},
          {"unsupported", r.stats.verdicts[1]},
          {"unverifiable", r.stats.verdicts[2]},
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
