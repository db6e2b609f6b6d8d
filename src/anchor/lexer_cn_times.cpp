// Chinese times of day and days of the month: "下午3点", "晚上九点半", "19时35分", "25日", "每月10号", and
// the race times and marks of Chinese sports news ("2小时27分05秒", "3分19秒47").
#include <algorithm>
#include <array>
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"

namespace sfcl::anchor::lex {

// The joints between two days before 号 ("28号和29号", "2号到5号").
constexpr std::array<std::string_view, 4> kDayJoints = {"号和", "号、", "号到", "号至"};

// What a number before 号 names: 1号线 (a line), 8号台风, 10号楼.
constexpr std::u32string_view kNamedByNumber = U"线楼台文院房机车门码店口桥站馆厅船仓库窗床位种球令高队航患";

// "智利外交部25日发表声明": in Chinese news a bare "N日" before the verb is the day of the month the
// event happened, not a span of N days. It is a duration where a span is meant: "30日内", "30日以内",
// "30日之后", "收到后30日起", "30日的" (the number ends at j, "日" at j). Norm "---DD" (ISO 8601's
// day without month), which any source date on that day supports.
namespace {
// Whether the sentence that `lead` ends has written a month in digits ("3月") in its last 150 bytes.
bool month_in_sentence(std::string_view lead) {
  constexpr size_t kReach = 150;
  size_t from = lead.size() > kReach ? lead.size() - kReach : 0;
  for (std::string_view end : {"。", "；", "\n"}) {
    const size_t at = lead.rfind(end);
    if (at != std::string_view::npos && at + end.size() > from) from = at + end.size();
  }
  for (size_t at = lead.find("月", from); at != std::string_view::npos; at = lead.find("月", at + 1)) {
    if (at > 0 && is_digit(lead[at - 1])) return true;
  }
  return false;
}

// Whether a group of joined days may open after `lead`, the text before its first or later number:
// after punctuation or a word that leads to a date (在, 于, 从 …), not after a name
// (上海华通1号、2号 are grades).
bool opens_day_group(std::string_view lead) {
  while (true) {  // back over the earlier days of the group ("28号和" before 29号)
    size_t k = lead.size();
    for (std::string_view joint : kDayJoints) {
      if (lead.ends_with(joint)) k -= joint.size();
    }
    if (k == lead.size()) break;
    while (k > 0 && is_digit(lead[k - 1])) --k;
    lead = lead.substr(0, k);
  }
  if (lead.empty() || lead.back() == ' ' || lead.back() == '\n') return true;
  for (std::string_view w : {"，", "：", "。", "；", "、", "（", "在", "于", "从", "自", "到", "至", "是", "为"}) {
    if (lead.ends_with(w)) return true;
  }
  return false;
}

// Whether a later day of the month joined to one follows at k: "和29号", "、29号", "到29号" with no
// thing a number names after it ("3号和5号楼" are buildings).
bool joined_day_of_month(Src& src, size_t k, int day) {
  bool joined = false;
  for (std::string_view joint : {"和", "、", "到", "至"}) {
    if (src.match(k, joint)) {
      k += joint.size();
      joined = true;
      break;
    }
  }
  const size_t e = src.digits(k);
  if (!joined || e == k || e - k > 2 || !src.match(e, "号")) return false;
  const int later = src.number_at(k, e);
  const char32_t next = src.cp(e + 3).cp;
  return later > day && later <= 31 && std::u32string_view(kNamedByNumber).find(next) == std::u32string_view::npos;
}
}  // namespace

size_t scan_cn_day(Src& src, size_t p, size_t j, Anchor& a) {
  if (j - p > 2) return 0;
  // "每月10号", "下月5号": 号 is a day of the month only after a month word (10号楼 is a building).
  if (src.match(j, "号")) {
    const std::string_view lead = src.s.substr(0, p);
    const int day = src.number_at(p, j);
    // Not before what a number names: 1号线 (a line), 8号台风, 10号楼.
    const char32_t next = src.cp(j + 3).cp;
    if (std::u32string_view(kNamedByNumber).find(next) != std::u32string_view::npos) {
      return 0;
    }
    if (day < 1 || day > 31) return 0;
    bool month_day = false;
    for (std::string_view m : {"每月", "本月", "下月", "上月", "当月", "次月", "每个月", "下个月", "上个月"}) {
      month_day = month_day || lead.ends_with(m);
    }
    // Also before a part of the day ("27号上午8点半", "19号晚上9:20") and as either of two days joined
    // ("28号和29号面试").
    for (std::string_view part : {"上午", "中午", "下午", "晚上", "早上", "凌晨", "傍晚"}) {
      month_day = month_day || src.match(j + 3, part);
    }
    bool joined = joined_day_of_month(src, j + 3, day);
    for (std::string_view joint : kDayJoints) {
      joined = joined ||
               (lead.ends_with(joint) && lead.size() > joint.size() && is_digit(lead[lead.size() - joint.size() - 1]));
    }
    // Joined days only in a sentence that has written its month ("3月27日到29日进行：…28号和29号面试";
    // 上海华通1号、2号、3号白银 are grades).
    month_day = month_day || (joined && month_in_sentence(lead) && opens_day_group(lead));
    if (!month_day) return 0;
    set_norm(a, Type::date, "---" + two_digits(day));
    return j + 3;
  }
  if (!src.match(j, "日")) return 0;
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

// A unit, measure word or magnitude at j: what makes the digits before it a quantity, not minutes.
bool unit_follows(Src& src, size_t j) {
  if (src.at(j) == '%' || is_digit(src.at(j)) || (src.at(j) == '.' && is_digit(src.at(j + 1)))) return true;
  std::string_view unit;
  std::string_view code;
  if (quantity_suffix(src, j, unit) > 0 || measure_suffix(src, j, unit) > 0 || currency_suffix(src, j, code) > 0 ||
      percent_suffix(src, j) > 0) {
    return true;
  }
  for (std::string_view w :
       {"个", "倍", "元", "万", "亿", "度", "米", "公", "千", "百", "％", "秒", "项", "条", "吨"}) {
    if (src.match(j, w)) return true;
  }
  return false;
}

// Minutes after "点" / "时" at k: "30分", "三十分", "半", "一刻", "三刻", "整", "钟" (点钟), "许", and
// after a part of the day (`spoken`) "五十" without 分 ("晚上十一点五十"). Sets `minute` and returns
// the end, or k when none is written; npos when minutes are out of range.
size_t cn_minutes(Src& src, size_t k, bool spoken, bool digit_hour, int& minute) {
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
  // "10点20到昆明", "9点05开始": two digits of minutes after an hour in digits, unless a unit follows
  // them (3点45个百分点 is a decimal said aloud, 3点12项措施 two counts).
  if (digit_hour && j - k == 2 && (minute >= 10 || src.at(k) == '0') && !unit_follows(src, j)) return j;
  minute = 0;
  return k;
}

// "3点" with no part of the day is a time where the words around it say so: the end of a range of
// times ("早上7点到10点", "9:00至12点") or a word of time after it ("7点开始", "3点前", "10点左右").
bool cn_hour_by_context(Src& src, size_t p, size_t e) {
  const std::string_view lead = src.s.substr(0, p);
  for (std::string_view joint : {"到", "至", "-", "～", "~"}) {
    if (!lead.ends_with(joint)) continue;
    const std::string_view start = lead.substr(0, lead.size() - joint.size());
    for (std::string_view end : {"点", "时", "分", "半", "刻"}) {
      if (start.ends_with(end)) return true;
    }
    return start.size() >= 3 && is_digit(start[start.size() - 1]) && is_digit(start[start.size() - 2]) &&
           start[start.size() - 3] == ':';
  }
  // 前, 后 and 起 also begin words of their own after a count of points (三点前提, 两点后来, 三点起到).
  for (std::string_view w : {"前提", "前景", "前途", "前面", "前者", "后来", "后果", "后续", "后者", "后面", "起到",
                             "起草", "起来", "起诉"}) {
    if (src.match(e, w)) return false;
  }
  for (std::string_view w :
       {"开始", "前",   "后",   "以前", "以后", "之前", "之后", "起",   "准时", "结束", "出发", "集合",
        "开门", "关门", "营业", "开放", "举行", "开幕", "闭幕", "到达", "抵达", "停止", "入场", "入馆",
        "闭馆", "开馆", "报到", "签到", "起飞", "登机", "开考", "发车", "退房", "入住"}) {
    if (src.match(e, w)) return true;
  }
  // "9点到12点", "11点到中午12点": a range to another hour (not "上涨15点至3050点", index points);
  // after 从 a verb may stand before 到 where the other end is plainly a time ("从10点讲到10点45";
  // "从5点回落到4点" are index points).
  size_t joint = e;
  bool verb = false;
  if (lead.ends_with("从")) {
    for (size_t k = 0; k < 2 && !src.match(joint, "到") && !src.match(joint, "至") && src.at(joint) >= 0xE0; ++k) {
      joint += 3;
      verb = true;
    }
  }
  if (!src.match(joint, "到") && !src.match(joint, "至")) return false;
  size_t second = joint + 3;
  for (std::string_view part : {"上午", "中午", "下午", "晚上", "早上", "傍晚", "夜里", "凌晨"}) {
    if (src.match(second, part)) {
      second += part.size();
      break;
    }
  }
  const size_t h2 = src.digits(second);
  if (h2 == second || h2 - second > 2 || !(src.match(h2, "点") || src.match(h2, "时"))) return false;
  // After a verb, the other end has its minutes (or 半, 刻) or a part of the day.
  return !verb || second > joint + 3 || is_digit(src.at(h2 + 3)) || src.match(h2 + 3, "半") || src.match(h2 + 3, "刻");
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
  const size_t e = cn_minutes(src, j + 3, part != DayPart::none, digits && dian, minute);
  if (e == std::string_view::npos) return 0;
  if (part == DayPart::none && e == j + 3 && (dian || !digits) &&
      !(dian && (digits || hour > 1) && cn_hour_by_context(src, p, e))) {
    return 0;  // "早一点出发": 一点 is "a little"
  }
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
