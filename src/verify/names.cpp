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

// Indexed by Reason and by Derivation, in their declaration order.
constexpr std::array<std::string_view, 4> kReasonNames = {"", "absent", "mismatch", "other_field"};
constexpr std::array<std::string_view, 14> kDerivationNames = {
    "",           "sum",      "difference",     "percent_of", "ratio",     "date_difference",
    "list_count", "share_of", "percent_change", "date_shift", "time_span", "proportion",
    "average",    "remainder"};

std::string_view reason_name(Reason r) {
  const auto i = static_cast<size_t>(r);
  return i < kReasonNames.size() ? kReasonNames[i] : kReasonNames[0];
}

std::string_view derivation_name(Derivation d) {
  const auto i = static_cast<size_t>(d);
  return i < kDerivationNames.size() ? kDerivationNames[i] : kDerivationNames[0];
}

}  // namespace sfcl::verify
