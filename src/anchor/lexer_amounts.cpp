// Amounts after a currency prefix: "$1,200", "US$ 5m", "$1.6B", "€40", "USD 300", "人民币三千元".
#include <cstdlib>
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "anchor/lexer_words.h"

namespace sfcl::anchor::lex {

namespace {
constexpr FirstBytes kPrefixFirst = first_bytes(kPrefixes, kText, false);
}  // namespace

size_t scan_prefixed_amount(Src& src, size_t p, Anchor& a) {
  for (uint64_t bits = kPrefixFirst.at(src.at(p)); bits != 0; bits &= bits - 1) {
    const Prefix& pre = entry(kPrefixes, bits);
    if (!src.match(p, pre.text)) continue;
    size_t k = p + pre.text.size();
    if (pre.word && is_alpha(src.at(k))) continue;
    if (src.at(k) == ' ') k = src.skip_spaces(k);
    std::string_view code = pre.code;
    std::string norm;
    size_t e = 0;
    if (is_digit(src.at(k))) {
      const size_t j = digits_end(src, k);
      const Multiplier mult = multiplier(src, j, true);
      bool ok = false;
      norm = number_norm(src.s.substr(k, j - k), mult.shift, ok);
      if (!ok) return 0;
      e = mult.end;
    } else if (pre.text == "人民币") {
      const size_t j = cn_numeral_run(src, k);
      uint64_t v = 0;
      if (j == k || !cn_value(src.s.substr(k, j - k), v)) return 0;
      norm = std::to_string(v);
      e = j;
    } else {
      return 0;
    }
    if (src.match(e, "元")) {
      e += 3;
      if (src.match(e, "整")) e += 3;
    }
    if (pre.text == "¥" || pre.text == "￥") {  // yen only when the text says so
      std::string_view c2;
      const size_t e2 = currency_suffix(src, e, c2);
      if (e2 > 0 && c2 == "JPY") {
        code = "JPY";
        e = e2;
      }
    }
    a.type = Type::amount;
    a.value = std::strtod(norm.c_str(), nullptr);
    a.norm = norm + " " + std::string(code);
    if (is_digit(src.at(k)) && e == digits_end(src, k)) range_shares_unit(src, p, k, e, a);  // "$3-4 million"
    return e;
  }
  return 0;
}

}  // namespace sfcl::anchor::lex
