// Sources as corpora store them: tokenised ("November 28 , 1972", "the world 's fifth", "( born 18
// September 1989 )", "`` Chris ''") or with escapes left in ("...australia .\nIdentifying" written
// as a backslash and an n). Read as they stand, the date is no date and the word boundary is lost,
// so a value the source states is flagged. The index reads a copy with each such piece moved back
// where prose puts it, byte for byte the same length, so every offset still cites the source as given.
#include <string>
#include <string_view>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

namespace {
bool at_word_end(std::string_view t, size_t i) { return i >= t.size() || t[i] == ' ' || t[i] == '\n' || t[i] == '\t'; }
}  // namespace

std::string untokenise(std::string_view text) {
  std::string out;
  auto copy = [&] {
    if (out.empty()) out.assign(text);
  };
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    const char c = text[i];
    const char n = text[i + 1];
    if (c == ' ' && (n == ',' || n == '.' || n == ';' || n == ':' || n == ')' || n == '?' || n == '!') &&
        at_word_end(text, i + 2) && i > 0 && text[i - 1] != ' ') {
      copy();
      out[i] = n;  // "28 , 1972" -> "28,  1972"
      out[i + 1] = ' ';
      ++i;
    } else if (c == '(' && n == ' ') {
      copy();
      out[i] = ' ';  // "( born" -> "  (born"
      out[i + 1] = '(';
      ++i;
    } else if (c == ' ' && n == '\'' && i + 2 < text.size() && text[i + 2] == 's' && at_word_end(text, i + 3)) {
      copy();
      out[i] = '\'';  // "world 's" -> "world's "
      out[i + 1] = 's';
      out[i + 2] = ' ';
      i += 2;
    } else if ((c == '`' && n == '`') || (c == '\'' && n == '\'')) {
      copy();
      out[i] = '"';  // `` and '' are the tokeniser's quotes
      out[i + 1] = ' ';
      ++i;
    } else if (c == '\\' && (n == 'n' || n == 't' || n == 'r') &&
               (i + 2 >= text.size() || !is_lower(static_cast<unsigned char>(text[i + 2])) || n != 'n')) {
      copy();
      out[i] = ' ';  // an escape written out: a line break, not letters glued onto a word
      out[i + 1] = '\n';
      ++i;
    }
  }
  return out;
}

}  // namespace sfcl::anchor
