// A news outlet or company named by the web address a source cites it with ("CBS News" for
// "https://www.cbsnews.com/…", "New York Post" for "nypost.com/…"): the name's letters run together,
// or its leading words' initials and its last word, before a top-level domain.
#include <array>
#include <string_view>

#include "verify/verify.h"

namespace sfcl::verify {

namespace {
constexpr size_t kMinDomainLetters = 5;  // "abc.com" names too many things
constexpr std::array<std::string_view, 4> kTopLevel = {".com", ".org", ".co.uk", ".net"};
}  // namespace

bool Checker::name_as_domain(anchor::TextSpan& span) const {
  const auto letters = [](std::string_view w, std::string& out) {
    for (char c : w) {
      if (c >= 'a' && c <= 'z') out.push_back(c);
    }
  };
  for (int initials = 0; initials < 2; ++initials) {
    scratch_.clear();
    const size_t last = folded_.rfind(' ');
    if (initials == 1) {
      if (last == std::string::npos) return false;
      for (size_t i = 0; i < last; i = folded_.find(' ', i) + 1) {
        if (folded_[i] >= 'a' && folded_[i] <= 'z') scratch_.push_back(folded_[i]);
        if (folded_.find(' ', i) >= last) break;
      }
      letters(std::string_view(folded_).substr(last + 1), scratch_);
    } else {
      letters(folded_, scratch_);
    }
    if (scratch_.size() < kMinDomainLetters) continue;
    const size_t stem = scratch_.size();
    for (std::string_view tld : kTopLevel) {
      scratch_.resize(stem);
      scratch_.append(tld);
      if (index_.find_verbatim(scratch_, span)) return true;
    }
  }
  return false;
}

}  // namespace sfcl::verify
