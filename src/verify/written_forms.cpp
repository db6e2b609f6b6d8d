// A value the sources write in another form than the answer (docs/ANCHORS.md, "Written another
// way"): a name by its initials ("Western Australia" for "WA"), a number with its unit glued on
// ("5.68m" for "5.68 m"), a score in words ("92-8" for "92 to 8"), an ordinal in words ("8th" for
// "eighth"), a date with an ordinal day ("May 30th" for "may 30" in a lower-cased corpus), a phone
// number with its area code in brackets ("301-352-1200" for "(301) 352-1200"), the second year of a
// season ("2008" for "2007-08"), dimensions ("4x4" for "4 x 4" or "4 by 4"), dozens ("12" for "a
// dozen"), a quarter in words ("Q3 2024" for "the third quarter of 2024"), noon and midnight ("12:00
// pm" for "noon"), an age in Chinese ("45 years old" for 45岁), a share as a fraction ("30%" for "3 in
// 10"), a first said with 首 ("第一场比赛" for "首场比赛"), a Chinese company in another legal form
// (han_names.cpp). Each form is looked up verbatim, so the value must still be the sources' digit for
// digit.
#include <array>
#include <cctype>
#include <cmath>
#include <string>

#include "verify/verify.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

namespace {
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
char lower(char c) { return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }
bool is_alpha_ascii(char c) { return (c >= 'a' && c <= 'z') || is_upper(c); }

// Initials that are common words: a source that writes "us" or "it" names no one by them.
bool common_word(std::string_view w) {
  static constexpr std::array<std::string_view, 40> kWords = {
      "as",  "at",  "be",  "by",  "do",  "go",  "he",  "if",  "in",  "is",  "it",  "me",  "my",  "no",
      "of",  "on",  "or",  "so",  "to",  "up",  "us",  "we",  "an",  "am",  "the", "and", "for", "are",
      "was", "not", "but", "can", "has", "you", "all", "any", "new", "may", "one", "who"};
  for (std::string_view k : kWords) {
    if (k == w) return true;
  }
  return false;
}

constexpr std::array<std::string_view, 21> kOrdinals = {
    "",           "first",     "second",    "third",       "fourth",     "fifth",      "sixth",
    "seventh",    "eighth",    "ninth",     "tenth",       "eleventh",   "twelfth",    "thirteenth",
    "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"};
}  // namespace

// "Western Australia" for a source's "WA" (or "W.A."): the initials of two to five capitalised
// words, connectors aside.
bool Checker::name_by_initials(std::string_view surface, anchor::TextSpan& span) const {
  std::array<char, 5> initials{};
  size_t n = 0;
  size_t i = 0;
  while (i < surface.size()) {
    const size_t j = std::min(surface.find(' ', i), surface.size());
    const std::string_view w = surface.substr(i, j - i);
    i = j + 1;
    if (w.empty() || anchor::is_name_filler(w)) continue;
    // A word written out ("Western"), not an abbreviation itself ("US").
    if (w.size() < 2 || !is_upper(w.front()) || is_upper(w[1]) || n == initials.size()) return false;
    initials[n++] = lower(w.front());
  }
  if (n < 2) return false;
  const std::string_view plain(initials.data(), n);
  if (common_word(plain)) return false;  // "Utah Senate" is not the "U.S." of a source
  if (index_.find_verbatim(plain, span)) return true;
  scratch_.clear();
  for (size_t k = 0; k < n; ++k) {
    scratch_.push_back(initials[k]);
    scratch_.push_back('.');
  }
  return index_.find_verbatim(scratch_, span);
}

// "4x4", "2x6s" (timber, screens, rooms) that the sources write "4 x 4", "4 by 4" or "4x4": the same
// two numbers, digit for digit, in the same order.
bool Checker::dimensions_written(anchor::TextSpan& span) const {
  std::string_view f = folded_;
  const bool plural = f.size() > 3 && f.back() == 's';  // "2x4s": the source may write "2 by 4s"
  if (plural) f.remove_suffix(1);
  const size_t x = f.find('x');
  if (x == 0 || x == std::string_view::npos || x + 1 == f.size()) return false;
  const std::string_view a = f.substr(0, x);
  const std::string_view b = f.substr(x + 1);
  if (a.find_first_not_of("0123456789") != std::string_view::npos ||
      b.find_first_not_of("0123456789") != std::string_view::npos) {
    return false;
  }
  for (const std::string_view by : {"x", " x ", " by "}) {
    scratch_.assign(a).append(by).append(b);
    if (index_.find_verbatim(scratch_, span)) return true;
    if (plural && index_.find_verbatim(scratch_.append("s"), span)) return true;
  }
  return false;
}

namespace {
constexpr std::array<std::string_view, 20> kUnits = {
    "",    "one",    "two",    "three",    "four",     "five",    "six",     "seven",     "eight",    "nine",
    "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};

// "30" for "thirty", "45" for "forty-five" / "forty five": whole numbers from 10 to 99 only. Smaller
// ones in words ("two", "three") are everywhere in prose and would confirm any bare digit.
bool number_in_words(const anchor::SourceIndex& index, std::string& scratch, std::string_view surface, double value,
                     anchor::TextSpan& span) {
  static constexpr std::array<std::string_view, 10> kTens = {"",      "",      "twenty",  "thirty", "forty",
                                                             "fifty", "sixty", "seventy", "eighty", "ninety"};
  if (surface.size() != 2 || !is_digit(surface[0]) || !is_digit(surface[1]) || value < 10 || value > 99) return false;
  const auto n = static_cast<size_t>(value);
  scratch.clear();
  if (n < 20) return index.find_verbatim(scratch.append(kUnits[n]), span, true);
  scratch.append(kTens[n / 10]);
  if (n % 10 == 0) return index.find_verbatim(scratch, span, true);
  const size_t tens = scratch.size();
  for (const char joint : {'-', ' '}) {
    scratch.resize(tens);
    scratch.push_back(joint);
    scratch.append(kUnits[n % 10]);
    if (index.find_verbatim(scratch, span, true)) return true;
  }
  return false;
}

// "2 men" for "two men", "12 people" for "twelve people", "4-star" for "four stars" or "four-star":
// a small whole number in words is the sources' only together with the noun it counts (alone,
// "two" is everywhere in prose).
bool count_in_words(const anchor::SourceIndex& index, std::string& scratch, double value, std::string_view noun,
                    anchor::TextSpan& span) {
  if (!(value >= 1 && value < 20) || value != static_cast<double>(static_cast<int>(value))) return false;
  size_t n = 0;
  while (n < noun.size() && is_alpha_ascii(noun[n])) ++n;
  if (n < 2) return false;
  for (const char joint : {' ', '-'}) {
    scratch.assign(kUnits[static_cast<size_t>(value)]).push_back(joint);
    for (size_t i = 0; i < n; ++i) scratch.push_back(lower(noun[i]));
    if (index.find_verbatim(scratch, span)) return true;
    if (joint == ' ' && noun[n - 1] != 's' && index.find_verbatim(scratch.append("s"), span)) return true;
  }
  return false;
}
// "12" for "a dozen", "24" for "two dozen": whole dozens up to ten, as the sources count them.
bool dozens_in_words(const anchor::SourceIndex& index, std::string& scratch, double value, anchor::TextSpan& span) {
  if (!(value >= 12 && value <= 120) || std::fmod(value, 12.0) != 0) return false;
  const auto n = static_cast<size_t>(value / 12);
  if (n == 1) {  // not inside "half a dozen"
    return !index.find_verbatim("half a dozen", span) &&
           (index.find_verbatim("a dozen", span) || index.find_verbatim("one dozen", span));
  }
  scratch.assign(" ").append(kUnits[n]).append(" dozen");  // not inside "twenty-two dozen"
  return index.find_verbatim(scratch, span);
}

constexpr std::array<std::string_view, 11> kCnSmall = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"};

// "1/4" for 四分之一 ("1/4决赛", the quarter-finals), "4/5" for "4 out of 5": a fraction or a rating
// the sources write in words.
bool fraction_written(const anchor::SourceIndex& index, std::string_view f, std::string& scratch,
                      anchor::TextSpan& span) {
  const size_t slash = f.find('/');
  if (slash == 0 || slash == std::string_view::npos || slash + 1 == f.size()) return false;
  const std::string_view top = f.substr(0, slash);
  const std::string_view bottom = f.substr(slash + 1);
  if (top.find_first_not_of("0123456789") != std::string_view::npos ||
      bottom.find_first_not_of("0123456789") != std::string_view::npos) {
    return false;
  }
  scratch.assign(top).append(" out of ").append(bottom);
  if (index.find_verbatim(scratch, span)) return true;
  if (top.size() != 1 || bottom.size() > 2) return false;
  const size_t a = static_cast<size_t>(top[0] - '0');
  const size_t b = bottom.size() == 1 ? static_cast<size_t>(bottom[0] - '0') : (bottom == "10" ? 10 : 0);
  if (a == 0 || b < 2 || a >= b) return false;
  scratch.assign(kCnSmall[b]).append("分之").append(kCnSmall[a]);
  return index.find_verbatim(scratch, span);
}

// "3 in 10 minutes", "one in five years": a rate in time, whose denominator a source duration
// continues, is no share.
bool rate_in_time(const anchor::SourceIndex& index, const anchor::TextSpan& span) {
  const auto& all = index.anchors();
  for (uint32_t i : index.of_type(Type::duration)) {
    const auto& d = all[i];
    if (d.source == span.source && d.anchor.start < span.end && d.anchor.end > span.end) return true;
  }
  return false;
}

// "30%" for "3 in 10", "3 out of 10", "three in ten" or 十分之三; "20%" for "one in five"; "33%" for
// "one in three": a share the sources give as a fraction, to the digits the answer wrote. Not "3/10":
// a slash is a page ("page 1/2"), a date or a score as often.
bool percent_as_fraction(const anchor::SourceIndex& index, std::string& scratch, const Anchor& a,
                         anchor::TextSpan& span) {
  static constexpr std::array<int, 9> kDenominators = {2, 3, 4, 5, 6, 8, 10, 20, 100};
  const size_t dot = a.norm.find('.');
  const size_t decimals = dot == std::string::npos ? 0 : a.norm.size() - dot - 2;  // "12.5%": 1
  const double precision = 0.5 * std::pow(10.0, -static_cast<double>(decimals));
  for (int m : kDenominators) {
    const auto n = static_cast<int>(std::lround(a.value * m / 100.0));
    if (n <= 0 || n >= m || std::fabs(100.0 * n / m - a.value) > precision) continue;
    const auto un = static_cast<size_t>(n);
    const auto um = static_cast<size_t>(m);
    for (std::string_view joint : {" in ", " out of "}) {
      scratch.assign(std::to_string(n)).append(joint).append(std::to_string(m));
      if (index.find_verbatim(scratch, span) && !rate_in_time(index, span)) return true;
      if (m < 20) {
        scratch.assign(kUnits[un]).append(joint).append(kUnits[um]);
        if (index.find_verbatim(scratch, span) && !rate_in_time(index, span)) return true;
      }
    }
    if (m <= 10) {
      scratch.assign(kCnSmall[um]).append("分之").append(kCnSmall[un]);
      if (index.find_verbatim(scratch, span)) return true;
    }
  }
  return false;
}

// "No. 1" for "number one" (up to twenty), "100" for "a hundred" or "one hundred" (a thousand, a
// million), the second year of a season written "1981-82" for the sources' "1982".
bool number_named(const anchor::SourceIndex& index, std::string& scratch, double value, std::string_view before,
                  anchor::TextSpan& span) {
  if (!(value >= 1) || value != std::floor(value)) return false;
  if (value < static_cast<double>(kUnits.size()) &&
      (before.ends_with("No. ") || before.ends_with("no. ") || before.ends_with("No "))) {
    scratch.assign("number ").append(kUnits[static_cast<size_t>(value)]);
    if (index.find_verbatim(scratch, span)) return true;
  }
  for (const auto& [v, word] :
       {std::pair{100.0, std::string_view("hundred")}, {1000.0, "thousand"}, {1e6, "million"}}) {
    if (value != v) continue;
    for (std::string_view a : {"a ", "one "}) {
      if (index.find_verbatim(scratch.assign(a).append(word), span)) return true;
    }
  }
  // "1981-82": the second year, by the first one written before it.
  if (value < 100 && before.size() >= 5 && before.back() == '-') {
    const std::string_view first = before.substr(before.size() - 5, 4);
    if (first.find_first_not_of("0123456789") == std::string_view::npos) {
      const int next = std::stoi(std::string(first)) + 1;
      if (next % 100 == static_cast<int>(value)) {
        const std::string year = std::to_string(next);
        return index.find_exact(Type::number, year) >= 0 || index.find_exact(Type::date, year) >= 0;
      }
    }
  }
  return false;
}

// "ten years" for "a decade", "20 years" for "two decades", "100 years" for "a century".
bool decades_in_words(const anchor::SourceIndex& index, std::string& scratch, const Anchor& a, anchor::TextSpan& span) {
  if (!a.norm.ends_with(" year") || !(a.value >= 10) || std::fmod(a.value, 10) != 0) return false;
  const auto n = static_cast<size_t>(a.value / 10);
  if (n == 10) return index.find_verbatim("a century", span) || index.find_verbatim("one century", span);
  if (n >= kUnits.size()) return false;
  if (n == 1) return index.find_verbatim("a decade", span) || index.find_verbatim("one decade", span);
  return index.find_verbatim(scratch.assign(kUnits[n]).append(" decades"), span);
}

// "the 100th anniversary" for "a century since", "100 years after", "100 years ago".
bool anniversary_in_years(const anchor::SourceIndex& index, std::string& scratch, const Anchor& a,
                          std::string_view after, anchor::TextSpan& span) {
  if (!a.norm.starts_with('#') || !after.starts_with(" anniversary") || !(a.value >= 1)) return false;
  Anchor years = a;
  years.type = Type::duration;
  years.norm = a.norm.substr(1) + " year";
  if (const int64_t hit = index.find_exact(Type::duration, years.norm); hit >= 0) {
    const auto& s = index.anchors()[static_cast<size_t>(hit)];
    span = {s.source, s.anchor.start, s.anchor.end};
    return true;
  }
  return decades_in_words(index, scratch, years, span);
}

// "Q3 2024" (norm "2024-Q3") for "the third quarter of 2024" or "third quarter 2024".
bool quarter_in_words(const anchor::SourceIndex& index, std::string_view norm, std::string& scratch,
                      anchor::TextSpan& span) {
  static constexpr std::array<std::string_view, 5> kQuarters = {"", "first", "second", "third", "fourth"};
  if (norm.size() != 7 || norm[4] != '-' || norm[5] != 'Q' || norm[6] < '1' || norm[6] > '4') return false;
  const std::string_view year = norm.substr(0, 4);
  for (std::string_view joint : {" quarter of ", " quarter ", " quarter, "}) {
    scratch.assign(kQuarters[static_cast<size_t>(norm[6] - '0')]).append(joint).append(year);
    if (index.find_verbatim(scratch, span)) return true;
  }
  return false;
}
}  // namespace

// "12:00 pm" for "noon" or "midday", "00:00" for "midnight", in either language.
bool Checker::time_in_words(std::string_view norm, anchor::TextSpan& span) const {
  if (norm == "12:00") {
    for (std::string_view w : {"noon", "midday", "正午"}) {
      if (index_.find_verbatim(w, span)) return true;
    }
  }
  if (norm == "00:00") {
    for (std::string_view w : {"midnight", "午夜"}) {  // not 零点: 零点五 is 0.5
      if (index_.find_verbatim(w, span)) return true;
    }
  }
  return false;
}

namespace {
// The digits of a phone-shaped value: digits, hyphens, spaces and brackets only ("400-820-1234",
// "(415) 555-0132", "4008201234"), at least 7 digits; false for anything else. Not dots: a decimal
// ("1234.567") or an IP address ("192.168.1.10") is no phone number.
bool phone_digits(std::string_view norm, std::string& out) {
  out.clear();
  for (char c : norm) {
    if (is_digit(c)) {
      out.push_back(c);
    } else if (c != '-' && c != ' ' && c != '(' && c != ')') {
      return false;
    }
  }
  return out.size() >= 7;
}
}  // namespace

// "4008201234" as "400-820-1234", "415.555.0132" as "415-555-0132": a source number or identifier
// with the same digits in the same order, separators aside; -1 when none.
int64_t Checker::same_digits(const Anchor& a) const {
  std::string mine;
  std::string theirs;
  if (!phone_digits(a.norm, mine)) return -1;
  const auto& all = index_.anchors();
  for (Type t : {Type::identifier, Type::number}) {
    for (uint32_t i : index_.of_type(t)) {
      if (phone_digits(all[i].anchor.norm, theirs) && theirs == mine) return i;
    }
  }
  return -1;
}

namespace {
// A paragraph's reference as written: 第二款, "paragraph 2", "Para. 2" (not an article's 第十三条,
// "Article 13", "Section 13").
bool paragraph_word(std::string_view text) {
  if (text.ends_with("款")) return true;
  return text.size() >= 4 && (lower(text[0]) == 'p') && lower(text[1]) == 'a' && lower(text[2]) == 'r' &&
         lower(text[3]) == 'a';
}
}  // namespace

// "Article 12" by the sources' "Article 12(3)", as a month by a date in it; "12(2)" (第十二条第二款)
// by a document that heads the article "第十二条 ..." and numbers its paragraphs "第一款 ... 第二款"
// after it (within kParagraphReach bytes).
bool Checker::clause_by_parts(const Anchor& a, int64_t& support) const {
  constexpr uint32_t kParagraphReach = 2000;
  constexpr uint32_t kOfGap = 4;  // " of " between a paragraph and its article
  const auto& all = index_.anchors();
  const auto clauses = index_.of_type(Type::clause);
  for (uint32_t i : clauses) {
    const std::string& n = all[i].anchor.norm;
    if (n.size() > a.norm.size() && n.starts_with(a.norm) && n[a.norm.size()] == '(') {
      support = i;
      return true;
    }
  }
  const size_t open = a.norm.find('(');
  const size_t close = a.norm.find(')', open);
  if (open == std::string::npos || close == std::string::npos || a.norm.find('(', close) != std::string::npos) {
    return false;  // one paragraph only: an item of a paragraph is too deep to find apart
  }
  const std::string_view article = std::string_view(a.norm).substr(0, open);
  const std::string_view paragraph = std::string_view(a.norm).substr(open + 1, close - open - 1);
  for (size_t x = 0; x < clauses.size(); ++x) {
    const auto& head = all[clauses[x]];
    if (head.anchor.norm != article) continue;
    for (size_t y = x + 1; y < clauses.size(); ++y) {
      const auto& part = all[clauses[y]];
      if (part.source != head.source || part.anchor.start < head.anchor.end ||
          part.anchor.start - head.anchor.end > kParagraphReach) {
        break;
      }
      // "Paragraph 3 of Article 15": a paragraph with another article right after it is that one's.
      const bool of_next = y + 1 < clauses.size() && all[clauses[y + 1]].source == part.source &&
                           all[clauses[y + 1]].anchor.start >= part.anchor.end &&
                           all[clauses[y + 1]].anchor.start - part.anchor.end <= kOfGap;
      if (part.anchor.norm == paragraph && paragraph_word(part.text) && !of_next) {
        support = clauses[y];
        return true;
      }
      if (!paragraph_word(part.text)) break;  // the next article: its paragraphs are its own
    }
  }
  return false;
}

bool Checker::written_otherwise(const Anchor& a, std::string_view surface, std::string_view before,
                                std::string_view after, anchor::TextSpan& span) const {
  scratch_.clear();
  switch (a.type) {
    case Type::name:
      return name_by_initials(surface, span) || name_abbreviated(span) || surname_with_title(span) ||
             name_as_domain(span) || han_legal_form(span);
    case Type::number: {
      if (season_year(surface, before, span)) return true;
      if (number_named(index_, scratch_, a.value, before, span)) return true;
      if (number_in_words(index_, scratch_, surface, a.value, span)) return true;
      if (dozens_in_words(index_, scratch_, a.value, span)) return true;
      if (surface.find_first_not_of("0123456789") == std::string_view::npos &&
          (after.starts_with(' ') || after.starts_with('-')) &&
          count_in_words(index_, scratch_, a.value, after.substr(1), span)) {
        return true;
      }
      // "5.68m": the digits, then letters glued on (a unit the source writes apart, or a magnitude).
      size_t d = 0;
      while (d < surface.size() && (is_digit(surface[d]) || surface[d] == '.' || surface[d] == ',')) ++d;
      if (d == 0 || d == surface.size() || d + 2 < surface.size()) return false;
      scratch_.append(folded_.substr(0, d)).append(" ").append(folded_.substr(d));
      return index_.find_verbatim(scratch_, span);
    }
    case Type::percent:  // "30%" as "3 in 10"
      return !std::isnan(a.value) && percent_as_fraction(index_, scratch_, a, span);
    case Type::time:  // "12:00 pm" as "noon", "00:00" as "midnight"
      return time_in_words(a.norm, span);
    case Type::duration:  // "45 years old" as 45岁; "ten years" as "a decade"
      return age_in_years(a, after, span) || decades_in_words(index_, scratch_, a, span) || years_after_number(a, span);
    case Type::score: {  // "27-24" as "27 to 24"
      const size_t dash = a.norm.find('-');
      if (dash == std::string::npos || a.norm.find(' ') != std::string::npos) return false;
      scratch_.append(a.norm.substr(0, dash)).append(" to ").append(a.norm.substr(dash + 1));
      return index_.find_verbatim(scratch_, span, true);
    }
    case Type::quantity: {  // "8th" as "eighth"; "12 people" as "twelve people"
      if (const size_t sp = surface.find_first_of(" -");
          sp != std::string_view::npos && !a.norm.starts_with('#') &&
          surface.substr(0, sp).find_first_not_of("0123456789") == std::string_view::npos) {
        if (count_in_words(index_, scratch_, a.value, surface.substr(sp + 1), span)) return true;
      }
      if (anniversary_in_years(index_, scratch_, a, after, span) || ordinal_as_day(a, surface, before, after, span)) {
        return true;
      }
      if (!a.norm.starts_with('#') || !(a.value >= 1 && a.value < static_cast<double>(kOrdinals.size()))) {
        // "9次助攻" for "9个助攻", 积7分 for 7个积分
        return measure_variant(a, before, after, span) || points_as_count(a, span) || goals_as_times(a, before, span);
      }
      return index_.find_verbatim(kOrdinals[static_cast<size_t>(a.value)], span) ||
             (a.value == 1 && first_said_with_shou(surface, after, span));
    }
    case Type::date: {  // "May 30th" as "may 30"; "Q3 2024" as "the third quarter of 2024"
      if (quarter_in_words(index_, a.norm, scratch_, span)) return true;
      const size_t at = folded_.find_first_of("0123456789");
      if (at == std::string::npos) return false;
      size_t e = at;
      while (e < folded_.size() && is_digit(folded_[e])) ++e;
      const std::string_view suffix = std::string_view(folded_).substr(e, 2);
      if (suffix != "st" && suffix != "nd" && suffix != "rd" && suffix != "th") return false;
      scratch_.append(folded_.substr(0, e)).append(folded_.substr(e + 2));
      return index_.find_verbatim(scratch_, span, true);
    }
    case Type::identifier: {  // "301-352-1200" as "(301) 352-1200"
      if (dimensions_written(span) || fraction_written(index_, folded_, scratch_, span)) return true;
      const size_t dash = folded_.find('-');
      if (dash != 3 || folded_.size() != 12 || folded_.find_first_not_of("0123456789-") != std::string::npos) {
        return false;
      }
      scratch_.append("(").append(folded_.substr(0, 3)).append(") ").append(folded_.substr(4));
      return index_.find_verbatim(scratch_, span, true);
    }
    default:
      return false;
  }
}

}  // namespace sfcl::verify
