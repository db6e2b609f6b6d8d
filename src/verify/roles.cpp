// Roles (docs/ANCHORS.md, "Roles"): a value is right only in its place. A confirmed value whose text
// says what it is the value of ("the total due is $18,240.00", "arrested on March 26", "Monday to
// Thursday from 5:00 PM") is compared with the source values stated under that same role. The
// evidence must be positive on both sides: the sources state a value of the type under that role,
// none of those equals the answer's, and every source occurrence of the answer's value is stated
// under another role. Then the value is `unsupported` with reason `other_field`, as a value under
// another field's label is. A role that the answer does not write, or that the sources never use,
// binds nothing.
#include "verify/verify.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

namespace {
// Types whose values are read with a role: numbers and what carries one, dates and times.
bool has_role(Type t) {
  switch (t) {
    case Type::number:
    case Type::amount:
    case Type::percent:
    case Type::date:
    case Type::duration:
    case Type::quantity:
    case Type::time:
    case Type::identifier:
      return true;
    default:
      return false;
  }
}
}  // namespace

void Checker::misattributed(CheckResult& r) {
  r.verdict = Verdict::unsupported;
  r.reason = Reason::other_field;
  r.other_field = true;
  r.support = -1;
  r.span = {};
  r.verbatim = false;
  r.role_matched = false;
}

// A time of day stated for days of the week ("Monday to Thursday from 5:00 PM to 9:00 PM") must be
// one of the times the sources state for each of those days they list (a record's "'Monday':
// '17:0-21:0'"), the days the sentence later gives another time aside. True when the days decided
// the verdict.
bool Checker::bind_to_days(const Anchor& a, std::string_view before, std::string_view after, CheckResult& r) {
  const uint8_t named = anchor::weekdays_of_time(before, after);
  // Days the sentence gives another time later are its exceptions, not this time's.
  const auto days = static_cast<uint8_t>(named & ~anchor::weekdays_excepted(before, after));
  if (days == 0) return false;
  const auto& all = index_.anchors();
  const float threshold = options_.threshold_for(a.type);
  uint8_t stated = 0;   // days the sources state times for
  uint8_t matched = 0;  // days one of whose times is this one
  int64_t hit = -1;
  for (uint32_t i : index_.of_type(Type::time)) {
    const auto d = static_cast<uint8_t>(all[i].days & days);
    // Records write "0:0-0:0" for a day whose hours they do not know (or round the clock).
    if (d == 0 || (all[i].anchor.norm == "00:00" && a.norm != "00:00")) continue;
    stated = static_cast<uint8_t>(stated | d);
    if (similarity(a, i) >= threshold) {
      matched = static_cast<uint8_t>(matched | d);
      if (hit < 0) hit = i;
    }
  }
  if (stated == 0) return false;
  if (matched != stated) {
    misattributed(r);
    return true;
  }
  r.support = hit;
  r.verbatim = false;
  r.role_matched = true;
  cite(r);
  return true;
}

void Checker::bind_to_role(const Anchor& a, std::string_view before, std::string_view after, CheckResult& r) {
  if (r.verdict != Verdict::confirmed || !has_role(a.type)) return;
  if (a.type == Type::time && bind_to_days(a, before, after, r)) return;
  const std::string_view role = anchor::role_of(before, after);
  if (role.empty()) return;
  const auto& all = index_.anchors();
  const auto candidates = a.type == Type::number ? std::span<const uint32_t>(numeric_) : index_.of_type(a.type);
  const float threshold = options_.threshold_for(a.type);
  bool stated = false;
  for (uint32_t i : candidates) {
    if (!anchor::same_role(all[i].role, role)) continue;
    stated = true;
    if (similarity(a, i) >= threshold) {
      r.support = i;
      r.verbatim = false;
      r.role_matched = true;
      cite(r);
      return;
    }
  }
  if (!stated) return;
  // The value under the role the answer gives is another one. Misattributed only where every source
  // occurrence of this value has a role of its own (one with none read may be this one).
  bool elsewhere = false;
  for (uint32_t i : candidates) {
    if (similarity(a, i) < threshold) continue;
    if (all[i].role.empty()) return;
    elsewhere = true;
  }
  if (elsewhere) misattributed(r);
}

}  // namespace sfcl::verify
