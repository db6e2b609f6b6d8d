// Dates: "June 15, 2024", "15 June", "2024-06-15", "03/04/2024", "2024年6月15日", "Q3 2024".
#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "anchor/lexer_words.h"

namespace sfcl::anchor::lex {
namespace {
constexpr FirstBytes kMonthFirst = first_bytes(kMonths, kSelf, true);
}  // namespace

// Capitalised month name or abbreviation at i (with optional '.'); returns end and month. A source
// written all in lower case ("november 25 , 1980") has its months in lower case too: a full name
// counts (the callers want a year after "march"), but never "may" (a verb far more often) nor an
// abbreviation ("jan", "dec" are words).
size_t month_name(Src& src, size_t i, int& month) {
  const int c = src.at(i);
  const bool upper = is_upper(c);
  if (!upper && !is_lower(c)) return 0;
  const uint64_t first = kMonthFirst.at(c);
  for (uint64_t bits = first; bits != 0; bits &= bits - 1) {
    const int m = std::countr_zero(bits);
    const std::string_view full = kMonths[static_cast<size_t>(m)];
    if (!upper && (m == 4 || !src.match(i, full))) continue;
    if (src.match_ci(i, full) && src.word_end(i + full.size())) {
      month = m + 1;
      return i + full.size();
    }
  }
  if (!upper) return 0;
  for (uint64_t bits = first; bits != 0; bits &= bits - 1) {
    const int m = std::countr_zero(bits);
    const std::string_view abbr = kMonths[static_cast<size_t>(m)].substr(0, m == 8 ? 4 : 3);  // "sept"
    for (std::string_view a : {abbr, kMonths[static_cast<size_t>(m)].substr(0, 3)}) {
      if (src.match_ci(i, a) && src.word_end(i + a.size())) {
        month = m + 1;
        size_t e = i + a.size();
        if (src.at(e) == '.') ++e;
        return e;
      }
    }
  }
  return 0;
}

namespace {

// "%0*d" without printf (dates are normalised for every date anchor): v >= 0, at least `width` digits.
void append_padded(std::string& out, int v, int width) {
  if (v < 0) v = 0;  // not reached: years, months and days come from digit runs
  char buf[12];
  int n = 0;
  do {
    buf[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v > 0);
  for (int k = n; k < width; ++k) out.push_back('0');
  while (n > 0) out.push_back(buf[--n]);
}

std::string ymd(int y, int m, int d) {
  std::string out;
  out.reserve(10);
  append_padded(out, y, 4);
  out.push_back('-');
  append_padded(out, m, 2);
  if (d > 0) {
    out.push_back('-');
    append_padded(out, d, 2);
  }
  return out;
}

std::string md(int m, int d) {
  std::string out = "--";
  append_padded(out, m, 2);
  if (d > 0) {
    out.push_back('-');
    append_padded(out, d, 2);
  }
  return out;
}

}  // namespace

size_t ordinal_suffix(Src& src, size_t i) {
  for (std::string_view s : kOrdinalSuffixes) {
    if (src.match_ci(i, s) && src.word_end(i + 2)) return i + 2;
  }
  return i;
}

namespace {
// The rest of a month-day date ending at `k`: ", 2024" / " 2024" makes it a full date, else it
// stays "--MM-DD".
size_t with_year(Src& src, size_t k, int month, int day, Anchor& a) {
  size_t y0 = k;
  if (src.at(y0) == ',') ++y0;
  if (src.at(y0) == ' ') {
    y0 = src.skip_spaces(y0);
    const size_t y1 = src.digits(y0);
    if (y1 - y0 == 4 && src.word_end(y1)) {
      set_norm(a, Type::date, ymd(src.number_at(y0, y1), month, day));
      return y1;
    }
  }
  set_norm(a, Type::date, md(month, day));
  return k;
}
}  // namespace

// "June 15, 2024", "Jun. 15 2024", "June 2024", "June 15".
size_t scan_month_first(Src& src, size_t p, Anchor& a) {
  int month = 0;
  const size_t e = month_name(src, p, month);
  if (e == 0 || src.at(e) != ' ') return 0;
  const size_t n0 = src.skip_spaces(e);
  const size_t n1 = src.digits(n0);
  const size_t len = n1 - n0;
  if (len == 4 && src.word_end(n1)) {
    set_norm(a, Type::date, ymd(src.number_at(n0, n1), month, 0));
    return n1;
  }
  if (len < 1 || len > 2) return 0;
  const int day = src.number_at(n0, n1);
  if (day < 1 || day > 31) return 0;
  size_t k = ordinal_suffix(src, n1);
  if (!src.word_end(k)) return 0;
  const size_t end = with_year(src, k, month, day, a);
  // "they march 20 miles", "the august 12 judges": in lower case "march" is a month only with a
  // year, and no month is one after "the".
  if (!is_upper(src.at(p)) && ((month == 3 && end == k) || src.s.substr(0, p).ends_with("the "))) return 0;
  return end;
}

// "New Year's Day", "Christmas Eve 2021": a holiday on a fixed day is that date, so that it agrees
// with "January 1" or "2021-12-24" in the sources (the date row of docs/ANCHORS.md).
size_t scan_holiday(Src& src, size_t p, Anchor& a) {
  struct Holiday {
    std::string_view name;
    int month;
    int day;
  };
  // The apostrophe as typed, as typeset, and escaped as a source's serialised text may carry it.
  static constexpr std::array<Holiday, 11> kHolidays{{{"New Year's Day", 1, 1},
                                                      {"New Year’s Day", 1, 1},
                                                      {"New Year\\'s Day", 1, 1},
                                                      {"New Year's Eve", 12, 31},
                                                      {"New Year’s Eve", 12, 31},
                                                      {"New Year\\'s Eve", 12, 31},
                                                      {"Christmas Day", 12, 25},
                                                      {"Christmas Eve", 12, 24},
                                                      {"Valentine's Day", 2, 14},
                                                      {"Valentine’s Day", 2, 14},
                                                      {"Valentine\\'s Day", 2, 14}}};
  // Not the new year of another calendar ("lunar New Year's Day").
  const std::string_view lead = src.s.substr(0, p);
  for (std::string_view other : {"lunar ", "Lunar ", "Chinese ", "Orthodox ", "Jewish ", "Islamic ", "Persian "}) {
    if (lead.ends_with(other)) return 0;
  }
  for (const Holiday& h : kHolidays) {
    if (src.match(p, h.name) && src.word_end(p + h.name.size())) {
      return with_year(src, p + h.name.size(), h.month, h.day, a);
    }
  }
  return 0;
}

// "15 June 2024", "15 June".
size_t scan_day_first(Src& src, size_t p, Anchor& a) {
  const size_t d1 = src.digits(p);
  if (d1 - p > 2) return 0;
  const int day = src.number_at(p, d1);
  if (day < 1 || day > 31) return 0;
  const size_t suffix_end = ordinal_suffix(src, d1);
  if (src.at(suffix_end) != ' ') return 0;
  size_t k = src.skip_spaces(suffix_end);
  // "the 15th of March 2024": "of" only after an ordinal day.
  if (suffix_end > d1 && src.match_ci(k, "of ")) k = src.skip_spaces(k + 2);
  int month = 0;
  const size_t m1 = month_name(src, k, month);
  if (m1 == 0) return 0;
  const size_t end = with_year(src, m1, month, day, a);
  if (month == 3 && !is_upper(src.at(k)) && end == m1) return 0;  // "20 march on": a year makes it a month
  return end;
}

namespace {

bool valid_md(int m, int d) { return m >= 1 && m <= 12 && d >= 1 && d <= 31; }

// "2024-06-15", "2024/6/15", "2024.6.15": the year's digits end at d1, `sep` follows them.
size_t year_first_date(Src& src, size_t p, size_t d1, int sep, Anchor& a) {
  const size_t m1 = src.digits(d1 + 1);
  if (m1 - d1 - 1 < 1 || m1 - d1 - 1 > 2 || src.at(m1) != sep) return 0;
  const size_t dd1 = src.digits(m1 + 1);
  if (dd1 - m1 - 1 < 1 || dd1 - m1 - 1 > 2 || !src.word_end(dd1)) return 0;
  const int y = src.number_at(p, d1);
  const int m = src.number_at(d1 + 1, m1);
  const int d = src.number_at(m1 + 1, dd1);
  if (!valid_md(m, d)) return 0;
  set_norm(a, Type::date, ymd(y, m, d));
  return dd1;
}

// A month or a day at k in digits or Chinese numerals ("6", "十二", "三十一"): its value and end, or
// -1.
int month_or_day_at(Src& src, size_t k, size_t& end) {
  if (const size_t d = src.digits(k); d > k) {
    end = d;
    return d - k <= 2 ? src.number_at(k, d) : -1;
  }
  const size_t j = cn_numeral_run(src, k);
  uint64_t v = 0;
  if (j == k || j - k > 9 || !cn_value(src.s.substr(k, j - k), v) || v > 31) return -1;
  end = j;
  return static_cast<int>(v);
}

// "6月15日", "六月十五日", "6月15号" at k, after the year y (0: none); after a year the month alone
// ("2024年6月") is a date too.
namespace {
// 上旬, 中旬, 下旬, 初, 底, 末 after a month at k: its days, appended to the month's norm ("--02/11-20"
// for 2月中旬, as docs/ANCHORS.md writes it); the end, or 0.
size_t part_of_month(Src& src, size_t k, std::string& norm) {
  for (const auto& [word, days] : {std::pair{std::string_view("上旬"), std::string_view("/01-10")},
                                   {"中旬", "/11-20"},
                                   {"下旬", "/21-31"},
                                   {"初", "/01-10"},
                                   {"底", "/21-31"},
                                   {"末", "/21-31"}}) {
    if (src.match(k, word)) {
      norm += days;
      return k + word.size();
    }
  }
  return 0;
}
}  // namespace

size_t month_day_at(Src& src, int y, size_t k, Anchor& a) {
  size_t m1 = k;
  const int m = month_or_day_at(src, k, m1);
  if (m < 1 || m > 12 || !src.match(m1, "月")) return 0;
  const size_t k2 = m1 + 3;
  size_t dd1 = k2;
  const int d = month_or_day_at(src, k2, dd1);
  if (valid_md(m, d) && (src.match(dd1, "日") || src.match(dd1, "号"))) {
    set_norm(a, Type::date, y > 0 ? ymd(y, m, d) : md(m, d));
    return dd1 + 3;
  }
  // A month alone (9月, 九月份): the month, as "2024年9月" is the month of a year; not 3个月 (a span)
  // nor a month count after 第 or 每.
  if (y <= 0) {
    const std::string_view lead = src.s.substr(0, k);
    if (lead.ends_with("第") || lead.ends_with("每") || lead.ends_with("个") || is_digit(src.at(m1 + 3))) return 0;
    set_norm(a, Type::date, md(m, 0));
    if (size_t e = part_of_month(src, m1 + 3, a.norm)) return e;
    return src.match(m1 + 3, "份") ? m1 + 6 : m1 + 3;
  }
  set_norm(a, Type::date, ymd(y, m, 0));
  if (size_t e = part_of_month(src, m1 + 3, a.norm)) return e;
  return m1 + 3;
}

// "第三季度" / "第3季度" at k, after "2024年".
size_t cjk_quarter(Src& src, int y, size_t k, Anchor& a) {
  const size_t q0 = k + 3;
  const auto d = src.cp(q0);
  int q = 0;
  if (d.length > 0) {
    if (d.cp >= U'1' && d.cp <= U'4') q = static_cast<int>(d.cp - U'0');
    if (d.cp == U'一') q = 1;
    if (d.cp == U'二') q = 2;
    if (d.cp == U'三') q = 3;
    if (d.cp == U'四') q = 4;
  }
  if (q > 0 && src.match(q0 + static_cast<size_t>(d.length), "季度")) {
    set_norm(a, Type::date, std::to_string(y) + "-Q" + std::to_string(q));
    return q0 + static_cast<size_t>(d.length) + 6;
  }
  return 0;
}

// "2024年6月15日", "2024年6月", "2024年第三季度", "2024年": the year y, then k after its "年".
size_t cjk_year_date(Src& src, int y, size_t k, Anchor& a) {
  if (size_t e = month_day_at(src, y, k, a)) return e;
  if (src.match(k, "第")) return cjk_quarter(src, y, k, a);
  if (y >= 1000 && y <= 2999) {
    set_norm(a, Type::date, std::to_string(y));
    return k;
  }
  return 0;
}

}  // namespace

size_t cjk_decade(Src& src, int v, size_t end, Anchor& a) {
  if (v % 10 != 0 || v > 2990 || (v >= 100 && v < 1000)) return 0;
  const int year = v >= 1000 ? v : (v <= 10 ? 2000 + v : 1900 + v);
  size_t e = end + std::string_view("年代").size();
  // 九十年代初, 九十年代中期, 九十年代末: its first, middle or last years, as "early 1990s" says.
  std::string_view part;
  for (const auto& [word, name] : {std::pair{std::string_view("初期"), std::string_view("early-")},
                                   {"初", "early-"},
                                   {"中期", "mid-"},
                                   {"末期", "late-"},
                                   {"末", "late-"}}) {
    if (src.match(e, word)) {
      part = name;
      e += word.size();
      break;
    }
  }
  set_norm(a, Type::identifier, std::string(part) + std::to_string(year) + "s");
  a.value = std::numeric_limits<double>::quiet_NaN();
  return e;
}

namespace {
bool ends_with_word_ci(std::string_view before, std::string_view w) {
  if (before.size() < w.size()) return false;
  const std::string_view tail = before.substr(before.size() - w.size());
  for (size_t i = 0; i < w.size(); ++i) {
    if (to_lower(static_cast<unsigned char>(tail[i])) != w[i]) return false;
  }
  return before.size() == w.size() || !is_alpha(static_cast<unsigned char>(before[before.size() - w.size() - 1]));
}
}  // namespace

// "1990s", "1990's", "the '90s", "the 90s", "early 1990s", "late '90s": a decade, as "mid-1990s" and
// 90年代 are; "early", "mid" or "late" before it narrows it. Two digits are a decade only after an
// apostrophe, "the" or one of those words ("in her 90s" is an age).
size_t scan_decade(Src& src, size_t p, Anchor& a) {
  const size_t j = src.digits(p);
  const size_t n = j - p;
  if ((n != 2 && n != 4) || src.s[j - 1] != '0') return 0;
  size_t e = j;
  if (n == 4 && src.at(e) == '\'') ++e;  // "1990's"
  if (src.at(e) != 's' || !src.word_end(e + 1)) return 0;
  std::string_view before = src.s.substr(0, p);
  bool clipped = false;
  for (std::string_view apostrophe : {"'", "’"}) {
    if (before.ends_with(apostrophe)) {
      before.remove_suffix(apostrophe.size());
      clipped = true;
      break;
    }
  }
  std::string_view part;
  for (const auto& [word, name] :
       {std::pair{std::string_view("early"), std::string_view("early-")}, {"mid", "mid-"}, {"late", "late-"}}) {
    if (!before.empty() && (before.back() == ' ' || before.back() == '-') &&
        ends_with_word_ci(before.substr(0, before.size() - 1), word)) {
      part = name;
      break;
    }
  }
  if (n == 2 && !clipped && part.empty() && !ends_with_word_ci(before, "the ")) return 0;
  const int v = src.number_at(p, j);
  if (n == 4 && v < 1000) return 0;
  const int year = n == 4 ? v : (v <= 10 ? 2000 + v : 1900 + v);
  set_norm(a, Type::identifier, std::string(part) + std::to_string(year) + "s");
  a.value = std::numeric_limits<double>::quiet_NaN();
  return e + 1;
}

namespace {

bool cn_digits_only(std::string_view run) {
  for (size_t i = 0; i < run.size();) {
    const auto d = utf8::decode(run, i);
    if (cn_digit(d.cp) < 0) return false;
    i += static_cast<size_t>(d.length);
  }
  return true;
}

// "03/04/2024", "3-4-2024", "3.4.2024": one or two digits [p, d1), `sep`; both readings are
// tried, and an anchor valid both ways is ambiguous (opt.date_order picks the first reading).
size_t year_last_date(Src& src, size_t p, size_t d1, int sep, Anchor& a, const LexerOptions& opt) {
  const size_t b1 = src.digits(d1 + 1);
  if (b1 - d1 - 1 < 1 || b1 - d1 - 1 > 2 || src.at(b1) != sep) return 0;
  const size_t y1 = src.digits(b1 + 1);
  if (y1 - b1 - 1 != 4 || !src.word_end(y1)) return 0;
  const int x = src.number_at(p, d1);
  const int z = src.number_at(d1 + 1, b1);
  const int y = src.number_at(b1 + 1, y1);
  const bool mf = valid_md(x, z);  // month first reading valid
  const bool df = valid_md(z, x);  // day first reading valid
  if (!mf && !df) return 0;
  a.type = Type::date;
  if (mf && df && x != z) {
    a.ambiguous = true;
    const bool month_first = opt.date_order == DateOrder::month_first;
    a.norm = month_first ? ymd(y, x, z) : ymd(y, z, x);
    a.alt_norm = month_first ? ymd(y, z, x) : ymd(y, x, z);
  } else {
    a.norm = mf ? ymd(y, x, z) : ymd(y, z, x);
  }
  return y1;
}

}  // namespace

// "2024-06-15", "2024/6/15", "2024年6月15日", "2024年第三季度", "03/04/2024", "6月15日".
size_t scan_numeric_date(Src& src, size_t p, Anchor& a, const LexerOptions& opt) {
  const size_t d1 = src.digits(p);
  const size_t n = d1 - p;
  const int sep = src.at(d1);
  const bool date_sep = sep == '-' || sep == '/' || sep == '.';
  if (n == 4 && date_sep) return year_first_date(src, p, d1, sep, a);
  if (n == 4 && src.match(d1, "年代") && src.s[d1 - 1] == '0') return 0;  // a decade (scan_digit_start)
  if (n == 4 && src.match(d1, "年")) return cjk_year_date(src, src.number_at(p, d1), d1 + 3, a);
  if ((n == 1 || n == 2) && date_sep) return year_last_date(src, p, d1, sep, a, opt);
  if ((n == 1 || n == 2) && src.match(d1, "月")) return month_day_at(src, 0, p, a);
  return 0;
}

// Dates in Chinese numerals, the numeral [p, j) worth v: "二〇二四年三月十五日", "一九九八年",
// "三月十五日", "十五日" (the day of a month), "九十年代".
size_t scan_cn_numeral_date(Src& src, size_t p, size_t j, uint64_t v, Anchor& a) {
  const std::string_view run = src.s.substr(p, j - p);
  if (!src.match(j, "年") && !src.match(j, "月") && !src.match(j, "日")) return 0;
  if (src.match(j, "年代")) return cjk_decade(src, static_cast<int>(std::min<uint64_t>(v, 9999)), j, a);
  constexpr size_t kFourDigits = size_t{4} * 3;  // every Chinese digit is three bytes of UTF-8
  if (run.size() == kFourDigits && cn_digits_only(run) && src.match(j, "年")) {
    return cjk_year_date(src, static_cast<int>(v), j + 3, a);
  }
  if (v >= 1 && v <= 12 && !run.starts_with("两") && src.match(j, "月")) return month_day_at(src, 0, p, a);
  // A day alone in two characters or more (十五日): 一日, 五日 are "one day", "five days" (一日三餐, 五日游).
  if (v >= 1 && v <= 31 && run.size() >= size_t{2} * 3 && src.match(j, "日")) {
    return cn_day_of_month(src, p, j, static_cast<int>(v), a);
  }
  return 0;
}

// "FY2024", "FY 2024", "FY24": a fiscal year, read as the year it is named by (2024), as "fiscal
// 2024" and 2024财年 write it.
size_t scan_fiscal_year(Src& src, size_t p, Anchor& a) {
  if (!src.match(p, "FY")) return 0;
  size_t k = p + 2;
  if (src.at(k) == ' ') ++k;
  const size_t y1 = src.digits(k);
  if ((y1 - k != 2 && y1 - k != 4) || !src.word_end(y1)) return 0;
  const int two = src.number_at(k, y1);
  const int y = y1 - k == 4 ? two : (two >= 50 ? 1900 + two : 2000 + two);  // FY99 is 1999, FY24 2024
  if (y < 1900 || y > 2999) return 0;
  set_norm(a, Type::date, std::to_string(y));
  return y1;
}

// "Q3 2024".
size_t scan_quarter(Src& src, size_t p, Anchor& a) {
  if (src.at(p) != 'Q') return 0;
  const int q = src.at(p + 1);
  if (q < '1' || q > '4') return 0;
  size_t k = p + 2;
  if (src.at(k) == ',') ++k;
  if (src.at(k) != ' ') return 0;
  k = src.skip_spaces(k);
  const size_t y1 = src.digits(k);
  if (y1 - k != 4 || !src.word_end(y1)) return 0;
  set_norm(a, Type::date, std::string(src.s.substr(k, 4)) + "-Q" + static_cast<char>(q));
  return y1;
}

}  // namespace sfcl::anchor::lex
