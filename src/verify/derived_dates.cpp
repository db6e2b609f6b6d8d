// Dates derived from a source date and a later span of time (docs/ANCHORS.md, "Checking"): an
// invoice "dated 2024-03-15" and "due 30 days later" is due on 14 April 2024; a contract "signed
// 1 March 2024" "for 6 months" ends on 1 September 2024.
#include <algorithm>
#include <cmath>

#include "verify/calendar.h"
#include "verify/derived.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

namespace {
constexpr size_t kMaxSpans = 32;         // durations taken as operands, the first in the text
constexpr int64_t kDensityWindow = 15;   // days either side of the answer's date
constexpr size_t kMaxNearby = 3;         // distinct derived dates allowed in that window (10%)
constexpr double kMaxYears = 100;        // longer spans shift no date anyone writes
constexpr size_t kMaxShiftedDates = 96;  // dates taken as operands, the first in the text (bounded work)
}  // namespace

void DerivedValues::add_shifted_dates(const anchor::SourceIndex& index) {
  const auto all = index.anchors();
  struct Span {
    int amount;
    char unit;  // 'd' days, 'm' months
    int64_t i;
  };
  std::vector<Span> spans;
  for (uint32_t i : index.of_type(Type::duration)) {
    const Anchor& a = all[i].anchor;
    const double v = a.value;
    if (std::isnan(v) || v <= 0 || v != std::floor(v) || spans.size() >= kMaxSpans) continue;
    const std::string_view unit = std::string_view(a.norm).substr(a.norm.rfind(' ') + 1);
    const auto n = static_cast<int>(std::min(v, kMaxYears * 366));
    if (unit == "day") spans.push_back({n, 'd', i});
    if (unit == "week") spans.push_back({n * 7, 'd', i});
    if (unit == "month") spans.push_back({n, 'm', i});
    if (unit == "year" && v <= kMaxYears) spans.push_back({n * 12, 'm', i});
  }
  size_t operands = 0;
  for (uint32_t i : index.of_type(Type::date)) {
    const auto d = parse_date(all[i].anchor.norm);
    if (!d || d->month == 0 || d->day == 0 || d->day > days_in_month(d->year, d->month)) continue;
    source_days_of_month_ |= 1U << static_cast<unsigned>(d->day);
    if (spans.empty() || ++operands > kMaxShiftedDates) continue;
    const int64_t day = days_from_civil(d->year, d->month, d->day);
    // Forward only ("30 days later", "期限6个月"): the cues cannot tell "before" from "after", and
    // a date a span before the source's is mostly a wrong one ("due by 2 January" for an invoice of
    // 1 February with 30 days to pay).
    for (const Span& s : spans) {
      const int64_t shifted = s.unit == 'd' ? day + s.amount : [&] {
        const DateParts m = add_months(*d, s.amount);
        return days_from_civil(m.year, m.month, m.day);
      }();
      auto& to = s.unit == 'd' ? shifted_by_days_ : shifted_by_months_;
      to.push_back({static_cast<double>(shifted), Derivation::date_shift, {i, s.i, -1}});
    }
  }
  std::sort(shifted_by_days_.begin(), shifted_by_days_.end());
  std::sort(shifted_by_months_.begin(), shifted_by_months_.end());
}

namespace {
using Values = std::vector<DerivedValues::Value>;

const DerivedValues::Value* at_day(const Values& v, double day) {
  const auto hit = std::lower_bound(v.begin(), v.end(), DerivedValues::Value{day, Derivation::none, {}});
  return hit != v.end() && hit->v == day ? &*hit : nullptr;
}

size_t distinct_near(const Values& v, double day) {
  const auto lo =
      std::lower_bound(v.begin(), v.end(), DerivedValues::Value{day - kDensityWindow, Derivation::none, {}});
  size_t distinct = 0;
  double last = -1e18;
  for (auto it = lo; it != v.end() && it->v <= day + kDensityWindow; ++it) {
    if (it->v != last) ++distinct;
    last = it->v;
  }
  return distinct;
}
}  // namespace

bool DerivedValues::find_date(const Anchor& a, Derived& out) const {
  const auto d = parse_date(a.norm);
  // No such day ("31 February"): days_from_civil would count it as a day in March.
  if (!d || d->month == 0 || d->day == 0 || d->day > days_in_month(d->year, d->month)) return false;
  const auto day = static_cast<double>(days_from_civil(d->year, d->month, d->day));
  // A shift by days that lands on the day of the month a source date has ("17 December" beside a
  // source's "17 November" and "30 days") is a miscopied month far more often than a computation;
  // a shift by months keeps the day by design.
  const DerivedValues::Value* hit = at_day(shifted_by_months_, day);
  if (hit == nullptr && (source_days_of_month_ & (1U << static_cast<unsigned>(d->day))) == 0) {
    hit = at_day(shifted_by_days_, day);
  }
  if (hit == nullptr) return false;
  // In a text with many dates and spans almost every day is some date plus some span: only a
  // derived date with few others around it counts.
  if (distinct_near(shifted_by_days_, day) + distinct_near(shifted_by_months_, day) > kMaxNearby) return false;
  out.kind = hit->kind;
  out.operands = hit->operands;
  return true;
}

}  // namespace sfcl::verify
