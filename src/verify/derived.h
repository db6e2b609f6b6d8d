// Derived values: a number that equals a one-step computation over source values (a sum or
// difference of two or three same-unit values, a percentage of an amount, the ratio of two
// values, the difference of two dates, the count of a listed set of names). Internal to verify.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "verify/verify.h"

namespace sfcl::verify {

struct Derived {
  Derivation kind = Derivation::none;
  std::array<int64_t, 3> operands{-1, -1, -1};
};

class DerivedValues {
 public:
  explicit DerivedValues(const anchor::SourceIndex& index);
  // True when `a` (amount, percent, duration or number) equals one computation; no chains.
  bool find(const anchor::Anchor& a, Derived& out) const;

 private:
  struct Value {
    double v;
    uint32_t index;  // into SourceIndex::anchors()
    bool operator<(const Value& o) const { return v < o.v; }
  };
  struct Group {
    std::string_view unit;      // "USD", "%", "day", "" for bare numbers
    std::vector<Value> sorted;  // by value
  };
  struct Pair {
    int64_t diff;
    uint32_t a;
    uint32_t b;
    bool operator<(const Pair& o) const { return diff < o.diff; }
  };

  [[nodiscard]] const Group* group(std::string_view unit) const;
  [[nodiscard]] bool sum_or_difference(const Group& g, double v, double tol, Derived& out) const;
  [[nodiscard]] bool sum_of_three(const Group& g, double v, double tol, Derived& out) const;
  [[nodiscard]] bool percent_of(double v, std::string_view unit, double tol, Derived& out) const;
  [[nodiscard]] bool ratio(double v, double tol, Derived& out) const;
  [[nodiscard]] bool date_difference(double v, std::string_view unit, Derived& out) const;
  static bool find_pair(const std::vector<Pair>& pairs, int64_t diff, Derived& out);

  const anchor::SourceIndex& index_;
  std::vector<Group> groups_;
  std::vector<Pair> day_diffs_;    // |d2 - d1| in days, full dates
  std::vector<Pair> month_diffs_;  // in months, dates with a month
  std::vector<Pair> year_diffs_;   // in years, dates and four-digit years
};

}  // namespace sfcl::verify
