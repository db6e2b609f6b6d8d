// Small UTF-8 helpers shared by the anchor lexer and the engine's detokeniser.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sfcl::utf8 {

inline constexpr char32_t kReplacement = 0xFFFD;

// Length of a UTF-8 sequence from its lead byte; 0 for a continuation or invalid lead.
constexpr int sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

struct Decoded {
  char32_t cp;    // U+FFFD when the bytes are not valid UTF-8
  int length;     // bytes consumed (>= 1)
  bool complete;  // false when the input ends inside a valid-looking sequence
};

// Decodes one code point at s[i]; invalid bytes decode as U+FFFD of length 1.
inline Decoded decode(std::string_view s, size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  const int n = sequence_length(b0);
  if (n == 1) return {b0, 1, true};
  if (n == 0) return {kReplacement, 1, true};
  char32_t cp = b0 & (0xFF >> (n + 1));
  for (int k = 1; k < n; ++k) {
    if (i + k >= s.size()) return {kReplacement, 1, false};
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return {kReplacement, 1, true};
    // Reject overlongs and surrogates on the second byte, as the standard says.
    if (k == 1) {
      if (b0 == 0xE0 && b < 0xA0) return {kReplacement, 1, true};
      if (b0 == 0xED && b > 0x9F) return {kReplacement, 1, true};
      if (b0 == 0xF0 && b < 0x90) return {kReplacement, 1, true};
      if (b0 == 0xF4 && b > 0x8F) return {kReplacement, 1, true};
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  return {cp, n, true};
}

inline void append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// True when the whole string is valid UTF-8.
// True when `s` holds a CJK ideograph (U+3400-U+9FFF).
inline bool has_han(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const Decoded d = decode(s, i);
    if (d.cp >= 0x3400 && d.cp <= 0x9FFF) return true;
    i += static_cast<size_t>(d.length);
  }
  return false;
}

inline bool valid(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const Decoded d = decode(s, i);
    if (!d.complete || (d.cp == kReplacement && d.length == 1 && static_cast<unsigned char>(s[i]) >= 0x80)) {
      return false;
    }
    i += static_cast<size_t>(d.length);
  }
  return true;
}

// Copy with every invalid byte replaced by U+FFFD.
inline std::string sanitize(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const Decoded d = decode(s, i);
    if (d.cp == kReplacement && d.length == 1) {
      append(out, kReplacement);
    } else {
      out.append(s.substr(i, static_cast<size_t>(d.length)));
    }
    i += static_cast<size_t>(d.length);
  }
  return out;
}

// Assembles streamed bytes into whole UTF-8 characters: a multi-byte character split across
// tokens is held until complete; bytes that can never form valid UTF-8 become U+FFFD.
class StreamAssembler {
 public:
  // Appends the completed part of (pending + bytes) to out.
  void feed(std::string_view bytes, std::string& out) {
    pending_.append(bytes);
    size_t i = 0;
    while (i < pending_.size()) {
      const Decoded d = decode(pending_, i);
      if (!d.complete) break;  // wait for the rest of this character
      if (d.cp == kReplacement && d.length == 1) {
        append(out, kReplacement);
      } else {
        out.append(pending_, i, static_cast<size_t>(d.length));
      }
      i += static_cast<size_t>(d.length);
    }
    pending_.erase(0, i);
  }
  // At end of stream an unfinished character is replaced, never emitted raw.
  void finish(std::string& out) {
    if (!pending_.empty()) append(out, kReplacement);
    pending_.clear();
  }
  [[nodiscard]] size_t pending_bytes() const { return pending_.size(); }
  void reset() { pending_.clear(); }

 private:
  std::string pending_;
};

}  // namespace sfcl::utf8
