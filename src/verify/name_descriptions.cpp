// A person beside what the answer says of them (docs/ANCHORS.md, "Checking"), where the sources
// write the two apart:
//   a description before the name  "Events Coordinator Dina" for "Dina, the Events Coordinator",
//                                  "Workers Nestor" for "rude workers (Nestor";
//   an organisation after "of"     "Professor Yun-Seo Hwang of KAIST" for "... Hwang of the Korea
//                                  Advanced Institute of Science and Technology (KAIST)".
// Both hold only where one source writes the two side by side in one sentence: the description or
// organisation is this person's, not that of someone named a clause or a sentence away ("the Events
// Coordinator thanked Dina", "Hwang, the director. Altai Consulting ...").
#include <algorithm>

#include "verify/verify.h"

namespace sfcl::verify {

using anchor::Type;

// Whether the sources write each of `words` in lower case somewhere: common words, no name.
bool Checker::lowercase_words(std::span<const std::string_view> words) const {
  return !words.empty() &&
         std::all_of(words.begin(), words.end(), [&](std::string_view w) { return index_.find_lowercase(w); });
}

// Whether a source name coordinates `w` with another ("Nestor and Michael"): each side is a name.
bool Checker::coordinated_name(std::string_view w) const {
  const auto all = index_.anchors();
  for (uint32_t idx : names_) {
    const std::string_view n = all[idx].anchor.norm;
    const size_t at = n.find(" and ");
    if (at != std::string_view::npos && (n.substr(0, at) == w || n.substr(at + 5) == w)) return true;
  }
  return false;
}

// The description is written after "the" (what someone is, not another person's name) or, in lower
// case, right before the person; the person is a name the sources state whole.
bool Checker::titled_name(std::span<const std::string_view> words, anchor::TextSpan& span) const {
  constexpr uint32_t kAdjacent = 3;  // ", ", " (", " "
  size_t first = 0;
  if (!words.empty() && words[0] == "the") first = 1;  // "The Events Coordinator Dina"
  for (size_t k = first + 1; k < words.size(); ++k) {
    const std::string_view last = words[k - 1];
    if (last == "of" || last == "at" || last == "and" || last == "the") continue;  // a title ends with a noun
    scratch_.assign("the");
    for (size_t i = first; i < k; ++i) scratch_.append(" ").append(words[i]);
    core_scratch_.clear();
    for (size_t i = k; i < words.size(); ++i) {
      if (!core_scratch_.empty()) core_scratch_.push_back(' ');
      core_scratch_.append(words[i]);
    }
    // A name the sources state, or one word they write capitalised on its own (a sentence's first
    // word is read as no name: "Dina, the Events Coordinator, was ...").
    const int64_t hit = index_.find_exact(anchor::Type::name, core_scratch_);
    const bool person = hit >= 0 || (k + 1 == words.size() && core_scratch_.size() >= 3 &&
                                     (index_.find_alone(core_scratch_) || coordinated_name(core_scratch_)));
    // Written right beside the person as an appositive ("Dina, the Events Coordinator", "the Events
    // Coordinator, Dina"), or right before the person in lower case ("rude workers (Nestor and
    // Michael" supports "Workers Nestor").
    if (!person || !(index_.find_near(scratch_, core_scratch_, kAdjacent) ||
                     (lowercase_words(words.subspan(first, k - first)) &&
                      index_.find_near(std::string_view(scratch_).substr(4), core_scratch_, kAdjacent)))) {
      continue;
    }
    if (hit >= 0) {
      const auto& s = index_.anchors()[static_cast<size_t>(hit)];
      span = {s.source, s.anchor.start, s.anchor.end};
    } else if (!index_.find_verbatim(core_scratch_, span)) {
      span = {};
    }
    return true;
  }
  return false;
}

// "Professor Yun-Seo Hwang of KAIST": a person and an organisation the answer joined with "of" are
// supported where a source writes the person and, as the next name after it, the organisation ("...
// Hwang of the Korea Advanced Institute of Science and Technology (KAIST)": the name or the alias in
// parentheses right after it). Any other name of the text is another claim ("Hwang of Uppsala").
bool Checker::affiliation_written(std::string_view surface, anchor::TextSpan& span) const {
  constexpr uint32_t kMaxAliasGap = 48;  // the rest of a long name ("and Technology ")
  constexpr uint32_t kMaxGap = 24;       // " of the ", " at the ", ", "
  const size_t of = surface.find(" of ");
  if (of == std::string_view::npos) return false;
  std::string left;
  std::string right;
  anchor::fold_for_match(surface.substr(0, of), left);
  anchor::fold_for_match(surface.substr(of + 4), right);
  trim_name(right);
  anchor::TextSpan person;
  if (left.empty() || right.empty() || !index_.find_verbatim(left, person)) return false;
  // The organisation written right after the person ("alex newall , from hanover private office":
  // in a source without capitals no name is read).
  for (std::string_view joint : {", from ", " from ", ", of ", " at ", ", at "}) {
    if (index_.find_verbatim(left + std::string(joint) + right, span)) return true;
  }
  const auto all = index_.anchors();
  int64_t next = -1;
  for (uint32_t i : index_.of_type(Type::name)) {
    const auto& s = all[i];
    if (s.source != person.source || s.anchor.start < person.end) continue;
    if (next < 0 || s.anchor.start < all[static_cast<size_t>(next)].anchor.start) next = i;
  }
  if (next < 0) return false;
  const auto& org = all[static_cast<size_t>(next)];
  std::string written;
  anchor::fold_for_match(org.text, written);
  // In the person's sentence, a few words on.
  if (org.anchor.start - person.end > kMaxGap || !index_.find_near(left, written, kMaxGap)) {
    return false;
  }
  bool found = written == right;
  if (!found) {
    // The alias in parentheses after the organisation's name ("... Science and Technology (KAIST)").
    anchor::TextSpan alias;
    found = index_.find_verbatim("(" + right + ")", alias) && alias.source == org.source &&
            alias.start >= org.anchor.end && alias.start <= org.anchor.end + kMaxAliasGap;
  }
  if (!found) return false;
  span = person;
  return true;
}

}  // namespace sfcl::verify
