// Stop sequences matched across newline variants.
#include "decode/decode.h"

namespace sfcl::decode {
namespace {
// Length of a newline variant at text[i], 0 if none.
size_t newline_at(std::string_view t, size_t i) {
  const auto c = static_cast<unsigned char>(t[i]);
  if (c == '\n') return 1;
  if (c == '\r') return (i + 1 < t.size() && t[i + 1] == '\n') ? 2 : 1;
  if (c == 0xC2 && i + 1 < t.size() && static_cast<unsigned char>(t[i + 1]) == 0x85) return 2;
  if (c == 0xE2 && i + 2 < t.size() && static_cast<unsigned char>(t[i + 1]) == 0x80 &&
      (static_cast<unsigned char>(t[i + 2]) == 0xA8 || static_cast<unsigned char>(t[i + 2]) == 0xA9)) {
    return 3;
  }
  return 0;
}

// Could text[i..] (cut by the end) still begin a newline variant?
bool newline_prefix(std::string_view t, size_t i) {
  const auto c = static_cast<unsigned char>(t[i]);
  if (i + 1 == t.size()) return c == 0xC2 || c == 0xE2 || c == '\r';
  return c == 0xE2 && i + 2 == t.size() && static_cast<unsigned char>(t[i + 1]) == 0x80;
}

// Matches stop `s` at text[i]: returns end (> i) on a match, 0 on none; sets `cut` when the text
// ends in the middle of a possible match.
size_t match_at(std::string_view t, size_t i, std::string_view s, bool& cut) {
  size_t j = i;
  for (size_t k = 0; k < s.size(); ++k) {
    if (j >= t.size()) {
      cut = true;
      return 0;
    }
    if (s[k] == '\n') {
      const size_t n = newline_at(t, j);
      if (n == 0) {
        if (newline_prefix(t, j)) cut = true;
        return 0;
      }
      // "\r\n" written as two characters in the stop string
      j += n;
      continue;
    }
    if (s[k] == '\r' && k + 1 < s.size() && s[k + 1] == '\n') continue;  // "\r\n" in the stop string
    if (t[j] != s[k]) return 0;
    ++j;
  }
  return j;
}
}  // namespace

StopMatch find_stop(std::string_view text, size_t from, const std::vector<std::string>& stops) {
  StopMatch m;
  for (size_t i = from; i < text.size(); ++i) {
    for (size_t w = 0; w < stops.size(); ++w) {
      if (stops[w].empty()) continue;
      bool cut = false;
      const size_t e = match_at(text, i, stops[w], cut);
      if (e > i) {
        m.start = i;
        m.end = e;
        m.which = w;
        return m;
      }
      if (cut && m.partial == std::string::npos) m.partial = i;
    }
  }
  return m;
}

}  // namespace sfcl::decode
