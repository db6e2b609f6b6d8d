// Times of day and list markers: what a digit at p is before it is read as a number. "9:00 am to
// 9:30 pm" is two times, not the numbers 9, 00, 9 and 30 (each of which any 9 or 0 in the sources
// would confirm); "6. Rinse" at the start of a line numbers a step, it states no value.
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"

namespace sfcl::anchor::lex {
namespace {

// " am", "pm", " a.m.", "P.M." after a time or an hour: its end and whether it is p.m., or 0.
size_t meridiem(Src& src, size_t j, bool& pm) {
  size_t k = src.at(j) == ' ' ? j + 1 : j;
  const int c = to_lower(src.at(k));
  if (c != 'a' && c != 'p') return 0;
  pm = c == 'p';
  if (to_lower(src.at(k + 1)) == 'm' && src.word_end(k + 2)) return k + 2;
  if (src.at(k + 1) == '.' && to_lower(src.at(k + 2)) == 'm' && src.at(k + 3) == '.') return k + 4;
  return 0;
}

std::string two_digits(int v) {
  std::string s(2, '0');
  s[0] = static_cast<char>('0' + v / 10);
  s[1] = static_cast<char>('0' + v % 10);
  return s;
}

}  // namespace

// "9:00", "14:30", "9:00:15", "9:00 pm", "8 PM", "11am", "10 a.m.", and the "14:0" of records that
// drop a minute's leading zero. Norm: 24-hour "HH:MM". A 1-12 o'clock time without am/pm is either
// half of the day: norm the morning reading, alt_norm the afternoon one, so "2:00 pm" is supported
// by a source "2:00" and by "14:00". Not "3:1" (a ratio), nor "10:30" inside "1:10:30" of a longer
// chain.
size_t scan_time(Src& src, size_t p, Anchor& a) {
  const size_t h_end = src.digits(p);
  if (h_end - p > 2) return 0;
  const int hour = src.number_at(p, h_end);
  int minute = 0;
  size_t e = h_end;
  size_t seconds = 0;  // where ":SS" starts, or 0
  const bool colon = src.at(h_end) == ':';
  if (colon) {
    const size_t m_end = src.digits(h_end + 1);
    const size_t m_len = m_end - h_end - 1;
    if (m_len == 0 || m_len > 2) return 0;
    if (m_len == 1 && src.s[h_end + 1] != '0') return 0;  // "3:1": a ratio or a score
    minute = src.number_at(h_end + 1, m_end);
    if (minute > 59 || hour > 24) return 0;
    e = m_end;
    if (src.at(e) == ':' && is_digit(src.at(e + 1)) && is_digit(src.at(e + 2)) && !is_digit(src.at(e + 3))) {
      seconds = e;
      e += 3;  // seconds ("2:19:37", a race time as often as a time of day): part of the value
    } else if (src.at(e) == ':' || (src.at(e) == '.' && is_digit(src.at(e + 1)))) {
      return 0;  // "1:10:30:5", "9:30.5": not a time of day
    }
    if (is_alnum(src.at(e)) && to_lower(src.at(e)) != 'a' && to_lower(src.at(e)) != 'p') return 0;
  }
  bool pm = false;
  const size_t mer = meridiem(src, e, pm);
  if (!colon && (mer == 0 || hour == 0 || hour > 12)) return 0;  // a bare hour needs am/pm
  if (mer > 0) {
    if (hour == 0 || hour > 12) {
      if (!colon) return 0;
      // "14:00 pm": a 24-hour time with a stray suffix; the suffix adds nothing
    } else if (pm && hour < 12) {
      a.norm = two_digits(hour + 12);
    } else if (!pm && hour == 12) {
      a.norm = two_digits(0);
    }
    e = mer;
  }
  if (a.norm.empty()) a.norm = two_digits(hour == 24 ? 0 : hour);
  a.norm += ':';
  a.norm += two_digits(minute);
  if (seconds > 0) a.norm.append(src.s.substr(seconds, 3));  // ":SS"
  if (mer == 0 && hour >= 1 && hour <= 11) {
    a.alt_norm = two_digits(hour + 12) + a.norm.substr(2);
    a.ambiguous = true;
  }
  a.type = Type::time;
  return e;
}

// A number that opens a line and is followed by "." or ")" and a space ("6. Rinse", "2) Sign") is
// the step's number in a list: no anchor. At most two digits: "2024. " starting a line is a year.
bool list_marker(Src& src, size_t p) {
  for (size_t k = p; k > 0; --k) {
    const char c = src.s[k - 1];
    if (c == '\n') break;
    if (c != ' ' && c != '\t') return false;
  }
  const size_t e = src.digits(p);
  if (e - p > 2) return false;
  const int c = src.at(e);
  if (c != '.' && c != ')') return false;
  const int next = src.at(e + 1);
  return next == ' ' || next == '\t';
}

}  // namespace sfcl::anchor::lex

namespace sfcl::anchor::lex {

// "智利外交部25日发表声明": in Chinese news a bare "N日" before the verb is the day of the month the
// event happened, not a span of N days. It is a duration where a span is meant: "30日内", "30日以内",
// "30日之后", "收到后30日起", "30日的" (the number ends at j, "日" at j). Norm "---DD" (ISO 8601's
// day without month), which any source date on that day supports.
size_t scan_cn_day(Src& src, size_t p, size_t j, Anchor& a) {
  if (!src.match(j, "日")) return 0;
  if (j - p > 2) return 0;
  const int day = src.number_at(p, j);
  if (day < 1 || day > 31) return 0;
  const auto next = src.cp(j + 3);
  if (next.length == 0 || !is_han(next.cp)) return 0;
  for (char32_t c : {U'内', U'以', U'之', U'后', U'起', U'左', U'为', U'期', U'前', U'止', U'的', U'至', U'到', U'或', U'和',
                     U'及', U'工', U'元', U'日'}) {
    if (next.cp == c) return 0;
  }
  if (p >= 3) {  // "第25日", "近30日", "每5日", "满30日": a count of days
    const std::string_view before = src.s.substr(p - 3, 3);
    for (std::string_view w : {"第", "近", "每", "满", "前", "后", "共", "个", "约"}) {
      if (before == w) return 0;
    }
  }
  a.type = Type::date;
  a.norm = "---" + two_digits(day);
  return j + 3;
}

}  // namespace sfcl::anchor::lex
