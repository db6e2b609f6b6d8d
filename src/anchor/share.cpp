// A share of a source value that the source states next to it (docs/ANCHORS.md, "Checking"):
// "half of the 40 staff left" says that 20 left, "40名员工中有一半离职" the same. The answer's "20
// staff" is then derived from the source's 40 and its stated half, not a value the sources lack.
// Only exact shares: "more than half", "nearly a third", "超过一半" state no value.
#include <array>
#include <cmath>

#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

namespace {
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
  bool det = false;
  for (std::string_view w : {"the", "its", "their", "his", "her", "our", "all"}) {
    if (ends_with_words(b, w)) {
      b.remove_suffix(w.size());
      drop_spaces(b);
      det = true;
      break;
    }
  }
  const bool of = ends_with_words(b, "of");
  if (of) {
    b.remove_suffix(2);
    drop_spaces(b);
  }
  for (const auto& [words, share] : kSharesEn) {
    // "half the 40 staff" needs its article; "the second half 40 staff left" states no share.
    if (!ends_with_words(b, words) || (!of && !(words == "half" && det))) continue;
    b.remove_suffix(words.size());
    drop_spaces(b);
    for (std::string_view vague :
         {"than",          "nearly", "almost", "about",  "around", "over",  "under",  "roughly",
          "approximately", "some",   "only",   "just",   "barely", "least", "most",   "to",
          "close",         "even",   "first",  "second", "other",  "last",  "latter", "former"}) {
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
  // Not a bound: 一半以上, 三分之一左右, 一半多.
  const auto exact = [](std::string_view rest) {
    for (std::string_view bound : {"以上", "以下", "左右", "上下", "多", "强", "弱", "不到", "之多"}) {
      if (rest.starts_with(bound)) return false;
    }
    return true;
  };
  if (a.starts_with("一半")) return exact(a.substr(std::string_view("一半").size())) ? 0.5F : 0.0F;
  // N分之M: M/N, a proper fraction of one-digit numerals.
  if (a.empty()) return 0;
  const auto n = utf8::decode(a, 0);
  const int denominator = cn_digit(n.cp);
  a.remove_prefix(static_cast<size_t>(n.length));
  if (denominator < 2 || !a.starts_with("分之")) return 0;
  a.remove_prefix(std::string_view("分之").size());
  if (a.empty()) return 0;
  const auto m = utf8::decode(a, 0);
  const int numerator = cn_digit(m.cp);
  if (numerator < 1 || numerator >= denominator || !exact(a.substr(static_cast<size_t>(m.length)))) return 0;
  return static_cast<float>(numerator) / static_cast<float>(denominator);
}
}  // namespace

float stated_share(std::string_view text, const Anchor& a) {
  if (std::isnan(a.value) || a.value <= 0 || a.end > text.size()) return 0;
  if (const float s = share_before(text.substr(0, a.start)); s > 0) return s;
  return share_after(text.substr(a.end));
}

}  // namespace sfcl::anchor
