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

namespace {
bool date_compatible_whole(std::string_view out, std::string_view src) {
  if (src.size() > out.size() && src.substr(0, out.size()) == out && src[out.size()] == '-') return true;
  // "--06-15" (no year) inside "2024-06-15"
  if (out.size() >= 4 && out.substr(0, 2) == "--" && src.size() == 10 && src.substr(4) == out.substr(1)) return true;
  // "--09" (a month alone, "9月") in a date of that month of any year
  if (out.size() == 4 && out.starts_with("--") && src.size() >= 7 && src[0] != '-' && src[4] == '-' &&
      src.substr(5, 2) == out.substr(2)) {
    return true;
  }
  // "---25" (the day of a month, "25日") on the day of a full date or a month and day
  if (out.size() == 5 && out.starts_with("---") && (src.size() == 10 || (src.size() == 7 && src.starts_with("--")))) {
    return src.substr(src.size() - 3) == out.substr(2);
  }
  return false;
}
}  // namespace

bool date_compatible(std::string_view out, std::string_view src) {
  // A part of a month ("--02/11-20", 2月中旬): the month, and the day where the source has one.
  const size_t slash = out.find('/');
  // A source's part of a month holds its month ("2月" for 2月中旬), and no other day.
  if (const size_t s = src.find('/'); s != std::string_view::npos) {
    const std::string_view src_month = src.substr(0, s);
    if (slash != std::string_view::npos) {  // both parts of a month: the same part, of that month
      const std::string_view out_month = out.substr(0, slash);
      return out.substr(slash) == src.substr(s) &&
             (out_month == src_month || date_compatible_whole(out_month, src_month));
    }
    return out == src_month || date_compatible_whole(out, src_month);
  }
  if (slash == std::string_view::npos) return date_compatible_whole(out, src);
  const std::string_view month = out.substr(0, slash);
  if (src == month) return true;
  if (!date_compatible_whole(month, src)) return false;
  const bool has_day = src.size() == 10 || (src.size() == 7 && src.starts_with("--"));
  if (!has_day) return true;
  const auto two = [](std::string_view d) { return (d[0] - '0') * 10 + (d[1] - '0'); };
  const std::string_view days = out.substr(slash + 1);  // "11-20"
  const int day = two(src.substr(src.size() - 2));
  return days.size() == 5 && day >= two(days) && day <= two(days.substr(3));
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
