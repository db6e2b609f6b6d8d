// Calendar arithmetic (calendar.h).
#include "verify/calendar.h"

#include <algorithm>
#include <array>

namespace sfcl::verify {

std::optional<DateParts> parse_date(std::string_view n) {
  auto num = [&](size_t at, size_t len) {
    int v = 0;
    for (size_t i = at; i < at + len; ++i) {
      if (i >= n.size() || n[i] < '0' || n[i] > '9') return -1;
      v = v * 10 + (n[i] - '0');
    }
    return v;
  };
  DateParts d;
  if (n.size() < 4 || (d.year = num(0, 4)) < 0) return std::nullopt;
  if (n.size() >= 7 && n[4] == '-') d.month = std::max(0, num(5, 2));
  if (n.size() >= 10 && n[7] == '-') d.day = std::max(0, num(8, 2));
  if (d.month > 12 || d.day > 31) return std::nullopt;
  return d;
}

// Days since 1970-01-01 (proleptic Gregorian; H. Hinnant's days_from_civil).
int64_t days_from_civil(int y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153U * static_cast<unsigned>(m + (m > 2 ? -3 : 9)) + 2U) / 5U + static_cast<unsigned>(d) - 1U;
  const unsigned doe = yoe * 365U + yoe / 4U - yoe / 100U + doy;
  return static_cast<int64_t>(era) * 146097 + static_cast<int64_t>(doe) - 719468;
}

namespace {
bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
}  // namespace

int days_in_month(int y, int m) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap(y) ? 29 : kDays[static_cast<size_t>(m - 1)];
}
DateParts next_day(DateParts d) {
  if (d.day < days_in_month(d.year, d.month)) return {d.year, d.month, d.day + 1};
  if (d.month < 12) return {d.year, d.month + 1, 1};
  return {d.year + 1, 1, 1};
}

DateParts add_months(DateParts d, int months) {
  const int total = d.year * 12 + (d.month - 1) + months;
  DateParts out{total / 12, total % 12 + 1, 0};
  out.day = std::min(d.day, days_in_month(out.year, out.month));
  return out;
}

}  // namespace sfcl::verify
