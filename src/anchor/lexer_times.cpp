// Times of day and list markers: what a digit at p is before it is read as a number. "9:00 am to
// 9:30 pm" is two times, not the numbers 9, 00, 9 and 30 (each of which any 9 or 0 in the sources
// would confirm); "6. Rinse" at the start of a line numbers a step, it states no value.
#include <algorithm>
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"

namespace sfcl::anchor::lex {

std::string two_digits(int v) {
  std::string s(2, '0');
  s[0] = static_cast<char>('0' + v / 10);
  s[1] = static_cast<char>('0' + v % 10);
  return s;
}

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

size_t day_part_after(Src& src, size_t j, int hour, bool& pm);

// Whether `lead` ends with a word of time and a space, in any case ("at ", "From ").
bool led_by_word_of_time(std::string_view lead) {
  for (std::string_view w : {"from ", "until ", "till ", "since ", "at ", "before ", "after ", "around "}) {
    if (lead.size() < w.size() || !ieq_ascii(lead.substr(lead.size() - w.size()), w)) continue;
    if (lead.size() == w.size() || !is_alpha(static_cast<unsigned char>(lead[lead.size() - w.size() - 1]))) return true;
  }
  return false;
}
bool listed_after_led_hour(std::string_view lead);

// " in the morning", " in the evening", " at night" after an hour (1-12) at p that a word of time
// leads ("from 8 in the morning", not "fell to 3 at night" nor "5 in the morning" as counts): its end
// and its half of the day, or 0. At night the small hours are the morning's ("until 2 at night").
size_t day_part_words(Src& src, size_t p, size_t j, int hour, bool& pm) {
  if (src.at(j) != ' ' || hour < 1 || hour > 12) return 0;
  bool led = led_by_word_of_time(src.s.substr(0, p));
  // "to" ends a range of hours only: "from 9 in the morning to 5 in the afternoon", not "fell to 3".
  constexpr size_t kRangeReach = 40;
  const size_t from = p > kRangeReach ? p - kRangeReach : 0;
  const std::string_view lead = src.s.substr(from, p - from);
  led = led || (lead.ends_with("to ") && lead.find("from ") != std::string_view::npos);
  led = led || listed_after_led_hour(src.s.substr(0, p));
  return led ? day_part_after(src, j, hour, pm) : 0;
}

// Whether the hour after `lead` is the next of a list of hours with their parts of the day whose
// first a word of time leads: "at 8 in the morning, 3 in the afternoon and 11 at night" (not "made 5
// in the morning and 2 in the afternoon", counts).
bool listed_after_led_hour(std::string_view lead) {
  constexpr int kMaxItems = 6;
  for (int item = 0; item < kMaxItems; ++item) {
    bool joined = false;
    for (std::string_view joint : {", and ", ", ", " and "}) {
      if (lead.ends_with(joint)) {
        lead.remove_suffix(joint.size());
        joined = true;
        break;
      }
    }
    bool part = false;
    for (std::string_view words : {" in the morning", " in the afternoon", " in the evening", " at night"}) {
      if (joined && lead.ends_with(words)) {
        lead.remove_suffix(words.size());
        part = true;
        break;
      }
    }
    size_t d = lead.size();
    while (d > 0 && lead.size() - d < 2 && is_digit(lead[d - 1])) --d;
    if (!part || d == lead.size() || d == 0 || lead[d - 1] != ' ') return false;
    lead = lead.substr(0, d);
    if (led_by_word_of_time(lead)) return true;
  }
  return false;
}

// " in the morning", " in the afternoon", " in the evening", " at night" at j after an hour: its end
// and its half of the day, or 0.
size_t day_part_after(Src& src, size_t j, int hour, bool& pm) {
  if (src.at(j) != ' ') return 0;
  struct Part {
    std::string_view words;
    bool pm;
  };
  for (const Part& w : {Part{"in the morning", false}, Part{"in the afternoon", true}, Part{"in the evening", true},
                        Part{"at night", hour >= 6 && hour != 12}}) {
    if (src.match(j + 1, w.words) && src.word_end(j + 1 + w.words.size())) {
      pm = w.pm;
      return j + 1 + w.words.size();
    }
  }
  return 0;
}

// After a bare hour `hour` at [p, e): a dash, " to " (or " and " after "between") and an hour with
// am/pm, an hour with minutes ("between 8 and 8:30"), or noon. Sets `pm` to the half of the day the
// first hour is in, and `known` when the second end says it.
bool range_meridiem(Src& src, size_t p, size_t e, int hour, bool& pm, bool& known) {
  size_t k = e;
  if (src.at(k) == ' ' && (src.at(k + 1) == '-' || src.match(k + 1, "\xE2\x80\x93")) && src.at(k + 1) != kEnd) ++k;
  if (src.at(k) == '-') {
    ++k;
  } else if (src.match(k, "\xE2\x80\x93")) {
    k += 3;
  } else if (src.match_ci(k, " to ")) {
    k += 4;
  } else if (src.match_ci(k, " and ") && src.s.substr(0, p).ends_with("etween ")) {
    k += 5;
  } else {
    return false;
  }
  if (src.at(k) == ' ') ++k;
  known = true;
  if (src.match_ci(k, "noon") && !is_alpha(src.at(k + 4))) {  // "between 9 and noon": a morning hour
    pm = hour == 12;
    return hour <= 12;
  }
  const size_t h2_end = src.digits(k);
  if (h2_end == k || h2_end - k > 2) return false;
  const int hour2 = src.number_at(k, h2_end);
  size_t m = h2_end;
  const bool minutes = src.at(m) == ':' && src.digits(m + 1) == m + 3;
  if (minutes) m += 3;
  bool pm2 = false;
  if (hour2 < 1 || hour2 > 12) return false;
  if (meridiem(src, m, pm2) == 0) {
    // "from 9 to 11:30": either half of the day, as the end is; only after "from" or "between"
    // ("Session 2 - 10:30 Keynote", "Matthew 5-7:29" are no times).
    known = false;
    const std::string_view lead = src.s.substr(0, p);
    return minutes && (hour <= hour2 || hour == 12) &&
           (lead.ends_with("from ") || lead.ends_with("From ") || lead.ends_with("etween "));
  }
  const int end24 = (hour2 % 12) + (pm2 ? 12 : 0);
  const int start24 = (hour % 12) + (pm2 ? 12 : 0);
  // After the end in its half of the day, the start is in the other half: "11-3 pm" starts at 11
  // am, "10-2 am" at 10 pm.
  pm = start24 <= end24 ? pm2 : !pm2;
  return true;
}

}  // namespace

// "9:00", "14:30", "9:00:15", "9:00 pm", "8 PM", "11am", "10 a.m.", and the "14:0" of records that
// drop a minute's leading zero. Norm: 24-hour "HH:MM". A 1-12 o'clock time without am/pm is either
// half of the day: norm the morning reading, alt_norm the afternoon one, so "2:00 pm" is supported
// by a source "2:00" and by "14:00". Not "3:1" (a ratio), nor "10:30" inside "1:10:30" of a longer
// chain.
namespace {
// "2130 BST", "0800 GMT", "1400 hrs": four digits before a time zone are a time of day (as British
// and military usage writes it), not a count.
size_t scan_zoned_hhmm(Src& src, size_t p, Anchor& a) {
  if (src.digits(p) != p + 4 || src.at(p + 4) != ' ' || (p > 0 && is_alnum(static_cast<unsigned char>(src.s[p - 1])))) {
    return 0;
  }
  const int hour = src.number_at(p, p + 2);
  const int minute = src.number_at(p + 2, p + 4);
  if (hour > 23 || minute > 59) return 0;
  for (std::string_view zone : {"GMT", "BST", "UTC", "CET", "CEST", "EST", "EDT", "PST", "PDT", "hrs"}) {
    if (src.match(p + 5, zone) && !is_alnum(src.at(p + 5 + zone.size()))) {
      set_norm(a, Type::time, two_digits(hour) + ":" + two_digits(minute));
      return p + 4;
    }
  }
  return 0;
}
}  // namespace

namespace {
// Whether the word before `end` (text before it, spaces trimmed) opens something for hours.
bool opening_word_before(std::string_view lead) {
  while (!lead.empty() && lead.back() == ' ') lead.remove_suffix(1);
  return one_of(lead.substr(word_start_back(lead, lead.size())),
                {"open", "opens", "opened", "runs", "served", "staffed", "available", "operates"});
}

// What the second end of a range of hours may stand before: punctuation, the end, a day or "on",
// "every", "daily" ("from 10 to 4 players", "2:30 - 4 goals" are counts).
bool ends_hours(Src& src, size_t second_end) {
  if (src.at(second_end) != ' ') return !is_alnum(src.at(second_end));
  const size_t k = second_end + 1;
  if (is_upper(src.at(k))) {  // a day ("to 5 Monday"), not a name ("7pm - 11 Downing Street")
    for (std::string_view day : {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}) {
      if (src.match(k, day)) return true;
    }
    return false;
  }
  if (!is_lower(src.at(k))) return true;
  size_t w = k;
  while (is_lower(src.at(w)) && w - k <= 8) ++w;
  return one_of(src.s.substr(k, w - k), {"on", "every", "daily", "each", "and", "at", "from", "until", "except"});
}

// "opens from 10 to 4", "the desk is staffed from 9 to 5": two bare hours after "from" and a word
// that opens something for hours are the hours it is open, each either half of the day. The hour at
// [p, e) is the first end (" to " and an hour of the clock follow) or the second ("from H to " before
// it); a noun after the second end makes them counts ("from 10 to 4 players").
bool opening_hours(Src& src, size_t p, size_t e) {
  const std::string_view lead = src.s.substr(0, p);
  size_t second_end = 0;
  if (lead.ends_with("from ") && opening_word_before(lead.substr(0, lead.size() - 5)) && src.match(e, " to ")) {
    second_end = src.digits(e + 4);
    if (second_end == e + 4 || second_end - (e + 4) > 2) return false;
    const int hour2 = src.number_at(e + 4, second_end);
    if (hour2 < 1 || hour2 > 12) return false;
  } else if (lead.ends_with(" to ")) {
    size_t d = lead.size() - 4;
    const size_t d_end = d;
    while (d > 0 && d_end - d < 2 && is_digit(lead[d - 1])) --d;
    const std::string_view before_first = lead.substr(0, d);
    if (d == d_end || !before_first.ends_with("from ") ||
        !opening_word_before(before_first.substr(0, before_first.size() - 5))) {
      return false;
    }
    second_end = e;
  } else {
    return false;
  }
  return ends_hours(src, second_end);
}

// Whether `lead`, the text before a bare hour, ends with a time of day and the joint of a range:
// "from 7:30 to 11", "7 am - 11", "from half past seven to 11". The hour is the range's end, either
// half of the day.
bool ends_range_of_times(std::string_view lead, int hour) {
  bool joined = false;
  for (std::string_view joint : {" to ", " until ", " till ", " - ", " \xE2\x80\x93 ", "-", "\xE2\x80\x93"}) {
    if (lead.ends_with(joint)) {
      lead.remove_suffix(joint.size());
      joined = true;
      break;
    }
  }
  if (!joined || lead.empty()) return false;
  const auto ends_ci = [&](std::string_view w) {
    return lead.size() >= w.size() && ieq_ascii(lead.substr(lead.size() - w.size()), w);
  };
  for (std::string_view m : {"am", "pm", "a.m.", "p.m."}) {
    if (!ends_ci(m)) continue;
    std::string_view t = lead.substr(0, lead.size() - m.size());
    if (t.ends_with(' ')) t.remove_suffix(1);
    return !t.empty() && is_digit(t.back());
  }
  const size_t n = lead.size();
  if (n >= 4 && is_digit(lead[n - 1]) && is_digit(lead[n - 2]) && lead[n - 3] == ':' && is_digit(lead[n - 4])) {
    // Not the same hour again ("cut his mile time from 4:05 to 4").
    const bool two = n >= 5 && is_digit(lead[n - 5]);
    const int first = (lead[n - 4] - '0') + (two ? (lead[n - 5] - '0') * 10 : 0);
    if (first % 12 == hour % 12) return false;
    const size_t h = n - (two ? 5 : 4);
    return h == 0 || !(lead[h - 1] == ':' || is_alpha(static_cast<unsigned char>(lead[h - 1])));
  }
  // "half past seven", "quarter to nine": the last word follows "past" or "quarter to".
  const size_t word = lead.rfind(' ');
  if (word == std::string_view::npos) return false;
  const std::string_view before = lead.substr(0, word);
  return before.ends_with("half past") || before.ends_with("quarter past") || before.ends_with("quarter to");
}

// Whether a colon pair after `lead` is an item of a list of scores in a Chinese sentence that speaks
// of the score (比分) in its last 60 bytes: "比分为11:8、9:11" (the first item before "、", a later one
// after an item), not "最终比分2:1，开球时间为19:30" nor "比分：28:22，下午3:30结束".
bool scores_in_sentence(std::string_view lead, bool item_follows) {
  constexpr size_t kReach = 60;
  bool opens = false;
  for (std::string_view w : {"为", "是", "：", "分"}) opens = opens || lead.ends_with(w);
  const std::string_view list = "、";
  const bool later_item = lead.ends_with(list) && lead.size() > list.size() + 2 &&
                          is_digit(lead[lead.size() - list.size() - 1]) &&
                          lead.substr(0, lead.size() - list.size()).find_last_of(':') + 3 >= lead.size() - list.size();
  if (!((opens && item_follows) || later_item)) return false;
  const std::string_view tail = lead.substr(lead.size() > kReach ? lead.size() - kReach : 0);
  const size_t score = tail.rfind("比分");
  return score != std::string_view::npos && tail.find("。", score) == std::string_view::npos;
}

// An hour of the clock (1 to 12) at [p, e) with no currency before it: "0.25 am" is a dose, "$6.30" a
// price.
bool hour_of_clock(const Src& src, size_t p, size_t e) {
  const int hour = src.number_at(p, e);
  const char before = p > 0 ? src.s[p - 1] : ' ';
  return hour >= 1 && hour <= 12 && before != '$' && before != '.' && (p < 2 || src.s.substr(p - 2, 2) != "\xC2\xA3");
}
}  // namespace

size_t scan_time(Src& src, size_t p, Anchor& a) {
  const size_t h_end = src.digits(p);
  if (h_end - p == 4) return scan_zoned_hhmm(src, p, a);
  if (h_end - p > 2) return 0;
  const int hour = src.number_at(p, h_end);
  int minute = 0;
  size_t e = h_end;
  size_t seconds = 0;  // where ":SS" starts, or 0
  // The colon as ASCII or full width ("19：30", as Chinese text writes it).
  // "6.30pm", "6.30 p.m.": British usage writes a dot, read as a time only before am/pm.
  bool dotted_pm = false;
  const bool dotted = src.at(h_end) == '.' && hour_of_clock(src, p, h_end) && src.digits(h_end + 1) == h_end + 3 &&
                      meridiem(src, h_end + 3, dotted_pm) > 0;
  const size_t colon_len =
      src.at(h_end) == ':' || dotted ? 1 : (src.match(h_end, "：") ? std::string_view("：").size() : 0);
  const bool colon = colon_len > 0;
  if (colon) {
    const size_t m_start = h_end + colon_len;
    const size_t m_end = src.digits(m_start);
    const size_t m_len = m_end - m_start;
    if (m_len == 0 || m_len > 2) return 0;
    if (m_len == 1 && src.s[m_start] != '0') return 0;  // "3:1": a ratio or a score
    // "以1:0战胜": in Chinese text a dropped zero is a score's (a record's "20:0" is of a time), and
    // so is every pair of a list of scores ("比分为11:8、9:11").
    const bool han_before = p > 0 && static_cast<unsigned char>(src.s[p - 1]) >= 0x80;
    if (m_len == 1 && (han_before || src.at(m_end) >= 0xE0)) return 0;
    if (han_before && scores_in_sentence(src.s.substr(0, p), src.match(m_end, "、"))) return 0;
    minute = src.number_at(m_start, m_end);
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
  size_t mer = meridiem(src, e, pm);
  if (mer == 0) mer = day_part_words(src, p, e, hour, pm);
  // "12–8 pm", "11-3pm": the first hour of a range takes the meridiem written once at its end (the
  // earlier half of the day where that would put it after the end); the end is read on its own.
  bool shared = false;
  bool known = false;
  if (!colon && mer == 0 && hour >= 1 && hour <= 12) shared = range_meridiem(src, p, e, hour, pm, known);
  if (!colon && mer == 0 && !shared && hour >= 1 && hour <= 12) shared = opening_hours(src, p, e);
  if (!colon && mer == 0 && !shared && hour >= 1 && hour <= 12)
    shared = ends_range_of_times(src.s.substr(0, p), hour) && ends_hours(src, e);
  if (!colon && !shared && (mer == 0 || hour == 0 || hour > 12)) return 0;  // a bare hour needs am/pm
  if (shared && known) mer = e;
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

namespace {

// Where a heading may start: the text's start, a line's, or a sentence's ("... lid. Step 2:").
bool opens_heading(const Src& src, size_t q) {
  while (q > 0 && (src.s[q - 1] == ' ' || src.s[q - 1] == '\t')) --q;
  if (q == 0) return true;
  const char c = src.s[q - 1];
  if (c == '\n' || c == '.' || c == '!' || c == '?' || c == ':' || c == ';') return true;
  for (std::string_view w : {"。", "！", "？", "：", "；"}) {
    if (q >= w.size() && src.s.substr(q - w.size(), w.size()) == w) return true;
  }
  return false;
}

// "Step" or "步骤" right before the number at p (one space allowed after "Step"): its start, or npos.
size_t step_word(const Src& src, size_t p) {
  if (p >= 6 && src.s.substr(p - 6, 6) == "步骤") return p - 6;
  size_t q = p > 0 && src.s[p - 1] == ' ' ? p - 1 : p;
  if (q < 4) return std::string_view::npos;
  const std::string_view w = src.s.substr(q - 4, 4);
  if ((w[0] != 'S' && w[0] != 's') || (w.substr(1) != "tep" && w.substr(1) != "TEP")) return std::string_view::npos;
  if (q > 4 && is_alnum(static_cast<unsigned char>(src.s[q - 5]))) return std::string_view::npos;
  return q - 4;
}

}  // namespace

// The number of a step in the answer's own list states no value (docs/ANCHORS.md, "Checking"), when
// it opens a line and is followed by "." or ")" and a space ("6. Rinse", "2) Sign") or by "、"
// ("1、打开"), or when it heads a step at a line's or a sentence's start ("Step 2: Pour",
// "步骤1：打开"). At most two digits: "2024. " starting a line is a year.
bool list_marker(Src& src, size_t p) {
  const size_t e = src.digits(p);
  if (e - p > 2) return false;
  const int c = src.at(e);
  if (const size_t w = step_word(src, p); w != std::string_view::npos) {
    return opens_heading(src, w) && (c == ':' || c == '.' || c == ')' || src.match(e, "："));
  }
  for (size_t k = p; k > 0; --k) {
    const char b = src.s[k - 1];
    if (b == '\n') break;
    if (b != ' ' && b != '\t') return false;
  }
  if (src.match(e, "、")) return true;
  if (c != '.' && c != ')') return false;
  const int next = src.at(e + 1);
  return next == ' ' || next == '\t';
}

// "half past seven", "quarter past 8", "quarter to nine pm": a time said aloud, the hour (1 to 12)
// in digits or words, am/pm or a part of the day after it ("half past seven in the evening") when
// written. Without one it reads both halves of the day, as "7:30" does.
size_t scan_past_hour(Src& src, size_t p, Anchor& a) {
  int minute = 0;
  int shift = 0;  // "quarter to nine" is 8:45
  size_t k = p;
  if (src.match_ci(p, "half past ")) {
    minute = 30;
    k += 10;
  } else if (src.match_ci(p, "quarter past ")) {
    minute = 15;
    k += 13;
  } else if (src.match_ci(p, "quarter to ")) {
    minute = 45;
    shift = 1;
    k += 11;
  } else {
    return 0;
  }
  int hour = 0;
  size_t e = src.digits(k);
  if (e > k && e - k <= 2) {
    hour = src.number_at(k, e);
  } else {
    constexpr size_t kTwelve = 12;  // kSpelled opens with one .. twelve
    for (size_t i = 0; i < kTwelve && hour == 0; ++i) {
      if (src.match_ci(k, kSpelled[i].text) && src.word_end(k + kSpelled[i].text.size())) {
        hour = static_cast<int>(i) + 1;
        e = k + kSpelled[i].text.size();
      }
    }
  }
  if (hour < 1 || hour > 12 || is_alnum(src.at(e))) return 0;
  // Not a value after "to" ("the quarter to 4.3%", "the quarter to 12 March", "to 9 million"): the
  // hour ends at punctuation or a space, and no decimal, percent, month or magnitude follows.
  if ((src.at(e) == '.' || src.at(e) == ',') && is_digit(src.at(e + 1))) return 0;
  if (src.at(e) == '%') return 0;
  if (src.at(e) == ' ') {
    int month = 0;
    const size_t w = e + 1;
    if (month_name(src, w, month) != 0) return 0;
    for (std::string_view word : {"million", "billion", "thousand", "per", "percent", "dollars", "points", "units"}) {
      if (src.match_ci(w, word)) return 0;
    }
  }
  // "the quarter to" is a period of a year ("in the quarter to June"): a time is "at (a) quarter to".
  const std::string_view lead = src.s.substr(0, p);
  if (shift == 1 &&
      (lead.ends_with("the ") || lead.ends_with("The ") || lead.ends_with("first ") || lead.ends_with("second ") ||
       lead.ends_with("third ") || lead.ends_with("fourth ") || lead.ends_with("last "))) {
    return 0;
  }
  hour -= shift;
  if (hour == 0) hour = 12;
  bool pm = false;
  size_t end = e;
  size_t mer = meridiem(src, e, pm);
  if (mer != 0) {
    end = mer;
  } else if (const size_t part = day_part_after(src, e, hour, pm); part != 0) {
    end = part;
    mer = part;
  }
  int h = hour % 12;
  if (pm) h += 12;
  a.type = Type::time;
  a.norm = two_digits(h) + ":" + two_digits(minute);
  if (mer == 0) {
    a.alt_norm = two_digits(h + 12) + ":" + two_digits(minute);
    a.ambiguous = true;
  }
  return end;
}

}  // namespace sfcl::anchor::lex
