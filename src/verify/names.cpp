// The names verdicts, reasons and derivations carry in reports, events and metrics.
#include <array>

#include "verify/verify.h"

namespace sfcl::verify {

namespace {
// Indexed by Verdict.
constexpr std::array<std::string_view, kVerdictCount> kVerdictNames = {"confirmed", "unsupported", "unverifiable",
                                                                       "derived", "constrained"};
}  // namespace

std::string_view verdict_name(Verdict v) {
  const auto i = static_cast<size_t>(v);
  return i < kVerdictNames.size() ? kVerdictNames[i] : kVerdictNames[2];
}

std::span<const std::string_view> verdict_names() { return kVerdictNames; }

std::string_view reason_name(Reason r) {
  switch (r) {
    case Reason::none:
      return "";
    case Reason::absent:
      return "absent";
    case Reason::mismatch:
      return "mismatch";
    case Reason::other_field:
      return "other_field";
  }
  return "";
}

std::string_view derivation_name(Derivation d) {
  switch (d) {
    case Derivation::none:
      return "";
    case Derivation::sum:
      return "sum";
    case Derivation::difference:
      return "difference";
    case Derivation::percent_of:
      return "percent_of";
    case Derivation::ratio:
      return "ratio";
    case Derivation::date_difference:
      return "date_difference";
    case Derivation::list_count:
      return "list_count";
  }
  return "";
}

}  // namespace sfcl::verify
