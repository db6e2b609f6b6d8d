// Dates a source implies besides those it writes (source_dates.cpp); internal to the source index.
#pragma once
#include <string>
#include <vector>

#include "anchor/anchor.h"

namespace sfcl::anchor {

// The year of a date as a number anchor over the date's span ("born in 1976" for "born 14 March
// 1976"), or false for a date with no year.
bool year_of_date(const Anchor& date, Anchor& year);

// The month (and year) of the last date with a month before a day of the month: news writes "10日"
// for the 10th of its dateline's month ("新华社武汉11月11日电 …… 10日在法院宣判" is 11月10日).
struct DatelineMonth {
  std::string prefix;  // "2014-11" or "--11"
  int day = 0;

  void see(const Anchor& a);
  // The full date of a day of the month "---10" within a week after the dateline's day, or false.
  bool date_of(const Anchor& a, Anchor& out) const;
};

// The one year a source writes, where it names an edition of what the source is about ("The 2025
// Riverside Folk Festival", 2025西湖草莓音乐节), or 0 where it writes no such year or more than one
// year in all.
int sole_year(std::string_view text, const std::vector<Anchor>& found);
// A month and day, or a month, written without a year ("Sunday 20 July") in a source whose one
// year is `year`: the date in that year, which an answer writing the year ("20 July 2025") states.
bool in_sole_year(const Anchor& a, int year, Anchor& out);

}  // namespace sfcl::anchor
