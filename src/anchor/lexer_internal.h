// Helpers shared by the lexer's source files; not part of the public API.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "anchor/anchor.h"
#include "anchor/lexer_words.h"
#include "util/utf8.h"

namespace sfcl::anchor {

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_digit(int c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_upper(int c) { return c >= 'A' && c <= 'Z'; }
constexpr bool is_lower(int c) { return c >= 'a' && c <= 'z'; }
constexpr bool is_alnum(int c) { return is_alpha(c) || is_digit(c); }
constexpr bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
constexpr int to_lower(int c) { return is_upper(c) ? c + 32 : c; }
// Equal but for the case of ASCII letters.
constexpr bool ieq_ascii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (to_lower(static_cast<unsigned char>(a[i])) != to_lower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}
constexpr bool is_han(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || c == 0x3007;
}

// "1000.5" from integer digits, fraction digits and a decimal shift (multipliers).
std::string canonical_decimal(std::string_view int_digits, std::string_view frac_digits, int shift);
bool split_number(std::string_view text, std::string& int_digits, std::string& frac_digits);
bool is_cn_numeral(char32_t c);
// Whether `w` is one of `list`, ignoring ASCII case.
bool one_of(std::string_view w, std::initializer_list<std::string_view> list);
// Roles in Chinese text (role_cn.cpp): the field word before a value ending at `end`, the verb after
// a value that opens a clause (`opens_cn_clause`), and for an answer's value after 于 or 在.
std::string_view cn_role_before(std::string_view text, size_t end);
bool opens_cn_clause(std::string_view before);
std::string_view cn_role_after(std::string_view after);
std::string_view cn_answer_role(std::string_view before, std::string_view after);
// Where the ASCII word ending at `end` starts (an apostrophe inside it kept, a quote before it not).
size_t word_start_back(std::string_view t, size_t end);
// Where each sentence of `text` starts (the first at 0), ended as clause words end them: a full stop
// that no abbreviation's is, !, ?, a line break, a record's brackets, 。！？.
std::vector<uint32_t> sentence_starts(std::string_view text);
// A word that says nothing of what a value beside it is (role.cpp): an article, a link, a
// preposition, a connector, a reporting verb, a unit of time.
bool says_nothing(std::string_view w);
int cn_digit(char32_t c);  // 0-9 for 零〇 一 二两 ... 九 (and their financial forms), else -1
int cn_unit(char32_t c);
// lexer_org_verbs.cpp: a clause's verb or a match's verb inside `s` ("选择银行", "队力压"), and a run of
// Han text that starts inside one (`two`: the character before it and its first) or with a match's verb.
bool holds_verb(std::string_view s);
bool starts_in_verb(std::string_view two, std::string_view rest);

}  // namespace sfcl::anchor

// The lexer's matchers, one source file per family (lexer_dates.cpp, lexer_numbers.cpp, ...), and
// what they share. Every read goes through Src (see lexer.cpp); its accessors stay inline here so
// splitting the matchers over files costs no calls.
namespace sfcl::anchor::lex {

inline constexpr int kEnd = -1;

// A run of more than kMaxLetterRun ASCII letters in a row (no digit, no separator) is no word: no
// word-shaped anchor contains one, so a word the model keeps gluing tokens onto is decided once this
// many letters are written instead of when it ends (docs/DESIGN.md, 'Hold-back and emission'). Real
// words, names and identifiers stay below it (AbstractSingletonProxyFactoryBean: 33 letters; hashes
// and codes have digits).
inline constexpr size_t kMaxLetterRun = 40;

struct Src {
  std::string_view s;
  bool final;
  bool overrun = false;
  size_t max_read = 0;  // furthest byte a decision looked at (truncate must redo it)
  // A Chinese organisation-name scan from `org_from` found no suffix before the character at
  // `org_to` stopped it, so a scan from any start in between fails too (see scan_org_name).
  size_t org_from = 0;
  size_t org_to = 0;
  size_t org_reach = 0;
  bool org_plain = false;  // every character strictly between them is plain (HanClass::kPlain)
  bool in_range = false;   // reading the second end of a range (lexer_ranges.cpp)

  int at(size_t i) {
    if (i > max_read) max_read = i;
    if (i >= s.size()) {
      overrun = true;
      return kEnd;
    }
    return static_cast<unsigned char>(s[i]);
  }
  // Code point at i; cp 0 / length 0 at the end (or inside an unfinished character).
  utf8::Decoded cp(size_t i) {
    if (i + 3 > max_read) max_read = std::min(i + 3, s.size());
    if (i >= s.size()) {
      overrun = true;
      return {0, 0, false};
    }
    const auto d = utf8::decode(s, i);
    if (!d.complete) {
      overrun = true;
      return final ? utf8::Decoded{utf8::kReplacement, 1, true} : utf8::Decoded{0, 0, false};
    }
    return d;
  }
  // ASCII case-insensitive literal.
  bool match_ci(size_t i, std::string_view w) {
    for (size_t k = 0; k < w.size(); ++k) {
      const int c = at(i + k);
      if (c == kEnd || to_lower(c) != to_lower(static_cast<unsigned char>(w[k]))) return false;
    }
    return true;
  }
  // Exact byte literal (UTF-8 words).
  bool match(size_t i, std::string_view w) {
    for (size_t k = 0; k < w.size(); ++k) {
      const int c = at(i + k);
      if (c == kEnd || c != static_cast<unsigned char>(w[k])) return false;
    }
    return true;
  }
  // End of the word from i: ASCII letters and digits, up to the first run of more than
  // kMaxLetterRun letters, which is no part of it (i itself when one starts at i). Reads like at()
  // up to that end: a long run is known from its first kMaxLetterRun + 1 letters.
  size_t word_run_end(size_t i) {
    const size_t n = s.size();
    size_t letters = 0;  // letters in a row up to j
    size_t j = i;
    for (; j < n; ++j) {
      const int c = static_cast<unsigned char>(s[j]);
      if (is_alpha(c)) {
        if (++letters > kMaxLetterRun) {
          if (j > max_read) max_read = j;
          return j + 1 - letters;
        }
      } else if (is_digit(c)) {
        letters = 0;
      } else {
        break;
      }
    }
    if (j > max_read) max_read = j;
    if (j >= n) overrun = true;
    return j;
  }
  // Letters in a row from i, counted up to kMaxLetterRun + 1 (a longer run reads no further).
  size_t letter_run(size_t i) {
    size_t k = 0;
    while (k <= kMaxLetterRun && is_alpha(at(i + k))) ++k;
    return k;
  }
  // A run of more than kMaxLetterRun letters ends right before i (reads only text before i).
  [[nodiscard]] bool long_run_before(size_t i) const {
    if (i <= kMaxLetterRun) return false;
    for (size_t k = i; k > i - kMaxLetterRun - 1; --k) {
      if (!is_alpha(static_cast<unsigned char>(s[k - 1]))) return false;
    }
    return true;
  }
  // From i inside a word: the next position where a word may start within it (a digit after a
  // letter, one of which may follow a long run) or the word's end. No anchor starts in between
  // whatever follows, so this waits for nothing: at the end of the text seen so far it stops there.
  size_t inner_skip(size_t i) {
    const size_t n = s.size();
    size_t j = i + 1;
    while (j < n) {
      const int c = static_cast<unsigned char>(s[j]);
      if (!is_alnum(c) || (is_digit(c) && is_alpha(static_cast<unsigned char>(s[j - 1])))) break;
      ++j;
    }
    if (j > max_read) max_read = j;
    return j;
  }
  bool word_end(size_t i) {
    const int c = at(i);
    return c == kEnd ? final : !is_alnum(c);
  }
  size_t skip_spaces(size_t i) {
    while (at(i) == ' ') ++i;
    return i;
  }
  size_t digits(size_t i) {
    while (is_digit(at(i))) ++i;
    return i;
  }
  int number_at(size_t i, size_t j) const {  // small integer from s[i, j), saturating
    int v = 0;
    for (size_t k = i; k < j; ++k) v = v > 99999999 ? v : v * 10 + (s[k] - '0');
    return v;
  }
};

inline void set_norm(Anchor& a, Type type, std::string norm) {
  a.type = type;
  a.norm = std::move(norm);
}

// Which entries of a keyword table start with each byte (in either case when `fold`), as a bit
// mask in table order: a matcher tries only those, and none at any other byte. Built from the
// tables themselves, so they cannot disagree.
struct FirstBytes {
  std::array<uint64_t, 256> mask{};
  [[nodiscard]] constexpr uint64_t at(int c) const { return c >= 0 && c < 256 ? mask[static_cast<size_t>(c)] : 0U; }
};
template <typename T, size_t N, typename Text>
constexpr FirstBytes first_bytes(const std::array<T, N>& words, Text text, bool fold) {
  static_assert(N <= 64);
  FirstBytes f;
  for (size_t i = 0; i < N; ++i) {
    const int c = static_cast<unsigned char>(std::string_view(text(words[i])).front());
    const uint64_t bit = uint64_t{1} << i;
    f.mask[static_cast<size_t>(c)] |= bit;
    if (fold && is_alpha(c)) {
      f.mask[static_cast<size_t>(to_lower(c))] |= bit;
      f.mask[static_cast<size_t>(to_lower(c) - 32)] |= bit;
    }
  }
  return f;
}
// The entry of the lowest set bit (iterating `m &= m - 1` keeps table order: first match wins).
template <typename T, size_t N>
constexpr const T& entry(const std::array<T, N>& words, uint64_t m) {
  return words[static_cast<size_t>(std::countr_zero(m))];
}
inline constexpr auto kSelf = [](std::string_view w) { return w; };
inline constexpr auto kText = [](const auto& w) { return w.text; };

// Each matcher tries one family at p: the anchor end (> p, with `a` filled in) or 0.
// Dates (lexer_dates.cpp).
size_t month_name(Src& src, size_t i, int& month);  // capitalised month at i: its end (0: none) and number
size_t ordinal_suffix(Src& src, size_t i);          // end of "st"/"nd"/"rd"/"th" at i, or i
size_t scan_month_first(Src& src, size_t p, Anchor& a);
size_t scan_holiday(Src& src, size_t p, Anchor& a);  // "New Year's Day", "Christmas Eve 2021"
size_t scan_day_first(Src& src, size_t p, Anchor& a);
size_t scan_numeric_date(Src& src, size_t p, Anchor& a, const LexerOptions& opt);
size_t scan_quarter(Src& src, size_t p, Anchor& a);
size_t scan_fiscal_year(Src& src, size_t p, Anchor& a);  // "FY2024", "FY24": the date 2024
// "1990年代", "90年代", "九十年代", "一九九〇年代" (the number before 年代 is v, 年代 at `end`): a decade,
// written as English writes it ("1990s"); two digits alone are of the last century from 20 on.
size_t cjk_decade(Src& src, int v, size_t end, Anchor& a);
size_t scan_decade(Src& src, size_t p, Anchor& a);  // "1990s", "the '90s", "early 1990s"

// Numbers and their suffixes (lexer_numbers.cpp).
struct Multiplier {
  size_t end;
  int shift;
};
// `after_currency`: the number follows a currency prefix, so "B", "M", "T" are magnitudes too.
Multiplier multiplier(Src& src, size_t j, bool after_currency = false);
// "an hour and a half" (1.5 hour), "a quarter-hour", "quarter of an hour" (15 minutes), "half-hour"
// (30 minutes) at p: a duration in words, or 0.
size_t scan_unit_and_a_half(Src& src, size_t p, Anchor& a);
// "3分19秒47", "59秒08", "76米33" with digits [p, j): a race time or mark (lexer_cn_times.cpp), or 0.
size_t scan_cn_race_mark(Src& src, size_t p, size_t j, Anchor& a);
size_t currency_suffix(Src& src, size_t j, std::string_view& code);
size_t duration_suffix(Src& src, size_t j, std::string_view& unit, bool allow_cn_year);
size_t percent_suffix(Src& src, size_t j);
size_t scan_identifier(Src& src, size_t p);  // end of an identifier word at p, or 0 (sets nothing)
// "(555) 010-2233" at the "(" p: the identifier 555-010-2233, as the number is written without the
// parentheses; 0 when it is not one.
size_t scan_area_code_phone(Src& src, size_t p, Anchor& a);
std::string number_norm(std::string_view raw, int shift, bool& ok);
size_t digits_end(Src& src, size_t p);
size_t scan_digit_start(Src& src, size_t p, Anchor& a, const LexerOptions& opt);
// The first end of a range, a bare number or an amount with digits [digits, j) starting at p, read
// with the magnitude or unit the second end carries ("3至4亿元", "$3-4 million"); lexer_ranges.cpp.
bool range_shares_unit(Src& src, size_t p, size_t digits, size_t j, Anchor& a);
// The second end of a range of days after a month-first date, a bare day at [p, j): "August 14 to
// 18, 2025" (with the year after it). Its end, or 0 (lexer_ranges.cpp).
size_t day_range_end(Src& src, size_t p, size_t j, Anchor& a);
size_t year_range_end(Src& src, size_t p, size_t j, Anchor& a);  // "2011–13": 2013
std::string two_digits(int v);  // "07": a day, an hour or a minute as norms write it (lexer_times.cpp)
// "一两万元": a range of neighbouring Chinese digits in `run` before a magnitude, then a currency at j
// (lexer_ranges.cpp).
size_t scan_cn_range_amount(Src& src, std::string_view run, size_t j, Anchor& a);
// Whether the words after "times" or "twice" at e compare ("3 times as large as", "twice the size",
// "3 times larger"): then the count is a multiple, as 3倍 is. `wait` while a stream has not written
// enough to tell (lexer_quantities.cpp).
enum class Compared : uint8_t { no, yes, wait };
Compared times_compared(Src& src, size_t e);
// The first end of a range with its own magnitude word [j, end) ("2.6万至3.2万元"): the unit of a second
// end with the same magnitude word (lexer_ranges.cpp).
bool magnitude_range_shares_unit(Src& src, size_t p, size_t j, size_t end, Anchor& a);
// "3、5和8个", "第21、48和85分钟": a number at [p, j) before more of a Chinese list whose last item
// carries a unit (a count, a percentage, money, minutes) takes that unit. `cn_list_last` reads the
// list's last item after j into y, true when its unit is one the list's items share.
bool list_shares_unit(Src& src, size_t p, size_t j, Anchor& a);
bool cn_list_last(Src& src, size_t j, Anchor& y);

// Times of day and list markers (lexer_times.cpp); Chinese times and days (lexer_cn_times.cpp).
size_t scan_past_hour(Src& src, size_t p, Anchor& a);  // "half past seven", "quarter to nine"
size_t scan_time(Src& src, size_t p, Anchor& a);  // "9:30 pm", "14:00", "8 PM" at the digit p
bool list_marker(Src& src, size_t p);              // "6. " opening a line: no anchor at p
// "下午3点", "九点半", "19时35分" (the hour, worth `hour`, at [p, j)): a time of day, or 0.
size_t scan_cn_time(Src& src, size_t p, size_t j, uint64_t hour, Anchor& a);
// "25日" as the day of the month (the number at p ends at j): a date "---25", or 0.
size_t scan_cn_day(Src& src, size_t p, size_t j, Anchor& a);
// The same for a day worth `day` written any way ("十五日"); 0 when it counts days ("十五日内").
size_t cn_day_of_month(Src& src, size_t p, size_t j, int day, Anchor& a);
// Dates in Chinese numerals ("二〇二四年三月十五日", "三月十五日"), the numeral [p, j) worth v (lexer_dates.cpp).
size_t scan_cn_numeral_date(Src& src, size_t p, size_t j, uint64_t v, Anchor& a);

// Quantities, ordinals and scores (lexer_quantities.cpp).
// A unit or measure word right after a number ending at j (" units", "台", "万吨" after the
// multiplier): its end and canonical unit, or 0.
// "3万5", "1亿2" with digits [p, j) and the magnitude `mult` (lexer_quantities.cpp): the number
// said short, or 0.
size_t colloquial_magnitude(Src& src, size_t p, size_t j, const Multiplier& mult, Anchor& a);
// "2小时27分05秒" and "成绩为2时27分05秒": a race time, one duration (lexer_cn_times.cpp).
size_t scan_cn_hours_minutes(Src& src, size_t p, size_t j, Anchor& a);
// "6×9cm", "6 x 9 cm" after a number ending at j: true and the unit of the dimensions.
bool dimension_unit(Src& src, size_t j, std::string_view& unit);
size_t quantity_suffix(Src& src, size_t j, std::string_view& unit);
// A unit of measure (kMeasureUnitsEn) right after a number ending at j, with or without a space:
// "500 mg", "500mg", "37.5°C". Its end and norm, or 0.
size_t measure_suffix(Src& src, size_t j, std::string_view& unit);
size_t scan_score(Src& src, size_t p, Anchor& a);      // "27-24", "3比1", "17胜6负" at the digit p
// Whether "第", an ordinal's number and "、" stand right before p and the measure word at
// `measure_at` ranks ("第二、三名", "第2、3名").
bool second_ordinal(const Src& src, size_t p, size_t measure_at);
// An ordinal [p, o) (digits [p, j)) that is a day of the month ("on the 3rd", lexer_ordinal_days.cpp).
bool day_of_month(Src& src, size_t p, size_t j, size_t o);
bool ordinal_list_before(const Src& src, size_t p);  // "第1、2和" before p: ordinals sharing one 第
bool rank_word_before(const Src& src, size_t p);                         // 排名, 位列 ... right before p
bool rank_without_ordinal(Src& src, size_t p, size_t measure_at);        // 排名159位: the rank #159
void set_ordinal(Anchor& a, std::string_view digits);  // quantity "#12"

// Amounts after a currency prefix (lexer_amounts.cpp).
size_t scan_prefixed_amount(Src& src, size_t p, Anchor& a);

// Chinese (lexer_cjk.cpp).
size_t cn_numeral_run(Src& src, size_t i);
bool cn_value(std::string_view s, uint64_t& v);
size_t scan_han(Src& src, size_t p, char32_t c0, Anchor& a);  // c0: the complete Han character at p
// "一年半", "3个半小时": after a count (`norm`, `value`) and its duration unit or 个 ending at e, half
// a unit more: a duration of norm + ".5", and its end; 0 when no 半 follows.
size_t cn_and_a_half(Src& src, size_t e, std::string_view unit, const std::string& norm, double value, Anchor& a);
// "半年", "半小时", "半个月", "半天" at p (lexer_cn_halves.cpp).
size_t scan_cn_half(Src& src, size_t p, Anchor& a);
// "七个多月", "3个多小时": a span of over N months or hours after the count's 个 ending at e
// (lexer_quantities.cpp), or 0.
size_t cn_count_and_more(Src& src, size_t e, std::string_view unit, const std::string& norm, Anchor& a);
// "三成", "3成" (tenths, the count ending at j): the percentage 30%, or 0.
size_t scan_cn_tenths(Src& src, size_t j, uint64_t tenths, Anchor& a);

// English keywords and word-shaped anchors (lexer_words.cpp).
size_t scan_logic(Src& src, size_t p, Anchor& a);
size_t scan_clause(Src& src, size_t p, Anchor& a);
size_t scan_code_signature(Src& src, size_t p, Anchor& a);
size_t scan_spelled(Src& src, size_t p, Anchor& a);
// " and a half hours" after a number ending at j: the duration's end and unit, or 0.
size_t and_a_half(Src& src, size_t j, std::string_view& unit);
size_t scan_url(Src& src, size_t p, Anchor& a);
size_t scan_email(Src& src, size_t p, Anchor& a);

// Names (lexer_names.cpp) and structure (lexer_structure.cpp).
size_t scan_name(Src& src, size_t p, Anchor& a);
// A capitalised word at i ("Acme", "O'Neil", "Olsen-Vick", "Lüscher"): its end, or 0.
size_t capitalised_word(Src& src, size_t i);
// Citations (lexer_citations.cpp).
size_t scan_doi(Src& src, size_t p, Anchor& a);
size_t scan_arxiv(Src& src, size_t p, Anchor& a);
size_t scan_author_citation(Src& src, size_t p, Anchor& a);
size_t scan_case_citation(Src& src, size_t p, Anchor& a);
size_t scan_cn_title_citation(Src& src, size_t p, Anchor& a);
size_t scan_cn_author_citation(Src& src, size_t p, Anchor& a);
// A dash at i: '-' (len 1), en or em dash (len 3).
bool is_dash_at(Src& src, size_t i, size_t& len);
// Chinese personal names (lexer_cn_names.cpp).
bool cn_surname(char32_t c);
size_t scan_cn_person(Src& src, size_t p, Anchor& a);
bool jp_surname_first(char32_t c);  // may start a Japanese surname (kJpSurnames)
size_t scan_jp_person(Src& src, size_t p, Anchor& a);
size_t scan_json(Src& src, size_t p, Anchor& a);
size_t scan_xml(Src& src, size_t p, Anchor& a);

}  // namespace sfcl::anchor::lex
