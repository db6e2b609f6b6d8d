#include "verify/derived.h"

#include "verify/calendar.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <tuple>

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

std::string_view unit_of(const Anchor& a) {
  if (a.type == Type::percent) return "%";
  if (a.type == Type::number) return "";
  const std::string_view n = a.norm;
  const size_t sp = n.rfind(' ');
  return sp == std::string_view::npos ? std::string_view() : n.substr(sp + 1);
}

namespace {
// Groups above these sizes skip the quadratic enumerations: the check stays cheap on long
// documents, where such coincidences would be too easy anyway.
constexpr size_t kMaxPairGroup = 64;
constexpr size_t kMaxThreeTermGroup = 12;
constexpr size_t kMaxDates = 96;
constexpr double kMinNumberOperand = 10000;
// A derivation is accepted only when at most this share of the values one could write near it
// (within kWindow of it, at its written precision) is also derivable: otherwise a wrong value would
// too often be "derived" by chance.
constexpr double kMaxDensity = 0.1;
constexpr double kWindow = 0.2;
constexpr double kMinWindowSteps = 5.0;

// Half a unit of the last written decimal: "12.5%" -> 0.05, "$3,000" -> 0.5.
double tolerance(const Anchor& a) {
  const std::string_view n = a.norm;
  const size_t dot = n.find('.');
  if (dot == std::string_view::npos) return 0.5;
  size_t decimals = 0;
  for (size_t i = dot + 1; i < n.size() && n[i] >= '0' && n[i] <= '9'; ++i) ++decimals;
  return 0.5 * std::pow(10.0, -static_cast<double>(decimals));
}

// The significant digits of a norm's number: "4270000 GBP" -> "427", "12.50" -> "125".
std::string digits_of(std::string_view norm) {
  std::string d;
  for (char c : norm) {
    if (c == ' ' || c == '%') break;
    if (c >= '0' && c <= '9' && !(d.empty() && c == '0')) d.push_back(c);
  }
  while (!d.empty() && d.back() == '0') d.pop_back();
  return d;
}

// A value written like a source value of its unit with two digits swapped or one digit changed
// ("£4.27 million" for "£4.72 million", "420元" for "400元") is a miscopy far more often than a
// computation that happens to land there; values of one significant digit ("$3,000") are exempt.
bool near_miss(const std::string& a, const std::vector<std::string>& sources) {
  if (a.size() < 2) return false;
  for (const std::string& b : sources) {
    if (b == a) continue;
    // Same significant digits in another order, or one changed: compared over the longer form.
    std::string x = a;
    std::string y = b;
    const size_t n = std::max(x.size(), y.size());
    x.resize(n, '0');
    y.resize(n, '0');
    size_t diff = 0;
    for (size_t i = 0; i < n; ++i) diff += x[i] != y[i] ? 1 : 0;
    if (diff == 1) return true;
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    if (x == y && diff == 2) return true;
  }
  return false;
}

// The answer's text this far back is read for the operands of a computation it shows.
constexpr size_t kShownReach = 200;

bool a_decimal(const anchor::SourceIndex::Anchors& all, int64_t x, int64_t y) {
  return all[static_cast<size_t>(x)].anchor.norm.find('.') != std::string::npos &&
         all[static_cast<size_t>(y)].anchor.norm.find('.') != std::string::npos;
}

}  // namespace

// Whether `v` is written in `text` in digits ("43" in "从43%提高到61%", "98.5333" in "98.5333分"),
// not inside a longer number; with `scale`, as digits before a magnitude word ("6万" for 60000,
// "1.5 million" for 1,500,000).
bool written_in(double v, std::string_view text, double scale, std::string_view magnitude) {
  if (std::isnan(v) || v <= 0 || v >= 1e15) return false;
  if (scale > 1) {
    if (v < scale) return false;
    v /= scale;
  }
  char buf[48];
  const int n =
      v == std::floor(v) ? std::snprintf(buf, sizeof buf, "%.0f", v) : std::snprintf(buf, sizeof buf, "%.10g", v);
  if (n <= 0 || static_cast<size_t>(n) + magnitude.size() >= sizeof buf) return false;
  std::copy(magnitude.begin(), magnitude.end(), buf + n);
  const std::string_view w(buf, static_cast<size_t>(n) + magnitude.size());
  for (size_t i = text.find(w); i != std::string_view::npos; i = text.find(w, i + 1)) {
    const auto digitish = [](char c) { return (c >= '0' && c <= '9') || c == '.' || c == ','; };
    const bool left = i == 0 || !digitish(text[i - 1]);
    // A magnitude word ends the number: "$20 million, so" is written with it; so does a full stop or
    // a comma with no digit after it ("in 2012, eight years after").
    const bool right =
        !magnitude.empty() || i + w.size() >= text.size() || !digitish(text[i + w.size()]) ||
        ((text[i + w.size()] == '.' || text[i + w.size()] == ',') &&
         (i + w.size() + 1 >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i + w.size() + 1]))));
    if (left && right) return true;
  }
  return false;
}

DerivedValues::Table& DerivedValues::table(Type type, std::string_view unit) {
  std::string key(1, static_cast<char>(type));
  key.append(unit);
  for (auto& t : tables_) {
    if (t.key == key) return t;
  }
  tables_.push_back({std::move(key), {}});
  return tables_.back();
}

const DerivedValues::Table* DerivedValues::find_table(Type type, std::string_view unit) const {
  for (const auto& t : tables_) {
    if (t.key.size() == unit.size() + 1 && t.key[0] == static_cast<char>(type) && t.key.substr(1) == unit) return &t;
  }
  return nullptr;
}

DerivedValues::DerivedValues(const anchor::SourceIndex& index) : index_(&index) {
  add_amounts(index);
  add_date_differences(index);
  add_stated_shares(index);
  add_shifted_dates(index);
  add_ranges(index);
  add_score_margins(index);
  add_point_differences(index);
  if (find_table(Type::percent, "%") != nullptr) {
    // "43%" against a source's "34%" is a miscopy even where some change comes to 43%.
    auto& changes = table(Type::percent, "%");
    for (uint32_t i : index.of_type(Type::percent)) {
      changes.source_digits.push_back(digits_of(index.anchors()[i].anchor.norm));
    }
  }
  add_averages(index);
  for (uint32_t c : index.list_counts()) {
    table(Type::number, "").values.push_back({static_cast<double>(c), Derivation::list_count, {-1, -1, -1}});
    // 七座城市, 两位教练: a count of the listed names with a measure word that counts such things
    for (std::string_view unit : {"个", "座", "家", "人", "支", "所", "项"}) {
      table(Type::quantity, unit).values.push_back({static_cast<double>(c), Derivation::list_count, {-1, -1, -1}});
    }
  }
  if (index.lists_the_week()) table(Type::duration, "day").values.push_back({7, Derivation::list_count, {-1, -1, -1}});
  for (auto& t : tables_) std::sort(t.values.begin(), t.values.end());
}

// Sums and differences of amounts in one currency (and of durations, counts and numbers of 10,000
// or more in one unit), each change between two of them in percent, and each percentage of each
// amount.
void DerivedValues::add_amounts(const anchor::SourceIndex& index) {
  const auto all = index.anchors();
  for (Type type : {Type::amount, Type::duration, Type::quantity, Type::number}) {
    std::vector<std::pair<std::string_view, std::vector<Operand>>> groups;
    for (uint32_t i : index.of_type(type)) {
      const Anchor& a = all[i].anchor;
      if (std::isnan(a.value)) continue;
      // Counts of one unit ("120 staff" to "150 staff": 30 staff), not ranks ("#3"); numbers only
      // with a magnitude ("1.2 million", 120万): small bare numbers are too many to compute with.
      if (type == Type::quantity && a.norm.starts_with('#')) continue;
      // Small whole numbers are too many; a decimal ("96.54", an index) is a measure.
      if (type == Type::number && !(a.value >= kMinNumberOperand) && a.norm.find('.') == std::string::npos) continue;
      const std::string_view unit = unit_of(a);
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == unit; });
      if (it == groups.end()) it = groups.insert(groups.end(), {unit, {}});
      table(type, unit).source_digits.push_back(digits_of(a.norm));
      // Past kMaxPairGroup the group computes nothing (below): no quadratic de-duplication either.
      if (it->second.size() > kMaxPairGroup) continue;
      // One value stated twice is one operand: "26周" twice does not make 52 weeks.
      if (std::none_of(it->second.begin(), it->second.end(), [&](const Operand& o) { return o.v == a.value; })) {
        it->second.push_back({a.value, i});
      }
    }
    for (const auto& [unit, ops] : groups) {
      if (ops.size() > kMaxPairGroup) continue;
      auto& t = table(type, unit);
      for (size_t x = 0; x < ops.size(); ++x) {
        for (size_t y = x + 1; y < ops.size(); ++y) {
          // Counts are summed too ("合计34分", "54 genomes, 31 of them ..."): a sum needs its cue, and a
          // population at two times ("52,000 in 2010 and 61,000 in 2020") is rarely called a total.
          const bool summable = type != Type::number || a_decimal(all, ops[x].i, ops[y].i);
          if (summable) t.values.push_back({ops[x].v + ops[y].v, Derivation::sum, {ops[x].i, ops[y].i, -1}});
          t.values.push_back({std::fabs(ops[x].v - ops[y].v), Derivation::difference, {ops[x].i, ops[y].i, -1}});
          // Not of counts and measures: a change in percent of a lab value or a head count is a
          // claim of its own more often than a computation the answer shows.
          if (type != Type::quantity) add_percent_change(ops[x].v, ops[y].v, {ops[x].i, ops[y].i, -1});
          if (!summable || ops.size() > kMaxThreeTermGroup) continue;
          for (size_t z = y + 1; z < ops.size(); ++z) {
            if (type == Type::number && !a_decimal(all, ops[x].i, ops[z].i)) continue;
            t.values.push_back({ops[x].v + ops[y].v + ops[z].v, Derivation::sum, {ops[x].i, ops[y].i, ops[z].i}});
          }
        }
      }
      if (type == Type::quantity || type == Type::amount) add_proportions(ops, type == Type::quantity);
      if (type != Type::amount) continue;
      for (uint32_t p : index.of_type(Type::percent)) {
        const double pv = all[p].anchor.value;
        if (std::isnan(pv)) continue;
        for (const auto& o : ops) t.values.push_back({o.v * pv / 100.0, Derivation::percent_of, {p, o.i, -1}});
      }
    }
  }
}

namespace {
// A term written by its first and last day ("from 1 January 2025 to 31 December 2027"): the last
// day is the eve of an anniversary of the first, so it runs whole months (36); 0 when it does not.
int whole_term_months(const DateParts& x, const DateParts& y) {
  if (x.month < 1 || y.month < 1 || x.day < 1 || y.day < 1) return 0;
  const bool x_first = std::tie(x.year, x.month, x.day) < std::tie(y.year, y.month, y.day);
  const DateParts& first = x_first ? x : y;
  const DateParts end = next_day(x_first ? y : x);
  if (end.day != first.day) return 0;
  return std::max(0, (end.year * 12 + end.month) - (first.year * 12 + first.month));
}
}  // namespace

// Differences of two source dates (and four-digit years) in days, weeks, months and years.
void DerivedValues::add_date_differences(const anchor::SourceIndex& index) {
  const auto all = index.anchors();
  struct Dated {
    DateParts d;
    int64_t i;
  };
  std::vector<Dated> dates;
  for (uint32_t i : index.of_type(Type::date)) {
    if (auto d = parse_date(all[i].anchor.norm); d && dates.size() < kMaxDates) dates.push_back({*d, i});
  }
  const size_t full_dates = dates.size();
  for (uint32_t i : index.of_type(Type::number)) {
    const double v = all[i].anchor.value;
    if (v < 1000 || v > 2999 || v != std::floor(v) || dates.size() >= kMaxDates) continue;
    // The year of a date the sources write in full is that date's (the index holds both): as an
    // operand of its own it would only add the calendar difference a whole term replaces.
    const int year = static_cast<int>(v);
    if (std::any_of(dates.begin(), dates.begin() + static_cast<std::ptrdiff_t>(full_dates),
                    [&](const Dated& d) { return d.d.year == year; })) {
      continue;
    }
    dates.push_back({{year, 0, 0}, i});
  }
  auto& years = table(Type::duration, "year");
  auto& months = table(Type::duration, "month");
  auto& weeks = table(Type::duration, "week");
  auto& days = table(Type::duration, "day");
  for (size_t x = 0; x < dates.size(); ++x) {
    for (size_t y = x + 1; y < dates.size(); ++y) {
      const DateParts& a = dates[x].d;
      const DateParts& b = dates[y].d;
      const std::array<int64_t, 3> ops{dates[x].i, dates[y].i, -1};
      // A term from its first to its last day is whole months, not the calendar difference (1
      // January 2025 to 31 December 2027 is 3 years, not 2).
      if (const int term = whole_term_months(a, b); term > 0) {
        months.values.push_back({static_cast<double>(term), Derivation::date_difference, ops});
        if (term % 12 == 0) years.values.push_back({term / 12.0, Derivation::date_difference, ops});
      } else {
        if (a.year != b.year) years.values.push_back({std::fabs(a.year - b.year), Derivation::date_difference, ops});
        if (a.month > 0 && b.month > 0) {
          const int m = std::abs((a.year * 12 + a.month) - (b.year * 12 + b.month));
          if (m > 0) months.values.push_back({static_cast<double>(m), Derivation::date_difference, ops});
        }
      }
      if (a.day > 0 && b.day > 0) {
        const int64_t d = std::abs(days_from_civil(a.year, a.month, a.day) - days_from_civil(b.year, b.month, b.day));
        if (d == 0) continue;
        days.values.push_back({static_cast<double>(d), Derivation::date_difference, ops});
        if (d % 7 == 0) weeks.values.push_back({static_cast<double>(d) / 7.0, Derivation::date_difference, ops});
      }
    }
  }
}

// "half of the 40 staff": 20 staff, in the unit of the value the share is of.
void DerivedValues::add_stated_shares(const anchor::SourceIndex& index) {
  const auto all = index.anchors();
  for (Type type : {Type::amount, Type::duration, Type::number, Type::quantity}) {
    for (uint32_t i : index.of_type(type)) {
      const auto& s = all[i];
      if (s.share <= 0 || std::isnan(s.anchor.value)) continue;
      table(type, unit_of(s.anchor)).values.push_back({s.anchor.value * s.share, Derivation::share_of, {i, -1, -1}});
    }
  }
}

// "from $10 to $15" rose 50%, "from $15 to $10" fell 33.3%: the change from the value the source
// writes first (`from`) to the other, never the other way round.
void DerivedValues::add_percent_change(double from, double to, const std::array<int64_t, 3>& ops) {
  if (from <= 0 || to <= 0 || from == to) return;
  table(Type::percent, "%").values.push_back({100.0 * std::fabs(to - from) / from, Derivation::percent_change, ops});
}

bool DerivedValues::operands_shown(const Value& v, std::string_view before, std::string_view after) const {
  if (v.operands[0] < 0 || (before.empty() && after.empty())) return false;
  if (before.size() > kShownReach) before.remove_prefix(before.size() - kShownReach);
  if (after.size() > kShownReach) after = after.substr(0, kShownReach);
  // As digits, or with the magnitude word the answer writes them with ("冠军奖金6万元、亚军2万元…三倍").
  const auto shown = [&](double x) {
    for (const auto& [scale, word] :
         {std::pair<double, std::string_view>{1, {}}, {1e4, "万"}, {1e8, "亿"}, {1e6, " million"}, {1e9, " billion"}}) {
      if (written_in(x, before, scale, word) || written_in(x, after, scale, word)) return true;
    }
    return false;
  };
  for (int64_t op : v.operands) {
    if (op < 0) continue;
    const Anchor& s = index_->anchors()[static_cast<size_t>(op)].anchor;
    if (s.type == Type::score) {  // a margin: both sides written ("以103比88大胜")
      const size_t dash = s.norm.find('-');
      if (dash == std::string::npos || !shown(std::strtod(s.norm.c_str(), nullptr)) ||
          !shown(std::strtod(s.norm.c_str() + dash + 1, nullptr))) {
        return false;
      }
    } else if (!shown(s.value)) {
      return false;
    }
  }
  return true;
}

bool DerivedValues::operands_around(const Derived& d, std::string_view before, std::string_view after) const {
  return operands_shown(Value{0, d.kind, d.operands}, before, after);
}

bool DerivedValues::find(const Anchor& a, Derived& out, std::string_view before, std::string_view after) const {
  if (std::isnan(a.value) || a.value <= 0) return false;
  if (a.type != Type::amount && a.type != Type::duration && a.type != Type::number && a.type != Type::quantity &&
      a.type != Type::percent) {
    return false;
  }
  if (const Table* t = find_table(a.type, unit_of(a)); t != nullptr && find_in(*t, a, out, before, after)) return true;
  // A large number written without the noun it counts ("比马年少48万" of 1647万人 and 1599万人): the
  // computation over counts of any one unit.
  if (a.type != Type::number || !(a.value >= kMinNumberOperand)) return false;
  for (const Table& t : tables_) {
    if (t.key[0] == static_cast<char>(Type::quantity) && find_in(t, a, out, before, after)) {
      out.any_unit = true;
      return true;
    }
  }
  return false;
}

bool DerivedValues::find_in(const Table& table, const Anchor& a, Derived& out, std::string_view before,
                            std::string_view after) const {
  const Table* t = &table;
  if (t->values.empty()) return false;
  const double v = a.value;
  const double tol = tolerance(a) + 1e-9 * v;
  const auto& vals = t->values;
  auto lo = std::lower_bound(vals.begin(), vals.end(), Value{v - tol, Derivation::none, {}});
  // A span between two times is exact to the minute: 2.5 hours is no "three hours".
  while (lo != vals.end() && lo->v <= v + tol && lo->kind == Derivation::time_span && std::fabs(lo->v - v) > 1e-9) ++lo;
  if (lo == vals.end() || lo->v > v + tol) return false;
  // Density: distinct derivable values within the window, over the values one could write there.
  const double half = std::max(kWindow * v, kMinWindowSteps * 2.0 * tol);
  const auto wlo = std::lower_bound(vals.begin(), vals.end(), Value{v - half, Derivation::none, {}});
  const auto whi = std::upper_bound(vals.begin(), vals.end(), Value{v + half, Derivation::none, {}});
  double distinct = 0;
  double last = -1;
  const std::array<int64_t, 3>* last_operands = nullptr;
  for (auto it = wlo; it != whi; ++it) {
    // A count of a listed set ("seven days" of a record's week) is no computation a wrong value lands
    // on by chance: it crowds no other value's window ("three days later" between two review dates).
    if (it->kind == Derivation::list_count && std::fabs(it->v - v) > tol) continue;
    // The two counts of one range of days (apart, and with both ends) are one computation.
    const bool same_range = last_operands != nullptr && *last_operands == it->operands && it->v - last <= 1 + tol;
    if (it->v - last > tol && !same_range) {
      ++distinct;
      last = it->v;
      last_operands = &it->operands;
    }
  }
  const double slots = 2.0 * half / (2.0 * tol);
  for (auto it = lo; it != vals.end() && it->v <= v + tol; ++it) {
    if (it->kind == Derivation::time_span && std::fabs(it->v - v) > 1e-9) continue;
    if (operands_shown(*it, before, after)) {
      out.kind = it->kind;
      out.operands = it->operands;
      return true;
    }
  }
  // List counts are few and need no density test.
  // (Compared with a margin: one value alone in the narrowest window is exactly kMaxDensity, and
  // the tolerance's rounding must not decide it.)
  if (lo->kind != Derivation::list_count && distinct > kMaxDensity * slots * (1 + 1e-6)) return false;
  if (lo->kind != Derivation::list_count && near_miss(digits_of(a.norm), t->source_digits)) return false;
  out.kind = lo->kind;
  out.operands = lo->operands;
  return true;
}

}  // namespace sfcl::verify
