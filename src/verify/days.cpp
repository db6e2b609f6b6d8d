// A day of the month written as an ordinal where the lexer could not tell it from a rank (docs/ANCHORS.md,
// "Written another way"): "a five-star review on the 22nd praised the staff" for the sources' review of
// 2020-11-22. The lexer reads "the 22nd" as a day only before a word that cannot be its noun; here the
// words before it say it is a day ("on the", "by the", "since the"), and a source date on that day of
// the month supports it.
#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "verify/calendar.h"
#include "verify/verify.h"

namespace sfcl::verify {

bool Checker::ordinal_as_day(const anchor::Anchor& a, std::string_view surface, std::string_view before,
                             std::string_view after, anchor::TextSpan& span) const {
  constexpr double kLastDay = 31;
  if (a.norm.find(' ') != std::string::npos || !(a.value >= 1 && a.value <= kLastDay) || surface.empty() ||
      std::isdigit(static_cast<unsigned char>(surface.front())) == 0) {
    return false;
  }
  // Not "to the", "about the": "climbed to the 3rd" is a rank.
  constexpr std::array<std::string_view, 9> kCues = {" on the ",    " by the ",     " until the ",
                                                     " since the ", " from the ",   " before the ",
                                                     " after the ", " around the ", " till the "};
  // Case-folded: "On the 9th it rained" opens a sentence.
  const auto ends_with = [&](std::string_view c) {
    if (before.size() + 1 == c.size()) c.remove_prefix(1);  // the text opens with it
    if (before.size() < c.size()) return false;
    return std::equal(c.begin(), c.end(), before.end() - static_cast<std::ptrdiff_t>(c.size()),
                      [](char x, char y) { return x == std::tolower(static_cast<unsigned char>(y)); });
  };
  if (std::none_of(kCues.begin(), kCues.end(), ends_with)) {
    return false;
  }
  // Then a verb or no word: "on the 22nd floor", "the 3rd Circuit" are no days; "on the 22nd praised",
  // "on the 22nd, ..." are.
  if (after.starts_with(' ') && after.size() > 1 && std::isalpha(static_cast<unsigned char>(after[1])) != 0) {
    if (std::isupper(static_cast<unsigned char>(after[1])) != 0) return false;
    size_t e = 1;
    while (e < after.size() && std::isalpha(static_cast<unsigned char>(after[e])) != 0) ++e;
    const std::string_view word = after.substr(1, e - 1);
    // A verb, or the subject of the clause the day opens ("on the 22nd the store closed").
    constexpr std::array<std::string_view, 27> kAfterDay = {
        "was", "were", "said", "wrote", "gave", "left", "came", "went", "took", "had", "made", "saw",   "is", "will",
        "it",  "he",   "she",  "they",  "we",   "the",  "a",    "an",   "its",  "his", "her",  "their", "at"};
    // Words in -ed that say which one of a series, not what happened on a day ("the 3rd failed attempt").
    constexpr std::array<std::string_view, 14> kOrdinalAdjectives = {
        "failed",  "seeded", "ranked",  "placed",    "rated",     "listed",   "numbered",
        "planned", "timed",  "revised", "scheduled", "attempted", "proposed", "annualised"};
    constexpr size_t kMinVerb = 5;  // "bed", "red", "seed" are no verbs
    const bool past = word.size() >= kMinVerb && word.ends_with("ed") &&
                      std::find(kOrdinalAdjectives.begin(), kOrdinalAdjectives.end(), word) == kOrdinalAdjectives.end();
    if (!past && std::find(kAfterDay.begin(), kAfterDay.end(), word) == kAfterDay.end()) return false;
  }
  const auto& all = index_.anchors();
  for (uint32_t i : index_.of_type(anchor::Type::date)) {
    const auto d = parse_date(all[i].anchor.norm);
    if (d && d->day == static_cast<int>(a.value)) {
      span = {all[i].source, all[i].anchor.start, all[i].anchor.end};
      return true;
    }
  }
  return false;
}

}  // namespace sfcl::verify
