// A count in the place of another event's (docs/ANCHORS.md, "Roles"): the sources' "Two people were
// killed and nine injured" against the answer's "killed nine people". Nine is a value of the sources,
// but of the injured; the killed are two.
#include "verify/verify.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Event;
using anchor::Type;

// Unsupported only where the sources give the answer's event another count: one source occurrence of
// the value with that event, or with none read, keeps the confirmation, and so does a source that
// never counts the event (a count "hospitalised" beside the sources' "injured" is not contradicted).
void Checker::bind_to_event(const Anchor& a, std::string_view before, std::string_view after, CheckResult& r) {
  constexpr double kFirstYear = 1900;
  constexpr double kLastYear = 2100;
  const auto is_year = [&](const Anchor& x) {
    return x.type == Type::number && x.value >= kFirstYear && x.value <= kLastYear;
  };
  if (r.verdict != Verdict::confirmed || after.data() == nullptr || a.norm.starts_with('#') ||
      (a.type != Type::number && a.type != Type::quantity) || is_year(a)) {
    return;
  }
  const Event event = anchor::event_of(before, after);
  if (event == Event::none) return;
  const auto& all = index_.anchors();
  bool other = false;
  bool counted_elsewhere = false;
  for (uint32_t i : numeric_) {
    const auto& s = all[i];
    if (s.anchor.norm.starts_with('#') || is_year(s.anchor)) continue;
    if (s.anchor.value != a.value) {
      counted_elsewhere = counted_elsewhere || s.event == event;
      continue;
    }
    if (s.event == Event::none || s.event == event) return;
    other = true;
  }
  if (other && counted_elsewhere) misattributed(r);
}

}  // namespace sfcl::verify
