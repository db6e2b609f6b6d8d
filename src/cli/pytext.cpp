#include "cli/pytext.h"

#include <cstdio>

#include "util/utf8.h"

namespace sfcl::cli::pytext {

namespace {
char32_t casefold_char(char32_t c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7)) return c + 0x20;
  if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) return c | 1U;
  if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1U) != 0 ? c + 1 : c;
  if (c == 0x178) return 0xFF;
  if (c == 0xB5) return 0x3BC;
  if ((c >= 0x391 && c <= 0x3A9 && c != 0x3A2) || (c >= 0x410 && c <= 0x42F)) return c + 0x20;
  if (c == 0x3C2) return 0x3C3;
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  return c;
}

bool py_space(char32_t c) {
  return (c >= 9 && c <= 13) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

bool py_printable(char32_t c) {
  if (c < 0x20 || (c >= 0x7F && c <= 0xA0) || c == 0xAD || c == 0x1680 || c == 0x180E) return false;
  if ((c >= 0x600 && c <= 0x605) || c == 0x61C || c == 0x6DD || c == 0x70F) return false;
  if ((c >= 0x2000 && c <= 0x200F) || (c >= 0x2028 && c <= 0x202F) || (c >= 0x205F && c <= 0x206F)) return false;
  if (c == 0x3000 || (c >= 0xD800 && c <= 0xF8FF) || c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFB)) return false;
  return c != 0xFFFE && c != 0xFFFF && c <= 0x10FFFF;
}
}  // namespace

std::u32string decode(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    const utf8::Decoded d = utf8::decode(s, i);
    out.push_back(d.cp);
    i += static_cast<size_t>(d.length);
  }
  return out;
}

std::string encode(std::u32string_view s) {
  std::string out;
  for (const char32_t c : s) utf8::append(out, c);
  return out;
}

std::u32string casefold(std::u32string_view s) {
  std::u32string out;
  for (const char32_t c : s) {
    if (c == 0xDF) {
      out += U"ss";
    } else {
      out.push_back(casefold_char(c));
    }
  }
  return out;
}

// repr(s) of a Python str.
std::string py_repr(std::u32string_view s) {
  const bool dq = s.find(U'\'') != std::u32string_view::npos && s.find(U'"') == std::u32string_view::npos;
  const char32_t quote = dq ? U'"' : U'\'';
  std::string out(1, static_cast<char>(quote));
  char buf[16];
  for (const char32_t c : s) {
    if (c == quote || c == U'\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == U'\t' || c == U'\n' || c == U'\r') {
      out += c == U'\t' ? "\\t" : c == U'\n' ? "\\n" : "\\r";
    } else if (py_printable(c)) {
      utf8::append(out, c);
    } else {
      const char* fmt = c <= 0xFF ? "\\x%02x" : c <= 0xFFFF ? "\\u%04x" : "\\U%08x";
      std::snprintf(buf, sizeof buf, fmt, static_cast<unsigned>(c));
      out += buf;
    }
  }
  out.push_back(static_cast<char>(quote));
  return out;
}

// " ".join(t.split()), cut to n characters with "...".
std::u32string py_short(std::u32string_view t, size_t n) {
  std::u32string out;
  for (size_t i = 0; i < t.size();) {
    while (i < t.size() && py_space(t[i])) ++i;
    const size_t start = i;
    while (i < t.size() && !py_space(t[i])) ++i;
    if (i > start) {
      if (!out.empty()) out.push_back(U' ');
      out.append(t.substr(start, i - start));
    }
  }
  return out.size() <= n ? out : out.substr(0, n - 3) + U"...";
}

}  // namespace sfcl::cli::pytext
