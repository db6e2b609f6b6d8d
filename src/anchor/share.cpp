// A share of a source value that the source states next to it (docs/ANCHORS.md, "Checking"):
// "half of the 40 staff left" says that 20 left, "40名员工中有一半离职" the same. The answer's "20
// staff" is then derived from the source's 40 and its stated half, not a value the sources lack.
// Only exact shares: "more than half", "nearly a third", "超过一半" state no value.
#include <array>
#include <cmath>

#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

namespace {
bool ieq_ascii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (to_lower(static_cast<unsigned char>(a[i])) != to_lower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// `s` ends with the word(s) `w`, which start a word.
bool ends_with_words(std::string_view s, std::string_view w) {
  if (s.size() < w.size() || !ieq_ascii(s.substr(s.size() - w.size()), w)) return false;
  return s.size() == w.size() || !is_alpha(static_cast<unsigned char>(s[s.size() - w.size() - 1]));
}

void drop_spaces(std::string_view& s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
}

struct Share {
  std::string_view words;
  float share;
};
constexpr std::array<Share, 15> kSharesEn = {{{"half", 0.5F},
                                              {"a third", 1.0F / 3},
                                              {"one third", 1.0F / 3},
                                              {"one-third", 1.0F / 3},
                                              {"two thirds", 2.0F / 3},
                                              {"two-thirds", 2.0F / 3},
                                              {"a quarter", 0.25F},
                                              {"one quarter", 0.25F},
                                              {"one-quarter", 0.25F},
                                              {"three quarters", 0.75F},
                                              {"three-quarters", 0.75F},
                                              {"a fifth", 0.2F},
                                              {"one fifth", 0.2F},
                                              {"one-fifth", 0.2F},
                                              {"a tenth", 0.1F}}};

// "half of the ", "a third of ", "half the " right before the value; not after "more than",
// "nearly", "about" and the like, which make it no exact share.
float share_before(std::string_view b) {
  if (b.empty() || b.back() != ' ') return 0;
  drop_spaces(b);
  for (std::string_view det : {"the", "its", "their", "his", "her", "our", "all"}) {
    if (ends_with_words(b, det)) {
      b.remove_suffix(det.size());
      drop_spaces(b);
      break;
    }
  }
  const bool of = ends_with_words(b, "of");
  if (of) {
    b.remove_suffix(2);
    drop_spaces(b);
  }
  for (const auto& [words, share] : kSharesEn) {
    if (!ends_with_words(b, words) || (!of && words != "half")) continue;
    b.remove_suffix(words.size());
    drop_spaces(b);
    for (std::string_view vague : {"than", "nearly", "almost", "about", "around", "over", "under", "roughly",
                                   "approximately", "some", "only", "just", "barely"}) {
      if (ends_with_words(b, vague)) return 0;
    }
    return share;
  }
  return 0;
}

// After the value and up to six characters of its noun: "的一半", "中有一半", "的三分之一".
float share_after(std::string_view a) {
  size_t i = 0;
  for (int k = 0; k < 6 && i < a.size(); ++k) {
    const auto d = utf8::decode(a, i);
    if (!is_han(d.cp) || d.cp == U'中' || d.cp == U'的' || d.cp == U'有') break;
    i += static_cast<size_t>(d.length);
  }
  a.remove_prefix(i);
  for (std::string_view link : {"中有", "中的", "里有", "的", "中"}) {
    if (a.starts_with(link)) {
      a.remove_prefix(link.size());
      break;
    }
  }
  if (a.starts_with("一半")) return 0.5F;
  // N分之M: M/N, a proper fraction of one-digit numerals.
  if (a.empty()) return 0;
  const auto n = utf8::decode(a, 0);
  const int denominator = cn_digit(n.cp);
  a.remove_prefix(static_cast<size_t>(n.length));
  if (denominator < 2 || !a.starts_with("分之")) return 0;
  a.remove_prefix(std::string_view("分之").size());
  if (a.empty()) return 0;
  const int numerator = cn_digit(utf8::decode(a, 0).cp);
  return numerator >= 1 && numerator < denominator ? static_cast<float>(numerator) / static_cast<float>(denominator)
                                                   : 0.0F;
}
}  // namespace

float stated_share(std::string_view text, const Anchor& a) {
  if (std::isnan(a.value) || a.value <= 0 || a.end > text.size()) return 0;
  if (const float s = share_before(text.substr(0, a.start)); s > 0) return s;
  return share_after(text.substr(a.end));
}

}  // namespace sfcl::anchor
