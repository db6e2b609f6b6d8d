// JSON and XML structure: an opening bracket before a key, a "key":, a tag.
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "anchor/lexer_words.h"

namespace sfcl::anchor::lex {

size_t scan_json(Src& src, size_t p, Anchor& a) {
  const int c = src.at(p);
  if (c == '{' || c == '[') {
    size_t k = p + 1;
    while (is_space(src.at(k))) ++k;
    const int n = src.at(k);
    if (n == '"' || (c == '[' && (n == '{' || is_digit(n) || n == '['))) {
      set_norm(a, Type::json, std::string(1, static_cast<char>(c)));
      return p + 1;
    }
    return 0;
  }
  if (c == '"') {
    size_t j = p + 1;
    for (int n = 0; n < 64; ++n, ++j) {
      const int x = src.at(j);
      if (x == kEnd || x == '\n' || x == '\\') return 0;
      if (x == '"') break;
    }
    if (src.at(j) != '"' || j == p + 1) return 0;
    size_t k = j + 1;
    while (src.at(k) == ' ') ++k;
    if (src.at(k) != ':') return 0;
    set_norm(a, Type::json, "key:" + std::string(src.s.substr(p + 1, j - p - 1)));
    return j + 1;
  }
  return 0;
}

size_t scan_xml(Src& src, size_t p, Anchor& a) {
  if (src.at(p) != '<') return 0;
  size_t k = p + 1;
  const bool closing = src.at(k) == '/';
  if (closing) ++k;
  if (!is_alpha(src.at(k))) return 0;
  size_t j = k;
  for (size_t letters = 0; is_alnum(src.at(j)) || src.at(j) == '_' || src.at(j) == ':' || src.at(j) == '-'; ++j) {
    letters = is_alpha(src.at(j)) ? letters + 1 : 0;
    if (letters > kMaxLetterRun) return 0;  // no tag name (docs/DESIGN.md, 'Hold-back and emission')
  }
  const std::string tag(src.s.substr(k, j - k));
  for (int n = 0; n < 256; ++n, ++j) {
    const int x = src.at(j);
    if (x == kEnd || x == '<' || x == '\n') return 0;
    if (x == '>') {
      set_norm(a, Type::xml, (closing ? "</" : "<") + tag + ">");
      return j + 1;
    }
  }
  return 0;
}

}  // namespace sfcl::anchor::lex
