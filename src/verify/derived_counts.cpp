// Derived values of games and counts (docs/ANCHORS.md, "Checking"): the margin of a score ("以103比88
// 大胜广东15分", "won by 15 points"), the difference of two percentages in points ("从43%提高到61%，
// 提升了18个百分点"), a count as a share of another ("552批次中合格526批次，合格率约为95.3%") and as a
// multiple ("2000泰铢，是500泰铢的4倍"), an amount or count per head or per game ("一家五口…一共花了970
// 元" → 人均194元, "10场比赛打进4球" → 场均0.4球).
#include <cmath>
#include <cstdlib>

#include "verify/derived.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

namespace {
// More values than this of one kind compute nothing: the pairs would be too many, and a value near
// one of them would be derived by chance (the density test rejects most of them anyway).
constexpr size_t kMaxOperands = 48;
}  // namespace

void DerivedValues::add_score_margins(const anchor::SourceIndex& index) {
  const auto all = index.anchors();
  const auto scores = index.of_type(Type::score);
  if (scores.size() > kMaxOperands) return;
  for (uint32_t i : scores) {
    const std::string& n = all[i].anchor.norm;
    const size_t dash = n.find('-');
    if (dash == std::string::npos || n.find(' ') != std::string::npos) continue;
    const long x = std::strtol(n.c_str(), nullptr, 10);
    const long y = std::strtol(n.c_str() + dash + 1, nullptr, 10);
    if (x == y) continue;
    const Value margin{static_cast<double>(std::labs(x - y)), Derivation::difference, {i, -1, -1}};
    for (std::string_view unit : {"分", "point", "goal", "run"}) table(Type::quantity, unit).values.push_back(margin);
  }
}

void DerivedValues::add_point_differences(const anchor::SourceIndex& index) {
  const auto all = index.anchors();
  const auto percents = index.of_type(Type::percent);
  if (percents.size() > kMaxOperands) return;
  // The rest of a whole: "仅占33.5%" → "66.5%的职工没有", "40% attended" → "60% did not".
  for (uint32_t i : percents) {
    const double p = all[i].anchor.value;
    if (p > 0 && p < 100) table(Type::percent, "%").values.push_back({100 - p, Derivation::remainder, {i, -1, -1}});
  }
  auto& points = table(Type::quantity, "pp");
  for (size_t x = 0; x < percents.size(); ++x) {
    for (size_t y = x + 1; y < percents.size(); ++y) {
      const double a = all[percents[x]].anchor.value;
      const double b = all[percents[y]].anchor.value;
      if (std::isnan(a) || std::isnan(b) || a == b) continue;
      points.values.push_back({std::fabs(a - b), Derivation::difference, {percents[x], percents[y], -1}});
    }
  }
}

// `ops`: values of one unit, so that each share is of two counts of one thing; of amounts only the
// multiple (a price is no share of another).
void DerivedValues::add_proportions(const std::vector<Operand>& ops, bool shares) {
  if (ops.size() > kMaxOperands) return;
  auto& percent = table(Type::percent, "%");
  auto& times = table(Type::quantity, "倍");
  for (const Operand& part : ops) {
    for (const Operand& whole : ops) {
      if (!(part.v > 0) || !(whole.v > part.v)) continue;
      if (shares) percent.values.push_back({100.0 * part.v / whole.v, Derivation::proportion, {part.i, whole.i, -1}});
      times.values.push_back({whole.v / part.v, Derivation::ratio, {whole.i, part.i, -1}});
    }
  }
}

// Each amount and count divided by each count of another unit (the people, games or days it is
// shared by). Cued by the words of an average (derivation_cues.cpp).
void DerivedValues::add_averages(const anchor::SourceIndex& index) {
  const auto all = index.anchors();
  const auto counts = index.of_type(Type::quantity);
  const auto amounts = index.of_type(Type::amount);
  if (counts.size() > kMaxOperands || amounts.size() > kMaxOperands) return;
  const auto per = [&](uint32_t total, uint32_t by) {
    const Anchor& t = all[total].anchor;
    const Anchor& n = all[by].anchor;
    if (!(t.value > 0) || t.norm.starts_with('#') || unit_of(t) == unit_of(n)) return;
    table(t.type, unit_of(t)).values.push_back({t.value / n.value, Derivation::average, {total, by, -1}});
  };
  for (uint32_t by : counts) {
    const Anchor& n = all[by].anchor;
    if (n.norm.starts_with('#') || !(n.value >= 2) || n.value != std::floor(n.value)) continue;
    for (uint32_t total : amounts) per(total, by);
    for (uint32_t total : counts) per(total, by);
  }
}

}  // namespace sfcl::verify
