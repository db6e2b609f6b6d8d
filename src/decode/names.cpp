// One name table per enum: it drives parsing, printing, and the lists of choices callers show.
#include <array>
#include <cstdio>

#include "decode/decode.h"

namespace sfcl::decode {

namespace {
// Indexed by the enum; the first name of each is the one printed.
constexpr std::array<std::string_view, 3> kModeNames = {"off", "anchor", "per-token"};
constexpr std::array<std::string_view, 3> kFallbackNames = {"constrain", "flag", "abstain"};
constexpr std::array<std::string_view, 3> kStopReasonNames = {"end_turn", "max_tokens", "stop_sequence"};

template <typename E, size_t N>
bool parse_name(const std::array<std::string_view, N>& names, std::string_view s, E& out) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == s) {
      out = static_cast<E>(i);
      return true;
    }
  }
  return false;
}

// Out-of-range values print as `fallback` (a value no enumerator names).
template <typename E, size_t N>
std::string_view name_of(const std::array<std::string_view, N>& names, E e, E fallback) {
  const auto i = static_cast<size_t>(e);
  return i < N ? names[i] : names[static_cast<size_t>(fallback)];
}
}  // namespace

bool parse_mode(std::string_view s, Mode& out) {
  if (s == "per_token") s = "per-token";  // accepted spelling of the C++ enumerator
  return parse_name(kModeNames, s, out);
}
bool parse_fallback(std::string_view s, Fallback& out) { return parse_name(kFallbackNames, s, out); }
bool parse_stop_reason(std::string_view s, StopReason& out) { return parse_name(kStopReasonNames, s, out); }

std::string_view mode_name(Mode m) { return name_of(kModeNames, m, Mode::off); }
std::string_view fallback_name(Fallback f) { return name_of(kFallbackNames, f, Fallback::flag); }
std::string_view stop_reason_name(StopReason r) { return name_of(kStopReasonNames, r, StopReason::end_turn); }

std::span<const std::string_view> mode_names() { return kModeNames; }
std::span<const std::string_view> fallback_names() { return kFallbackNames; }
std::span<const std::string_view> stop_reason_names() { return kStopReasonNames; }

}  // namespace sfcl::decode
