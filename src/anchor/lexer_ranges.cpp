// A range whose second end carries the magnitude or unit of both (the amount row of docs/ANCHORS.md):
// "3至4亿元", "$3-4 million", "between £3.35 and £4.5 million", "10 to 20 percent". The first end,
// written bare, is read with them (3亿元, $3 million, £3.35 million, 10%), as a reader reads it and
// as a source may write each end in full.
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"

namespace sfcl::anchor::lex {
namespace {

constexpr int kMaxShift = 12;

// Whether "between " stands in the few bytes before p (text already read).
bool between_before(std::string_view s, size_t p) {
  constexpr std::string_view kBetween = "between ";
  constexpr size_t kReach = 24;
  for (size_t i = p > kReach ? p - kReach : 0; i + kBetween.size() <= p; ++i) {
    size_t k = 0;
    while (k < kBetween.size() && to_lower(static_cast<unsigned char>(s[i + k])) == kBetween[k]) ++k;
    if (k == kBetween.size()) return true;
  }
  return false;
}

// Where the second end starts after the joiner at j (spaces around it allowed), or 0. "and" joins
// only after "between".
size_t second_end_at(Src& src, size_t p, size_t j) {
  const size_t k = src.at(j) == ' ' ? src.skip_spaces(j) : j;
  for (std::string_view w : {"至", "到", "~", "～", "-", "–", "—", "－"}) {
    if (src.match(k, w)) return k > j ? src.skip_spaces(k + w.size()) : k + w.size();
  }
  if (k == j) return 0;
  if (src.match_ci(k, "to ")) return src.skip_spaces(k + 3);
  if (!src.match_ci(k, "and ")) return 0;
  return between_before(src.s, p) ? src.skip_spaces(k + 4) : 0;
}

// A first end below zero ("from -5 to 10°C", "零下5至10℃") is no range of one sign: left as it is.
bool below_zero_before(std::string_view s, size_t p) {
  const std::string_view lead = s.substr(0, p);
  for (std::string_view w : {"-", "−", "零下", "minus ", "Minus "}) {
    if (lead.ends_with(w)) return true;
  }
  return false;
}

// The digits a number is written with, commas dropped, as a value.
double mantissa(std::string_view digits) {
  std::string plain;
  for (char c : digits) {
    if (c != ',') plain.push_back(c);
  }
  return std::strtod(plain.c_str(), nullptr);
}

// "14-18 August 2025", "from 14 to 18 August": a bare first end before a date whose day is written
// first is a day of that month and year. Days [digits, j), the date `y` read at q.
bool day_range_start(Src& src, size_t digits, size_t j, size_t q, const Anchor& y, Anchor& a) {
  if (j - digits > 2 || digits_end(src, q) - q > 2) return false;
  const int day = src.number_at(digits, j);
  const int last = src.number_at(q, digits_end(src, q));
  if (day < 1 || day >= last || !y.norm.ends_with("-" + two_digits(last))) return false;
  set_norm(a, Type::date, y.norm.substr(0, y.norm.size() - 2) + two_digits(day));
  a.value = y.value;
  return true;
}
}  // namespace

bool range_shares_unit(Src& src, size_t p, size_t digits, size_t j, Anchor& a) {
  if (src.in_range || below_zero_before(src.s, p)) return false;  // the second end is read once
  const size_t q = second_end_at(src, p, j);
  if (q == 0) return false;
  Anchor y;
  src.in_range = true;
  const bool digit_first = is_digit(src.at(q));
  const size_t e = digit_first ? scan_digit_start(src, q, y, LexerOptions{}) : scan_prefixed_amount(src, q, y);
  src.in_range = false;
  if (e != 0 && a.type == Type::number && y.type == Type::date) return day_range_start(src, digits, j, q, y, a);
  if (e == 0 || !(y.value > 0)) return false;
  size_t d = q;
  while (d < e && !is_digit(src.at(d))) ++d;
  const double m = mantissa(src.s.substr(d, digits_end(src, d) - d));
  if (!(m > 0)) return false;
  const int shift = static_cast<int>(std::lround(std::log10(y.value / m)));
  if (shift < 0 || shift > kMaxShift || std::fabs(m * std::pow(10.0, shift) - y.value) > 1e-6 * y.value) return false;
  const bool bare = a.type == Type::number;
  if (bare ? (y.type == Type::number && shift == 0) ||
                 (y.type != Type::number && y.type != Type::amount && y.type != Type::quantity &&
                  y.type != Type::percent && y.type != Type::duration)
           : shift == 0 || (y.type != Type::number && y.type != Type::amount)) {
    return false;
  }
  bool ok = false;
  std::string norm = number_norm(src.s.substr(digits, j - digits), shift, ok);
  const double v = std::strtod(norm.c_str(), nullptr);
  if (!ok || !(v > 0) || v > y.value) return false;  // a range runs upwards: "500 to 4 million" is no range
  if (bare) {
    const size_t unit = y.norm.find_first_not_of("0123456789.-");
    if (unit != std::string::npos) norm.append(y.norm, unit);
    a.type = y.type;
  } else {
    norm.append(a.norm, a.norm.find(' '));  // the first end's own currency
  }
  a.norm = std::move(norm);
  a.value = v;
  return true;
}

namespace {
constexpr int kFirstYearOfRange = 1000;
constexpr int kLastYearOfRange = 2100;

// A lower-case word after j that a day does not stand before: what a number counts ("30
// protesters", "4 more", "8 others"). Prepositions and conjunctions may follow a date.
bool counts_after(Src& src, size_t j) {
  if (src.at(j) != ' ' || !is_lower(src.at(j + 1))) return false;
  size_t k = j + 1;
  while (is_lower(src.at(k)) && k - j <= 10) ++k;  // the longest listed word, "inclusive", has 9
  const std::string_view word = src.s.substr(j + 1, k - j - 1);
  return !one_of(
      word, {"in",    "at", "on",   "for",  "and",  "or",     "with",  "from",  "to",  "inclusive", "during", "when",
             "while", "of", "this", "next", "last", "before", "after", "until", "was", "were",      "is"});
}
}  // namespace

size_t day_range_end(Src& src, size_t p, size_t j, Anchor& a) {
  if (j - p > 2) return 0;
  // The joiner and the first end before p: "August 14 to ", "Aug 14-", "August 14 – ".
  size_t i = p;
  while (i > 0 && src.s[i - 1] == ' ') --i;
  const std::string_view lead = src.s.substr(0, i);
  size_t joint = 0;
  bool and_joins = false;
  for (std::string_view w : {"-", "\xE2\x80\x93", " to", " and", " through"}) {
    if (lead.ends_with(w)) {
      joint = w.size();
      and_joins = w == " and";
    }
  }
  if (joint == 0) return 0;
  i -= joint;
  while (i > 0 && src.s[i - 1] == ' ') --i;
  size_t d = i;
  while (d > 0 && i - d < 2 && is_digit(src.s[d - 1])) --d;
  if (d == i || d < 2 || src.s[d - 1] != ' ') return 0;
  size_t m = d - 1;
  while (m > 0 && is_alpha(static_cast<unsigned char>(src.s[m - 1]))) --m;
  int month = 0;
  const int first = src.number_at(d, i);
  const int day = src.number_at(p, j);
  if (month_name(src, m, month) != d - 1 || first < 1 || day <= first || day > 31) return 0;
  // "and" joins two days only after "between": "on May 1 and 30 protesters" counts protesters.
  if (and_joins && !src.s.substr(0, m).ends_with("between ")) return 0;
  if (counts_after(src, j)) return 0;  // "August 14 to 18 runners"
  // A year after a comma closes both ends ("August 14 to 18, 2025"; not "…18, 2500 runners").
  size_t e = j;
  int year = 0;
  if (src.match(j, ", ") && digits_end(src, j + 2) == j + 6 && src.word_end(j + 6)) {
    year = src.number_at(j + 2, j + 6);
    if (year >= kFirstYearOfRange && year <= kLastYearOfRange && !counts_after(src, j + 6)) {
      e = j + 6;
    } else {
      year = 0;
    }
  }
  set_norm(a, Type::date,
           (year > 0 ? std::to_string(year) + "-" : std::string("--")) + two_digits(month) + "-" + two_digits(day));
  a.value = std::numeric_limits<double>::quiet_NaN();
  return e;
}

bool magnitude_range_shares_unit(Src& src, size_t p, size_t j, size_t end, Anchor& a) {
  if (src.in_range || below_zero_before(src.s, p)) return false;
  // A change and where it led ("增加0.6万至3.2万元", "rose by 0.4 million to 3.2 million") is no range.
  const std::string_view lead = src.s.substr(0, p);
  for (std::string_view w :
       {"增加", "增长", "提高", "上升", "上涨", "减少", "下降", "降低", "下跌", "增", "减", "涨", "跌", "by "}) {
    if (lead.ends_with(w)) return false;
  }
  const size_t q = second_end_at(src, p, end);
  if (q == 0 || !is_digit(src.at(q))) return false;
  Anchor y;
  src.in_range = true;
  const size_t e = scan_digit_start(src, q, y, LexerOptions{});
  src.in_range = false;
  if (e == 0 || (y.type != Type::amount && y.type != Type::quantity) || !(y.value >= a.value)) return false;
  // The same magnitude word after both ends' digits (2.6万至3.2万元; not 2.6万至3.2亿元).
  const std::string_view magnitude = src.s.substr(j, end - j);
  const size_t after_magnitude = digits_end(src, q) + magnitude.size();
  if (!src.match(digits_end(src, q), magnitude) || src.match(after_magnitude, "亿") ||
      src.match(after_magnitude, "万")) {
    return false;  // 2.6万至3.2万亿元: the second end is in 万亿
  }
  const size_t unit = y.norm.find(' ');
  if (unit == std::string::npos) return false;
  a.norm.append(y.norm, unit);
  a.type = y.type;
  return true;
}

// Where the next item of a Chinese list of numbers starts after j ("、48", "和85"), or 0.
size_t next_cn_item(Src& src, size_t j) {
  for (std::string_view sep : {"、", "和", "与", "及"}) {
    if (src.match(j, sep)) return is_digit(src.at(j + sep.size())) ? j + sep.size() : 0;
  }
  return 0;
}

bool cn_list_last(Src& src, size_t j, Anchor& y) {
  constexpr int kMaxItems = 12;
  size_t q = next_cn_item(src, j);
  for (int items = 0; q != 0 && items < kMaxItems; ++items) {
    size_t e = src.digits(q);
    while (src.at(e) == '.' && is_digit(src.at(e + 1))) e = src.digits(e + 1);
    if (const size_t next = next_cn_item(src, e)) {
      q = next;
      continue;
    }
    src.in_range = true;
    const size_t end = scan_digit_start(src, q, y, LexerOptions{});
    src.in_range = false;
    if (end == 0 || std::isnan(y.value)) return false;
    // The unit only, never a magnitude ("3、5万元" may be 3 or 30,000), nor a year or a day ("3、4日").
    if (std::fabs(mantissa(src.s.substr(q, e - q)) - y.value) > 1e-9 * y.value) return false;
    const std::string_view unit = std::string_view(y.norm).substr(std::min(y.norm.size(), y.norm.find(' ')));
    if (src.at(end) == kEnd && !src.final) return false;
    return y.type == Type::quantity || y.type == Type::percent || y.type == Type::amount ||
           (y.type == Type::duration && (unit == " minute" || unit == " hour" || unit == " second"));
  }
  return false;
}

bool list_shares_unit(Src& src, size_t p, size_t j, Anchor& a) {
  if (src.in_range || a.type != Type::number) return false;
  Anchor y;
  if (!cn_list_last(src, j, y)) return false;
  bool ok = false;
  std::string norm = number_norm(src.s.substr(p, j - p), 0, ok);
  if (!ok) return false;
  a.value = std::strtod(norm.c_str(), nullptr);
  // "第1、2和3名": after 第 the items are ranks, not counts.
  if (y.type == Type::quantity && ordinal_list_before(src, p)) {
    set_ordinal(a, norm);
    return true;
  }
  if (const size_t unit = y.norm.find_first_not_of("0123456789.-"); unit != std::string::npos) {
    norm.append(y.norm, unit);
  }
  a.norm = std::move(norm);
  a.type = y.type;
  return true;
}

// "一两万元", "三五百元": a range of two neighbouring digits before a magnitude, then a currency. No
// value is stated; the anchor keeps both ends ("10000-20000 CNY") so that only a source stating
// that range supports it, and the loop never passes a made-up sum of money as "a few". Ranges of
// days or people ("三五天", "七八个人") say "a few" and are no anchors.
size_t scan_cn_range_amount(Src& src, std::string_view run, size_t j, Anchor& a) {
  constexpr size_t kChar = 3;
  if (run.size() < 3 * kChar) return 0;
  uint64_t lo = 0;
  uint64_t hi = 0;
  const std::string low = std::string(run.substr(0, kChar)) + std::string(run.substr(2 * kChar));
  if (!cn_value(low, lo) || !cn_value(run.substr(kChar), hi) || hi <= lo) return 0;
  std::string_view unit;
  const size_t e = currency_suffix(src, j, unit);
  if (e == 0) return 0;
  set_norm(a, Type::amount, std::to_string(lo) + "-" + std::to_string(hi) + " " + std::string(unit));
  a.value = std::numeric_limits<double>::quiet_NaN();
  return e;
}

}  // namespace sfcl::anchor::lex

namespace sfcl::anchor::lex {

// "2011–13", "the 2019-20 season": two digits after a year and a dash end a range of years, the
// later year of the same century (2013, 2020), not a count (digits [p, j)).
size_t year_range_end(Src& src, size_t p, size_t j, Anchor& a) {
  constexpr int kFirstYear = 1900;
  constexpr int kLastYear = 2099;
  constexpr int kCentury = 100;
  if (j - p != 2 || is_digit(src.at(j))) return 0;
  const std::string_view lead = src.s.substr(0, p);
  size_t dash = 0;
  if (lead.ends_with("-")) {
    dash = 1;
  } else if (lead.ends_with("\xE2\x80\x93")) {
    dash = 3;
  }
  if (dash == 0 || lead.size() < dash + 4) return 0;
  const size_t y = lead.size() - dash - 4;
  for (size_t k = y; k < y + 4; ++k) {
    if (!is_digit(lead[k])) return 0;
  }
  if (y > 0 && (is_alnum(static_cast<unsigned char>(lead[y - 1])) || lead[y - 1] == '-')) return 0;
  // Not a document's number: "Resolution 2019-25", "Notice 2011-31", "Part number 2011-13".
  size_t w = y;
  while (w > 0 && lead[w - 1] == ' ') --w;
  const size_t word = word_start_back(lead, w);
  const std::string_view before = lead.substr(word, w - word);
  if (word < w && ((is_upper(static_cast<unsigned char>(lead[word])) &&
                    !one_of(before, {"In", "From", "During", "For", "Since", "By", "The", "Between"})) ||
                   one_of(before, {"number", "no", "code", "ref", "order"}))) {
    return 0;
  }
  if (w > 0 && (lead[w - 1] == '#' || lead[w - 1] == '.')) return 0;  // "No. 2011-13", "#2011-13"
  const int year = src.number_at(y, y + 4);
  const int later = year - year % kCentury + src.number_at(p, j);
  if (year < kFirstYear || year > kLastYear || later <= year) return 0;
  set_norm(a, Type::number, std::to_string(later));
  a.value = later;
  return j;
}

}  // namespace sfcl::anchor::lex
