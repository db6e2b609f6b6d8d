// A day of the month the sources write without its month ("于23日至29日", "本月17日"), read in the one
// month their dates give (a dateline's "9月29日电"): "9月23日" in an answer is that day, written out
// (docs/ANCHORS.md, "Checking"). Where the sources' dates fall in more than one month, the day's
// month is not known and nothing is confirmed this way.
#include <string_view>

#include "verify/verify.h"

namespace sfcl::verify {

namespace {

struct YearMonth {
  std::string_view year;   // empty when not written
  std::string_view month;  // two digits; empty when not written
};

// The year and month a date norm writes: "2016-09-29", "2016-09", "--09-29", "--09"; none for "---29".
YearMonth month_of(std::string_view norm) {
  if (norm.starts_with("---")) return {};
  if (norm.starts_with("--")) return {{}, norm.size() >= 4 ? norm.substr(2, 2) : std::string_view{}};
  if (norm.size() >= 7 && norm[4] == '-') return {norm.substr(0, 4), norm.substr(5, 2)};
  return {};
}

}  // namespace

bool Checker::day_of_source_month(const anchor::Anchor& a, anchor::TextSpan& span) const {
  const bool month_day = a.norm.size() == 7 && a.norm.starts_with("--");          // "--09-23"
  const bool full = a.norm.size() == 10 && a.norm[4] == '-' && a.norm[7] == '-';  // "2016-09-23"
  if (!month_day && !full) return false;
  const YearMonth mine = month_of(a.norm);
  const std::string_view day = std::string_view(a.norm).substr(a.norm.size() - 2);
  const auto& all = index_.anchors();
  int64_t day_hit = -1;
  bool month_seen = false;
  for (uint32_t i : index_.of_type(anchor::Type::date)) {
    const std::string_view s = all[i].anchor.norm;
    if (s.size() == 5 && s.starts_with("---")) {
      if (s.substr(3) == day && day_hit < 0) day_hit = i;
      continue;
    }
    const YearMonth theirs = month_of(s);
    if (theirs.month.empty()) continue;
    if (theirs.month != mine.month || (!mine.year.empty() && !theirs.year.empty() && theirs.year != mine.year)) {
      return false;  // the sources' dates fall in another month too: the day's month is not known
    }
    month_seen = true;
  }
  if (day_hit < 0 || !month_seen) return false;
  const auto& s = all[static_cast<size_t>(day_hit)];
  span = {s.source, s.anchor.start, s.anchor.end};
  return true;
}

}  // namespace sfcl::verify
