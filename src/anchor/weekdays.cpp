// The days of the week a time of day is stated for (docs/ANCHORS.md, "Roles"): "Monday to Thursday
// from 5:00 PM to 9:00 PM", "11 am - 11 pm on weekends", a record's "'Friday': '12:0-22:0'". The
// checker holds an answer's opening hours to the times the sources give those days.
#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

namespace {
constexpr size_t kDaysReach = 96;   // bytes around a time searched for its days
constexpr uint8_t kAllDays = 0x7F;  // Monday = bit 0 ... Sunday = bit 6
constexpr uint8_t kWeekdays = 0x1F;
constexpr uint8_t kWeekend = 0x60;

// Day words: "Monday", "Mon", "Mondays", "weekdays", "weekends", "daily".
uint8_t day_word(std::string_view w) {
  static constexpr std::string_view kFull[] = {"monday", "tuesday",  "wednesday", "thursday",
                                               "friday", "saturday", "sunday"};
  static constexpr std::string_view kShort[] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
  if (!w.empty() && w.back() == '.') w.remove_suffix(1);
  if (w.size() > 3 && (w.back() == 's' || w.back() == 'S')) {
    const std::string_view sing = w.substr(0, w.size() - 1);
    for (int d = 0; d < 7; ++d) {
      if (ieq_ascii(sing, kFull[d])) return static_cast<uint8_t>(1U << d);
    }
  }
  for (int d = 0; d < 7; ++d) {
    if (ieq_ascii(w, kFull[d]) || ieq_ascii(w, kShort[d])) return static_cast<uint8_t>(1U << d);
  }
  if (one_of(w, {"tues", "thur", "thurs", "weds"})) {
    return static_cast<uint8_t>(
        ieq_ascii(w.substr(0, 2), "tu") ? 1U << 1 : (ieq_ascii(w.substr(0, 2), "we") ? 1U << 2 : 1U << 3));
  }
  if (one_of(w, {"weekday", "weekdays"})) return kWeekdays;
  if (one_of(w, {"weekend", "weekends"})) return kWeekend;
  if (one_of(w, {"daily", "everyday"})) return kAllDays;
  return 0;
}

uint8_t day_range(uint8_t from, uint8_t to) {
  const int a = std::countr_zero(from);
  const int b = 31 - std::countl_zero(static_cast<uint32_t>(to));
  uint8_t m = 0;
  for (int d = a;; d = (d + 1) % 7) {
    m = static_cast<uint8_t>(m | (1U << d));
    if (d == b) break;
  }
  return m;
}

bool is_range_word(std::string_view w) { return one_of(w, {"to", "through", "thru", "till", "until"}); }
bool is_list_word(std::string_view w) { return one_of(w, {"and", "&"}); }

// Words a time of day is written with, between it and its days: "from 5:00 PM to 9:00 PM".
bool is_time_filler(std::string_view w) {
  return one_of(w, {"am",   "pm",   "a.m.",  "p.m.",  "a.m",    "p.m",  "from",     "to",    "until",
                    "till", "open", "opens", "is",    "are",    "noon", "midnight", "hours", "between",
                    "at",   "on",   "every", "close", "closes", "h",    "it",       "they",  "we"});
}

}  // namespace

uint8_t weekdays(std::string_view label) {
  uint8_t mask = 0;
  uint8_t last = 0;
  bool range = false;
  size_t i = 0;
  auto flush_day = [&](uint8_t d) {
    mask = static_cast<uint8_t>(
        mask | (range && last && std::has_single_bit(last) && std::has_single_bit(d) ? day_range(last, d) : d));
    last = d;
    range = false;
  };
  while (i < label.size()) {
    const auto c = static_cast<unsigned char>(label[i]);
    if (is_alpha(c)) {
      size_t j = i;
      while (j < label.size() && (is_alpha(static_cast<unsigned char>(label[j])) || label[j] == '.')) ++j;
      const std::string_view w = label.substr(i, j - i);
      i = j;
      if (const uint8_t d = day_word(w)) {
        flush_day(d);
      } else if (is_range_word(w)) {
        range = true;
      } else if (!is_list_word(w)) {
        return 0;
      }
      continue;
    }
    if (c == '-' || c == '~') {
      range = true;
    } else if (label.substr(i, 3) == "\xE2\x80\x93") {  // –
      range = true;
      i += 3;
      continue;
    } else if (!(c == ' ' || c == ',' || c == '/' || c == '\'' || c == '"' || c == ':' || c == '&')) {
      return 0;
    }
    ++i;
  }
  return range ? 0 : mask;
}

namespace {
// Characters a time of day and its range are written with.
bool allowed_char(char c) {
  return c == ' ' || c == ':' || c == '.' || c == ',' || c == '-' || c == '(' || c == ')' || c == '/' || c == '\'' ||
         c == '"' || is_digit(c);
}

// The day expression right before a time, with only times and their words between.
uint8_t weekdays_back(std::string_view before) {
  bool comma = false;
  size_t i = before.size();
  const size_t stop = before.size() > kDaysReach ? before.size() - kDaysReach : 0;
  while (i > stop) {
    const char c = before[i - 1];
    if (allowed_char(c)) {
      comma = comma || c == ',';
      --i;
      continue;
    }
    if (i >= 3 && before.substr(i - 3, 3) == "\xE2\x80\x93") {
      i -= 3;
      continue;
    }
    if (!is_alpha(static_cast<unsigned char>(c))) return 0;
    size_t w = i;
    while (w > stop && (is_alpha(static_cast<unsigned char>(before[w - 1])) || before[w - 1] == '.')) --w;
    const std::string_view word = before.substr(w, i - w);
    if (day_word(word)) {
      // The day expression ends here: extend it back over days and their connectors.
      size_t from = w;
      size_t k = w;
      while (k > stop) {
        size_t e = k;
        while (e > stop && (before[e - 1] == ' ' || before[e - 1] == ',' || before[e - 1] == '-' ||
                            before[e - 1] == '&' || before[e - 1] == '/')) {
          --e;
        }
        if (e >= 3 && before.substr(e - 3, 3) == "\xE2\x80\x93") e -= 3;
        size_t s = word_start_back(before, e);
        const std::string_view pw = before.substr(s, e - s);
        if (s == e) break;
        if (day_word(pw)) {
          from = s;
          k = s;
        } else if (is_range_word(pw) || is_list_word(pw)) {
          k = s;
        } else {
          break;
        }
      }
      // "... 6 pm on weekdays, 8 am to 6 pm on Saturday": days after "on" and before a comma are the
      // previous times'.
      size_t p = from;
      while (p > 0 && before[p - 1] == ' ') --p;
      if (comma && p >= 2 && ieq_ascii(before.substr(p - 2, 2), "on") && (p == 2 || before[p - 3] == ' ')) return 0;
      return weekdays(before.substr(from, w - from + word.size()));
    }
    if (!is_time_filler(word)) return 0;
    i = w;
  }
  return 0;
}

// The days a time of day is stated for: the day expression right before it ("Monday to Thursday from
// 5:00 PM to 9:00 PM", "Friday: 11 am - 10 pm"), with only times and their words between, or else
// right after it ("11 am to 11 pm on Monday through Sunday", "9 am - 5 pm weekdays"). 0 when none.
// Whether a time comes next, past separators and words such as "from" or "open".
bool time_follows(std::string_view text) {
  size_t j = 0;
  while (j < text.size() && j < kDaysReach) {
    const auto c = static_cast<unsigned char>(text[j]);
    if (is_digit(c)) return true;
    if (c == ' ' || c == ':' || c == '-') {
      ++j;
      continue;
    }
    size_t e = j;
    while (e < text.size() && is_alpha(static_cast<unsigned char>(text[e]))) ++e;
    const std::string_view word = text.substr(j, e - j);
    if (word == "noon" || word == "midnight") return true;
    if (word.empty() || !is_time_filler(word)) return false;
    j = e;
  }
  return false;
}

// The day expression right after a time (only time words before it): its days, and in `end` where
// it ends (0 when there is none).
uint8_t weekdays_after(std::string_view after, size_t& end_at) {
  end_at = 0;
  size_t j = 0;
  const size_t end = std::min(after.size(), kDaysReach);
  size_t days_from = std::string_view::npos;
  size_t days_to = 0;
  while (j < end) {
    const char c = after[j];
    // A parenthesis after the days is a remark of its own: "on weekends (Monday shows ...)".
    if (c == '(' && days_from != std::string_view::npos) break;
    if (allowed_char(c) || after.substr(j, 3) == "\xE2\x80\x93") {
      j += (static_cast<unsigned char>(c) == 0xE2) ? 3 : 1;
      continue;
    }
    if (!is_alpha(static_cast<unsigned char>(c)) && c != '&') break;
    size_t e = j;
    while (e < end && (is_alpha(static_cast<unsigned char>(after[e])) || after[e] == '.' || after[e] == '&')) ++e;
    std::string_view word = after.substr(j, e - j);
    if (!word.empty() && word.back() == '.' && !day_word(word) && !is_time_filler(word)) word.remove_suffix(1);
    if (day_word(word)) {
      if (days_from == std::string_view::npos) days_from = j;
      days_to = j + word.size();
    } else if (days_from != std::string_view::npos && (is_range_word(word) || is_list_word(word))) {
      // inside the day expression
    } else if (days_from != std::string_view::npos || !is_time_filler(word)) {
      break;
    }
    j = e;
  }
  if (days_from == std::string_view::npos) return 0;
  // "until 9 pm, on Friday from 12:00 to 22:00": days behind a comma that lead to a time of their
  // own are that time's.
  if (after.substr(0, days_from).find(',') != std::string_view::npos && time_follows(after.substr(days_to))) return 0;
  end_at = days_to;
  return weekdays(after.substr(days_from, days_to - days_from));
}
}  // namespace

namespace {
// The days after a time that are its own, and where they end (`end`, 0 when the days are before it):
// none before it, or ("11 am-9 pm Tuesday to Friday, 11 am-8 pm on weekends") only behind a comma,
// which are the earlier times'.
uint8_t own_days_after(std::string_view before, std::string_view after, size_t& end) {
  end = 0;
  if (weekdays_back(before) == 0) return weekdays_after(after, end);
  const size_t comma = before.rfind(',');
  if (comma == std::string_view::npos || weekdays_back(before.substr(comma + 1)) != 0) return 0;
  return weekdays_after(after, end);
}
}  // namespace

uint8_t weekdays_of_time(std::string_view before, std::string_view after) {
  size_t end = 0;
  if (const uint8_t own = own_days_after(before, after, end)) return own;
  return weekdays_back(before);
}

uint8_t weekdays_excepted(std::string_view before, std::string_view after) {
  // Past this time's own days: the next time in the sentence (not the other end of this one's
  // range, which comes before its days: "from 4:00 pm to 9:00 pm on weekdays"), and its days.
  size_t from = 0;
  if (own_days_after(before, after, from) == 0 && weekdays_back(before) == 0) return 0;
  const size_t end = std::min({after.size(), kDaysReach * 2, after.find_first_of(".;\n")});
  size_t i = from;
  while (i < end && !is_digit(static_cast<unsigned char>(after[i]))) ++i;
  if (i >= end) return 0;
  const size_t time_at = i;
  while (i < end && (is_digit(static_cast<unsigned char>(after[i])) || after[i] == ':')) ++i;
  return weekdays_of_time(after.substr(from, time_at - from), after.substr(i, end - i));
}

}  // namespace sfcl::anchor
