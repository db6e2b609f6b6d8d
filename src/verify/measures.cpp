// Measures and counts against the sources' (docs/ANCHORS.md, "Checking", "Written another way"): a
// count's number written alone, a measure or duration stated in another unit of its dimension, a first
// said with 首, points as a count of them, goals as times scored, spans of years and ages written
// another way.
#include <algorithm>
#include <array>
#include <cmath>

#include "util/utf8.h"
#include "verify/verify.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

namespace {
// The unit of a measure's norm ("500 mg": "mg"), empty when it has none.
std::string_view unit_of(std::string_view norm) {
  const size_t sp = norm.rfind(' ');
  return sp == std::string_view::npos ? std::string_view() : norm.substr(sp + 1);
}

// Half a unit of the last decimal the answer wrote: "0.5 g" is 0.45-0.55 g.
double written_precision(std::string_view norm) {
  const size_t dot = norm.find('.');
  const size_t end = norm.find(' ');
  if (dot == std::string_view::npos || dot > end) return 0.5;
  return 0.5 * std::pow(10.0, -static_cast<double>(end - dot - 1));
}

// 个 counts anything: "15个" and "15件" (项, 种, 座 ...) of one noun are one count, the nouns compared
// after (bind_to_count). Two specific measure words ("240台", "240家") count different things.
bool generic_and_specific(std::string_view a, std::string_view b) {
  static constexpr std::string_view kSpecific[] = {"件", "项", "种", "座", "家", "所", "台", "辆", "只",
                                                   "条", "张", "本", "部", "处", "套", "栋", "间", "颗",
                                                   "枚", "首", "篇", "支", "架", "艘", "人", "户", "字"};
  const auto specific = [](std::string_view u) {
    return std::find(std::begin(kSpecific), std::end(kSpecific), u) != std::end(kSpecific);
  };
  return (a == "个" && specific(b)) || (b == "个" && specific(a));
}

// At most this far from the source's value after conversion, relative to it: "2.2 lb" is 1 kg,
// "2 lb" is not, nor "1 g" the sources' 1,250 mg.
constexpr double kMaxConversionError = 0.01;
// How far a conversion between systems may be rounded, relative to the value: 204.4 written 205.
constexpr double kCrossSystemRounding = 0.005;
}  // namespace

// A count with its unit ("240台", "229 passengers") is supported by the same number written alone,
// unless a source writes that number with another unit or measure word ("240台" against "240家"):
// then the unit is what the answer got wrong. An ordinal ("#12") needs an ordinal: the cardinal 12
// is another value. A measure ("40 mg") is not supported by a bare number where the sources state
// measures of its dimension: "Patient, 40, was given 20 mg" gives no dose of 40 mg.
bool Checker::quantity_by_number(const Anchor& a, int64_t& support) const {
  if (a.norm.starts_with('#')) return false;
  const auto& all = index_.anchors();
  if (anchor::UnitScale to; anchor::unit_scale(unit_of(a.norm), to)) {
    for (uint32_t i : index_.of_type(a.type)) {
      anchor::UnitScale from;
      if (anchor::unit_scale(unit_of(all[i].anchor.norm), from) && from.dimension == to.dimension) return false;
    }
  }
  // A record's number under a field whose last word names the unit ("'review_stars': 2.0" for "2
  // stars"; not 'goals_conceded_by_team' for "2 goals", nor 'start_month' for "4 stars").
  const std::string_view unit = unit_of(a.norm);
  for (uint32_t i : numeric_) {
    const auto& s = all[i];
    std::string_view field = s.field;
    while (!field.empty() && (field.back() == '\'' || field.back() == '"' || field.back() == ' '))
      field.remove_suffix(1);
    const size_t cut = field.find_last_of("_ -");
    const std::string_view last = cut == std::string_view::npos ? field : field.substr(cut + 1);
    if (s.anchor.value == a.value && s.anchor.type == Type::number && unit.size() >= 3 &&
        (last == unit || (last.size() == unit.size() + 1 && last.starts_with(unit) && last.back() == 's'))) {
      support = i;
      return true;
    }
  }
  int64_t plain = -1;
  for (uint32_t i : numeric_) {
    const auto& s = all[i];
    if (s.anchor.value != a.value) continue;
    if (s.anchor.type == a.type && !s.anchor.norm.starts_with('#')) {
      if (!generic_and_specific(unit_of(a.norm), unit_of(s.anchor.norm))) return false;  // another unit
      support = i;
      return true;
    }
    if (s.anchor.type == Type::number && plain < 0) plain = i;  // a score's side too ("27 points", "27-24")
  }
  support = plain;
  return plain >= 0;
}

namespace {
// Measure words that count single things of the noun after them and say nothing more, so that one
// stands for another before the same noun: 14次大满贯 and 14座大满贯, 11家医院 and 11所医院.
// Not those of a kind of their own: 届 and 期 (editions), 场 (matches), 批 and 组 (groups).
bool plain_measure(std::string_view unit) {
  static constexpr std::string_view kPlain[] = {"个", "家", "所", "座", "项", "部", "件", "只", "支", "条", "台", "辆",
                                                "架", "艘", "间", "栋", "幢", "处", "枚", "块", "张", "首", "篇", "本"};
  return std::find(std::begin(kPlain), std::end(kPlain), unit) != std::end(kPlain);
}
}  // namespace

// "9次助攻" for the sources' "9个助攻", "14座大满贯" for "14次大满贯": plain measure words count the
// noun written after them, so the same number before the same noun is one count. Each needs the
// noun: "3次" alone ("获得3次") is how often, and "3个" alone counts anything.
bool Checker::measure_variant(const Anchor& a, std::string_view before, std::string_view after,
                              anchor::TextSpan& span) const {
  const std::string_view unit = unit_of(a.norm);
  // 次 says how often: it stands only for 个 ("9次助攻", "9个助攻"), never for a thing's own measure
  // word (5次导弹 launches are no 5枚导弹).
  const bool often = unit == "次";
  if (!often && !plain_measure(unit)) return false;
  const std::string_view noun = anchor::counted_noun(before, after, true);
  if (noun.empty()) return false;
  const auto& all = index_.anchors();
  for (uint32_t i : index_.of_type(Type::quantity)) {
    const auto& s = all[i];
    const std::string_view other = unit_of(s.anchor.norm);
    // 次 pairs with 个 only; any other plain measure word with another.
    const bool pairs = often || other == "次" ? (other == "个" || unit == "个") : plain_measure(other);
    if (s.anchor.value != a.value || other == unit || !pairs) continue;
    // The source's own noun, right after its measure word, begins as the answer's does:
    // "9个篮板和5个助攻" gives no 9次助攻, "3个国家的选手获得冠军" no 3次冠军.
    const std::string_view clause = index_.counted(i);
    const std::string_view written =
        anchor::counted_noun({}, clause.substr(std::min<size_t>(s.counted_after, clause.size())), true);
    const size_t lead = std::min<size_t>({noun.size(), written.size(), 6});  // two characters
    if (lead < 6 || noun.substr(0, lead) != written.substr(0, lead)) continue;
    // How often against how many: the nouns agree in a third character too, where either has one
    // ("3次地震" is no "3个地震带").
    constexpr size_t kThree = 9;
    if ((often || other == "次") && (noun.size() >= kThree || written.size() >= kThree) &&
        (noun.size() < kThree || written.size() < kThree || noun.substr(0, kThree) != written.substr(0, kThree))) {
      continue;
    }
    span = {s.source, s.anchor.start, s.anchor.end};
    return true;
  }
  return false;
}

// "165 minutes" for the sources' "2 hours 45 minutes" (or "2小时45分钟"): two durations of one
// dimension written together, the larger unit first, are one span of time.
bool Checker::compound_duration(const Anchor& a, const anchor::UnitScale& to, double precision,
                                int64_t& support) const {
  // A space or nothing between the parts ("2 hours 45 minutes", 2小时45分钟): the bytes between are
  // not kept, and a longer gap may be "or", a sentence end or a comma between two other spans.
  constexpr uint32_t kMaxGap = 1;
  const auto& all = index_.anchors();
  const auto sources = index_.of_type(Type::duration);
  for (size_t k = 0; k + 1 < sources.size(); ++k) {
    const auto& x = all[sources[k]];
    const auto& y = all[sources[k + 1]];
    anchor::UnitScale fx;
    anchor::UnitScale fy;
    if (x.source != y.source || y.anchor.start < x.anchor.end || y.anchor.start - x.anchor.end > kMaxGap ||
        std::isnan(x.anchor.value) || std::isnan(y.anchor.value) || !anchor::unit_scale(unit_of(x.anchor.norm), fx) ||
        !anchor::unit_scale(unit_of(y.anchor.norm), fy) || fx.dimension != to.dimension ||
        fy.dimension != to.dimension || fx.factor <= fy.factor) {
      continue;
    }
    const double total = (x.anchor.value * fx.factor + y.anchor.value * fy.factor) / to.factor;
    // Within the digits written and 1% ("3 hours" is not "2 hours 45 minutes").
    if (const double error = std::fabs(total - a.value); error <= precision && error <= kMaxConversionError * total) {
      support = sources[k];
      return true;
    }
  }
  return false;
}

// "0.5 g" for the sources' "500 mg", "14 days" for "2 weeks", "98.6°F" for "37°C": the same
// measure in another unit of its dimension, to the precision the answer wrote and within 1%. Not
// where the sources state values in the answer's own unit: then it is one of those or wrong ("20
// ha" against "8.2 ha" and a floor area of 200,000 m2), unless a span is said as a fraction.
bool Checker::in_another_unit(const Anchor& a, int64_t& support) const {
  anchor::UnitScale to;
  const std::string_view unit = unit_of(a.norm);
  if (std::isnan(a.value) || !anchor::unit_scale(unit, to)) return false;
  const double precision = written_precision(a.norm);
  const auto& all = index_.anchors();
  const auto sources = index_.of_type(a.type);
  if (a.type == Type::duration && compound_duration(a, to, precision, support)) return true;
  // A span said as a fraction of its unit restates a smaller unit ("half an hour" for "30 minutes"
  // beside "4 hours"); a whole one in the sources' own unit is one of theirs or wrong ("7 days" is
  // not "1 week" where the sources also say "30 days").
  const bool fraction = a.type == Type::duration && a.value != std::floor(a.value);
  if (!fraction &&
      std::any_of(sources.begin(), sources.end(), [&](uint32_t i) { return unit_of(all[i].anchor.norm) == unit; })) {
    return false;
  }
  for (uint32_t i : sources) {
    const Anchor& s = all[i].anchor;
    anchor::UnitScale from;
    if (std::isnan(s.value) || unit_of(s.norm) == unit || !anchor::unit_scale(unit_of(s.norm), from) ||
        from.dimension != to.dimension) {
      continue;
    }
    const double converted = (s.value * from.factor + from.offset - to.offset) / to.factor;
    const double error = std::fabs(converted - a.value);
    // Across systems (°F and °C, lb and kg) a conversion is rounded as the writer sees fit: "400°F
    // (205°C)" for 204.4; within one (mg and g) it is exact to the digits written.
    const double ratio = std::log10(from.factor / to.factor);
    const bool one_system = from.offset == to.offset && std::fabs(ratio - std::round(ratio)) < 1e-9;
    const double allowed = one_system ? precision : std::max(precision, kCrossSystemRounding * std::fabs(converted));
    if (error <= allowed && error <= kMaxConversionError * std::fabs(converted)) {
      support = i;
      return true;
    }
  }
  return false;
}

namespace {
// The seconds of a clock reading with seconds ("02:08:14": 7694), or -1.
int64_t clock_seconds(std::string_view norm) {
  constexpr size_t kLength = 8;  // "HH:MM:SS"
  if (norm.size() != kLength || norm[2] != ':' || norm[5] != ':') return -1;
  const auto two = [&](size_t at) { return (norm[at] - '0') * 10 + (norm[at + 1] - '0'); };
  return int64_t{two(0)} * 3600 + int64_t{two(3)} * 60 + two(6);
}
}  // namespace

// A race's time written as a clock ("2:08:14") is the span the sources write in hours, minutes and
// seconds ("2小时08分14秒"), and the other way round.
bool Checker::race_time_as_span(const Anchor& a, int64_t& support) const {
  const bool clock = a.type == Type::time;
  const int64_t seconds =
      clock ? clock_seconds(a.norm) : (a.norm.ends_with(" second") ? static_cast<int64_t>(a.value) : -1);
  if (seconds <= 0) return false;
  const auto& all = index_.anchors();
  for (uint32_t i : index_.of_type(clock ? Type::duration : Type::time)) {
    const Anchor& s = all[i].anchor;
    const int64_t other =
        clock ? (s.norm.ends_with(" second") ? static_cast<int64_t>(s.value) : -1) : clock_seconds(s.norm);
    if (other == seconds) {
      support = i;
      return true;
    }
  }
  return false;
}

// 第一场比赛, 第一次访华 for the sources' 首场比赛, 首次访华 (首度, 头一次): the first of a measure word, said
// with 首, before the same words, up to four characters of them (the first match is no first defeat,
// the first entry into Asia none into Europe). Not without two of them: 首位 alone is as often first
// place in a ranking of something else. Not where a source also writes a later one of the same words
// (首轮投票 and 第二轮投票): which one the answer means is then its claim. Only that measure word: 首都 or
// 首相 ("capital", "premier") are no ordinal.
bool Checker::first_said_with_shou(std::string_view surface, std::string_view after, anchor::TextSpan& span) const {
  std::string_view measure = surface;
  if (measure.starts_with("第一")) {
    measure.remove_prefix(std::string_view("第一").size());
  } else if (measure.starts_with("第1")) {
    measure.remove_prefix(std::string_view("第1").size());
  } else {
    return false;
  }
  if (measure.empty() || measure.size() > 3) return false;  // one measure word
  constexpr size_t kTwo = 6;
  constexpr size_t kFour = 12;
  size_t words = 0;
  while (words < kFour && words < after.size()) {
    const auto d = utf8::decode(after, words);
    if (d.cp < 0x4E00 || d.cp > 0x9FFF) break;
    words += static_cast<size_t>(d.length);
  }
  if (words < kTwo) return false;
  static constexpr std::string_view kLater[] = {"第二", "第三", "第四", "第五", "第六", "第七", "第八", "第九", "第十",
                                                "第2",  "第3",  "第4",  "第5",  "第6",  "第7",  "第8",  "第9"};
  anchor::TextSpan later;
  for (std::string_view n : kLater) {
    scratch_.assign(n).append(measure).append(after.substr(0, kTwo));
    if (index_.find_verbatim(scratch_, later)) return false;
  }
  const bool often = measure == "次";
  // 首 and 头一 take the measure word (首次, 头一次); 首度 and 头一回 stand for 第一次 alone.
  for (std::string_view lead : {"首", "头一", "首度", "头一回"}) {
    const bool whole = lead == "首度" || lead == "头一回";
    if (whole && !often) break;
    scratch_.assign(lead).append(whole ? std::string_view{} : measure).append(after.substr(0, words));
    if (index_.find_verbatim(scratch_, span)) return true;
  }
  return false;
}

}  // namespace sfcl::verify

namespace sfcl::verify {

namespace {
// A scoring verb right before a count of times: "scored four times", "has found the net five times"
// ("was booked four times" after "scored twice and" is no goals).
bool scored_right_before(std::string_view before) {
  while (before.ends_with(' ')) before.remove_suffix(1);
  constexpr std::array<std::string_view, 4> kScoring = {"scored", "netted", "found the net", "hit the net"};
  return std::any_of(kScoring.begin(), kScoring.end(), [&](std::string_view v) {
    return before.ends_with(v) && (before.size() == v.size() || before[before.size() - v.size() - 1] == ' ');
  });
}
}  // namespace

// The text of source value i's clause before it ("The team has scored " before "four times"): its
// clause is kept from the value's unit word on ("four| times"), so the number is dropped here.
std::string_view Checker::text_before_value(uint32_t i) const {
  const std::string_view clause = index_.counted(i);
  std::string_view lead = clause.substr(0, std::min<size_t>(index_.anchors()[i].counted_after, clause.size()));
  const std::string_view text = index_.anchors()[i].text;
  lead.remove_suffix(std::min(lead.size(), std::min(text.find_first_of(" -"), text.size())));
  return lead;
}

// A source value of `candidates` equal to `a`'s, with the unit `unit` (empty: none) and `word` right
// after it in its clause ("7个" and 积分, "2.3万" and 年).
bool Checker::value_before_word(const Anchor& a, std::span<const uint32_t> candidates, std::string_view unit,
                                std::string_view word, anchor::TextSpan& span) const {
  const auto& all = index_.anchors();
  for (uint32_t i : candidates) {
    const auto& s = all[i];
    if (s.anchor.value != a.value || unit_of(s.anchor.norm) != unit) continue;
    const std::string_view clause = index_.counted(i);
    if (!clause.substr(std::min<size_t>(s.counted_after, clause.size())).starts_with(word)) continue;
    span = {s.source, s.anchor.start, s.anchor.end};
    return true;
  }
  return false;
}

// Points written as a count of them: 积7分 / "7分" for the sources' "7个积分" (a standing's points are
// said either way). Only 积分: 个 with another noun counts something else. Not the other way: a
// source's 7分 may be a margin (7分之差) or a rating (打了7分).
bool Checker::points_as_count(const Anchor& a, anchor::TextSpan& span) const {
  return unit_of(a.norm) == "分" && value_before_word(a, index_.of_type(Type::quantity), "个", "积分", span);
}

// Goals said as times scored: "has scored four times" for the sources' "four goals", and "four goals"
// for their "scored four times". Only where a scoring verb stands right before the times, and not
// goals the sources say were conceded.
bool Checker::goals_as_times(const Anchor& a, std::string_view before, anchor::TextSpan& span) const {
  const std::string_view unit = unit_of(a.norm);
  const bool as_goals = unit == "goal";
  if (!as_goals && !(unit == "次" && scored_right_before(before))) return false;
  const auto& all = index_.anchors();
  for (uint32_t i : index_.of_type(Type::quantity)) {
    const auto& s = all[i];
    if (s.anchor.value != a.value || unit_of(s.anchor.norm) != (as_goals ? "次" : "goal")) continue;
    const std::string_view lead = text_before_value(i);
    if (as_goals ? !scored_right_before(lead) : lead.find("conced") != std::string_view::npos) continue;
    span = {s.source, s.anchor.start, s.anchor.end};
    return true;
  }
  return false;
}

// 两万三千年前 for the sources' 2.3万年前: a span of years written in Chinese numerals is a duration,
// while digits with 万 before 年 are read as a number ("5万年薪" is no span); the number the sources
// write right before 年 is the same span.
bool Checker::years_after_number(const Anchor& a, anchor::TextSpan& span) const {
  constexpr double kMinYears = 1000;  // below, digits before 年 are a year of the calendar or a span already
  return unit_of(a.norm) == "year" && a.value >= kMinYears &&
         value_before_word(a, index_.of_type(Type::number), {}, "年", span);
}

// "45 years old", "a 45-year-old" for the sources' 45岁 or 45周岁, or an age they give in English.
bool Checker::age_in_years(const Anchor& a, std::string_view after, anchor::TextSpan& span) const {
  if (!a.norm.ends_with(" year") || !(after.starts_with(" old") || after.starts_with("-old")) ||
      (after.size() > 4 && std::isalpha(static_cast<unsigned char>(after[4])) != 0)) {  // not "older"
    return false;
  }
  const std::string_view digits = std::string_view(a.norm).substr(0, a.norm.size() - 5);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos) return false;
  // 45岁, 45周岁; "aged 45", "at the (grand old) age of 45" (not "under the age of 45", a limit), and
  // ", now 45" after a name ("The defendant, now 34 and called Davina"; not "the toll is now 45").
  constexpr std::string_view kLimits[] = {"under the age of ", "over the age of ",  "below the age of ",
                                          "above the age of ", "until the age of ", "before the age of "};
  for (std::string_view unit : {"岁", "周岁"}) {
    scratch_.assign(digits).append(unit);
    if (index_.find_verbatim(scratch_, span)) return true;
  }
  scratch_.assign("aged ").append(digits);
  if (index_.find_verbatim(scratch_, span, true)) return true;
  const auto& all = index_.anchors();
  for (uint32_t i : index_.of_type(Type::number)) {
    const auto& s = all[i];
    if (s.anchor.value != a.value) continue;
    const std::string_view lead = text_before_value(i);
    const auto limit = [&] {
      return std::any_of(std::begin(kLimits), std::end(kLimits), [&](std::string_view w) { return lead.ends_with(w); });
    };
    if (lead.ends_with(", now ") || (lead.ends_with("age of ") && !limit())) {
      span = {s.source, s.anchor.start, s.anchor.end};
      return true;
    }
  }
  return false;
}

}  // namespace sfcl::verify
