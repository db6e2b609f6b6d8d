// Calendar arithmetic on the dates the lexer writes as ISO 8601 norms ("2024-06-15", "2024-06",
// "2024"): what derived values compute with. Internal to verify.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace sfcl::verify {

struct DateParts {
  int year = 0;
  int month = 0;  // 0 = not written
  int day = 0;
};

// The parts of a date norm; nullopt when it is none ("--06-15" has no year).
std::optional<DateParts> parse_date(std::string_view n);
// Whether an answer's date norm is a part of a source date's or holds it: "2024" and "2024-06-15",
// "--06-15" and "2024-06-15", "--09" and any September, "---25" and the 25th, "--02/11-20" (中旬)
// and 2月15日.
bool date_compatible(std::string_view out, std::string_view src);
// Days since 1970-01-01 (proleptic Gregorian).
int64_t days_from_civil(int y, int m, int d);
int days_in_month(int y, int m);
DateParts next_day(DateParts d);
// d plus `months` calendar months, the day kept or, past the month's end, its last day ("31
// January" plus one month is "29 February" in a leap year).
DateParts add_months(DateParts d, int months);

}  // namespace sfcl::verify
