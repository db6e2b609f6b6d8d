// A span of time between two dates or times the answer writes in the same sentence (docs/ANCHORS.md,
// "Checking"): "2月18日至24日的7天", "6天后的10日" after "4日", "从中午12点营业到晚上22时，共10个小时",
// "19时12分…3分钟后即19:15"; a span that ends at the date written next may start at any date written
// before ("3月9日…。…12天后的3月21日"). And a date a day before or after another it writes beside
// it ("3月9日，…前一天（即8日）"). Each is the answer's own arithmetic over values it shows; each date
// and time is checked as itself. Reported as `derived` with no source operand.
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "util/utf8.h"
#include "verify/calendar.h"
#include "verify/derived.h"
#include "verify/verify.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

namespace {

constexpr size_t kReach = 160;  // bytes of the sentence read on either side
constexpr double kMinutesPerDay = 24 * 60;

struct Point {
  bool time = false;  // minutes since midnight, else days since 1970-01-01
  bool year_only = false;
  bool day_only = false;  // a day of the month with no month written before it ("本月4日…10日")
  double at = 0;  // a year alone: the year
  DateParts date;
  bool month_only = false;  // a month of a year ("July 2015"): whole months and years only
};

// The value's sentence and the one before it ("3月9日…。12天后的3月21日"), up to the next sentence end
// after it (`after` is a view of the same text, right after the value, or null while a stream
// writes it).
std::string_view sentence(std::string_view before, std::string_view after, size_t& value_at) {
  if (before.size() > kReach) before.remove_prefix(before.size() - kReach);
  if (after.data() == nullptr) after = before.substr(before.size());
  if (after.size() > kReach) after = after.substr(0, kReach);
  size_t from = 0;
  for (int back = 0; back < 2; ++back) {
    const std::string_view head = before.substr(0, from == 0 ? before.size() : from - 1);
    size_t start = 0;
    for (std::string_view end : {"。", "\n", ". ", "！", "？"}) {
      if (const size_t i = head.rfind(end); i != std::string_view::npos) start = std::max(start, i + end.size());
    }
    from = start;
    if (from == 0) break;
  }
  size_t to = after.size();
  for (std::string_view end : {"。", "\n", ". ", "！", "？"}) to = std::min(to, after.find(end));
  value_at = before.size() - from;
  // The two views are adjacent in one answer text, with the value between them.
  return {before.data() + from, static_cast<size_t>(after.data() + to - (before.data() + from))};
}

// A date or time anchor as a point; a day of the month takes the month and year of the last date
// before it in the sentence ("2月18日至24日").
std::optional<Point> point_of(const Anchor& a, DateParts& last) {
  if (a.type == Type::time) {
    const int h = std::atoi(a.norm.c_str());
    const size_t colon = a.norm.find(':');
    const int m = colon == std::string::npos ? 0 : std::atoi(a.norm.c_str() + colon + 1);
    return Point{true, false, false, h * 60.0 + m, {}};
  }
  // A bare year ("from 1985 to 1998, a career of 13 years"): compared only with other years.
  if (a.type == Type::number && a.norm.size() == 4 && a.value >= 1000 && a.value <= 2100) {
    DateParts y{static_cast<int>(a.value), 0, 0};
    return Point{false, true, false, a.value, y};
  }
  if (a.type != Type::date) return std::nullopt;
  const std::string_view n = a.norm;
  DateParts d;
  if (n.size() == 5 && n.starts_with("---")) {  // a day of the month
    if (last.month == 0) {                      // compared only with other days of the same unnamed month
      const int day = std::atoi(a.norm.c_str() + 3);
      return Point{false, false, true, static_cast<double>(day), DateParts{0, 0, day}};
    }
    d = last;
    d.day = std::atoi(a.norm.c_str() + 3);
  } else if (n.size() == 7 && n.starts_with("--")) {  // a month and day, in the year of the last date
    d.year = last.year == 0 ? 2001 : last.year;
    d.month = std::atoi(a.norm.c_str() + 2);
    d.day = std::atoi(a.norm.c_str() + 5);
  } else if (auto p = parse_date(n)) {
    d = *p;
    if (d.month == 0) return Point{false, true, false, static_cast<double>(d.year), d};
    if (d.day == 0) {  // a month of a year: "until July 2015, about eight months after" November 14, 2014
      return Point{false, false, false, static_cast<double>(days_from_civil(d.year, d.month, 1)), d, true};
    }
  } else {
    return std::nullopt;
  }
  last = d;
  return Point{false, false, false, static_cast<double>(days_from_civil(d.year, d.month, d.day)), d};
}

// Whether the span `a` states lies between x and y: minutes or hours between times (past midnight
// where the second is earlier), days or weeks between dates (a range of days counts both ends:
// "18日至24日的7天"), whole months or years between dates or years.
bool spans(double v, std::string_view unit, const Point& x, const Point& y, bool inclusive) {
  if (x.time != y.time || x.year_only != y.year_only || x.day_only != y.day_only) return false;
  if (x.time) {
    const double gap = y.at >= x.at ? y.at - x.at : y.at + kMinutesPerDay - x.at;
    return (unit == "minute" && gap == v) || (unit == "hour" && gap == v * 60);
  }
  const Point& lo = x.at <= y.at ? x : y;
  const Point& hi = x.at <= y.at ? y : x;
  if (x.year_only) return unit == "year" && hi.date.year - lo.date.year == v;
  const double days = hi.at - lo.at;
  if (x.day_only) {
    return (unit == "day" && (days == v || (inclusive && days + 1 == v))) || (unit == "week" && days == v * 7);
  }
  if (x.month_only || y.month_only) {  // months apart as the months are written, days unknown
    const int months = (hi.date.year - lo.date.year) * 12 + hi.date.month - lo.date.month;
    return (unit == "month" && months == v) || (unit == "year" && months >= 12 && std::floor(months / 12.0) == v);
  }
  if (unit == "day") return days == v || (inclusive && days + 1 == v);
  if (unit == "week") return days == v * 7;
  // Whole months or years between two full dates ("2019年12月30日…2020年1月2日" is no year).
  const int months =
      (hi.date.year - lo.date.year) * 12 + hi.date.month - lo.date.month - (hi.date.day < lo.date.day ? 1 : 0);
  if (unit == "month") return months == v;
  if (unit == "year") return months >= 12 && std::floor(months / 12.0) == v;
  return false;
}

// The points of the dates and times in `text`, in order, but the value's own (at `value_at`); `next`
// is the index of the first one within a few bytes after the value ("6天后的10日"), or npos. Where
// there are more than fit, the oldest are dropped.
struct Points {
  static constexpr size_t kMax = 16;
  std::array<Point, kMax> at;
  size_t n = 0;
  size_t next = std::string_view::npos;
  std::optional<Point> value;  // the value's own point, where it is a date
};

void collect(std::string_view text, size_t value_at, size_t value_len, std::vector<Anchor>& scratch, Points& out) {
  constexpr size_t kNextWithin = 16;  // "后的", " later, on "
  scratch.clear();
  anchor::extract_into(text, scratch);
  DateParts last;
  for (const Anchor& f : scratch) {
    auto p = point_of(f, last);
    if (f.start <= value_at && value_at < f.end) {
      out.value = p;
      continue;
    }
    if (!p) continue;
    const bool is_next = out.next == std::string_view::npos && f.start >= value_at + value_len &&
                         f.start <= value_at + value_len + kNextWithin;
    if (out.n == Points::kMax) {
      if (out.next != std::string_view::npos) continue;  // what follows the next date is not needed
      std::move(out.at.begin() + 1, out.at.end(), out.at.begin());
      --out.n;
    }
    if (is_next) out.next = out.n;
    out.at[out.n++] = *p;
  }
}

// Words right after a span that tie its end to the date written next ("6天后的10日", "12 days later,
// on May 16"): the span may then start at any date the answer wrote before.
bool ends_at_next_date(std::string_view after) {
  for (std::string_view w : {"后的", "后，", "后,", "之后的", " later, on ", " later on ", " later, ", " later ("}) {
    if (after.starts_with(w)) return true;
  }
  return false;
}

// A day before or after another written next to it ("前一天（即8日）", "the next day, May 5"): the
// offset in days, or 0.
int relative_day(std::string_view before) {
  struct Word {
    std::string_view text;
    int days;
  };
  static constexpr std::array<Word, 14> kWords{{{"前一天", -1},
                                                {"前一日", -1},
                                                {"次日", 1},
                                                {"翌日", 1},
                                                {"第二天", 1},
                                                {"隔天", 1},
                                                {"后一天", 1},
                                                {"day before", -1},
                                                {"previous day", -1},
                                                {"day earlier", -1},
                                                {"next day", 1},
                                                {"following day", 1},
                                                {"day later", 1},
                                                {"day after", 1}}};
  // Between the word and the date only a gloss: "（即", "，即", ", on ", " (".
  std::string_view tail = before.substr(before.size() > 32 ? before.size() - 32 : 0);
  for (bool trimmed = true; trimmed;) {
    trimmed = false;
    for (std::string_view g : {"（", "(", "，", ",", " ", "即", "也就是", "i.e.", "on", "、"}) {
      if (tail.ends_with(g)) {
        tail.remove_suffix(g.size());
        trimmed = true;
      }
    }
  }
  for (const Word& w : kWords) {
    if (!tail.ends_with(w.text)) continue;
    // A word of its own: "The Friday before" is no "day before".
    const size_t at = tail.size() - w.text.size();
    const auto c = at == 0 ? ' ' : tail[at - 1];
    if (static_cast<unsigned char>(w.text[0]) < 0x80 && std::isalpha(static_cast<unsigned char>(c))) continue;
    return w.days;
  }
  return 0;
}

// An age given as a bare number: the whole years between two dates the answer writes ("born on
// October 1, 1935, and died on April 1, 1982, aged 46").
bool age_before(std::string_view before) {
  for (std::string_view w : {"aged ", "dying at ", "died at ", "at the age of ", "at age "}) {
    if (before.ends_with(w)) return true;
  }
  return false;
}

// The words of a gap right before a value ("两人相差21分06秒", "慢了21分06秒", "高出0.3环", "a gap of 2
// points", "2 points behind" is read before only).
bool gap_word_before(std::string_view before) {
  constexpr size_t kNear = 12;
  const std::string_view tail = before.substr(before.size() > kNear ? before.size() - kNear : 0);
  for (std::string_view w : {"相差", "相距", "差距", "慢了", "快了", "高出", "低了", "落后", "领先", "差了", "多出",
                             "a gap of ", "a difference of ", "a margin of ", "behind by ", "ahead by "}) {
    if (tail.ends_with(w)) return true;
  }
  return false;
}

// A word of a total right before a value: "共13人", "合计", "a total of".
bool total_word_before(std::string_view before) {
  constexpr size_t kNear = 12;
  const std::string_view tail = before.substr(before.size() > kNear ? before.size() - kNear : 0);
  for (std::string_view w : {"a total of ", "in all, ", "totalling ", "totaling "}) {
    if (tail.ends_with(w)) return true;
  }
  // After the list's last item: "…和一名专家，共13人", "15金13银13铜、共41枚".
  for (std::string_view w : {"共", "总共", "一共", "共计", "合计", "总计"}) {
    if (!tail.ends_with(w)) continue;
    const std::string_view lead = tail.substr(0, tail.size() - w.size());
    if (lead.ends_with("，") || lead.ends_with("、")) return true;
  }
  return false;
}

// How many times "一名", "一位" or "一人" is written, not as the end of a larger numeral ("十一名").
size_t ones_written(std::string_view text) {
  size_t n = 0;
  for (std::string_view one : {"一名", "一位", "一人"}) {
    for (size_t at = text.find(one); at != std::string_view::npos; at = text.find(one, at + one.size())) {
      char32_t prev = 0;
      if (at >= 3) prev = utf8::decode(text, at - 3).cp;
      // Not a larger numeral's end (十一名), a rank (第一名), one of a group (其中一名, 每一位), one alone (唯一).
      if (std::u32string_view(U"零〇一二三四五六七八九十百千万亿两第中每唯").find(prev) == std::u32string_view::npos)
        ++n;
    }
  }
  return n;
}

// The text of a span's far reach: up to kFar bytes before the value, to the end of its sentence.
std::string_view far_text(std::string_view before, std::string_view after, size_t& value_at) {
  constexpr size_t kFar = 1200;
  if (before.size() > kFar) before.remove_prefix(before.size() - kFar);
  size_t to = std::min<size_t>(after.size(), kReach);
  for (std::string_view end : {"。", "\n", ". ", "！", "？"}) to = std::min(to, after.find(end));
  value_at = before.size();
  return {before.data(), static_cast<size_t>(after.data() + to - before.data())};
}

}  // namespace

bool Checker::span_shown(const Anchor& a, std::string_view before, std::string_view after) {
  if (!(a.value > 0) || before.data() == nullptr) return false;
  std::string_view unit;
  bool age = false;
  if (a.type == Type::duration) {
    const size_t sp = a.norm.rfind(' ');
    if (sp == std::string::npos) return false;
    unit = std::string_view(a.norm).substr(sp + 1);
  } else if (a.type == Type::number && age_before(before)) {
    unit = "year";  // "…September 13, 2006, dying at 73": between two full dates only
    age = true;
  } else {
    return false;
  }
  // The sentence is read across the value only where `after` continues the same text right after it.
  if (after.data() != before.data() + before.size() + (a.end - a.start)) after = {};
  size_t value_at = 0;
  Points near;
  const std::string_view text = sentence(before, after, value_at);
  collect(text, value_at, a.end - a.start, shown_anchors_, near);
  // A range of days counts both ends ("18日至24日的7天"); a span that ends at the date written next
  // ("6天后的10日") is the exact difference.
  const bool later = after.data() != nullptr && ends_at_next_date(after);
  const auto full_date = [](const Point& p) { return !p.time && !p.year_only && !p.day_only && !p.month_only; };
  for (size_t i = 0; i < near.n; ++i) {
    for (size_t j = i + 1; j < near.n; ++j) {
      if (age && (!full_date(near.at[i]) || !full_date(near.at[j]))) continue;
      if (spans(a.value, unit, near.at[i], near.at[j], !later)) {
        shown_time_ = near.at[i].time;
        return true;
      }
    }
  }
  if (!later || age) return false;
  // Further back, only from one of the last two dates written before it ("3月9日，…前一天（即8日）…。…。
  // 12天后的3月21日"): a timeline's earlier dates would fit too many spans.
  Points far;
  const std::string_view reach = far_text(before, after, value_at);
  collect(reach, value_at, a.end - a.start, shown_anchors_, far);
  if (far.next == std::string_view::npos || far.next == 0) return false;
  int tried = 0;
  for (size_t i = far.next; i-- > 0 && tried < 2;) {
    const Point& from = far.at[i];
    if (from.time != far.at[far.next].time || from.year_only != far.at[far.next].year_only) continue;
    ++tried;
    if (spans(a.value, unit, from, far.at[far.next], false)) {
      shown_time_ = from.time;
      return true;
    }
  }
  return false;
}

bool Checker::date_shown(const Anchor& a, std::string_view before, std::string_view after) {
  if (a.type != Type::date || before.data() == nullptr) return false;
  const int offset = relative_day(before);
  if (offset == 0) return false;
  if (after.data() != before.data() + before.size() + (a.end - a.start)) after = {};
  size_t value_at = 0;
  Points near;
  const std::string_view text = sentence(before, after, value_at);
  collect(text, value_at, a.end - a.start, shown_anchors_, near);
  if (!near.value || near.value->time || near.value->year_only || near.value->month_only) return false;
  for (size_t i = 0; i < near.n; ++i) {
    const Point& p = near.at[i];
    if (!p.time && !p.year_only && !p.month_only && p.day_only == near.value->day_only &&
        near.value->at - p.at == offset) {
      return true;
    }
  }
  return false;
}

namespace {
// A medal table's entry, a total of medals counts it: "15金13银13铜、共41枚奖牌", "15 gold, 13 silver
// and 13 bronze, a total of 41 medals". Its colour as a bit (gold 1, silver 2, bronze 4), or 0.
unsigned colour_after(std::string_view next) {
  constexpr std::array<std::pair<std::string_view, unsigned>, 6> kColours = {
      {{"金", 1}, {"银", 2}, {"铜", 4}, {" gold", 1}, {" silver", 2}, {" bronze", 4}}};
  for (const auto& [word, bit] : kColours) {
    if (next.starts_with(word)) return bit;
  }
  return 0;
}

unsigned medal_count(std::string_view unit, const Anchor& f, std::string_view text) {
  if (f.type != Type::number || (unit != "枚" && unit != "medal")) return 0;
  return colour_after(text.substr(std::min<size_t>(f.end, text.size())));
}

// The colours the sources give medal counts in ("15金13银13铜": all three), as medal_count's bits.
unsigned source_medal_colours(const anchor::SourceIndex& index) {
  unsigned colours = 0;
  for (uint32_t i : index.of_type(Type::number)) {
    const std::string_view clause = index.counted(i);
    colours |= colour_after(clause.substr(std::min<size_t>(index.anchors()[i].counted_after, clause.size())));
  }
  return colours;
}
}  // namespace

Derivation Checker::arithmetic_shown(const Anchor& a, std::string_view before) {
  // A gap the answer states after both values, with a word of a gap right before it: "A…B，相差D",
  // "…B，慢了D", "高出D". A value that is itself a side of a change ("from $100 million to …, up
  // $100 million") is no gap of two others. Or a total after a word of a total ("6名法官、3名议员和
  // 一名专家，共13人"): the sum of every value of its kind the sentence lists before it.
  if (!(a.value > 0) || before.data() == nullptr) return Derivation::none;
  if (a.type != Type::quantity && a.type != Type::amount && a.type != Type::duration && a.type != Type::percent) {
    return Derivation::none;
  }
  const bool gap = gap_word_before(before);
  const bool total = !gap && a.type != Type::percent && total_word_before(before);
  if (!gap && !total) return Derivation::none;
  size_t value_at = 0;
  const std::string_view text = sentence(before, {}, value_at);
  shown_anchors_.clear();
  anchor::extract_into(text, shown_anchors_);
  // A total sums its own sentence only.
  size_t from = 0;
  if (total) {
    for (std::string_view end : {"。", "\n", ". ", "！", "？"}) {
      if (const size_t i = text.substr(0, value_at).rfind(end); i != std::string_view::npos) {
        from = std::max(from, i + end.size());
      }
    }
  }
  // Values of its type and unit only (the lexer reads 名, 位 and 人 as one unit), not ranks ("#107");
  // for a gap, not its own value written again.
  const std::string_view unit = unit_of(a);
  constexpr size_t kMaxValues = 16;
  std::array<double, kMaxValues> values{};
  size_t n = 0;
  unsigned colours = 0;  // of the medals summed: all three, or the table is not whole
  for (const Anchor& f : shown_anchors_) {
    if (f.start < from || f.start >= value_at || !(f.value > 0) || n == kMaxValues) continue;
    if (const unsigned colour = total ? medal_count(unit, f, text) : 0) {
      colours |= colour;
      values[n++] = f.value;
      continue;
    }
    if (f.type != a.type || f.norm.starts_with('#') || unit_of(f) != unit) continue;
    if (total || f.value != a.value) values[n++] = f.value;
  }
  const double tolerance = 1e-9 * std::max(1.0, a.value);
  if (total) {
    // A part of a listed group ("6名委员，其中2名女性") is no item of the total.
    if (text.substr(from, value_at - from).find("其中") != std::string_view::npos) return Derivation::none;
    // A medal table leaves out no colour the sources count ("15金13银、共28枚" against 15金13银13铜).
    if (colours != 0 && (colours | source_medal_colours(index_)) != colours) return Derivation::none;
    double sum = 0;
    for (size_t i = 0; i < n; ++i) sum += values[i];
    // "一名技术专家": one person is written as no value of its own.
    if (unit == "人") sum += static_cast<double>(ones_written(text.substr(from, value_at - from)));
    return n >= 2 && std::fabs(sum - a.value) <= tolerance ? Derivation::sum : Derivation::none;
  }
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      if (std::fabs(std::fabs(values[i] - values[j]) - a.value) <= tolerance) return Derivation::difference;
    }
  }
  return Derivation::none;
}

}  // namespace sfcl::verify
