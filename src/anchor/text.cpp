// Text folding shared by names, terms and input hygiene.
#include <algorithm>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "util/utf8.h"

namespace sfcl::anchor {

size_t middle_initial_at(std::string_view folded) {
  for (size_t i = 1; i + 3 < folded.size(); ++i) {
    if (folded[i - 1] == ' ' && folded[i] >= 'a' && folded[i] <= 'z' && folded[i + 1] == '.' && folded[i + 2] == ' ') {
      return i;
    }
  }
  return std::string_view::npos;
}

std::string fold_name(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool pending_space = false;
  for (size_t i = 0; i < text.size();) {
    const auto d = utf8::decode(text, i);
    char32_t c = d.cp;
    if (c >= 0xFF01 && c <= 0xFF5E) c -= 0xFEE0;  // full-width ASCII
    if (c == 0x3000) c = ' ';                     // ideographic space
    if (c < 0x80 && is_space(static_cast<int>(c))) {
      pending_space = !out.empty();
    } else {
      if (pending_space) out.push_back(' ');
      pending_space = false;
      if (c < 0x80) {
        out.push_back(static_cast<char>(to_lower(static_cast<int>(c))));
      } else {
        utf8::append(out, c);
      }
    }
    i += static_cast<size_t>(d.length);
  }
  while (!out.empty() && out.back() == '.') out.pop_back();  // "Ltd." == "Ltd"
  return out;
}

std::string strip_zero_width(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto d = utf8::decode(text, i);
    const bool zw = d.cp == 0x200B || d.cp == 0x200C || d.cp == 0x200D || d.cp == 0x2060 || d.cp == 0xFEFF;
    if (!zw || d.length == 1) out.append(text.substr(i, static_cast<size_t>(d.length)));
    i += static_cast<size_t>(d.length);
  }
  return out;
}

void name_trigrams(std::string_view text, std::vector<uint32_t>& out) {
  out.clear();
  // Code points with a space on each side, hashed three at a time (FNV-1a).
  char32_t w0 = ' ';
  char32_t w1 = ' ';
  auto push = [&](char32_t c) {
    uint32_t h = 2166136261U;
    for (char32_t x : {w0, w1, c}) {
      h ^= static_cast<uint32_t>(x);
      h *= 16777619U;
    }
    out.push_back(h);
    w0 = w1;
    w1 = c;
  };
  for (size_t i = 0; i < text.size();) {
    const auto d = utf8::decode(text, i);
    push(d.cp);
    i += static_cast<size_t>(d.length);
  }
  push(' ');
  std::sort(out.begin(), out.end());
}

}  // namespace sfcl::anchor
