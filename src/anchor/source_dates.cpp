// Dates a source implies besides those it writes: the year of a date, the dateline's month of a
// day of the month, and the one year of a source for a date written without it (source_dates.h).
#include "anchor/source_dates.h"

#include <algorithm>

#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

// The year of a date supports the year written alone ("born in 1976" for "born 14 March 1976"),
// and a wrong year is then a mismatch against it, not a value nothing can be compared with.
bool year_of_date(const Anchor& date, Anchor& year) {
  const std::string_view n = date.norm;
  if (n.size() < 4 || !is_digit(n[0]) || !is_digit(n[1]) || !is_digit(n[2]) || !is_digit(n[3])) return false;
  if (n.size() > 4 && n[4] != '-') return false;
  year = Anchor{};
  year.type = Type::number;
  year.start = date.start;
  year.end = date.end;
  year.norm = std::string(n.substr(0, 4));
  year.value = std::stod(year.norm);
  return true;
}

void DatelineMonth::see(const Anchor& a) {
  const std::string_view n = a.norm;
  if (a.type != Type::date || n.starts_with("---")) return;
  if (n.size() == 10 && n[4] == '-' && n[7] == '-') {
    prefix.assign(n.substr(0, 7));
  } else if (n.size() == 7 && n.starts_with("--") && n[4] == '-') {
    prefix.assign(n.substr(0, 4));
  } else {
    return;
  }
  day = (n[n.size() - 2] - '0') * 10 + (n.back() - '0');
}

bool DatelineMonth::date_of(const Anchor& a, Anchor& out) const {
  constexpr int kDaysAfter = 7;
  const std::string_view n = a.norm;
  if (prefix.empty() || a.type != Type::date || n.size() != 5 || !n.starts_with("---")) return false;
  const int d = (n[3] - '0') * 10 + (n[4] - '0');
  if (d < 1 || d > day + kDaysAfter) return false;
  out = a;
  out.norm = prefix + std::string(n.substr(2));
  return true;
}

int sole_year(std::string_view text, const std::vector<Anchor>& found) {
  constexpr double kFirst = 1900;
  constexpr double kLast = 2100;
  int year = 0;
  bool edition = false;
  for (const Anchor& a : found) {
    int y = 0;
    if (Anchor written; a.type == Type::date && year_of_date(a, written)) {
      y = static_cast<int>(written.value);
    } else if (a.type == Type::number && a.norm.size() == 4 && a.value >= kFirst && a.value <= kLast) {
      y = static_cast<int>(a.value);
      // An edition's year names what the source is about: "The 2025 Riverside Folk Festival",
      // 2025西湖草莓音乐节 (not "born in 1950", "about 2000 attended", 2025年).
      const std::string_view rest = text.substr(a.end);
      const bool named = (rest.size() > 1 && rest[0] == ' ' && is_upper(static_cast<unsigned char>(rest[1]))) ||
                         (!rest.empty() && static_cast<unsigned char>(rest[0]) >= 0xE0 && !rest.starts_with("年"));
      edition = edition || named;
    } else {
      continue;
    }
    if (year != 0 && y != year) return 0;
    year = y;
  }
  return edition ? year : 0;
}

bool in_sole_year(const Anchor& a, int year, Anchor& out) {
  const std::string_view n = a.norm;
  const bool month_day = n.size() == 7 && n.starts_with("--") && n[4] == '-';
  const bool month = n.size() == 4 && n.starts_with("--") && is_digit(n[2]);
  if (year == 0 || a.type != Type::date || (!month_day && !month)) return false;
  out = a;
  out.norm = std::to_string(year) + std::string(n.substr(1));
  return true;
}

}  // namespace sfcl::anchor
