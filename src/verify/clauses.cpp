// Clause words (docs/ANCHORS.md, "Clause words"): where no role word is read, the words of a value's
// clause still say what it is the value of. "Wakefield Council estimated its immediate costs at £18.6
// million" against sources where £2.3 million follows "estimated its immediate costs at" and £18.6
// million is a flood scheme's cost: the answer's words are the other value's, never this one's.
#include <algorithm>

#include "verify/verify.h"

namespace sfcl::verify {

using anchor::Type;

namespace {
// Words an answer value must share with another source value of its type, and how many more than
// with any occurrence of its own value, before the clause decides against it. Own occurrences are
// read on both sides of the value (a sentence may open with it), the other values before it only.
constexpr size_t kSharedWords = 3;
constexpr size_t kSharedPairs = 6;  // pairs of Han characters: a four-character word alone is three
constexpr size_t kMargin = 3;
// Words an occurrence of the answer's own value must have around it before its clause can say it is
// of something else: "By 2020 it had grown to 45,000" ({grown}) says too little of what grew.
constexpr size_t kOwnWords = 2;
constexpr size_t kOwnPairs = 4;
bool says_enough(const anchor::SourceAnchor& s) {
  const size_t read = s.words_before.size + s.words_after.size;
  return read >= (s.words_before.han || s.words_after.han ? kOwnPairs : kOwnWords);
}
// Another value the answer's could have been put for: of its type, a year for a year
// (`years_alike`: both years or neither), a count of the same unit for a count ("47 dams" for "28
// dams"; a rank is no count).
bool comparable(const anchor::Anchor& a, const anchor::Anchor& s, bool years_alike) {
  if (s.type != a.type) return false;
  if (a.type == Type::number) return years_alike;
  if (a.type != Type::quantity) return true;
  const size_t ua = a.norm.find(' ');
  const size_t us = s.norm.find(' ');
  if (a.norm.starts_with('#') || s.norm.starts_with('#')) return a.norm.starts_with('#') && s.norm.starts_with('#');
  return ua != std::string::npos && us != std::string::npos && a.norm.substr(ua) == s.norm.substr(us);
}
}  // namespace

void Checker::bind_to_clause(const anchor::Anchor& a, std::string_view before, CheckResult& r) {
  if (r.verdict != Verdict::confirmed || r.role_matched || !has_role(a.type)) return;
  const anchor::ClauseWords words = anchor::clause_words_before(before);
  // A range's or a list's later value shares its words with the values before it, which the
  // sources state under the same words: no evidence against it.
  if (words.size < kSharedWords || words.joined) return;
  const auto& all = index_.anchors();
  const bool numeric = anchor::is_numeric(a.type);
  const auto candidates = numeric ? std::span<const uint32_t>(numeric_) : index_.of_type(a.type);
  const float threshold = options_.threshold_for(a.type);
  size_t own = 0;
  size_t other = 0;
  int64_t best_other = -1;
  bool several = false;  // other values of as many words: a list's common words decide nothing
  // Its own occurrences may share words of the answer's sentence before a comma too ("In Madrid, the
  // maximum temperature reached 31.5C" for "… compared with 31.5C in Madrid").
  const anchor::ClauseWords sentence = anchor::clause_words_before(before, false, true);
  auto own_words = [&](size_t i) {
    return std::max(sentence.shared(all[i].words_before), sentence.shared(all[i].words_after));
  };
  auto is_own = [&](uint32_t i) {
    const anchor::Anchor& s = all[i].anchor;
    return similarity(a, i) >= threshold || (numeric && anchor::is_numeric(s.type) && s.value == a.value);
  };
  if (r.support >= 0) {
    if (!says_enough(all[static_cast<size_t>(r.support)])) return;
    own = own_words(static_cast<size_t>(r.support));
  }
  for (uint32_t i : candidates) {
    const anchor::Anchor& s = all[i].anchor;
    if (is_own(i)) {
      if (!says_enough(all[i])) return;
      own = std::max(own, own_words(i));
      continue;
    }
    if (!comparable(a, s, year_of(a.norm) == year_of(s.norm))) continue;
    // The word right before the answer's value must be one of the other's: "total revenue included
    // $4 billion" puts no part where "total revenue was $12 billion" stands.
    if (!all[i].words_before.has_hash(words.hashes[0])) continue;
    const size_t n = words.shared(all[i].words_before);
    if (n > other) {
      other = n;
      best_other = i;
      several = false;
    } else if (n == other && n > 0 && all[static_cast<size_t>(best_other)].anchor.norm != s.norm) {
      several = true;
    }
  }
  if (several || best_other < 0) return;
  if (other < (words.han ? kSharedPairs : kSharedWords) || other < own + kMargin) return;
  // A value the sources give in the sentence after the other's is often its part or its detail, which
  // an answer writes with the other's words ("drew 85,000 visitors … Saturday was the busiest day,
  // with 31,000": "drew 31,000 visitors on Saturday").
  const auto& best = all[static_cast<size_t>(best_other)];
  for (uint32_t i : candidates) {
    if (is_own(i) && all[i].source == best.source && all[i].sentence == best.sentence + 1) return;
  }
  misattributed(r);
}

}  // namespace sfcl::verify
