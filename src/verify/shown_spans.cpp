// A span of time between two dates or times the answer writes in the same sentence (docs/ANCHORS.md,
// "Checking"): "2月18日至24日的7天", "6天后的10日" after "4日", "从中午12点营业到晚上22时，共10个小时",
// "19时12分…3分钟后即19:15". The span is the answer's own arithmetic over values it shows; each date
// and time is checked as itself. Reported as `derived` with no source operand.
#include <array>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "verify/calendar.h"
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
  double at = 0;  // a year alone: the year
  DateParts date;
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
    return Point{true, false, h * 60.0 + m, {}};
  }
  if (a.type != Type::date) return std::nullopt;
  const std::string_view n = a.norm;
  DateParts d;
  if (n.size() == 5 && n.starts_with("---")) {  // a day of the month
    if (last.month == 0) return std::nullopt;
    d = last;
    d.day = std::atoi(a.norm.c_str() + 3);
  } else if (n.size() == 7 && n.starts_with("--")) {  // a month and day, in the year of the last date
    d.year = last.year == 0 ? 2001 : last.year;
    d.month = std::atoi(a.norm.c_str() + 2);
    d.day = std::atoi(a.norm.c_str() + 5);
  } else if (auto p = parse_date(n)) {
    d = *p;
    if (d.month == 0) return Point{false, true, static_cast<double>(d.year), d};
    if (d.day == 0) return std::nullopt;  // a month alone is no point in time
  } else {
    return std::nullopt;
  }
  last = d;
  return Point{false, false, static_cast<double>(days_from_civil(d.year, d.month, d.day)), d};
}

// Whether the span `a` states lies between x and y: minutes or hours between times (past midnight
// where the second is earlier), days or weeks between dates (a range of days counts both ends:
// "18日至24日的7天"), whole months or years between dates or years.
bool spans(const Anchor& a, const Point& x, const Point& y) {
  if (x.time != y.time || x.year_only != y.year_only) return false;
  const std::string_view n = a.norm;
  const size_t sp = n.rfind(' ');
  if (sp == std::string_view::npos) return false;
  const std::string_view unit = n.substr(sp + 1);
  const double v = a.value;
  if (x.time) {
    const double gap = y.at >= x.at ? y.at - x.at : y.at + kMinutesPerDay - x.at;
    return (unit == "minute" && gap == v) || (unit == "hour" && gap == v * 60);
  }
  const Point& lo = x.at <= y.at ? x : y;
  const Point& hi = x.at <= y.at ? y : x;
  if (x.year_only) return unit == "year" && hi.date.year - lo.date.year == v;
  const double days = hi.at - lo.at;
  if (unit == "day") return days == v || days + 1 == v;
  if (unit == "week") return days == v * 7;
  // Whole months or years between two full dates ("2019年12月30日…2020年1月2日" is no year).
  const int months =
      (hi.date.year - lo.date.year) * 12 + hi.date.month - lo.date.month - (hi.date.day < lo.date.day ? 1 : 0);
  if (unit == "month") return months == v;
  if (unit == "year") return months >= 12 && std::floor(months / 12.0) == v;
  return false;
}

}  // namespace

bool Checker::span_shown(const Anchor& a, std::string_view before, std::string_view after) {
  if (a.type != Type::duration || !(a.value > 0) || before.data() == nullptr) return false;
  // The sentence is read across the value only where `after` continues the same text right after it.
  if (after.data() != before.data() + before.size() + (a.end - a.start)) after = {};
  size_t value_at = 0;
  const std::string_view text = sentence(before, after, value_at);
  shown_anchors_.clear();
  anchor::extract_into(text, shown_anchors_);
  constexpr size_t kMaxPoints = 16;
  std::array<Point, kMaxPoints> points;
  size_t n = 0;
  DateParts last;
  for (const Anchor& f : shown_anchors_) {
    if (f.start <= value_at && value_at < f.end) continue;  // the value itself
    if (auto p = point_of(f, last); p && n < kMaxPoints) points[n++] = *p;
  }
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      if (spans(a, points[i], points[j])) {
        shown_time_ = points[i].time;
        return true;
      }
    }
  }
  return false;
}

}  // namespace sfcl::verify
