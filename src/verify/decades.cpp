// A decade against the sources' years (docs/ANCHORS.md, "Checking"): "the 1990s", "mid-1990s",
// "90年代" are right when a source date or year falls in them; "early", "mid" and "late" narrow the
// decade to its first half, middle and last half.
#include <charconv>
#include <string_view>

#include "verify/verify.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

namespace {
struct YearRange {
  int first = 0;
  int last = -1;
};

// "1990s" -> 1990-1999, "mid-1990s" and "mid-90s" -> 1993-1997, "early-1990s" -> 1990-1994,
// "late-1990s" -> 1995-1999; nothing for any other identifier.
YearRange decade_of(std::string_view norm) {
  int lo = 0;
  int hi = 9;
  for (const auto& [prefix, from, to] :
       {std::tuple{std::string_view("early-"), 0, 4}, {"mid-", 3, 7}, {"late-", 5, 9}}) {
    if (norm.starts_with(prefix)) {
      norm.remove_prefix(prefix.size());
      lo = from;
      hi = to;
      break;
    }
  }
  // "mid-90s" as written in one word: two digits after early/mid/late are a decade, as the lexer
  // reads "the '90s" (scan_decade).
  const bool two_digits = hi - lo < 9 && norm.size() == 3;
  const size_t digits = two_digits ? 2 : 4;
  if (norm.size() != digits + 1 || norm[digits - 1] != '0' || (norm[digits] != 's' && norm[digits] != 'S')) return {};
  int decade = 0;
  if (std::from_chars(norm.data(), norm.data() + digits, decade).ec != std::errc()) return {};
  if (two_digits) decade += decade <= 10 ? 2000 : 1900;
  if (decade < 1000) return {};
  return {decade + lo, decade + hi};
}

int year_of_date(std::string_view norm) {
  int y = 0;
  if (norm.size() < 4 || (norm.size() > 4 && norm[4] != '-')) return 0;
  if (std::from_chars(norm.data(), norm.data() + 4, y).ec != std::errc()) return 0;
  return y;
}
}  // namespace

bool Checker::year_in_decade(const anchor::Anchor& a, uint32_t i) const {
  const YearRange r = decade_of(a.norm);
  const Anchor& s = index_.anchors()[i].anchor;
  const int y = s.type == Type::date ? year_of_date(s.norm) : (year_of(s.norm) ? static_cast<int>(s.value) : 0);
  return r.last >= r.first && y >= r.first && y <= r.last;
}

bool Checker::is_decade(const anchor::Anchor& a) { return a.type == Type::identifier && decade_of(a.norm).last > 0; }

bool Checker::in_decade(const anchor::Anchor& a, int64_t& support) const {
  if (!is_decade(a)) return false;
  for (Type t : {Type::date, Type::number}) {
    for (uint32_t i : index_.of_type(t)) {
      if (year_in_decade(a, i)) {
        support = i;
        return true;
      }
    }
  }
  return false;
}

}  // namespace sfcl::verify
