// Derived values: a value that equals a one-step computation over source values (a sum or
// difference of two or three amounts in one currency, a percentage of an amount, the difference of
// two dates, the count of a listed set of names, the share of a value its source states next to it,
// the change from one amount to another in percent, a date a span of time from a source date).
// Internal to verify.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "verify/verify.h"

namespace sfcl::verify {

// The unit a derived value is computed in: "%" for a percentage, "" for a bare number, else the
// norm's last word ("CNY", "day", "人").
std::string_view unit_of(const anchor::Anchor& a);

struct Derived {
  Derivation kind = Derivation::none;
  std::array<int64_t, 3> operands{-1, -1, -1};
  bool any_unit = false;  // a bare number computed from counts of some unit ("少48万")
};

// Whether `v` is written in `text` in digits ("43" in "从43%提高到61%"), not inside a longer number; with
// `scale` and `magnitude`, as digits before that magnitude word ("6万" for 60000).
bool written_in(double v, std::string_view text, double scale = 1, std::string_view magnitude = {});

class DerivedValues {
 public:
  explicit DerivedValues(const anchor::SourceIndex& index);
  // True when `a` equals one computation over source values, and such computations are sparse
  // around it (in a text full of values, almost any small number is some difference of two).
  // `before`, `after`: the answer's text around `a`. A computation whose operands it writes there
  // ("从43%提高到61%，提升了18个百分点", "以103比88大胜15分", "收于255.05元，较结算价253.3元上涨1.75元") is
  // shown to the reader: no density test for it.
  bool find(const anchor::Anchor& a, Derived& out, std::string_view before = {}, std::string_view after = {}) const;
  // Whether the answer writes every operand of `d` within 200 bytes before or after the value.
  [[nodiscard]] bool operands_around(const Derived& d, std::string_view before, std::string_view after) const;
  // A full date equal to a source date plus or minus a source span of time (derived_dates.cpp).
  bool find_date(const anchor::Anchor& a, Derived& out) const;

  struct Value {
    double v;
    Derivation kind;
    std::array<int64_t, 3> operands;
    bool operator<(const Value& o) const { return v < o.v; }
  };

 private:
  // Every value one computation gives, for one unit ("USD", "day", ...), sorted.
  struct Table {
    std::string key;  // type byte + unit
    std::vector<Value> values;
    std::vector<std::string> source_digits;  // the digits of each source value of the unit (near_miss)
  };
  Table& table(anchor::Type type, std::string_view unit);
  [[nodiscard]] const Table* find_table(anchor::Type type, std::string_view unit) const;
  bool find_in(const Table& t, const anchor::Anchor& a, Derived& out, std::string_view before,
               std::string_view after) const;
  void add_amounts(const anchor::SourceIndex& index);
  void add_date_differences(const anchor::SourceIndex& index);
  void add_stated_shares(const anchor::SourceIndex& index);
  void add_percent_change(double from, double to, const std::array<int64_t, 3>& ops);
  void add_shifted_dates(const anchor::SourceIndex& index);
  // derived_counts.cpp
  void add_score_margins(const anchor::SourceIndex& index);
  void add_point_differences(const anchor::SourceIndex& index);
  struct Operand {
    double v;
    int64_t i;  // the source anchor
  };
  void add_proportions(const std::vector<Operand>& ops, bool shares);
  void add_averages(const anchor::SourceIndex& index);
  [[nodiscard]] bool operands_shown(const Value& v, std::string_view before, std::string_view after) const;
  // derived_ranges.cpp
  void add_ranges(const anchor::SourceIndex& index);
  void add_time_range(const anchor::Anchor& from, const anchor::Anchor& to, const std::array<int64_t, 3>& ops);
  void add_day_range(const anchor::Anchor& from, const anchor::Anchor& to, const std::array<int64_t, 3>& ops);

  const anchor::SourceIndex* index_;  // outlives this (the checker holds both)
  std::deque<Table> tables_;  // a deque: references stay valid as tables are added
  // Source dates shifted by a source span, as days since 1970-01-01, sorted; and the days of the
  // month the sources' full dates fall on (bit d).
  std::vector<Value> shifted_by_days_;
  std::vector<Value> shifted_by_months_;
  uint32_t source_days_of_month_ = 0;
};

}  // namespace sfcl::verify
