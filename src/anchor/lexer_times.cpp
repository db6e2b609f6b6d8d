// Times of day and list markers: what a digit at p is before it is read as a number. "9:00 am to
// 9:30 pm" is two times, not the numbers 9, 00, 9 and 30 (each of which any 9 or 0 in the sources
// would confirm); "6. Rinse" at the start of a line numbers a step, it states no value.
#include <algorithm>
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

// " in the morning", " in the evening", " at night" after an hour (1-12) at p that a word of time
// leads ("from 8 in the morning", not "fell to 3 at night" nor "5 in the morning" as counts): its end
// and its half of the day, or 0. At night the small hours are the morning's ("until 2 at night").
size_t day_part_words(Src& src, size_t p, size_t j, int hour, bool& pm) {
  if (src.at(j) != ' ' || hour < 1 || hour > 12) return 0;
  bool led = false;
  for (std::string_view w : {"from ", "until ", "till ", "since ", "at ", "before ", "after ", "around "}) {
    led = led || (p >= w.size() && src.s.substr(p - w.size(), w.size()) == w);
  }
  // "to" ends a range of hours only: "from 9 in the morning to 5 in the afternoon", not "fell to 3".
  constexpr size_t kRangeReach = 40;
  const size_t from = p > kRangeReach ? p - kRangeReach : 0;
  const std::string_view lead = src.s.substr(from, p - from);
  led = led || (lead.ends_with("to ") && lead.find("from ") != std::string_view::npos);
  if (!led) return 0;
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

std::string two_digits(int v) {
  std::string s(2, '0');
  s[0] = static_cast<char>('0' + v / 10);
  s[1] = static_cast<char>('0' + v % 10);
  return s;
}

// After a bare hour `hour` ending at e: a dash or " to " and an hour (with minutes or not) with
// am/pm. Sets `pm` to the half of the day the first hour is in.
bool range_meridiem(Src& src, size_t e, int hour, bool& pm) {
  size_t k = e;
  if (src.at(k) == ' ' && (src.at(k + 1) == '-' || src.match(k + 1, "\xE2\x80\x93")) && src.at(k + 1) != kEnd) ++k;
  if (src.at(k) == '-') {
    ++k;
  } else if (src.match(k, "\xE2\x80\x93")) {
    k += 3;
  } else if (src.match_ci(k, " to ")) {
    k += 4;
  } else {
    return false;
  }
  if (src.at(k) == ' ') ++k;
  const size_t h2_end = src.digits(k);
  if (h2_end == k || h2_end - k > 2) return false;
  const int hour2 = src.number_at(k, h2_end);
  size_t m = h2_end;
  if (src.at(m) == ':' && src.digits(m + 1) == m + 3) m += 3;
  bool pm2 = false;
  if (hour2 < 1 || hour2 > 12 || meridiem(src, m, pm2) == 0) return false;
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

size_t scan_time(Src& src, size_t p, Anchor& a) {
  const size_t h_end = src.digits(p);
  if (h_end - p == 4) return scan_zoned_hhmm(src, p, a);
  if (h_end - p > 2) return 0;
  const int hour = src.number_at(p, h_end);
  int minute = 0;
  size_t e = h_end;
  size_t seconds = 0;  // where ":SS" starts, or 0
  // The colon as ASCII or full width ("19：30", as Chinese text writes it).
  const size_t colon_len = src.at(h_end) == ':' ? 1 : (src.match(h_end, "：") ? std::string_view("：").size() : 0);
  const bool colon = colon_len > 0;
  if (colon) {
    const size_t m_start = h_end + colon_len;
    const size_t m_end = src.digits(m_start);
    const size_t m_len = m_end - m_start;
    if (m_len == 0 || m_len > 2) return 0;
    if (m_len == 1 && src.s[m_start] != '0') return 0;  // "3:1": a ratio or a score
    // "以1:0战胜": in Chinese text a dropped zero is a score's (a record's "20:0" is of a time).
    if (m_len == 1 && ((p > 0 && static_cast<unsigned char>(src.s[p - 1]) >= 0x80) || src.at(m_end) >= 0xE0)) {
      return 0;
    }
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
  if (!colon && mer == 0 && hour >= 1 && hour <= 12) shared = range_meridiem(src, e, hour, pm);
  if (!colon && !shared && (mer == 0 || hour == 0 || hour > 12)) return 0;  // a bare hour needs am/pm
  if (shared) mer = e;
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

}  // namespace sfcl::anchor::lex

namespace sfcl::anchor::lex {

// "智利外交部25日发表声明": in Chinese news a bare "N日" before the verb is the day of the month the
// event happened, not a span of N days. It is a duration where a span is meant: "30日内", "30日以内",
// "30日之后", "收到后30日起", "30日的" (the number ends at j, "日" at j). Norm "---DD" (ISO 8601's
// day without month), which any source date on that day supports.
size_t scan_cn_day(Src& src, size_t p, size_t j, Anchor& a) {
  if (!src.match(j, "日")) return 0;
  if (j - p > 2) return 0;
  return cn_day_of_month(src, p, j, src.number_at(p, j), a);
}

namespace {
// Punctuation that ends a clause or an aside, in either width.
bool is_clause_punct(char32_t c) {
  static constexpr std::u32string_view kPunct = U"，。、；：！？）)」”,.;:!?";
  return kPunct.find(c) != std::u32string_view::npos;
}

// Whether a day of the month is written at k, "29日" with no word of a span after it.
bool day_follows(Src& src, size_t k) {
  const size_t e = src.digits(k);  // reads through Src: the incremental lexer waits for what it needs
  if (e == k || e - k > 2 || !src.match(e, "日")) return false;
  const auto after = src.cp(e + 3);
  if (after.length == 0) return src.final;
  for (char32_t c : {U'内', U'以', U'之', U'后', U'起', U'前', U'工', U'左'}) {
    if (after.cp == c) return false;
  }
  return true;
}
}  // namespace

size_t cn_day_of_month(Src& src, size_t p, size_t j, int day, Anchor& a) {
  if (day < 1 || day > 31) return 0;
  const auto next = src.cp(j + 3);
  if (next.length == 0 || !is_han(next.cp)) {
    // Before punctuation, the day of the month after a word that leads to a date ("持续到本月30日。",
    // "（即8日）", "于5日，"), at a sentence's start ("11日，婚礼举行") or after a dateline ("新华社福州2月25日
    // 专电（记者董建国）24日，"); elsewhere as often a span ("付款期限是30日。", "可选期限为7日，15日，30日。").
    const bool punct = next.length == 0 ? src.final : is_clause_punct(next.cp);
    if (!punct) return 0;
    static constexpr std::u32string_view kDateBefore = U"于到即至月在从自（(）)电。\n";
    // The character before: a 3-byte Han character or punctuation mark, or one ASCII byte.
    const size_t back = p >= 3 && static_cast<unsigned char>(src.s[p - 1]) >= 0x80 ? 3 : 1;
    // ... or right after a span of days, weeks, months or years that ends at it ("6天后的10日，"; not
    // "合同签订后的30日", a span itself).
    const std::string_view lead = src.s.substr(0, p);
    bool after_span = false;
    for (std::string_view w : {"天后的", "天前的", "周后的", "周前的", "月后的", "月前的", "年后的", "年前的"}) {
      after_span = after_span || lead.ends_with(w);
    }
    if (p > 0 && !after_span && kDateBefore.find(utf8::decode(src.s, p - back).cp) == std::u32string_view::npos) {
      return 0;
    }
    a.type = Type::date;
    a.norm = "---" + two_digits(day);
    return j + 3;
  }
  // The end of a range of days ("2月18日至24日的7天"): a day of the month before any word but a span's.
  const std::string_view joint = p >= 6 ? src.s.substr(p - 3, 3) : std::string_view{};
  const bool range_end = (joint == "至" || joint == "到" || joint == "和" || joint == "或" || joint == "及") &&
                         (src.s.substr(p - 6, 3) == "日" || src.s.substr(p - 6, 3) == "号");
  for (char32_t c :
       {U'内', U'以', U'之', U'后', U'起', U'左', U'为', U'期', U'前', U'止', U'的', U'工', U'元', U'日'}) {
    if (next.cp == c && !(range_end && (c == U'的' || c == U'为' || c == U'期' || c == U'止'))) return 0;
  }
  // "23日至29日", "5日和6日": two days of the month, unless the second ends a span ("30日至60日内").
  for (char32_t c : {U'至', U'到', U'或', U'和', U'及'}) {
    if (next.cp == c && !day_follows(src, j + 6)) return 0;
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

namespace sfcl::anchor::lex {
namespace {

enum class DayPart : uint8_t { none, morning, noon, afternoon, night };

// The part of the day written right before the hour at p: 上午 / 下午 / 晚上 ..., and before an
// hour in digits also 早 / 晚 ("早8点"; "晚一点" is "a little later").
DayPart day_part(const Src& src, size_t p, bool digits) {
  struct Part {
    std::string_view text;
    DayPart part;
  };
  static constexpr Part kParts[] = {
      {"上午", DayPart::morning},   {"早上", DayPart::morning},   {"早晨", DayPart::morning},
      {"凌晨", DayPart::morning},   {"清晨", DayPart::morning},   {"中午", DayPart::noon},
      {"下午", DayPart::afternoon}, {"傍晚", DayPart::afternoon}, {"晚上", DayPart::night},
      {"晚间", DayPart::night},     {"夜里", DayPart::night},     {"夜间", DayPart::night},
      {"早", DayPart::morning},     {"晚", DayPart::night}};
  for (const Part& part : kParts) {
    if (!digits && part.text.size() == 3) break;  // the one-character parts come last
    if (p >= part.text.size() && src.s.substr(p - part.text.size(), part.text.size()) == part.text) return part.part;
  }
  return DayPart::none;
}

// Minutes after "点" / "时" at k: "30分", "三十分", "半", "一刻", "三刻", "整", "钟" (点钟), "许", and
// after a part of the day (`spoken`) "五十" without 分 ("晚上十一点五十"). Sets `minute` and returns
// the end, or k when none is written; npos when minutes are out of range.
size_t cn_minutes(Src& src, size_t k, bool spoken, int& minute) {
  minute = 0;
  if (src.match(k, "半")) {
    minute = 30;
    return k + 3;
  }
  if (src.match(k, "一刻") || src.match(k, "三刻")) {
    minute = src.match(k, "一刻") ? 15 : 45;
    return k + 6;
  }
  // 整 is "sharp" unless it begins a word (七点整改要求: seven points of rectification; 整理, 整体).
  if (src.match(k, "整")) {
    for (std::string_view w : {"改", "理", "治", "顿", "体", "个", "数", "合", "套", "齐"}) {
      if (src.match(k + 3, w)) return k;
    }
    return k + 3;
  }
  if (src.match(k, "钟") || src.match(k, "许")) return k + 3;  // 许: about
  size_t j = src.digits(k);
  if (j > k && j - k <= 2) {
    minute = src.number_at(k, j);
  } else {
    j = cn_numeral_run(src, k);
    uint64_t v = 0;
    if (j == k || !cn_value(src.s.substr(k, j - k), v)) return k;
    minute = static_cast<int>(std::min<uint64_t>(v, 60));
  }
  if (minute > 59) return std::string_view::npos;
  if (src.match(j, "分")) return j + 3;
  if (spoken && minute >= 10) return j;
  minute = 0;
  return k;
}

}  // namespace

// "下午3点", "晚上九点半", "19时35分", "三点一刻", "8点钟": a Chinese time of day, the hour (worth
// `hour`) written at [p, j) in digits or numerals. Norm as scan_time's. "17时" in digits is one;
// "3点" alone is not ("3点意见" counts points), nor "一时" ("for a while"): a part of the day before
// the hour, or minutes, 半, 刻, 整, 钟 or 许 after it, make one.
size_t scan_cn_time(Src& src, size_t p, size_t j, uint64_t hour, Anchor& a) {
  const bool dian = src.match(j, "点");
  if ((!dian && !src.match(j, "时")) || hour > 24) return 0;
  const bool digits = is_digit(src.at(p));
  int minute = 0;
  const DayPart part = day_part(src, p, digits);
  const size_t e = cn_minutes(src, j + 3, part != DayPart::none, minute);
  if (e == std::string_view::npos) return 0;
  if (part == DayPart::none && e == j + 3 && (dian || !digits)) return 0;
  int h = static_cast<int>(hour) % 24;
  if ((part == DayPart::afternoon && h < 12) || (part == DayPart::noon && h <= 2)) h += 12;
  if (part == DayPart::night && h > 4 && h < 12) h += 12;                         // 晚上8点; 晚上一点 is 1 a.m.
  if ((part == DayPart::morning || part == DayPart::night) && hour == 12) h = 0;  // 晚上12点: midnight
  a.type = Type::time;
  a.norm = two_digits(h) + ":" + two_digits(minute);
  if (part == DayPart::none && h >= 1 && h <= 11) {
    a.alt_norm = two_digits(h + 12) + ":" + two_digits(minute);
    a.ambiguous = true;
  }
  return e;
}

// Hours, minutes and seconds of one span, a race time: "2小时27分05秒" (8825 s), and "2时27分05秒"
// where no word of the time of day stands before it (a marathon's result, not 2:27 a.m.:
// "北京时间2时27分05秒", "凌晨2时…" stay times). Digits [p, j). Without seconds the hours and the
// minutes stay two spans, as they are read in any other writing ("两小时四十五分钟").
size_t scan_cn_hours_minutes(Src& src, size_t p, size_t j, Anchor& a) {
  const bool hours_word = src.match(j, "小时");
  if (!hours_word && !src.match(j, "时")) return 0;
  const size_t m = j + (hours_word ? 6 : 3);
  const size_t m_end = src.digits(m);
  if (m_end == m || m_end - m > 2 || !src.match(m_end, "分") || src.number_at(m, m_end) > 59) return 0;
  const int hours = src.number_at(p, j);
  const int minutes = src.number_at(m, m_end);
  const size_t s = m_end + 3;
  const size_t s_end = src.digits(s);
  if (s_end == s || s_end - s > 2 || !src.match(s_end, "秒") || src.number_at(s, s_end) > 59) return 0;
  if (!hours_word) {
    // A race runs under ten hours; a time of day follows a part of the day or a date ("1月5日14时30分15秒").
    if (hours >= 10 || day_part(src, p, true) != DayPart::none) return 0;
    const std::string_view lead = src.s.substr(0, p);
    for (std::string_view w : {"时间", "日", "号", "于", "在"}) {
      if (lead.ends_with(w)) return 0;
    }
  }
  const int total = hours * 3600 + minutes * 60 + src.number_at(s, s_end);
  set_norm(a, Type::duration, std::to_string(total) + " second");
  a.value = total;
  return s_end + 3;
}

// "3分19秒47", "59秒08", "76米33": a race time or a mark as Chinese sports news writes them. The two
// digits after 秒 or 米 are hundredths (59.08 s, 76.33 m), and 分 before 秒 is minutes, not points;
// digits [p, j). Plain "59秒" and "76米" are left to the other readers (0).
size_t scan_cn_race_mark(Src& src, size_t p, size_t j, Anchor& a) {
  if (src.digits(p) != j || j - p > 3) return 0;
  const int whole = src.number_at(p, j);
  size_t k = j;
  int seconds = whole;
  const bool minutes = src.match(k, "分");
  if (minutes) {
    const size_t s_end = src.digits(k + 3);
    if (s_end == k + 3 || s_end - (k + 3) > 2 || !src.match(s_end, "秒")) return 0;
    seconds = whole * 60 + src.number_at(k + 3, s_end);
    if (src.number_at(k + 3, s_end) > 59) return 0;
    k = s_end + 3;
  } else if (src.match(k, "秒") || src.match(k, "米")) {
    k += 3;
  } else {
    return 0;
  }
  std::string_view unit;
  std::string_view code;
  const size_t h = k + 2;
  const bool hundredths = is_digit(src.at(k)) && is_digit(src.at(k + 1)) && !is_digit(src.at(h)) && src.at(h) != '.' &&
                          src.at(h) != ',' && percent_suffix(src, h) == 0 && quantity_suffix(src, h, unit) == 0 &&
                          duration_suffix(src, h, unit, true) == 0 && currency_suffix(src, h, code) == 0 &&
                          !src.match(h, "：") && !src.match(h, "比");
  // "以1分09秒99名列第六": 名 of 名列 (ranked) is no count of people.
  const bool ranked = is_digit(src.at(k)) && is_digit(src.at(k + 1)) && !is_digit(src.at(h)) &&
                      (src.match(h, "名列") || src.match(h, "位列"));
  if (!hundredths && !ranked && !minutes) return 0;
  std::string raw = std::to_string(seconds);
  if (hundredths || ranked) raw.append(".").append(src.s.substr(k, 2));
  bool ok = false;
  const bool mark = src.match(j, "米");
  set_norm(a, mark ? Type::quantity : Type::duration, number_norm(raw, 0, ok) + (mark ? " m" : " second"));
  a.value = std::strtod(raw.c_str(), nullptr);
  return hundredths || ranked ? h : k;
}

}  // namespace sfcl::anchor::lex
