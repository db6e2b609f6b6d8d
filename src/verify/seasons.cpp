// The years of a season or fiscal year, which answers and sources write in full or short
// (docs/ANCHORS.md, "Written another way"): "2008" of the sources' "2007-08", and the short "16" of
// an answer's "2015/16" for the sources' "2015/2016" or 2016.
#include <cctype>
#include <string>
#include <string_view>

#include "verify/verify.h"

namespace sfcl::verify {

namespace {
bool four_digits(std::string_view s) {
  return s.size() == 4 && s.find_first_not_of("0123456789") == std::string_view::npos;
}
}  // namespace

bool Checker::season_year(std::string_view surface, std::string_view before, anchor::TextSpan& span) const {
  if (surface.size() == 2 && surface.find_first_not_of("0123456789") == std::string_view::npos && before.size() >= 5 &&
      (before.back() == '/' || before.back() == '-') && four_digits(before.substr(before.size() - 5, 4)) &&
      (before.size() == 5 || !std::isdigit(static_cast<unsigned char>(before[before.size() - 6])))) {
    // "2015/16": the year after the first, its century left out.
    const int first = std::stoi(std::string(before.substr(before.size() - 5, 4)));
    if (first < 1000 || first > 2998) return false;
    const std::string second = std::to_string(first + 1);
    if (std::string_view(second).substr(2) != surface) return false;
    scratch_.assign(before.substr(before.size() - 5)).append(second);  // "2015/2016"
    if (index_.find_verbatim(scratch_, span)) return true;
    int64_t hit = index_.find_exact(anchor::Type::number, second);
    if (hit < 0) hit = index_.find_exact(anchor::Type::date, second);  // "2016年"
    if (hit < 0) return false;
    const auto& s = index_.anchors()[static_cast<size_t>(hit)];
    span = {s.source, s.anchor.start, s.anchor.end};
    return true;
  }
  if (!four_digits(surface)) return false;
  const int year = std::stoi(std::string(surface));
  if (year < 1001 || year > 2999 || year % 100 == 0) return false;  // "1999-00" is not written this way
  const std::string first = std::to_string(year - 1);
  const std::string_view second = surface.substr(2);
  for (const std::string_view dash : {"-", " - ", " -- ", "--", "/"}) {
    scratch_.assign(first).append(dash).append(second);
    if (index_.find_verbatim(scratch_, span)) return true;
  }
  return false;
}

}  // namespace sfcl::verify
