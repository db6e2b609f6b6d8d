#include <cstdio>

#include "decode/decode.h"

namespace sfcl::decode {

bool parse_mode(std::string_view s, Mode& out) {
  if (s == "off") {
    out = Mode::off;
  } else if (s == "anchor") {
    out = Mode::anchor;
  } else if (s == "per-token" || s == "per_token") {
    out = Mode::per_token;
  } else {
    return false;
  }
  return true;
}

bool parse_fallback(std::string_view s, Fallback& out) {
  if (s == "constrain") {
    out = Fallback::constrain;
  } else if (s == "flag") {
    out = Fallback::flag;
  } else if (s == "abstain") {
    out = Fallback::abstain;
  } else {
    return false;
  }
  return true;
}

std::string_view mode_name(Mode m) {
  switch (m) {
    case Mode::off:
      return "off";
    case Mode::anchor:
      return "anchor";
    case Mode::per_token:
      return "per-token";
  }
  return "off";
}

std::string_view fallback_name(Fallback f) {
  switch (f) {
    case Fallback::constrain:
      return "constrain";
    case Fallback::flag:
      return "flag";
    case Fallback::abstain:
      return "abstain";
  }
  return "flag";
}

std::string_view stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::end_turn:
      return "end_turn";
    case StopReason::max_tokens:
      return "max_tokens";
    case StopReason::stop_sequence:
      return "stop_sequence";
  }
  return "end_turn";
}

std::string status_string(Mode mode, bool active, const Stats& stats) {
  if (mode == Mode::off) return "off";
  if (!active) return "inactive";
  const int64_t n = stats.checked();
  char buf[96];
  std::snprintf(buf, sizeof buf, "active; anchor_count=%lld; avg_backtrack=%.2f", static_cast<long long>(n),
                n > 0 ? static_cast<double>(stats.backtracks) / static_cast<double>(n) : 0.0);
  return buf;
}

}  // namespace sfcl::decode
