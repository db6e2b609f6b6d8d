// Spans of time the sources write as one range (docs/ANCHORS.md, "Checking"): "from 9:00 to 21:00"
// is 12 hours (720 minutes), "from 2 pm to 4:30 pm" two and a half hours, "June 3 to June 7" 4 days
// apart and 5 days counted with both ends ("the festival lasts five days"). Only two values written
// as the ends of one range ("X to Y", "X–Y", "X至Y"): any two times of a text are no span.
#include <algorithm>
#include <array>
#include <optional>

#include "verify/calendar.h"
#include "verify/derived.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

namespace {
constexpr size_t kMaxRanges = 64;  // ranges taken as operands, the first in the text (bounded work)
constexpr int kDayMinutes = 24 * 60;
constexpr int kNoLeapYear = 2001;  // the year of a range that writes none ("June 3 to June 7")

// Minutes since midnight of a time norm "HH:MM" or "HH:MM:SS"; nullopt when it is none.
std::optional<int> minutes_of(std::string_view n) {
  if (n.size() < 5 || n[2] != ':') return std::nullopt;
  const auto digit = [&](size_t i) { return n[i] >= '0' && n[i] <= '9' ? n[i] - '0' : -1; };
  const int h1 = digit(0);
  const int h2 = digit(1);
  const int m1 = digit(3);
  const int m2 = digit(4);
  if (h1 < 0 || h2 < 0 || m1 < 0 || m2 < 0) return std::nullopt;
  return (h1 * 10 + h2) * 60 + m1 * 10 + m2;
}

// A full or yearless date norm ("2024-06-03", "--06-03"), its year 0 when it writes none.
std::optional<DateParts> day_of(std::string_view n) {
  if (n.size() == 7 && n.starts_with("--") && n[4] == '-') {
    const auto d = parse_date(std::string("2000") + std::string(n.substr(1)));
    if (!d) return std::nullopt;
    return DateParts{0, d->month, d->day};
  }
  const auto d = parse_date(n);
  if (!d || d->month == 0 || d->day == 0) return std::nullopt;
  return d;
}
}  // namespace

void DerivedValues::add_time_range(const Anchor& from, const Anchor& to, const std::array<int64_t, 3>& ops) {
  auto& hours = table(Type::duration, "hour");
  auto& minutes = table(Type::duration, "minute");
  std::array<int, 4> spans{};
  size_t n = 0;
  // Both readings of a time without am/pm ("9:00 to 9:00 pm" is 12 hours; "2 to 4:30 pm" 2.5).
  for (const std::string* f : {&from.norm, &from.alt_norm}) {
    for (const std::string* t : {&to.norm, &to.alt_norm}) {
      const auto a = minutes_of(*f);
      const auto b = minutes_of(*t);
      if (!a || !b) continue;
      int d = *b - *a;
      if (d <= 0 && f == &from.norm && t == &to.norm) d += kDayMinutes;  // overnight: "22:00 to 2:00"
      if (d <= 0 || d >= kDayMinutes || std::find(spans.begin(), spans.begin() + n, d) != spans.begin() + n) continue;
      spans[n++] = d;
    }
  }
  for (size_t k = 0; k < n; ++k) {
    minutes.values.push_back({static_cast<double>(spans[k]), Derivation::time_span, ops});
    if (spans[k] % 30 == 0) hours.values.push_back({spans[k] / 60.0, Derivation::time_span, ops});
  }
}

void DerivedValues::add_day_range(const Anchor& from, const Anchor& to, const std::array<int64_t, 3>& ops) {
  auto a = day_of(from.norm);
  auto b = day_of(to.norm);
  if (!a || !b) return;
  // "June 3 to June 7, 2024"; "December 28 to January 3, 2025" starts in 2024
  if (a->year == 0) a->year = b->year != 0 ? b->year - (a->month > b->month ? 1 : 0) : kNoLeapYear;
  if (b->year == 0) b->year = a->year + (b->month < a->month ? 1 : 0);  // "December 28 to January 3"
  const int64_t d = days_from_civil(b->year, b->month, b->day) - days_from_civil(a->year, a->month, a->day);
  if (d <= 0) return;
  auto& days = table(Type::duration, "day");
  days.values.push_back({static_cast<double>(d), Derivation::date_difference, ops});
  days.values.push_back({static_cast<double>(d + 1), Derivation::date_difference, ops});  // both ends counted
}

void DerivedValues::add_ranges(const anchor::SourceIndex& index) {
  const auto all = index.anchors();
  size_t ranges = 0;
  for (Type type : {Type::time, Type::date}) {
    const auto ids = index.of_type(type);
    for (size_t k = 0; k + 1 < ids.size() && ranges < kMaxRanges; ++k) {
      const auto& from = all[ids[k]];
      if (!from.range_start || from.part) continue;
      size_t next = k + 1;  // the range's end: the next value as written, not a part read from one
      while (next < ids.size() && all[ids[next]].part) ++next;
      if (next == ids.size()) break;
      const auto& to = all[ids[next]];
      if (to.source != from.source) continue;
      ++ranges;
      const std::array<int64_t, 3> ops{ids[k], ids[next], -1};
      if (type == Type::time) {
        add_time_range(from.anchor, to.anchor, ops);
      } else {
        add_day_range(from.anchor, to.anchor, ops);
      }
    }
  }
}

}  // namespace sfcl::verify
