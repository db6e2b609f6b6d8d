// Calendar arithmetic under derived dates and terms (src/verify/calendar.h).
#include "verify/calendar.h"

#include <gtest/gtest.h>

#include <initializer_list>

namespace sfcl::verify {
namespace {

TEST(Calendar, ParsesTheLexersDateNorms) {
  const auto full = parse_date("2024-06-15");
  ASSERT_TRUE(full.has_value());
  EXPECT_EQ(full->year, 2024);
  EXPECT_EQ(full->month, 6);
  EXPECT_EQ(full->day, 15);
  const auto month = parse_date("2024-06");
  ASSERT_TRUE(month.has_value());
  EXPECT_EQ(month->day, 0);
  EXPECT_FALSE(parse_date("--06-15").has_value());
  EXPECT_FALSE(parse_date("2024-13-01").has_value());
}

TEST(Calendar, DaysAndMonthsAddUpAcrossMonthEndsAndLeapYears) {
  EXPECT_EQ(days_from_civil(1970, 1, 1), 0);
  EXPECT_EQ(days_from_civil(2024, 4, 14) - days_from_civil(2024, 3, 15), 30);
  EXPECT_EQ(days_from_civil(2025, 3, 1) - days_from_civil(2024, 3, 1), 365);
  EXPECT_EQ(days_from_civil(2024, 3, 1) - days_from_civil(2023, 3, 1), 366);
  struct Row {
    DateParts from;
    int months;
    DateParts to;
  };
  for (const Row& r : std::initializer_list<Row>{{{2024, 1, 31}, 1, {2024, 2, 29}},
                                                 {{2023, 1, 31}, 1, {2023, 2, 28}},
                                                 {{2024, 3, 1}, 6, {2024, 9, 1}},
                                                 {{2024, 11, 15}, 3, {2025, 2, 15}},
                                                 {{2024, 3, 15}, -3, {2023, 12, 15}}}) {
    const DateParts got = add_months(r.from, r.months);
    EXPECT_EQ(got.year, r.to.year) << r.from.year << "-" << r.from.month << "-" << r.from.day << " + " << r.months;
    EXPECT_EQ(got.month, r.to.month);
    EXPECT_EQ(got.day, r.to.day);
  }
  const DateParts eve = next_day({2027, 12, 31});
  EXPECT_EQ(eve.year, 2028);
  EXPECT_EQ(eve.month, 1);
  EXPECT_EQ(eve.day, 1);
  EXPECT_EQ(next_day({2024, 2, 28}).day, 29);
  EXPECT_EQ(days_in_month(2100, 2), 28);
  EXPECT_EQ(days_in_month(2000, 2), 29);
}

}  // namespace
}  // namespace sfcl::verify
