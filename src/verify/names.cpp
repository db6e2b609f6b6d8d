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

}  // namespace sfcl::verify
