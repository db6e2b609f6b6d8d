#include "verify/derived.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

namespace {
// Groups above these sizes skip the quadratic searches (three-term sums, ratios, date pairs): the
// check stays cheap on long documents, where such coincidences would also be too easy.
constexpr size_t kMaxThreeTermGroup = 48;
constexpr size_t kMaxRatioGroup = 64;
constexpr size_t kMaxDates = 128;
// A bare number below this is too easily the sum or difference of two others by chance (counts,
// days, ages in a text full of small numbers), so it is never derived that way.
constexpr double kMinBareSum = 100.0;
constexpr uint32_t kMaxListCount = 30;

// The unit of a numeric norm: "3000 USD" -> "USD", "15 day" -> "day", "25%" -> "%", "12" -> "".
std::string_view unit_of(const Anchor& a) {
  const std::string_view n = a.norm;
  if (a.type == Type::percent) return "%";
  if (a.type == Type::number) return "";
  const size_t sp = n.rfind(' ');
  return sp == std::string_view::npos ? std::string_view() : n.substr(sp + 1);
}

// Half a unit of the last written decimal: "12.5%" -> 0.05, "$3,000" -> 0.5.
double tolerance(const Anchor& a) {
  const std::string_view n = a.norm;
  const size_t dot = n.find('.');
  if (dot == std::string_view::npos) return 0.5;
  size_t decimals = 0;
  for (size_t i = dot + 1; i < n.size() && n[i] >= '0' && n[i] <= '9'; ++i) ++decimals;
  return 0.5 * std::pow(10.0, -static_cast<double>(decimals));
}

struct DateParts {
  int year = 0;  // 0 = unknown
  int month = 0;
  int day = 0;
};
std::optional<DateParts> parse_date(std::string_view n) {
  auto num = [&](size_t at, size_t len) {
    int v = 0;
    for (size_t i = at; i < at + len; ++i) {
      if (i >= n.size() || n[i] < '0' || n[i] > '9') return -1;
      v = v * 10 + (n[i] - '0');
    }
    return v;
  };
  DateParts d;
  if (n.size() < 4 || (d.year = num(0, 4)) < 0) return std::nullopt;
  if (n.size() >= 7 && n[4] == '-') d.month = std::max(0, num(5, 2));
  if (n.size() >= 10 && n[7] == '-') d.day = std::max(0, num(8, 2));
  if (d.month > 12 || d.day > 31) return std::nullopt;
  return d;
}

// Days since 1970-01-01 (proleptic Gregorian), H. Hinnant's days_from_civil.
int64_t days_from_civil(int y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153U * static_cast<unsigned>(m + (m > 2 ? -3 : 9)) + 2U) / 5U + static_cast<unsigned>(d) - 1U;
  const unsigned doe = yoe * 365U + yoe / 4U - yoe / 100U + doy;
  return static_cast<int64_t>(era) * 146097 + static_cast<int64_t>(doe) - 719468;
}

bool near(double a, double b, double tol) { return std::fabs(a - b) <= tol + 1e-9 * std::fabs(b); }
}  // namespace

DerivedValues::DerivedValues(const anchor::SourceIndex& index) : index_(index) {
  const auto all = index.anchors();
  for (auto t : {Type::number, Type::amount, Type::percent, Type::duration}) {
    for (uint32_t i : index.of_type(t)) {
      const Anchor& a = all[i].anchor;
      if (std::isnan(a.value)) continue;
      const std::string_view unit = unit_of(a);
      auto it = std::find_if(groups_.begin(), groups_.end(), [&](const Group& g) { return g.unit == unit; });
      if (it == groups_.end()) it = groups_.insert(groups_.end(), Group{unit, {}});
      it->sorted.push_back({a.value, i});
    }
  }
  for (auto& g : groups_) std::sort(g.sorted.begin(), g.sorted.end());

  struct Dated {
    DateParts d;
    uint32_t index;
  };
  std::vector<Dated> dates;
  for (uint32_t i : index.of_type(Type::date)) {
    if (dates.size() >= kMaxDates) break;
    if (auto d = parse_date(all[i].anchor.norm)) dates.push_back({*d, i});
  }
  for (uint32_t i : index.of_type(Type::number)) {
    const double v = all[i].anchor.value;
    if (dates.size() >= kMaxDates) break;
    if (v >= 1000 && v <= 2999 && v == std::floor(v)) dates.push_back({{static_cast<int>(v), 0, 0}, i});
  }
  for (size_t x = 0; x < dates.size(); ++x) {
    for (size_t y = x + 1; y < dates.size(); ++y) {
      const DateParts& a = dates[x].d;
      const DateParts& b = dates[y].d;
      const uint32_t ia = dates[x].index;
      const uint32_t ib = dates[y].index;
      year_diffs_.push_back({std::abs(a.year - b.year), ia, ib});
      if (a.month > 0 && b.month > 0) {
        month_diffs_.push_back({std::abs((a.year * 12 + a.month) - (b.year * 12 + b.month)), ia, ib});
      }
      if (a.day > 0 && b.day > 0) {
        const int64_t da = days_from_civil(a.year, a.month, a.day);
        const int64_t db = days_from_civil(b.year, b.month, b.day);
        day_diffs_.push_back({std::abs(da - db), ia, ib});
      }
    }
  }
  std::sort(year_diffs_.begin(), year_diffs_.end());
  std::sort(month_diffs_.begin(), month_diffs_.end());
  std::sort(day_diffs_.begin(), day_diffs_.end());
}

const DerivedValues::Group* DerivedValues::group(std::string_view unit) const {
  for (const auto& g : groups_) {
    if (g.unit == unit) return &g;
  }
  return nullptr;
}

bool DerivedValues::sum_or_difference(const Group& g, double v, double tol, Derived& out) const {
  const auto& s = g.sorted;
  for (size_t i = 0; i < s.size(); ++i) {
    // x + y = v and y - x = v, with y another source value
    for (const double want : {v - s[i].v, s[i].v + v}) {
      auto it = std::lower_bound(s.begin(), s.end(), Value{want - tol - 1e-9 * std::fabs(want), 0});
      for (; it != s.end() && it->v <= want + tol + 1e-9 * std::fabs(want); ++it) {
        if (it->index == s[i].index) continue;
        out.kind = want == v - s[i].v ? Derivation::sum : Derivation::difference;
        out.operands = {s[i].index, it->index, -1};
        return true;
      }
    }
  }
  return false;
}

bool DerivedValues::sum_of_three(const Group& g, double v, double tol, Derived& out) const {
  const auto& s = g.sorted;
  if (s.size() < 3 || s.size() > kMaxThreeTermGroup) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    for (size_t j = i + 1; j < s.size(); ++j) {
      const double want = v - s[i].v - s[j].v;
      auto it = std::lower_bound(s.begin() + static_cast<std::ptrdiff_t>(j) + 1, s.end(),
                                 Value{want - tol - 1e-9 * std::fabs(want), 0});
      if (it != s.end() && near(it->v, want, tol)) {
        out.kind = Derivation::sum;
        out.operands = {s[i].index, s[j].index, it->index};
        return true;
      }
    }
  }
  return false;
}

bool DerivedValues::percent_of(double v, std::string_view unit, double tol, Derived& out) const {
  const Group* pct = group("%");
  const Group* base = group(unit);
  if (pct == nullptr || base == nullptr) return false;
  for (const auto& p : pct->sorted) {
    for (const auto& a : base->sorted) {
      if (near(a.v * p.v / 100.0, v, tol)) {
        out.kind = Derivation::percent_of;
        out.operands = {p.index, a.index, -1};
        return true;
      }
    }
  }
  return false;
}

// A percentage that is one value of a unit over another, or their relative change.
bool DerivedValues::ratio(double v, double tol, Derived& out) const {
  for (const auto& g : groups_) {
    if (g.unit == "%" || g.sorted.size() > kMaxRatioGroup) continue;
    for (const auto& a : g.sorted) {
      if (a.v == 0.0) continue;
      for (const auto& b : g.sorted) {
        if (a.index == b.index) continue;
        if (near(100.0 * b.v / a.v, v, tol) || near(100.0 * std::fabs(b.v - a.v) / a.v, v, tol)) {
          out.kind = Derivation::ratio;
          out.operands = {b.index, a.index, -1};
          return true;
        }
      }
    }
  }
  return false;
}

bool DerivedValues::find_pair(const std::vector<Pair>& pairs, int64_t diff, Derived& out) {
  auto it = std::lower_bound(pairs.begin(), pairs.end(), Pair{diff, 0, 0});
  if (it == pairs.end() || it->diff != diff) return false;
  out.kind = Derivation::date_difference;
  out.operands = {it->a, it->b, -1};
  return true;
}

bool DerivedValues::date_difference(double v, std::string_view unit, Derived& out) const {
  if (v != std::floor(v) || v <= 0) return false;
  const auto n = static_cast<int64_t>(v);
  if (unit == "day") return find_pair(day_diffs_, n, out);
  if (unit == "week") return find_pair(day_diffs_, 7 * n, out);
  if (unit == "month") return find_pair(month_diffs_, n, out);
  if (unit == "year") return find_pair(year_diffs_, n, out);
  return false;
}

bool DerivedValues::find(const Anchor& a, Derived& out) const {
  if (std::isnan(a.value)) return false;
  const double v = a.value;
  const double tol = tolerance(a);
  const std::string_view unit = unit_of(a);
  switch (a.type) {
    case Type::number: {
      if (v == std::floor(v) && v >= 2 && v <= kMaxListCount) {
        const auto counts = index_.list_counts();
        for (uint32_t c : counts) {
          if (c == static_cast<uint32_t>(v)) {
            out.kind = Derivation::list_count;
            return true;
          }
        }
      }
      const Group* g = group("");
      return v >= kMinBareSum && g != nullptr && sum_or_difference(*g, v, tol, out);
    }
    case Type::amount: {
      const Group* g = group(unit);
      if (g != nullptr && (sum_or_difference(*g, v, tol, out) || sum_of_three(*g, v, tol, out))) return true;
      return percent_of(v, unit, tol, out);
    }
    case Type::percent: {
      const Group* g = group("%");
      if (g != nullptr && sum_or_difference(*g, v, tol, out)) return true;
      return ratio(v, tol, out);
    }
    case Type::duration: {
      if (date_difference(v, unit, out)) return true;
      const Group* g = group(unit);
      return g != nullptr && sum_or_difference(*g, v, tol, out);
    }
    default:
      return false;
  }
}

}  // namespace sfcl::verify
