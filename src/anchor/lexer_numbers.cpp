// Numbers that start with a digit and what may follow them: multipliers, currency, duration and
// percent suffixes; ASCII identifiers.
#include <limits>
#include <string>
#include <utility>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "anchor/lexer_words.h"

namespace sfcl::anchor::lex {

// Multiplier right after a number: " million", "m", "bn", "k", "万", "亿", "千".
Multiplier multiplier(Src& src, size_t j, bool after_currency) {
  // "30+ years", "500+ employees": "+" says "at least", as 多 does; the unit after it is the number's.
  if (src.at(j) == '+' && j > 0 && is_digit(static_cast<unsigned char>(src.s[j - 1])) && src.at(j + 1) == ' ' &&
      is_alpha(src.at(j + 2))) {
    const Multiplier m = multiplier(src, j + 1, after_currency);
    return m.end > j + 1 ? m : Multiplier{j + 1, 0};
  }
  if (src.at(j) == ' ') {
    const size_t k = src.skip_spaces(j);
    for (const auto& [w, shift] : kMultiplierWords) {
      if (src.match_ci(k, w) && src.word_end(k + w.size())) return {k + w.size(), shift};
    }
    return {j, 0};
  }
  for (const auto& [w, shift] : kAttachedMultipliers) {
    if (src.match(j, w) && src.word_end(j + w.size())) return {j + w.size(), shift};
  }
  if (after_currency) {
    for (const auto& [w, shift] : kCurrencyMultipliers) {
      if (src.match(j, w) && src.word_end(j + w.size())) return {j + w.size(), shift};
    }
  }
  // "2000多人", "500余艘", "20多万元": 多 and 余 say "over" (verify/rounded.cpp reads them); the
  // magnitude or unit after them is the number's.
  if ((src.match(j, "多") || src.match(j, "余")) && j > 0 && is_digit(static_cast<unsigned char>(src.s[j - 1]))) {
    const Multiplier m = multiplier(src, j + 3, after_currency);
    return m.end > j + 3 ? m : Multiplier{j + 3, 0};
  }
  // Compound magnitudes first: "3千亿元" is 3×10^11 yuan, not 3千 followed by a lone "亿元".
  for (const auto& [w, shift] :
       {std::pair<std::string_view, int>{"千亿", 11}, {"万亿", 12}, {"百亿", 10}, {"千万", 7}, {"百万", 6}}) {
    if (src.match(j, w)) return {j + w.size(), shift};
  }
  if (src.match(j, "亿")) return {j + 3, 8};
  if (src.match(j, "万")) return {j + 3, 4};
  // 千 begins the units 千克, 千米, 千瓦, 千卡 ("3千克" is 3 kg, "200千卡" 200 kcal).
  if (src.match(j, "千") && !src.match(j + 3, "克") && !src.match(j + 3, "米") && !src.match(j + 3, "瓦") &&
      !src.match(j + 3, "卡")) {
    return {j + 3, 3};
  }
  return {j, 0};
}

// Currency named after the number: " USD", " dollars", "元", "円", " yen".
size_t currency_suffix(Src& src, size_t j, std::string_view& code) {
  if (src.match(j, "元")) {
    code = "CNY";
    size_t e = j + 3;
    if (src.match(e, "整")) e += 3;
    return e;
  }
  if (src.match(j, "円")) {
    code = "JPY";
    return j + 3;
  }
  if (src.at(j) >= 0xE0) {
    // Most Han characters after a number start no currency name (月, 日, 万, 人 ...): one look.
    static constexpr std::u32string_view kFirsts = U"日美欧英港澳加新瑞韩泰卢人";
    if (kFirsts.find(src.cp(j).cp) == std::u32string_view::npos) return 0;
    for (const auto& c : kCurrencyWordsZh) {
      if (!src.match(j, c.text)) continue;
      // "12日元首会晤", "25日元宵节", "1日元旦": the day of the month before 元首, 元宵, 元旦.
      if (c.code == "JPY" && (src.match(j + 6, "旦") || src.match(j + 6, "宵") || src.match(j + 6, "首") ||
                              src.match(j + 6, "帅") || src.match(j + 6, "老") || src.match(j + 6, "年"))) {
        return 0;
      }
      code = c.code;
      return j + c.text.size();
    }
    return 0;
  }
  if (src.at(j) != ' ') return 0;
  const size_t k = src.skip_spaces(j);
  for (const auto& c : kCurrencyCodes) {
    if (src.match(k, c.text) && src.word_end(k + c.text.size())) {
      code = c.code;
      return k + c.text.size();
    }
  }
  for (const auto& c : kCurrencyWords) {
    if (src.match_ci(k, c.text) && src.word_end(k + c.text.size())) {
      code = c.code;
      return k + c.text.size();
    }
  }
  return 0;
}

namespace {
// A lower-case word at k that describes a span ("long", "full", "agonizing", "wasted",
// "consecutive"): its end, or 0.
size_t describing_word(Src& src, size_t k) {
  size_t e = k;
  while (is_lower(src.at(e)) && e - k <= kMaxLetterRun) ++e;
  if (e - k < 4 || e - k > kMaxLetterRun || !src.word_end(e)) return 0;
  const std::string_view w = src.s.substr(k, e - k);
  // A scale is part of the number ("3 hundred years"), not a word about the span.
  for (std::string_view scale : {"hundred", "thousand", "million", "billion", "dozen"}) {
    if (w == scale) return 0;
  }
  for (std::string_view end : {"ing", "ful", "ous", "ive", "ed"}) {
    if (w.ends_with(end)) return e;
  }
  for (std::string_view word :
       {"long", "full", "more", "whole", "straight", "additional", "extra", "short", "further"}) {
    if (w == word) return e;
  }
  return 0;
}
}  // namespace

// Duration unit after a number: " days", "-day", " business days", "天", "日", "个月", "周", "年".
size_t duration_suffix(Src& src, size_t j, std::string_view& unit, bool allow_cn_year) {
  const int c = src.at(j);
  // "30minutes", "2hours", "45min": a unit of three letters or more glued to the digits.
  const bool glued = is_alpha(c) && j > 0 && is_digit(static_cast<unsigned char>(src.s[j - 1]));
  if (c == ' ' || c == '-' || glued) {
    const size_t k = c == ' ' ? src.skip_spaces(j) : (glued ? j : j + 1);
    const auto unit_at = [&](size_t at) -> size_t {
      for (const auto& u : kDurationUnitsEn) {
        if ((!glued || u.text.size() >= 3) && src.match_ci(at, u.text) && src.word_end(at + u.text.size())) {
          unit = u.unit;
          return at + u.text.size();
        }
      }
      return 0;
    };
    if (size_t e = unit_at(k)) return e;
    // "eight agonizing months", "three long years": one word that describes the span between.
    if (c != ' ') return 0;
    const size_t w = describing_word(src, k);
    return w > 0 && src.at(w) == ' ' ? unit_at(w + 1) : 0;
  }
  for (const auto& u : kDurationUnitsZh) {
    if (u.text == "年" && !allow_cn_year) continue;
    if (u.text == "秒" && src.match(j + u.text.size(), "杀")) continue;  // 秒杀: a flash sale
    if (u.text == "周" && src.match(j + u.text.size(), "岁")) continue;  // 周岁: an age, as 岁 is
    if (src.match(j, u.text)) {
      unit = u.unit;
      return j + u.text.size();
    }
  }
  return 0;
}

// Percent sign or word after a number.
size_t percent_suffix(Src& src, size_t j) {
  size_t k = j;
  if (src.at(k) == ' ') k = src.skip_spaces(k);
  if (src.at(k) == '%') return k + 1;
  if (src.match(k, "％")) return k + 3;
  if (k == j) return 0;
  if (src.match_ci(k, "percent") && src.word_end(k + 7)) return k + 7;
  if (src.match_ci(k, "per cent") && src.word_end(k + 8)) return k + 8;
  return 0;
}

// An ASCII identifier word: alnum groups joined by '-', '_' or '/'; needs a letter and a digit
// (INV-2024-0042, A12B) or at least two separators (555-010-2233).
size_t scan_identifier(Src& src, size_t p) {
  // "late-2018", "mid-2015": a part of a year is no identifier ("mid-1990s", a decade, still is; and
  // "pre-2008" stays one: the year alone would confirm "post-2008").
  for (std::string_view w : {"early-", "mid-", "late-"}) {
    if (!src.match_ci(p, w)) continue;
    const size_t year_end = p + w.size() + 4;
    if (src.digits(p + w.size()) != year_end) continue;
    const int c = src.at(year_end);
    if (!is_alpha(c) && c != '\'' && (c != kEnd || src.final)) return 0;
  }
  size_t j = p;
  bool letter = false;
  bool digit = false;
  int seps = 0;
  while (true) {
    const int c = src.at(j);
    if (is_alpha(c)) {
      // A run of more than kMaxLetterRun letters is no part of an identifier: it ends before one.
      const size_t run = src.letter_run(j);
      if (run > kMaxLetterRun) break;
      letter = true;
      j += run;
    } else if (is_digit(c)) {
      digit = true;
      ++j;
    } else if ((c == '-' || c == '_' || c == '/') && j > p && is_alnum(src.at(j + 1)) &&
               src.letter_run(j + 1) <= kMaxLetterRun) {
      ++seps;
      ++j;
    } else {
      break;
    }
  }
  if (j - p >= 3 && ((letter && digit) || (!letter && seps >= 2))) return j;
  return 0;
}

std::string number_norm(std::string_view raw, int shift, bool& ok) {
  std::string ip;
  std::string fp;
  ok = split_number(raw, ip, fp);
  return ok ? canonical_decimal(ip, fp, shift) : std::string(raw);
}

namespace {

double to_value(const std::string& norm) { return std::strtod(norm.c_str(), nullptr); }

// After 多 or 余, a character of a unit of time that begins another word: 年轻, 年级, 年代, 日本, 日报,
// 天津, 天然, 周年, 周岁, 月份.
bool over_then_unit_word(Src& src, size_t k) {
  for (std::string_view w : {"年轻", "年级", "年代", "日本", "日报", "天津", "天然", "周年", "周岁", "月份"}) {
    if (src.match(k, w)) return true;
  }
  return false;
}

}  // namespace

// Everything that starts with an ASCII digit.
// End of the number starting at p: digits with ',' / '.' separators followed by a digit.
size_t digits_end(Src& src, size_t p) {
  size_t j = p;
  while (is_digit(src.at(j)) || ((src.at(j) == ',' || src.at(j) == '.') && is_digit(src.at(j + 1)))) ++j;
  return j;
}

namespace {

// "a 2-bedroom flat", "a 3-person team": a whole count hyphenated to the lower-case noun it
// counts is that count, as in "2 bedrooms" (not an identifier), so the sources' "two-bedroom" or
// "2 bedrooms" reads as the same value. "COVID-19", "2-A" and "9-to-5" stay identifiers.
bool count_before_noun(Src& src, size_t p, size_t j, const Multiplier& mult) {
  if (mult.shift != 0 || mult.end != j || src.at(j) != '-' || src.digits(p) != j) return false;
  size_t k = j + 1;
  while (k - j <= kMaxLetterRun && is_lower(src.at(k))) ++k;
  if (k - j - 1 < 3 || k - j > kMaxLetterRun) return false;
  const int c = src.at(k);
  return src.word_end(k) && c != '-' && c != '_' && c != '/';
}

// Digits [p, j) with letters attached after the multiplier: an ordinal, a "30-day" duration, a
// "500mg" measure, a "4-star" count, or an identifier; 0 when none of them.
size_t attached_letters(Src& src, size_t p, size_t j, const Multiplier& mult, Anchor& a) {
  const std::string_view raw = src.s.substr(p, j - p);
  bool ok = false;
  std::string_view unit;
  const auto with_unit = [&](Type type, int shift) {
    a.norm = number_norm(raw, shift, ok);
    if (!ok) return false;
    a.type = type;
    a.value = to_value(a.norm);
    a.norm += ' ';
    a.norm += unit;
    return true;
  };
  if (size_t e = duration_suffix(src, mult.end, unit, false); e > 0 && with_unit(Type::duration, mult.shift)) return e;
  if (mult.shift == 0) {  // "500mg", "2kg", "3-oz": a measure, not an identifier
    // "60km/h", "10kg/m3": a compound unit, not the measure before its slash.
    if (size_t e = measure_suffix(src, j, unit); e > 0 && src.at(e) != '/' && with_unit(Type::quantity, 0)) return e;
    if (src.at(j) == '-' && is_alpha(src.at(j + 1)) && is_alpha(src.at(j + 2))) {
      if (size_t e = measure_suffix(src, j + 1, unit); e > 0 && with_unit(Type::quantity, 0)) return e;
    }
  }
  if (src.at(mult.end) == '-' && mult.shift == 0) {  // "4-star rating", "a 26-point lead"
    if (size_t e = quantity_suffix(src, mult.end, unit); e > 0 && with_unit(Type::quantity, 0)) return e;
  }
  const size_t o = ordinal_suffix(src, j);
  if (o > j && day_of_month(src, p, j, o)) {  // "arrived on the 3rd": the day, as 3日 is
    a.type = Type::date;
    a.norm = "---";
    if (j - p == 1) a.norm += '0';
    a.norm.append(src.s.substr(p, j - p));
    a.value = std::numeric_limits<double>::quiet_NaN();
    return o;
  }
  if (o > j) {
    a.norm = number_norm(raw, 0, ok);
    if (ok) {
      set_ordinal(a, a.norm);
    } else {
      a.type = Type::identifier;
    }
    return o;
  }
  if (count_before_noun(src, p, j, mult)) return 0;
  if (size_t e = scan_identifier(src, p)) {
    set_norm(a, Type::identifier, std::string(src.s.substr(p, e - p)));
    return e;
  }
  return 0;
}

// A temperature below zero: "-18°C", "−18 °C", "minus 18°C", "零下18℃" (read before p only). Other
// values keep their digits: a minus elsewhere is as often a dash or a range.
bool below_zero(const Src& src, size_t p) {
  const std::string_view before = src.s.substr(0, p);
  if (before.ends_with("-")) return p == 1 || !is_alnum(static_cast<unsigned char>(before[p - 2]));
  return before.ends_with("−") || before.ends_with("零下") || before.ends_with("minus ") || before.ends_with("Minus ");
}

// What follows a well-formed number [p, j) (a.norm and a.value set): a percent, a currency, a
// day or duration, a quantity, a longer identifier, or else the number itself.
// A day of the month, a decade or a span of time after a number with no magnitude ("5日", "90年代",
// "2 and a half hours", "20多年"); 0 when none.
size_t day_or_span(Src& src, size_t p, size_t j, const Multiplier& mult, Anchor& a) {
  std::string_view unit;
  if (size_t e = scan_cn_day(src, p, j, a)) {
    a.value = std::numeric_limits<double>::quiet_NaN();
    return e;
  }
  // "90年代", "1990年代": a decade, written as English writes it ("1990s"), not ninety years.
  if (src.match(j, "年代") && (j - p == 2 || j - p == 4) && src.s[j - 1] == '0') {
    if (size_t e = cjk_decade(src, src.number_at(p, j), j, a)) return e;
  }
  if (size_t e = and_a_half(src, j, unit); e > 0 && a.norm.find('.') == std::string::npos) {  // 2 and a half hours
    set_norm(a, Type::duration, a.norm + ".5 " + std::string(unit));
    a.value += 0.5;
    return e;
  }
  // After 多 or 余 too ("20多年": over 20 years), not where the unit begins a word (20多年轻人, 30余天津市民).
  const size_t span_at = mult.end > j && !over_then_unit_word(src, mult.end) ? mult.end : j;
  if (size_t e = duration_suffix(src, span_at, unit, a.value < 1000)) {
    if (size_t h = cn_and_a_half(src, e, unit, a.norm, a.value, a)) return h;  // 1年半
    a.type = Type::duration;
    a.norm += ' ';
    a.norm += unit;
    return e;
  }
  return 0;
}

size_t number_with_suffix(Src& src, size_t p, size_t j, const Multiplier& mult, Anchor& a) {
  if (size_t e = percent_suffix(src, mult.end)) {
    a.type = Type::percent;
    a.norm += '%';
    return e;
  }
  if (mult.shift == 0 && src.at(j) >= 0xE0) {
    if (size_t e = scan_cn_race_mark(src, p, j, a)) return e;
  }
  if (mult.shift == 0 && j - p <= 2 && src.digits(p) == j) {  // "3成": 30%
    if (size_t e = scan_cn_tenths(src, j, static_cast<uint64_t>(src.number_at(p, j)), a)) return e;
  }
  std::string_view code;
  if (size_t e = currency_suffix(src, mult.end, code)) {
    a.type = Type::amount;
    a.norm += ' ';
    a.norm += code;
    return e;
  }
  std::string_view unit;
  if (mult.shift == 0 && mult.end == j && dimension_unit(src, j, unit)) {
    a.type = Type::quantity;
    a.norm += ' ';
    a.norm += unit;
    return j;
  }
  if (mult.shift == 0) {
    if (size_t e = day_or_span(src, p, j, mult, a)) return e;
  }
  // "分列第二、三名": the second of two ordinals that share one 第 is an ordinal too.
  if (size_t e = quantity_suffix(src, mult.end, unit);
      e > 0 && mult.shift == 0 && (second_ordinal(src, p, mult.end) || rank_without_ordinal(src, p, mult.end)) &&
      a.norm.find('.') == std::string::npos) {
    set_ordinal(a, a.norm);
    return e;
  }
  // "19时35分", "9点05分": minutes of a time of day, not a count of points.
  const bool clock_minutes = p >= 3 && (src.s.substr(p - 3, 3) == "时" || src.s.substr(p - 3, 3) == "点");
  if (size_t e = quantity_suffix(src, mult.end, unit); e > 0 && !(clock_minutes && unit == "分")) {
    if (unit == "字" && (src.match(e, "形") || src.match(e, "型"))) return 0;  // 8字形: a shape, no count
    if (unit == "个" && mult.shift == 0) {
      if (size_t h = cn_and_a_half(src, e, unit, a.norm, a.value, a)) return h;  // 3个半小时
      if (size_t h = cn_count_and_more(src, e, unit, a.norm, a)) return h;       // 3个多月
    }
    a.type = Type::quantity;
    a.norm += ' ';
    a.norm += unit;
    if ((unit == "degC" || unit == "degF") && below_zero(src, p)) {
      a.norm.insert(0, 1, '-');
      a.value = -a.value;
    }
    return e;
  }
  // "攀石赛中位列27，": after a word of ranking, digits with no measure word are a rank, as 第27 is.
  if (mult.shift == 0 && a.norm.find('.') == std::string::npos && rank_word_before(src, p) &&
      !is_han(src.cp(mult.end).cp)) {
    set_ordinal(a, a.norm);
    return mult.end;
  }
  if (count_before_noun(src, p, j, mult)) {
    a.type = Type::number;
    return j;
  }
  if (size_t e = scan_identifier(src, p); e > j && mult.shift == 0) {
    set_norm(a, Type::identifier, std::string(src.s.substr(p, e - p)));
    a.value = std::numeric_limits<double>::quiet_NaN();
    return e;
  }
  a.type = Type::number;
  if (const size_t e = mult.shift == 0 ? day_range_end(src, p, j, a) : 0; e > 0) return e;     // "August 14 to 18"
  if (const size_t e = mult.shift == 0 ? year_range_end(src, p, j, a) : 0; e > 0) return e;    // "2011–13"
  if (mult.shift == 0 && !range_shares_unit(src, p, p, j, a)) list_shares_unit(src, p, j, a);  // "3至4亿元", "3、5个"
  if (mult.shift != 0) magnitude_range_shares_unit(src, p, j, mult.end, a);                    // "2.6万至3.2万元"
  return mult.end;
}

}  // namespace

size_t scan_area_code_phone(Src& src, size_t p, Anchor& a) {
  const size_t area = p + 1;
  if (src.digits(area) != area + 3 || src.at(area + 3) != ')') return 0;
  const size_t ex = src.at(area + 4) == ' ' ? area + 5 : area + 4;
  if (src.digits(ex) != ex + 3) return 0;
  const int sep = src.at(ex + 3);
  if ((sep != '-' && sep != '.' && sep != ' ') || src.digits(ex + 4) != ex + 8) return 0;
  const int after = src.at(ex + 8);
  if (after != kEnd && (is_alnum(after) || ((after == '-' || after == '.') && is_digit(src.at(ex + 9))))) return 0;
  std::string norm(src.s.substr(area, 3));
  norm.append("-").append(src.s.substr(ex, 3)).append("-").append(src.s.substr(ex + 4, 4));
  set_norm(a, Type::identifier, std::move(norm));
  return ex + 8;
}

namespace {
// "3/4", "1/2" (a fraction, or a rating "4/5"): one value as written, so neither side is a bare
// number that would confirm "4 inches" or "2 lb" elsewhere. Dates ("3/4/2024") are read before.
size_t scan_fraction(Src& src, size_t p, Anchor& a) {
  if (p > 0 && (is_digit(static_cast<unsigned char>(src.s[p - 1])) || src.s[p - 1] == '/' || src.s[p - 1] == '.')) {
    return 0;
  }
  const size_t slash = src.digits(p);
  if (slash - p > 3 || src.at(slash) != '/') return 0;
  const size_t e = src.digits(slash + 1);
  if (e == slash + 1 || e - slash - 1 > 3) return 0;
  const int after = src.at(e);
  if (after == '/' || after == '.' || after == ',' ? is_digit(src.at(e + 1)) : is_alnum(after)) return 0;
  set_norm(a, Type::identifier, std::string(src.s.substr(p, e - p)));
  a.value = std::numeric_limits<double>::quiet_NaN();
  return e;
}
}  // namespace

size_t scan_digit_start(Src& src, size_t p, Anchor& a, const LexerOptions& opt) {
  if (list_marker(src, p)) return 0;
  if (size_t e = scan_numeric_date(src, p, a, opt)) return e;
  if (size_t e = scan_time(src, p, a)) return e;
  if (const size_t h = src.digits(p); h - p <= 2) {
    if (size_t e = scan_cn_hours_minutes(src, p, h, a)) return e;
    if (size_t e = scan_cn_time(src, p, h, static_cast<uint64_t>(src.number_at(p, h)), a)) return e;
  }
  if (size_t e = scan_day_first(src, p, a)) return e;
  if (size_t e = scan_score(src, p, a)) return e;
  if (size_t e = scan_fraction(src, p, a)) return e;
  if (size_t e = scan_decade(src, p, a)) return e;
  const size_t j = digits_end(src, p);
  // The denominator of a fraction scan_fraction did not take ("2007/08", "1500/25 mg"): what
  // follows is the whole fraction's unit, never a measure of the denominator alone.
  if (p >= 2 && src.s[p - 1] == '/' && is_digit(static_cast<unsigned char>(src.s[p - 2])) && src.digits(p) == j) {
    bool ok = false;
    set_norm(a, Type::number, number_norm(src.s.substr(p, j - p), 0, ok));
    a.value = to_value(a.norm);
    return j;
  }
  const Multiplier mult = multiplier(src, j);
  if (size_t e = colloquial_magnitude(src, p, j, mult, a)) return e;
  if (is_alpha(src.at(mult.end)) || src.at(mult.end) == '-' || src.at(mult.end) == '_') {
    if (size_t e = attached_letters(src, p, j, mult, a)) return e;
  }
  bool ok = false;
  a.norm = number_norm(src.s.substr(p, j - p), mult.shift, ok);
  if (!ok) {
    if (size_t e = scan_identifier(src, p)) {
      set_norm(a, Type::identifier, std::string(src.s.substr(p, e - p)));
      return e;
    }
    a.type = Type::identifier;  // "1.2.3": a version or outline number, kept as written
    return j;
  }
  a.value = to_value(a.norm);
  return number_with_suffix(src, p, j, mult, a);
}

}  // namespace sfcl::anchor::lex
