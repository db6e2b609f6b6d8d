// A value the answer rounds and says so (docs/ANCHORS.md, "Checking"): "nearly 2 trillion" for the
// sources' 1.99671 trillion, "约2万亿元", "over 1,500 people" for 1,532, "1000多人", "some 40%" for
// 38.6%. The word before or after the value gives the direction of the rounding, and its written
// precision its width; without such a word a value is compared as written.
#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <string_view>

#include "verify/derived.h"
#include "verify/verify.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

namespace {

enum class Hedge : uint8_t { none, about, at_most, at_least };

constexpr std::array<std::string_view, 12> kAboutEn = {"about",   "around",       "roughly",  "approximately",
                                                       "some",    "an estimated", "close to", "circa",
                                                       "approx.", "estimated",    "~",        "nearly about"};
constexpr std::array<std::string_view, 5> kAtMostEn = {"nearly", "almost", "just under", "just shy of", "close on"};
constexpr std::array<std::string_view, 5> kAtLeastEn = {"over", "more than", "upwards of", "just over", "in excess of"};
// 约 with the verb it often takes ("约合2.96亿元", "约为", "约有", "约达", "约占").
constexpr std::array<std::string_view, 8> kAboutZh = {"约", "大约", "大概", "约合", "约为", "约有", "约达", "约占"};
constexpr std::array<std::string_view, 4> kAtMostZh = {"近", "将近", "接近", "近乎"};
constexpr std::array<std::string_view, 3> kAtLeastZh = {"逾", "超过", "超"};

constexpr size_t kElaborationBytes = 40;

// The digits of a value written right after another as its elaboration ("，达到80.1%", " (77,984)",
// ", or 77,984"), commas dropped, in `buffer`; empty where none is.
std::string_view elaboration_after(std::string_view after, std::array<char, kElaborationBytes>& buffer) {
  size_t k = std::string_view::npos;
  for (std::string_view w : {"，达到", "，为", "，即", "（", " (", "(", ", reaching ", ", at ", ", or "}) {
    if (after.starts_with(w)) {
      k = w.size();
      break;
    }
  }
  if (k == std::string_view::npos) return {};
  size_t n = 0;
  for (; k < after.size() && n < buffer.size(); ++k) {
    const char c = after[k];
    if (c == ',') continue;
    if ((c < '0' || c > '9') && c != '.') break;
    buffer[n++] = c;
  }
  return {buffer.data(), n};
}

// Whether `text` ends with the word `w` (ASCII case folded; `w` in lower case): a whole word unless
// `w` is Chinese or a sign ("约", "~"), which start no word.
bool ends_with_word(std::string_view text, std::string_view w) {
  if (text.size() < w.size()) return false;
  const std::string_view tail = text.substr(text.size() - w.size());
  if (!std::equal(tail.begin(), tail.end(), w.begin(), w.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == static_cast<unsigned char>(y);
      })) {
    return false;
  }
  if (static_cast<unsigned char>(w[0]) >= 0x80 || w[0] == '~' || text.size() == w.size()) return true;
  return std::isalpha(static_cast<unsigned char>(text[text.size() - w.size() - 1])) == 0;
}

std::string_view trim_end(std::string_view t) {
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  return t;
}

// The hedge word right before the value ("about", "近"), or right after it ("1000多", "1500余",
// "40%左右").
Hedge hedge_of(std::string_view surface, std::string_view before, std::string_view after) {
  if (surface.find("多") != std::string_view::npos || surface.find("余") != std::string_view::npos) {
    return Hedge::at_least;
  }
  before = trim_end(before);
  const auto any = [&](const auto& words) {
    return std::any_of(words.begin(), words.end(), [&](std::string_view w) {
      if (!ends_with_word(before, w)) return false;
      // "不超过1500人", "no more than 1,500", "not over": the bound the other way, no rounding.
      const std::string_view lead = trim_end(before.substr(0, before.size() - w.size()));
      return !(lead.ends_with("不") || lead.ends_with("没") || ends_with_word(lead, "no") ||
               ends_with_word(lead, "not") || ends_with_word(lead, "never"));
    });
  };
  if (after.starts_with("左右") || after.starts_with("上下")) return Hedge::about;
  if (after.starts_with("多") || after.starts_with("余")) return Hedge::at_least;
  if (any(kAtMostEn) || any(kAtMostZh)) return Hedge::at_most;
  if (any(kAtLeastEn) || any(kAtLeastZh)) return Hedge::at_least;
  if (any(kAboutEn) || any(kAboutZh)) return Hedge::about;
  return Hedge::none;
}

// The step of the last digit the norm writes: "2000000000000 CNY" 1e12, "1500" 100, "38.5%" 0.1.
double written_step(std::string_view norm, double value) {
  const size_t dot = norm.find('.');
  const size_t end = norm.find_first_of(" %");
  if (dot != std::string_view::npos && dot < end) {
    return std::pow(10.0, -static_cast<double>((end == std::string_view::npos ? norm.size() : end) - dot - 1));
  }
  double step = 1;
  while (step * 10 <= value && std::fmod(value, step * 10) == 0) step *= 10;
  return step;
}

std::string_view unit_of(std::string_view norm) {
  const size_t sp = norm.rfind(' ');
  return sp == std::string_view::npos ? std::string_view() : norm.substr(sp + 1);
}

}  // namespace

bool Checker::confirm_rounded(const Anchor& a, std::string_view field, std::string_view surface,
                              std::string_view before, std::string_view after, CheckResult& r) {
  if (a.type != Type::amount && a.type != Type::number && a.type != Type::quantity && a.type != Type::percent &&
      a.type != Type::duration) {
    return false;
  }
  if (!(a.value > 0) || a.norm.starts_with('#')) return false;
  const Hedge hedge = hedge_of(surface, before, after);
  if (hedge == Hedge::none) return false;
  const double step = written_step(a.norm, a.value);
  const auto& all = index_.anchors();
  std::array<char, kElaborationBytes> elaboration_buffer{};
  int64_t fit = -1;
  int64_t shown = -1;  // a fitting source value the answer also writes beside the round one
  bool ambiguous = false;
  double near = std::nan("");  // a source value within a step either way
  // The precise value the answer writes right after the round one, as its elaboration, says which
  // it rounds ("首次超过80%，达到80.1%", "nearly 78,000 (77,984)"); one about something else does not
  // ("超过80%，而女性为80.4%").
  const std::string_view elaboration = elaboration_after(after, elaboration_buffer);
  // A large bare number rounds a value of any unit, as it confirms one exactly ("nearly 78,000" for
  // "77,984 cases"); a small one only a bare number (any 15 to 25 of anything is "about 20").
  constexpr double kMinBareRounded = 1000;
  const bool bare = a.type == Type::number && a.value >= kMinBareRounded;
  for (uint32_t i : bare ? std::span<const uint32_t>(numeric_) : index_.of_type(a.type)) {
    const Anchor& s = all[i].anchor;
    if (!(s.value > 0) || s.value == a.value || (!bare && unit_of(s.norm) != unit_of(a.norm))) continue;
    // A year is no count: "2000多人" is not rounded from "2015".
    if (s.type == Type::number && s.norm.size() == 4 && s.value >= 1000 && s.value < 3000) continue;
    const double gap = s.value - a.value;
    if (std::fabs(gap) > step) continue;
    // Two source values near it ("跌近2%" in a report of 1.46% and 1.8%): which one the answer
    // rounds is not known, so neither confirms it, unless the answer writes one beside it.
    if (!std::isnan(near) && near != s.value) ambiguous = true;
    near = s.value;
    // The source is the more precise: a rounding of it, not another round value.
    if (written_step(s.norm, s.value) >= step) continue;
    const bool fits = hedge == Hedge::about     ? std::fabs(gap) <= step / 2
                      : hedge == Hedge::at_most ? gap < 0 && -gap <= step / 2
                                                : gap > 0 && gap <= step;
    if (!fits) continue;
    if (fit < 0) fit = i;
    if (shown < 0 && !elaboration.empty() && written_in(s.value, elaboration)) shown = i;
  }
  const int64_t best = shown >= 0 ? shown : ambiguous ? -1 : fit;
  if (best < 0) return false;
  r.verdict = Verdict::confirmed;
  r.confidence = kByParts;
  r.support = best;
  cite(r);
  bind(a, field, surface, before, after, r);
  return true;
}

}  // namespace sfcl::verify
