// The anchor lexer: one forward pass, hand-written matchers tried at word starts, no regex, no
// allocation per character. Incremental correctness rests on one rule: every read goes through
// Src, and a read past the end of the text seen so far marks the decision as provisional.
#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstring>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "util/utf8.h"

namespace sfcl::anchor {
namespace {
using namespace std::string_view_literals;

constexpr int kEnd = -1;

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
  // End of the run of ASCII letters and digits from i (reads like at() up to that end).
  size_t alnum_end(size_t i) {
    const size_t n = s.size();
    while (i < n && is_alnum(static_cast<unsigned char>(s[i]))) ++i;
    if (i > max_read) max_read = i;
    if (i >= n) overrun = true;
    return i;
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

void set_norm(Anchor& a, Type type, std::string norm) {
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
constexpr auto kSelf = [](std::string_view w) { return w; };
constexpr auto kText = [](const auto& w) { return w.text; };

// ---------------------------------------------------------------------------- dates
constexpr std::array<std::string_view, 12> kMonths = {"january",   "february", "march",    "april",
                                                      "may",       "june",     "july",     "august",
                                                      "september", "october",  "november", "december"};
constexpr FirstBytes kMonthFirst = first_bytes(kMonths, kSelf, true);

// Capitalised month name or abbreviation at i (with optional '.'); returns end and month.
size_t month_name(Src& src, size_t i, int& month) {
  const int c = src.at(i);
  if (!is_upper(c)) return 0;
  const uint64_t first = kMonthFirst.at(c);
  for (uint64_t bits = first; bits != 0; bits &= bits - 1) {
    const int m = std::countr_zero(bits);
    const std::string_view full = kMonths[static_cast<size_t>(m)];
    if (src.match_ci(i, full) && src.word_end(i + full.size())) {
      month = m + 1;
      return i + full.size();
    }
  }
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

size_t ordinal_suffix(Src& src, size_t i) {
  for (std::string_view s : {"st"sv, "nd"sv, "rd"sv, "th"sv}) {
    if (src.match_ci(i, s) && src.word_end(i + 2)) return i + 2;
  }
  return i;
}

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

// "15 June 2024", "15 June".
size_t scan_day_first(Src& src, size_t p, Anchor& a) {
  const size_t d1 = src.digits(p);
  if (d1 - p > 2) return 0;
  const int day = src.number_at(p, d1);
  if (day < 1 || day > 31) return 0;
  size_t k = ordinal_suffix(src, d1);
  if (src.at(k) != ' ') return 0;
  k = src.skip_spaces(k);
  int month = 0;
  const size_t m1 = month_name(src, k, month);
  if (m1 == 0) return 0;
  size_t y0 = m1;
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
  return m1;
}

bool valid_md(int m, int d) { return m >= 1 && m <= 12 && d >= 1 && d <= 31; }

size_t cn_numeral_run(Src& src, size_t i);  // defined below
bool cn_value(std::string_view s, uint64_t& v);

// "2024-06-15", "2024/6/15", "2024年6月15日", "2024年第三季度", "03/04/2024", "6月15日".
size_t scan_numeric_date(Src& src, size_t p, Anchor& a, const LexerOptions& opt) {
  const size_t d1 = src.digits(p);
  const size_t n = d1 - p;
  const int sep = src.at(d1);
  if (n == 4 && (sep == '-' || sep == '/' || sep == '.')) {
    const size_t m1 = src.digits(d1 + 1);
    if (m1 - d1 - 1 >= 1 && m1 - d1 - 1 <= 2 && src.at(m1) == sep) {
      const size_t dd1 = src.digits(m1 + 1);
      if (dd1 - m1 - 1 >= 1 && dd1 - m1 - 1 <= 2 && src.word_end(dd1)) {
        const int y = src.number_at(p, d1);
        const int m = src.number_at(d1 + 1, m1);
        const int d = src.number_at(m1 + 1, dd1);
        if (valid_md(m, d)) {
          set_norm(a, Type::date, ymd(y, m, d));
          return dd1;
        }
      }
    }
    return 0;
  }
  if (n == 4 && src.match(d1, "年")) {
    const int y = src.number_at(p, d1);
    const size_t k = d1 + 3;
    const size_t m1 = src.digits(k);
    if (m1 > k && m1 - k <= 2 && src.match(m1, "月")) {
      const int m = src.number_at(k, m1);
      const size_t k2 = m1 + 3;
      const size_t dd1 = src.digits(k2);
      if (dd1 > k2 && dd1 - k2 <= 2 && (src.match(dd1, "日") || src.match(dd1, "号"))) {
        const int d = src.number_at(k2, dd1);
        if (valid_md(m, d)) {
          set_norm(a, Type::date, ymd(y, m, d));
          return dd1 + 3;
        }
      }
      if (m >= 1 && m <= 12) {
        set_norm(a, Type::date, ymd(y, m, 0));
        return m1 + 3;
      }
      return 0;
    }
    if (src.match(k, "第")) {
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
    if (y >= 1000 && y <= 2999) {
      set_norm(a, Type::date, std::to_string(y));
      return d1 + 3;
    }
    return 0;
  }
  if ((n == 1 || n == 2) && (sep == '/' || sep == '-' || sep == '.')) {
    const size_t b1 = src.digits(d1 + 1);
    if (b1 - d1 - 1 >= 1 && b1 - d1 - 1 <= 2 && src.at(b1) == sep) {
      const size_t y1 = src.digits(b1 + 1);
      if (y1 - b1 - 1 == 4 && src.word_end(y1)) {
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
    }
    return 0;
  }
  if ((n == 1 || n == 2) && src.match(d1, "月")) {
    const int m = src.number_at(p, d1);
    if (m < 1 || m > 12) return 0;
    const size_t k = d1 + 3;
    const size_t dd1 = src.digits(k);
    if (dd1 > k && dd1 - k <= 2 && (src.match(dd1, "日") || src.match(dd1, "号"))) {
      const int d = src.number_at(k, dd1);
      if (valid_md(m, d)) {
        set_norm(a, Type::date, md(m, d));
        return dd1 + 3;
      }
    }
    return 0;
  }
  return 0;
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

// ---------------------------------------------------------------------------- numbers
struct Multiplier {
  size_t end;
  int shift;
};

// Multiplier right after a number: " million", "m", "bn", "k", "万", "亿", "千".
Multiplier multiplier(Src& src, size_t j) {
  static constexpr std::array<std::pair<std::string_view, int>, 4> kWords = {
      {{"thousand", 3}, {"million", 6}, {"billion", 9}, {"trillion", 12}}};
  if (src.at(j) == ' ') {
    const size_t k = src.skip_spaces(j);
    for (const auto& [w, shift] : kWords) {
      if (src.match_ci(k, w) && src.word_end(k + w.size())) return {k + w.size(), shift};
    }
    return {j, 0};
  }
  static constexpr std::array<std::pair<std::string_view, int>, 5> kAttached = {
      {{"bn", 9}, {"mn", 6}, {"m", 6}, {"k", 3}, {"K", 3}}};
  for (const auto& [w, shift] : kAttached) {
    if (src.match(j, w) && src.word_end(j + w.size())) return {j + w.size(), shift};
  }
  if (src.match(j, "亿")) return {j + 3, 8};
  if (src.match(j, "万")) return {j + 3, 4};
  if (src.match(j, "千")) return {j + 3, 3};
  return {j, 0};
}

struct CurrencyWord {
  std::string_view text;
  std::string_view code;
};
constexpr std::array<CurrencyWord, 14> kCodes = {{{"USD", "USD"},
                                                  {"EUR", "EUR"},
                                                  {"GBP", "GBP"},
                                                  {"CNY", "CNY"},
                                                  {"RMB", "CNY"},
                                                  {"JPY", "JPY"},
                                                  {"HKD", "HKD"},
                                                  {"CHF", "CHF"},
                                                  {"CAD", "CAD"},
                                                  {"AUD", "AUD"},
                                                  {"SGD", "SGD"},
                                                  {"INR", "INR"},
                                                  {"KRW", "KRW"},
                                                  {"NZD", "NZD"}}};

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
  if (src.at(j) != ' ') return 0;
  const size_t k = src.skip_spaces(j);
  for (const auto& c : kCodes) {
    if (src.match(k, c.text) && src.word_end(k + c.text.size())) {
      code = c.code;
      return k + c.text.size();
    }
  }
  static constexpr std::array<CurrencyWord, 7> kWords = {{{"dollars", "USD"},
                                                          {"dollar", "USD"},
                                                          {"euros", "EUR"},
                                                          {"euro", "EUR"},
                                                          {"pounds", "GBP"},
                                                          {"yuan", "CNY"},
                                                          {"yen", "JPY"}}};
  for (const auto& c : kWords) {
    if (src.match_ci(k, c.text) && src.word_end(k + c.text.size())) {
      code = c.code;
      return k + c.text.size();
    }
  }
  return 0;
}

struct DurationUnit {
  std::string_view text;
  std::string_view unit;
};

// Duration unit after a number: " days", "-day", " business days", "天", "日", "个月", "周", "年".
size_t duration_suffix(Src& src, size_t j, std::string_view& unit, bool allow_cn_year) {
  static constexpr std::array<DurationUnit, 12> kEn = {{{"business days", "day"},
                                                        {"calendar days", "day"},
                                                        {"working days", "day"},
                                                        {"days", "day"},
                                                        {"day", "day"},
                                                        {"weeks", "week"},
                                                        {"week", "week"},
                                                        {"months", "month"},
                                                        {"month", "month"},
                                                        {"years", "year"},
                                                        {"year", "year"},
                                                        {"hours", "hour"}}};
  const int c = src.at(j);
  if (c == ' ' || c == '-') {
    const size_t k = c == ' ' ? src.skip_spaces(j) : j + 1;
    for (const auto& u : kEn) {
      if (src.match_ci(k, u.text) && src.word_end(k + u.text.size())) {
        unit = u.unit;
        return k + u.text.size();
      }
    }
    return 0;
  }
  static constexpr std::array<DurationUnit, 8> kZh = {{{"个工作日", "day"},
                                                       {"工作日", "day"},
                                                       {"天", "day"},
                                                       {"日", "day"},
                                                       {"个月", "month"},
                                                       {"周", "week"},
                                                       {"个星期", "week"},
                                                       {"年", "year"}}};
  for (const auto& u : kZh) {
    if (u.text == "年" && !allow_cn_year) continue;
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
  size_t j = p;
  bool letter = false;
  bool digit = false;
  int seps = 0;
  while (true) {
    const int c = src.at(j);
    if (is_alpha(c)) {
      letter = true;
      ++j;
    } else if (is_digit(c)) {
      digit = true;
      ++j;
    } else if ((c == '-' || c == '_' || c == '/') && j > p && is_alnum(src.at(j + 1))) {
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

double to_value(const std::string& norm) { return std::strtod(norm.c_str(), nullptr); }

// Everything that starts with an ASCII digit.
// End of the number starting at p: digits with ',' / '.' separators followed by a digit.
size_t digits_end(Src& src, size_t p) {
  size_t j = p;
  while (is_digit(src.at(j)) || ((src.at(j) == ',' || src.at(j) == '.') && is_digit(src.at(j + 1)))) ++j;
  return j;
}

size_t scan_digit_start(Src& src, size_t p, Anchor& a, const LexerOptions& opt) {
  if (size_t e = scan_numeric_date(src, p, a, opt)) return e;
  if (size_t e = scan_day_first(src, p, a)) return e;
  const size_t j = digits_end(src, p);
  const std::string_view raw = src.s.substr(p, j - p);
  bool ok = false;
  const Multiplier mult = multiplier(src, j);
  if (is_alpha(src.at(mult.end)) || src.at(mult.end) == '-' || src.at(mult.end) == '_') {
    // Attached letters: an ordinal, a "30-day" duration, or an identifier.
    std::string_view unit;
    if (size_t e = duration_suffix(src, mult.end, unit, false)) {
      a.norm = number_norm(raw, mult.shift, ok);
      if (ok) {
        a.type = Type::duration;
        a.value = to_value(a.norm);
        a.norm += ' ';
        a.norm += unit;
        return e;
      }
    }
    const size_t o = ordinal_suffix(src, j);
    if (o > j) {
      a.norm = number_norm(raw, 0, ok);
      a.type = ok ? Type::number : Type::identifier;
      a.value = ok ? to_value(a.norm) : a.value;
      return o;
    }
    if (size_t e = scan_identifier(src, p)) {
      set_norm(a, Type::identifier, std::string(src.s.substr(p, e - p)));
      return e;
    }
  }
  a.norm = number_norm(raw, mult.shift, ok);
  if (!ok) {
    if (size_t e = scan_identifier(src, p)) {
      set_norm(a, Type::identifier, std::string(src.s.substr(p, e - p)));
      return e;
    }
    a.type = Type::identifier;  // "1.2.3": a version or outline number, kept as written
    return j;
  }
  a.value = to_value(a.norm);
  if (size_t e = percent_suffix(src, mult.end)) {
    a.type = Type::percent;
    a.norm += '%';
    return e;
  }
  std::string_view code;
  if (size_t e = currency_suffix(src, mult.end, code)) {
    a.type = Type::amount;
    a.norm += ' ';
    a.norm += code;
    return e;
  }
  std::string_view unit;
  if (mult.shift == 0) {
    if (size_t e = duration_suffix(src, j, unit, a.value < 1000)) {
      a.type = Type::duration;
      a.norm += ' ';
      a.norm += unit;
      return e;
    }
  }
  if (size_t e = scan_identifier(src, p); e > j && mult.shift == 0) {
    set_norm(a, Type::identifier, std::string(src.s.substr(p, e - p)));
    a.value = std::numeric_limits<double>::quiet_NaN();
    return e;
  }
  a.type = Type::number;
  return mult.end;
}

// ---------------------------------------------------------------------------- amounts with a prefix
struct Prefix {
  std::string_view text;
  std::string_view code;
  bool word;  // a letter code that must end at a word boundary ("USD 5", not "USDA")
};
constexpr std::array<Prefix, 24> kPrefixes = {
    {{"US$", "USD", false},  {"HK$", "HKD", false}, {"A$", "AUD", false}, {"C$", "CAD", false},
     {"S$", "SGD", false},   {"NZ$", "NZD", false}, {"$", "USD", false},  {"€", "EUR", false},
     {"£", "GBP", false},    {"¥", "CNY", false},   {"￥", "CNY", false}, {"人民币", "CNY", false},
     {"RMB¥", "CNY", false}, {"USD", "USD", true},  {"EUR", "EUR", true}, {"GBP", "GBP", true},
     {"CNY", "CNY", true},   {"RMB", "CNY", true},  {"JPY", "JPY", true}, {"HKD", "HKD", true},
     {"CHF", "CHF", true},   {"CAD", "CAD", true},  {"AUD", "AUD", true}, {"SGD", "SGD", true}}};
constexpr FirstBytes kPrefixFirst = first_bytes(kPrefixes, kText, false);

size_t scan_prefixed_amount(Src& src, size_t p, Anchor& a) {
  for (uint64_t bits = kPrefixFirst.at(src.at(p)); bits != 0; bits &= bits - 1) {
    const Prefix& pre = entry(kPrefixes, bits);
    if (!src.match(p, pre.text)) continue;
    size_t k = p + pre.text.size();
    if (pre.word && is_alpha(src.at(k))) continue;
    if (src.at(k) == ' ') k = src.skip_spaces(k);
    std::string_view code = pre.code;
    std::string norm;
    size_t e = 0;
    if (is_digit(src.at(k))) {
      const size_t j = digits_end(src, k);
      const Multiplier mult = multiplier(src, j);
      bool ok = false;
      norm = number_norm(src.s.substr(k, j - k), mult.shift, ok);
      if (!ok) return 0;
      e = mult.end;
    } else if (pre.text == "人民币") {
      const size_t j = cn_numeral_run(src, k);
      uint64_t v = 0;
      if (j == k || !cn_value(src.s.substr(k, j - k), v)) return 0;
      norm = std::to_string(v);
      e = j;
    } else {
      return 0;
    }
    if (src.match(e, "元")) {
      e += 3;
      if (src.match(e, "整")) e += 3;
    }
    if (pre.text == "¥" || pre.text == "￥") {  // yen only when the text says so
      std::string_view c2;
      const size_t e2 = currency_suffix(src, e, c2);
      if (e2 > 0 && c2 == "JPY") {
        code = "JPY";
        e = e2;
      }
    }
    a.type = Type::amount;
    a.value = std::strtod(norm.c_str(), nullptr);
    a.norm = norm + " " + std::string(code);
    return e;
  }
  return 0;
}

// ---------------------------------------------------------------------------- Chinese
size_t cn_numeral_run(Src& src, size_t i) {
  size_t j = i;
  while (true) {
    const auto d = src.cp(j);
    if (d.length == 0 || !is_cn_numeral(d.cp)) break;
    j += static_cast<size_t>(d.length);
  }
  return j;
}

bool cn_value(std::string_view s, uint64_t& v) { return parse_chinese_numeral(s, v); }

bool has_cn_unit(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto d = utf8::decode(s, i);
    if (cn_unit(d.cp) > 0) return true;
    i += static_cast<size_t>(d.length);
  }
  return false;
}

struct Word {
  std::string_view text;
  std::string_view norm;
};

constexpr std::array<Word, 11> kZhLogic = {{{"如果", "if"},
                                            {"否则", "else"},
                                            {"除非", "unless"},
                                            {"因此", "therefore"},
                                            {"所以", "therefore"},
                                            {"不得", "must_not"},
                                            {"禁止", "must_not"},
                                            {"应当", "must"},
                                            {"必须", "must"},
                                            {"同意", "commit"},
                                            {"保证", "commit"}}};

constexpr char32_t decode3(std::string_view w) {  // a 3-byte UTF-8 character (every Han keyword)
  return static_cast<char32_t>(((static_cast<unsigned char>(w[0]) & 0x0F) << 12) |
                               ((static_cast<unsigned char>(w[1]) & 0x3F) << 6) |
                               (static_cast<unsigned char>(w[2]) & 0x3F));
}
constexpr std::array<char32_t, kZhLogic.size()> kZhLogicFirst = [] {
  std::array<char32_t, kZhLogic.size()> f{};
  for (size_t i = 0; i < kZhLogic.size(); ++i) f[i] = decode3(kZhLogic[i].text);
  return f;
}();
constexpr bool zh_logic_first(char32_t c) {
  for (char32_t f : kZhLogicFirst) {
    if (f == c) return true;
  }
  return false;
}
static_assert(zh_logic_first(U'如') && zh_logic_first(U'保') && !zh_logic_first(U'的'));

constexpr std::array<std::string_view, 12> kOrgSuffixes = {"有限责任公司", "股份有限公司", "有限公司", "公司",
                                                           "集团",         "银行",         "医院",     "大学",
                                                           "事务所",       "研究所",       "诊所",     "中心"};

bool org_stop(char32_t c) {
  switch (c) {
    case U'的':
    case U'与':
    case U'及':
    case U'在':
    case U'由':
    case U'向':
    case U'是':
    case U'为':
    case U'于':
    case U'将':
    case U'从':
    case U'对':
    case U'把':
    case U'被':
    case U'给':
    case U'了':
    case U'并':
    case U'或':
    case U'请':
    case U'我':
    case U'您':
    case U'你':
    case U'他':
    case U'她':
    case U'该':
    case U'此':
    case U'其':
    case U'已':
    case U'经':
      return true;
    default:
      return false;
  }
}

bool org_suffix_start(char32_t c) {
  switch (c) {
    case U'有':
    case U'股':
    case U'公':
    case U'集':
    case U'银':
    case U'医':
    case U'大':
    case U'事':
    case U'研':
    case U'诊':
    case U'中':
      return true;
    default:
      return false;
  }
}

// What a Han character can be, one byte per code point of the main CJK block (computed on the fly
// outside it): the org-name scan and scan_han ask this once per character.
class HanClass {
 public:
  static constexpr uint8_t kPlain = 1;    // starts no keyword or numeral: only an org name
  static constexpr uint8_t kStop = 2;     // ends an org name (org_stop)
  static constexpr uint8_t kSuffix = 4;   // may start an org suffix
  static constexpr uint8_t kNumeral = 8;  // a Chinese numeral
  HanClass() {
    for (char32_t c = kFirst; c <= kLast; ++c) table_[c - kFirst] = compute(c);
  }
  [[nodiscard]] uint8_t operator()(char32_t c) const {
    return c >= kFirst && c <= kLast ? table_[c - kFirst] : compute(c);
  }

 private:
  static uint8_t compute(char32_t c) {
    const bool numeral = is_cn_numeral(c);
    const bool plain = !zh_logic_first(c) && c != U'人' && c != U'百' && c != U'第' && !numeral;
    return static_cast<uint8_t>((plain ? kPlain : 0) | (org_stop(c) ? kStop : 0) | (org_suffix_start(c) ? kSuffix : 0) |
                                (numeral ? kNumeral : 0));
  }
  static constexpr char32_t kFirst = 0x4E00;
  static constexpr char32_t kLast = 0x9FFF;
  std::array<uint8_t, kLast - kFirst + 1> table_{};
};
const HanClass& han_class() {
  static const HanClass table;
  return table;
}

size_t scan_org_name(Src& src, size_t p, Anchor& a) {
  constexpr int kMaxChars = 16;
  // Inside a failed scan's span: this scan would look at a subset of the same characters (a
  // suffix check at a position does not depend on the start) and stop at the same one, so it
  // fails too; it reports the earlier scan's reach, which covers what it would have read.
  if (p > src.org_from && p < src.org_to) {
    src.max_read = std::max(src.max_read, src.org_reach);
    return 0;
  }
  const HanClass& han = han_class();
  size_t j = p;
  bool plain = true;
  for (int n = 0; n < kMaxChars; ++n) {
    const auto d = src.cp(j);
    const uint8_t k = d.length > 0 ? han(d.cp) : 0;
    if (n >= 1 && (k & HanClass::kSuffix) != 0) {
      for (std::string_view suf : kOrgSuffixes) {
        if (src.match(j, suf)) {
          const size_t e = j + suf.size();
          set_norm(a, Type::name, std::string(src.s.substr(p, e - p)));
          return e;
        }
      }
    }
    if (d.length == 0 || !is_han(d.cp) || (k & (HanClass::kStop | HanClass::kNumeral)) != 0) {
      if (d.length > 0) {  // stopped by a character, not by the end of the text seen so far
        src.org_from = p;
        src.org_to = j;
        src.org_reach = src.max_read;
        src.org_plain = plain;
      }
      return 0;
    }
    if (n >= 1) plain = plain && (k & HanClass::kPlain) != 0;
    j += static_cast<size_t>(d.length);
  }
  return 0;
}

// At a Han character c0 (complete, at p): the keyword matchers run only for their first characters.
size_t scan_han(Src& src, size_t p, char32_t c0, Anchor& a) {
  if ((han_class()(c0) & HanClass::kPlain) != 0) return scan_org_name(src, p, a);
  if (zh_logic_first(c0)) {
    for (const auto& w : kZhLogic) {
      if (src.match(p, w.text)) {
        set_norm(a, Type::logic, std::string(w.norm));
        return p + w.text.size();
      }
    }
  }
  if (c0 == U'人' && src.match(p, "人民币")) {
    if (size_t e = scan_prefixed_amount(src, p, a)) return e;
  }
  if (c0 == U'百' && src.match(p, "百分之")) {
    const size_t k = p + 9;
    size_t j = cn_numeral_run(src, k);
    uint64_t v = 0;
    if (j > k && cn_value(src.s.substr(k, j - k), v)) {
      set_norm(a, Type::percent, std::to_string(v) + "%");
      a.value = static_cast<double>(v);
      return j;
    }
    j = src.digits(k);
    if (j > k) {
      set_norm(a, Type::percent, canonical_decimal(src.s.substr(k, j - k), "", 0) + "%");
      a.value = std::strtod(a.norm.c_str(), nullptr);
      return j;
    }
    return 0;
  }
  if (c0 == U'第') {
    const size_t k = p + 3;
    size_t j = src.digits(k);
    std::string num;
    if (j > k) {
      while (src.at(j) == '.' && is_digit(src.at(j + 1))) j = src.digits(j + 1);
      num = std::string(src.s.substr(k, j - k));
      const size_t nz = num.find_first_not_of('0');
      if (nz != std::string::npos && nz > 0) num.erase(0, nz);
    } else {
      j = cn_numeral_run(src, k);
      uint64_t v = 0;
      if (j == k || !cn_value(src.s.substr(k, j - k), v)) return 0;
      num = std::to_string(v);
    }
    for (std::string_view unit : {"条"sv, "款"sv, "章"sv, "节"sv, "项"sv}) {
      if (src.match(j, unit)) {
        set_norm(a, Type::clause, num);
        return j + unit.size();
      }
    }
    return 0;
  }
  if (is_cn_numeral(c0)) {
    const size_t j = cn_numeral_run(src, p);
    uint64_t v = 0;
    const std::string_view run = src.s.substr(p, j - p);
    if (j > p && cn_value(run, v)) {
      size_t e = j;
      std::string_view unit;
      if (src.match(e, "元")) {
        e += 3;
        if (src.match(e, "整")) e += 3;
        set_norm(a, Type::amount, std::to_string(v) + " CNY");
        a.value = static_cast<double>(v);
        return e;
      }
      if (size_t e2 = duration_suffix(src, j, unit, true); e2 > 0 && !src.match(j, "日")) {
        set_norm(a, Type::duration, std::to_string(v) + " " + std::string(unit));
        a.value = static_cast<double>(v);
        return e2;
      }
      if (size_t e2 = duration_suffix(src, j, unit, true); e2 > 0 && run.size() > 3) {
        set_norm(a, Type::duration, std::to_string(v) + " " + std::string(unit));
        a.value = static_cast<double>(v);
        return e2;
      }
      if (run.size() >= 6 && has_cn_unit(run)) {  // at least two characters with a unit: 三千五百
        set_norm(a, Type::number, std::to_string(v));
        a.value = static_cast<double>(v);
        return j;
      }
    }
  }
  return scan_org_name(src, p, a);
}

// ---------------------------------------------------------------------------- letters
constexpr std::array<Word, 22> kLogic = {{{"shall not", "must_not"},
                                          {"must not", "must_not"},
                                          {"may not", "must_not"},
                                          {"will not", "must_not"},
                                          {"shall", "must"},
                                          {"must", "must"},
                                          {"if", "if"},
                                          {"else", "else"},
                                          {"otherwise", "else"},
                                          {"unless", "unless"},
                                          {"therefore", "therefore"},
                                          {"thus", "therefore"},
                                          {"hence", "therefore"},
                                          {"agrees", "commit"},
                                          {"agreed", "commit"},
                                          {"agree", "commit"},
                                          {"consents", "commit"},
                                          {"consent", "commit"},
                                          {"warrants", "commit"},
                                          {"warrant", "commit"},
                                          {"guarantees", "commit"},
                                          {"guarantee", "commit"}}};
constexpr FirstBytes kLogicFirst = first_bytes(kLogic, kText, true);

size_t scan_logic(Src& src, size_t p, Anchor& a) {
  const int c0 = src.at(p);
  for (uint64_t bits = kLogicFirst.at(c0); bits != 0; bits &= bits - 1) {
    const Word& w = entry(kLogic, bits);
    // Lowercase, or capitalised at a sentence start; never ALL CAPS matches of short words.
    if (src.match_ci(p, w.text) && src.word_end(p + w.text.size())) {
      bool rest_lower = true;
      for (size_t k = 1; k < w.text.size(); ++k) rest_lower = rest_lower && !is_upper(src.at(p + k));
      if (!rest_lower) continue;
      set_norm(a, Type::logic, std::string(w.norm));
      return p + w.text.size();
    }
  }
  return 0;
}

struct ClauseWord {
  std::string_view text;
  bool needs_space;
};
constexpr std::array<ClauseWord, 12> kClauseWords = {{{"Section", true},
                                                      {"section", true},
                                                      {"Sec.", false},
                                                      {"Sect.", false},
                                                      {"Article", true},
                                                      {"article", true},
                                                      {"Art.", false},
                                                      {"Clause", true},
                                                      {"clause", true},
                                                      {"Paragraph", true},
                                                      {"Para.", false},
                                                      {"§", false}}};
constexpr FirstBytes kClauseFirst = first_bytes(kClauseWords, kText, false);

size_t dotted_number(Src& src, size_t k) {
  size_t j = src.digits(k);
  if (j == k) return 0;
  while (src.at(j) == '.' && is_digit(src.at(j + 1))) j = src.digits(j + 1);
  return j;
}

size_t scan_clause(Src& src, size_t p, Anchor& a) {
  for (uint64_t bits = kClauseFirst.at(src.at(p)); bits != 0; bits &= bits - 1) {
    const ClauseWord& w = entry(kClauseWords, bits);
    if (!src.match(p, w.text)) continue;
    size_t k = p + w.text.size();
    if (w.text == "§" && src.match(k, "§")) k += w.text.size();
    if (w.needs_space && src.at(k) != ' ') return 0;
    if (src.at(k) == ' ') k = src.skip_spaces(k);
    const size_t j = dotted_number(src, k);
    if (j == 0) return 0;
    if (is_alnum(src.at(j)) && !src.word_end(j)) return 0;
    std::string num(src.s.substr(k, j - k));
    const size_t nz = num.find_first_not_of('0');
    if (nz != std::string::npos && nz > 0) num.erase(0, nz);
    set_norm(a, Type::clause, num);
    return j;
  }
  return 0;
}

bool ident_char(int c) { return is_alnum(c) || c == '_'; }

struct CodeKeyword {
  std::string_view kw;
  bool needs_paren;
};
constexpr std::array<CodeKeyword, 4> kCodeKeywords = {
    {{"def", true}, {"fn", true}, {"function", true}, {"class", false}}};
constexpr FirstBytes kCodeFirst = first_bytes(
    kCodeKeywords, [](const CodeKeyword& k) { return k.kw; }, false);

size_t scan_code_signature(Src& src, size_t p, Anchor& a) {
  for (uint64_t bits = kCodeFirst.at(src.at(p)); bits != 0; bits &= bits - 1) {
    const CodeKeyword& kw = entry(kCodeKeywords, bits);
    if (!src.match(p, kw.kw) || src.at(p + kw.kw.size()) != ' ') continue;
    const size_t k = p + kw.kw.size() + 1;
    const int c = src.at(k);
    if (!is_alpha(c) && c != '_') return 0;
    if (kw.kw == "class" && !is_upper(c)) return 0;
    size_t j = k;
    while (ident_char(src.at(j))) ++j;
    const int after = src.at(j);
    bool ok = false;
    if (kw.needs_paren) {
      ok = after == '(' || (kw.kw == "fn" && after == '<');
    } else {
      ok = after == ':' || after == '(' || after == '{' || after == ';' || (after == ' ' && src.at(j + 1) == '{') ||
           (after == ' ' && src.match(j + 1, "extends"));
    }
    if (!ok) return 0;
    set_norm(a, Type::code_signature, std::string(kw.kw) + " " + std::string(src.s.substr(k, j - k)));
    return j;
  }
  return 0;
}

constexpr std::array<Word, 20> kSpelled = {
    {{"one", "1"},     {"two", "2"},         {"three", "3"},     {"four", "4"},     {"five", "5"},
     {"six", "6"},     {"seven", "7"},       {"eight", "8"},     {"nine", "9"},     {"ten", "10"},
     {"eleven", "11"}, {"twelve", "12"},     {"fourteen", "14"}, {"fifteen", "15"}, {"twenty", "20"},
     {"thirty", "30"}, {"forty-five", "45"}, {"forty", "40"},    {"sixty", "60"},   {"ninety", "90"}}};
constexpr FirstBytes kSpelledFirst = first_bytes(kSpelled, kText, true);

// "thirty days", "thirty (30) days", "ten percent".
size_t scan_spelled(Src& src, size_t p, Anchor& a) {
  for (uint64_t bits = kSpelledFirst.at(src.at(p)); bits != 0; bits &= bits - 1) {
    const Word& w = entry(kSpelled, bits);
    if (!src.match_ci(p, w.text) || !src.word_end(p + w.text.size())) continue;
    size_t j = p + w.text.size();
    if (src.at(j) == ' ' && src.at(j + 1) == '(') {  // "thirty (30)"
      const size_t d1 = src.digits(j + 2);
      if (d1 > j + 2 && src.at(d1) == ')') j = d1 + 1;
    }
    std::string_view unit;
    if (size_t e = duration_suffix(src, j, unit, false)) {
      set_norm(a, Type::duration, std::string(w.norm) + " " + std::string(unit));
      a.value = std::strtod(std::string(w.norm).c_str(), nullptr);
      return e;
    }
    if (size_t e = percent_suffix(src, j); e > 0 && src.at(j) == ' ') {
      set_norm(a, Type::percent, std::string(w.norm) + "%");
      a.value = std::strtod(std::string(w.norm).c_str(), nullptr);
      return e;
    }
    return 0;
  }
  return 0;
}

size_t scan_url(Src& src, size_t p, Anchor& a) {
  size_t k = 0;
  if (src.match(p, "https://")) {
    k = p + 8;
  } else if (src.match(p, "http://")) {
    k = p + 7;
  } else {
    return 0;
  }
  size_t j = k;
  while (true) {
    const int c = src.at(j);
    if (c == kEnd || is_space(c) || c == '<' || c == '>' || c == '"' || c >= 0x80) break;
    ++j;
  }
  while (j > k && (src.s[j - 1] == '.' || src.s[j - 1] == ',' || src.s[j - 1] == ')' || src.s[j - 1] == ';')) --j;
  if (j == k) return 0;
  set_norm(a, Type::identifier, std::string(src.s.substr(p, j - p)));
  return j;
}

size_t scan_email(Src& src, size_t p, Anchor& a) {
  size_t j = p;
  auto local = [](int c) { return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'; };
  while (local(src.at(j))) ++j;
  if (j == p || src.at(j) != '@') return 0;
  size_t d = j + 1;
  size_t last_dot = 0;
  while (true) {
    const int c = src.at(d);
    if (is_alnum(c) || c == '-') {
      ++d;
    } else if (c == '.' && is_alnum(src.at(d + 1))) {
      last_dot = d;
      ++d;
    } else {
      break;
    }
  }
  if (last_dot == 0 || d - last_dot - 1 < 2) return 0;
  std::string norm(src.s.substr(p, d - p));
  for (auto& ch : norm) ch = static_cast<char>(to_lower(static_cast<unsigned char>(ch)));
  set_norm(a, Type::identifier, std::move(norm));
  return d;
}

// ---------------------------------------------------------------------------- names
constexpr std::array<std::string_view, 56> kNameStop = {
    "The",       "A",        "An",     "This",     "That",   "These", "Those", "It",     "Its",    "Our",
    "We",        "You",      "Your",   "He",       "She",    "They",  "His",   "Her",    "Their",  "In",
    "On",        "At",       "For",    "To",       "By",     "With",  "From",  "As",     "Of",     "And",
    "Or",        "But",      "Yes",    "No",       "Please", "Dear",  "Thank", "Thanks", "All",    "Any",
    "Each",      "Every",    "When",   "Where",    "What",   "Who",   "Why",   "How",    "Monday", "Tuesday",
    "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Answer"};
constexpr std::array<std::string_view, 14> kCorpSuffix = {"Ltd.", "Ltd",  "LLC", "Inc.", "Inc",   "Co.", "Corp.",
                                                          "Corp", "GmbH", "PLC", "LLP",  "Group", "AG",  "S.A."};

// A capitalised word at i: "Acme", "McKay", "O'Neil", "IBM"; returns its end or 0.
size_t cap_word(Src& src, size_t i) {
  if (!is_upper(src.at(i))) return 0;
  size_t j = i + 1;
  while (true) {
    const int c = src.at(j);
    if (is_alpha(c)) {
      ++j;
    } else if ((c == '\'' || c == '-') && is_alpha(src.at(j + 1))) {
      j += 2;
    } else {
      break;
    }
  }
  if (j - i < 2) return 0;
  if (is_digit(src.at(j))) return 0;
  // "MRN-534782", "INV-2024": the word is an identifier's prefix, not part of a name.
  if (src.at(j) == '-' && is_digit(src.at(j + 1))) return 0;
  return j;
}

constexpr std::array<std::string_view, 14> kNameStopMore = {"Section",   "Sec",    "Article", "Art",    "Clause",
                                                            "Paragraph", "Para",   "See",     "Per",    "Under",
                                                            "Total",     "Amount", "Date",    "Invoice"};
constexpr FirstBytes kNameStopFirst = first_bytes(kNameStop, kSelf, false);
constexpr FirstBytes kNameStopMoreFirst = first_bytes(kNameStopMore, kSelf, false);

bool is_stop_word(std::string_view w) {
  if (w.empty()) return false;
  const int c = static_cast<unsigned char>(w.front());
  for (uint64_t bits = kNameStopFirst.at(c); bits != 0; bits &= bits - 1) {
    if (entry(kNameStop, bits) == w) return true;
  }
  for (uint64_t bits = kNameStopMoreFirst.at(c); bits != 0; bits &= bits - 1) {
    if (entry(kNameStopMore, bits) == w) return true;
  }
  int m = 0;
  Src tmp{w, true};
  if (month_name(tmp, 0, m) == w.size()) return true;
  return false;
}

size_t corp_suffix(Src& src, size_t i) {
  for (auto s : kCorpSuffix) {
    if (src.match(i, s) && (s.back() == '.' || src.word_end(i + s.size()))) return i + s.size();
  }
  return 0;
}

size_t scan_name(Src& src, size_t p, Anchor& a) {
  size_t words = 0;
  size_t end = 0;
  size_t j = p;
  for (auto h : kHonorifics) {
    if (src.match(p, h) && src.at(p + h.size()) == ' ') {
      j = p + h.size() + 1;
      words = 1;
      break;
    }
  }
  size_t e = cap_word(src, j);
  if (e == 0) return 0;
  if (words == 0 && is_stop_word(src.s.substr(j, e - j))) return 0;
  ++words;
  end = e;
  while (src.at(end) == ' ') {
    size_t k = end + 1;
    if (size_t s = corp_suffix(src, k)) {
      end = s;
      ++words;
      break;
    }
    size_t w = cap_word(src, k);
    if (w == 0) {
      // "Bank of China": a lowercase connector between two capitalised words.
      bool joined = false;
      for (auto c : kNameConnectors) {
        // "and"/"&" join only a one-word name ("Johnson and Johnson", "Procter & Gamble"): after
        // a full name ("Grace Hughes and Henry Foster") they separate two names.
        if ((c == "and" || c == "&") && words > 1) continue;
        if (src.match(k, c) && src.at(k + c.size()) == ' ') {
          const size_t w2 = cap_word(src, k + c.size() + 1);
          if (w2 != 0) {
            end = w2;
            ++words;
            joined = true;
          }
          break;
        }
      }
      if (!joined) break;
      continue;
    }
    if (is_stop_word(src.s.substr(k, w - k))) break;
    end = w;
    ++words;
  }
  if (words < 2) return 0;
  set_norm(a, Type::name, fold_name(src.s.substr(p, end - p)));
  return end;
}

// ---------------------------------------------------------------------------- structure
size_t scan_json(Src& src, size_t p, Anchor& a) {
  const int c = src.at(p);
  if (c == '{' || c == '[') {
    size_t k = p + 1;
    while (is_space(src.at(k))) ++k;
    const int n = src.at(k);
    if (n == '"' || (c == '[' && (n == '{' || is_digit(n) || n == '['))) {
      set_norm(a, Type::json, std::string(1, static_cast<char>(c)));
      return p + 1;
    }
    return 0;
  }
  if (c == '"') {
    size_t j = p + 1;
    for (int n = 0; n < 64; ++n, ++j) {
      const int x = src.at(j);
      if (x == kEnd || x == '\n' || x == '\\') return 0;
      if (x == '"') break;
    }
    if (src.at(j) != '"' || j == p + 1) return 0;
    size_t k = j + 1;
    while (src.at(k) == ' ') ++k;
    if (src.at(k) != ':') return 0;
    set_norm(a, Type::json, "key:" + std::string(src.s.substr(p + 1, j - p - 1)));
    return j + 1;
  }
  return 0;
}

size_t scan_xml(Src& src, size_t p, Anchor& a) {
  if (src.at(p) != '<') return 0;
  size_t k = p + 1;
  const bool closing = src.at(k) == '/';
  if (closing) ++k;
  if (!is_alpha(src.at(k))) return 0;
  size_t j = k;
  while (is_alnum(src.at(j)) || src.at(j) == '_' || src.at(j) == ':' || src.at(j) == '-') ++j;
  const std::string tag(src.s.substr(k, j - k));
  for (int n = 0; n < 256; ++n, ++j) {
    const int x = src.at(j);
    if (x == kEnd || x == '<' || x == '\n') return 0;
    if (x == '>') {
      set_norm(a, Type::xml, (closing ? "</" : "<") + tag + ">");
      return j + 1;
    }
  }
  return 0;
}

// ---------------------------------------------------------------------------- dispatch
// The clause, logic, code and spelled-number keywords all require the word at p to be exactly
// their leading run of letters ("shall" of "shall not", "forty" of "forty-five", "Sec" of
// "Sec."): a word that is none of these runs cannot start any of them.
struct KeywordLeads {
  std::array<std::string_view, 64> words{};
  size_t n = 0;
  FirstBytes first;
  constexpr void add(std::string_view w) {
    size_t k = 0;
    while (k < w.size() && is_alnum(static_cast<unsigned char>(w[k]))) ++k;
    if (k == 0) return;  // "§": not an ASCII word
    const int c = static_cast<unsigned char>(w[0]);
    first.mask[static_cast<size_t>(to_lower(c))] |= uint64_t{1} << n;
    first.mask[static_cast<size_t>(to_lower(c) - 32)] |= uint64_t{1} << n;
    words[n++] = w.substr(0, k);
  }
};
constexpr KeywordLeads kKeywordLeads = [] {
  KeywordLeads k;
  for (const auto& w : kClauseWords) k.add(w.text);
  for (const auto& w : kLogic) k.add(w.text);
  for (const auto& w : kCodeKeywords) k.add(w.kw);
  for (const auto& w : kSpelled) k.add(w.text);
  return k;
}();
static_assert(kKeywordLeads.n == kClauseWords.size() - 1 + kLogic.size() + kCodeKeywords.size() + kSpelled.size());

bool keyword_lead(std::string_view word) {
  for (uint64_t bits = kKeywordLeads.first.at(static_cast<unsigned char>(word[0])); bits != 0; bits &= bits - 1) {
    const std::string_view w = kKeywordLeads.words[static_cast<size_t>(std::countr_zero(bits))];
    if (w.size() != word.size()) continue;
    bool same = true;
    for (size_t k = 0; k < w.size() && same; ++k)
      same = to_lower(static_cast<unsigned char>(w[k])) == to_lower(static_cast<unsigned char>(word[k]));
    if (same) return true;
  }
  return false;
}

// Tries every matcher at p. Returns the anchor end (> p) or 0 with `skip` set to where the
// scan goes on.
size_t scan_at(Src& src, size_t p, Anchor& a, size_t& skip, const LexerOptions& opt) {
  const int c = src.at(p);
  if (c < 0x80) {
    if (is_alnum(c)) {
      skip = src.alnum_end(p);
      if (p > 0 && is_alnum(static_cast<unsigned char>(src.s[p - 1]))) return 0;  // mid-word
      if (is_digit(c)) {
        skip = p + 1;
        return scan_digit_start(src, p, a, opt);
      }
      // A word with neither digits nor '@' / ':' / '-' after it can only be a keyword or a name.
      bool special = false;
      for (size_t k = p; k < skip; ++k) special = special || is_digit(static_cast<unsigned char>(src.s[k]));
      const int after = src.at(skip);
      special = special || after == '@' || after == ':' || after == '-' || after == '_' || after == '.' ||
                after == '/' || after == '$' || after == '+' || after == '%';
      if (special) {
        if (size_t e = scan_url(src, p, a)) return e;
        if (size_t e = scan_email(src, p, a)) return e;
      }
      const bool upper = is_upper(c);
      if (upper) {
        if (size_t e = scan_prefixed_amount(src, p, a)) return e;
        if (size_t e = scan_quarter(src, p, a)) return e;
      }
      if (special) {
        if (size_t e = scan_identifier(src, p)) {
          set_norm(a, Type::identifier, std::string(src.s.substr(p, e - p)));
          return e;
        }
      }
      if (upper) {
        if (size_t e = scan_month_first(src, p, a)) return e;
      }
      if (keyword_lead(src.s.substr(p, skip - p))) {
        if (size_t e = scan_clause(src, p, a)) return e;
        if (size_t e = scan_logic(src, p, a)) return e;
        if (size_t e = scan_code_signature(src, p, a)) return e;
        if (size_t e = scan_spelled(src, p, a)) return e;
      }
      if (upper) return scan_name(src, p, a);
      return 0;
    }
    skip = p + 1;
    switch (c) {
      case '$':
        return scan_prefixed_amount(src, p, a);
      case '{':
      case '[':
      case '"':
        return scan_json(src, p, a);
      case '<':
        return scan_xml(src, p, a);
      case '=':
        if (p > 0 && src.s[p - 1] == ' ' && src.at(p + 1) == ' ') {
          set_norm(a, Type::logic, "equals");
          return p + 1;
        }
        return 0;
      default:
        return 0;
    }
  }
  const auto d = src.cp(p);
  skip = p + (d.length > 0 ? static_cast<size_t>(d.length) : 1);
  if (d.length == 0) return 0;
  if (d.cp == U'§') return scan_clause(src, p, a);
  if (d.cp == U'€' || d.cp == U'£' || d.cp == U'¥' || d.cp == U'￥') return scan_prefixed_amount(src, p, a);
  if (is_han(d.cp)) {
    const size_t e = scan_han(src, p, d.cp, a);
    // The organisation-name scan from p failed, crossing only plain characters: a start at any of
    // them reaches only that scan (no keyword, no numeral) and fails the same way, so skip them.
    if (e == 0 && src.org_from == p && src.org_plain && src.org_to > skip) skip = src.org_to;
    return e;
  }
  return 0;
}

// ASCII bytes no matcher starts at (spaces, most punctuation): scan_at would read only that byte
// and move on, so run() does that itself.
constexpr std::array<bool, 256> kInert = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x80; ++c) t[static_cast<size_t>(c)] = !is_alnum(c);
  for (char c : std::string_view("${[\"<=")) t[static_cast<unsigned char>(c)] = false;
  return t;
}();

// Scans from `pos` while decisions are final; stops at the first provisional one.
void run(std::string_view text, size_t& pos, bool final, std::vector<Anchor>& out, std::vector<LexVisit>* visits,
         const LexerOptions& opt) {
  Src src{text, final};
  Anchor a;
  while (pos < text.size()) {
    if (kInert[static_cast<unsigned char>(text[pos])]) {
      if (visits != nullptr) {
        const uint32_t prev = visits->empty() ? 0 : visits->back().reach;
        visits->push_back({static_cast<uint32_t>(pos), std::max(prev, static_cast<uint32_t>(pos))});
      }
      ++pos;
      continue;
    }
    src.overrun = false;
    src.max_read = pos;
    a.norm.clear();
    a.alt_norm.clear();
    a.ambiguous = false;
    a.value = std::numeric_limits<double>::quiet_NaN();
    size_t skip = pos + 1;
    const size_t e = scan_at(src, pos, a, skip, opt);
    if (src.overrun && !final) return;  // may still grow into (or out of) an anchor
    if (visits != nullptr) {
      const uint32_t prev = visits->empty() ? 0 : visits->back().reach;
      visits->push_back({static_cast<uint32_t>(pos), std::max(prev, static_cast<uint32_t>(src.max_read))});
    }
    if (e > pos) {
      a.start = static_cast<uint32_t>(pos);
      a.end = static_cast<uint32_t>(e);
      out.push_back(std::move(a));
      a = Anchor{};
      pos = e;
    } else {
      pos = std::max(skip, pos + 1);
    }
  }
}

}  // namespace

bool is_name_filler(std::string_view word) {
  const auto trim = [](std::string_view w) {
    while (!w.empty() && w.back() == '.') w.remove_suffix(1);
    return w;
  };
  word = trim(word);
  const auto same = [&](std::string_view entry) {
    entry = trim(entry);
    return entry.size() == word.size() && std::equal(entry.begin(), entry.end(), word.begin(), [](char x, char y) {
             return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
  };
  return std::any_of(kHonorifics.begin(), kHonorifics.end(), same) ||
         std::any_of(kNameConnectors.begin(), kNameConnectors.end(), same) ||
         std::any_of(kCorpSuffix.begin(), kCorpSuffix.end(), same);
}

std::vector<Anchor> extract(std::string_view text, const LexerOptions& options) {
  std::vector<Anchor> out;
  extract_into(text, out, options);
  return out;
}

void extract_into(std::string_view text, std::vector<Anchor>& out, const LexerOptions& options) {
  size_t pos = 0;
  run(text, pos, true, out, nullptr, options);
}

Incremental::Incremental(const LexerOptions& options) : options_(options) {}

void Incremental::feed(std::string_view chunk, std::vector<Anchor>& out) {
  text_.append(chunk);
  scan(false, out);
}

void Incremental::finish(std::vector<Anchor>& out) { scan(true, out); }

void Incremental::scan(bool final, std::vector<Anchor>& out) { run(text_, scan_pos_, final, out, &visits_, options_); }

size_t Incremental::truncate(size_t offset) {
  if (offset < text_.size()) text_.resize(offset);
  // Redo every decision that looked at a removed byte (reach is a running maximum), resuming
  // from a position the batch scan also visited, so results stay identical.
  size_t resume = scan_pos_;
  while (!visits_.empty() && visits_.back().reach >= offset) {
    resume = visits_.back().pos;
    visits_.pop_back();
  }
  scan_pos_ = std::min(resume, scan_pos_);
  return scan_pos_;
}

void Incremental::reset() {
  text_.clear();
  visits_.clear();
  scan_pos_ = 0;
}

}  // namespace sfcl::anchor
