// A name the answer wrote around what the sources write (docs/ANCHORS.md, "Checking"): real model
// output puts a sentence's first word, a title or a second name next to a source's name, and the
// lexer reads them as one name. Each of these is checked by its parts, never by similarity alone:
//   coordination      "Fridays and Saturdays", "Scotland and Sweden": every side is in the sources;
//   words around it   "Indiana Governor Mike Pence", "After Gloucester's Josh Hohneck": the longest
//                     run the sources write is the name's core, and every other word is a word of the
//                     sources (or its abbreviation, plural or singular) or opens a sentence;
//   word order        "Department of Justice" for "Justice Department's ...": the words of one
//                     source name, in another order;
//   given + surname   "Paul Sheerin" where the sources write "Sheerin" and "Paul" each on its own;
//   a people's name   "American Samoan officials" for the sources' "American Samoa";
//   common words      "Earned Class 6A", "Boston Marathon Bombing Survivor Testifies": words the
//                     sources write in lower case, capitalised by a sentence's start or a headline.
// A part that is nowhere in the sources keeps the whole unsupported ("King of Spain Charles V" with
// no Charles in the sources).
#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "verify/verify.h"

namespace sfcl::verify {
namespace {

constexpr size_t kMaxWords = 12;

// Words that open a sentence or a clause and are capitalised there ("While UVA ...", "Despite
// Arbroath's ..."); never part of a name.
constexpr std::array<std::string_view, 54> kOpeners = {
    "after", "despite", "while", "when", "although", "though", "since", "but", "and", "as", "if", "unlike", "like",
    "with", "for", "meanwhile", "however", "then", "also", "both", "the", "a", "an", "in", "on", "at", "by", "from",
    "to", "under", "before", "during", "following", "according", "because", "once", "now", "today", "yesterday",
    "former", "meet", "featuring", "including", "whereas", "about",
    // instructions: "Open Firefox", "Click Settings", "Visit Google"
    "open", "click", "select", "visit", "go", "tap", "press", "choose", "launch"};

// Title words and their abbreviations ("Governor" for "Gov."): either spelling is the source's word.
constexpr std::array<std::pair<std::string_view, std::string_view>, 17> kAbbreviations = {{{"governor", "gov"},
                                                                                           {"senator", "sen"},
                                                                                           {"representative", "rep"},
                                                                                           {"president", "pres"},
                                                                                           {"general", "gen"},
                                                                                           {"lieutenant", "lt"},
                                                                                           {"colonel", "col"},
                                                                                           {"sergeant", "sgt"},
                                                                                           {"professor", "prof"},
                                                                                           {"doctor", "dr"},
                                                                                           {"attorney", "atty"},
                                                                                           {"department", "dept"},
                                                                                           {"saint", "st"},
                                                                                           {"us", "u.s"},
                                                                                           {"uk", "u.k"},
                                                                                           {"mount", "mt"},
                                                                                           {"television", "tv"}}};

// What a person is rather than who ("Governor", "Actress", "Senator"): before a name they are the
// answer's description of it, and a source that uses the word at all has given it.
constexpr std::array<std::string_view, 48> kTitles = {
    "president", "senator",  "governor",  "representative", "congressman", "congresswoman", "mayor",
    "judge",     "juror",    "actress",   "actor",          "singer",      "rapper",        "coach",
    "manager",   "chairman", "chairwoman", "ceo",           "minister",    "secretary",     "commissioner",
    "chief",     "officer",  "detective", "sergeant",       "captain",     "general",       "director",
    "founder",   "professor", "doctor",   "survivor",       "victim",      "star",          "former",
    "republican", "democrat", "democratic", "us",           "u.s",         "uk",            "prince",
    "princess",  "king",     "queen",     "pope",           "sen",         "gov"};

// People by their work or role before a name ("Our server Jamie", "Striker Keating"), singular or
// plural ("Servers Jamie and Matthew").
constexpr std::array<std::string_view, 24> kRoles = {
    "server", "waiter",  "waitress", "bartender", "chef",     "owner",      "host",        "hostess",
    "nurse",  "teacher", "lawyer",   "striker",   "player",   "midfielder", "defender",    "goalkeeper",
    "winger", "boss",    "author",   "writer",    "reporter", "spokesman",  "spokeswoman", "cinematographer"};

bool is_title(std::string_view w) {
  const auto listed = [](std::string_view x) {
    return std::find(kTitles.begin(), kTitles.end(), x) != kTitles.end() ||
           std::find(kRoles.begin(), kRoles.end(), x) != kRoles.end();
  };
  return listed(w) || (w.size() > 3 && w.back() == 's' && listed(w.substr(0, w.size() - 1)));
}

// After a name the sources state whole: a father's "Sr." ("Chris Eubank Sr." beside the sources'
// "Chris Eubank" and "Chris Eubank Jr.") and a club's form ("Queens Park Rangers FC" for "Queens Park
// Rangers"). Not "Jr.", "II", "United": those name someone else; and not after a single word the
// sources never read as a name ("Dundee FC" where they name "Dundee United").
bool is_name_form(std::string_view w) {
  return w == "sr" || w == "senior" || w == "fc" || w == "afc" || w == "rfc" || w == "f.c" || w == "rugby";
}

std::string_view trim_word(std::string_view w) {
  while (!w.empty() && (w.back() == '.' || w.back() == ',' || w.back() == ':' || w.back() == ';')) w.remove_suffix(1);
  for (std::string_view p : {"'s", "'"}) {
    if (w.size() > p.size() + 1 && w.ends_with(p)) {
      w.remove_suffix(p.size());
      break;
    }
  }
  return w;
}

bool is_opener(std::string_view w) { return std::find(kOpeners.begin(), kOpeners.end(), w) != kOpeners.end(); }

// Given names that end as a verb's -ing form does ("Sterling Curry's team").
bool given_name_in_ing(std::string_view w) {
  static constexpr std::string_view kNames[] = {"sterling", "irving",  "channing", "browning", "manning",
                                                "fleming",  "harding", "golding",  "ewing",    "deming"};
  return std::find(std::begin(kNames), std::end(kNames), w) != std::end(kNames);
}

// Whether the answer wrote `w` with "'s" or "'": the words are views into the folded name, whose
// next byte is what trim_word cut (or the string's terminating NUL).
bool possessive(std::string_view w) { return w.data()[w.size()] == '\''; }

// Up to kMaxWords folded words of `folded` (split at spaces, trimmed of punctuation and "'s").
size_t split_words(std::string_view folded, std::array<std::string_view, kMaxWords>& out) {
  size_t n = 0;
  size_t i = 0;
  while (i < folded.size()) {
    const size_t j = std::min(folded.find(' ', i), folded.size());
    const std::string_view w = trim_word(folded.substr(i, j - i));
    if (!w.empty()) {
      if (n == kMaxWords) return 0;  // too long to be a name the parts can decide
      out[n++] = w;
    }
    i = j + 1;
  }
  return n;
}

}  // namespace

// Whether the sources write `w` (folded) in lower case, as it is or inflected ("testifies" for
// "testified", "earned" for "earning", "bombing" for "bombs"): a common word, not a name.
bool Checker::source_common_word(std::string_view w, bool any_case) const {
  if (any_case && w.size() < 4) return index_.find_lowercase(w, true);  // "Up" of a heading
  if (w.size() < 4) return false;
  constexpr std::array<std::pair<std::string_view, std::string_view>, 8> kStems = {
      {{"", ""}, {"s", ""}, {"es", ""}, {"ed", ""}, {"d", ""}, {"ing", ""}, {"ies", "y"}, {"ied", "y"}}};
  constexpr std::array<std::string_view, 9> kEndings = {"", "s", "es", "ed", "d", "ing", "ies", "ied", "e"};
  for (const auto& [cut, add] : kStems) {
    if (!w.ends_with(cut) || w.size() < cut.size() + 3) continue;
    const std::string_view stem = w.substr(0, w.size() - cut.size());
    for (const std::string_view ending : kEndings) {
      const bool from_y = ending == "ies" || ending == "ied";
      if (from_y != (add == "y")) continue;  // "testif" + "ied"; "earn" + "ing"
      scratch_.assign(stem);
      scratch_.append(from_y ? ending : std::string_view(add));
      if (!from_y) scratch_.append(ending);
      if (index_.find_lowercase(scratch_, any_case)) return true;
    }
  }
  return false;
}

// A sentence's first word glued onto a name is a verb the sources use ("Earned" for "earning"),
// written as one: a given name that is also a common word ("Will Smith", "Rose Byrne") is not.
bool Checker::leading_verb(std::string_view w) const {
  return (w.ends_with("ed") || w.ends_with("ing")) && source_common_word(w);
}

// Whether `w` (folded) is a word of the sources, as written, singular or plural, or spelled out
// or abbreviated.
bool Checker::source_word(std::string_view w) const {
  anchor::TextSpan span;
  if (index_.find_verbatim(w, span)) return true;
  scratch_.assign(w);
  if (w.size() > 3 && w.back() == 's') {
    scratch_.pop_back();
    if (index_.find_verbatim(scratch_, span)) return true;
    scratch_.push_back('s');
  }
  scratch_.push_back('s');
  if (index_.find_verbatim(scratch_, span)) return true;
  for (const auto& [full, abbr] : kAbbreviations) {
    if (w == full) {
      scratch_.assign(abbr);
      scratch_.push_back('.');  // "Gov." as well as "Gov"
      return index_.find_verbatim(abbr, span) || index_.find_verbatim(scratch_, span);
    }
    if (w == abbr) return index_.find_verbatim(full, span);
  }
  return false;
}

// Whether the sources state `words` as a name of its own ("Chris Eubank", not a word of one).
bool Checker::whole_source_name(std::span<const std::string_view> words) const {
  core_scratch_.clear();
  for (const auto w : words) {
    if (!core_scratch_.empty()) core_scratch_.push_back(' ');
    core_scratch_.append(w);
  }
  return index_.find_exact(anchor::Type::name, core_scratch_) >= 0;
}

// "Mount Everest" for "Mt. Everest", "St. Louis" for "Saint Louis", "Fort Worth" for "Ft. Worth":
// a place's leading word written the other way, each way (a word before another word only: "Main
// St." is a street).
bool Checker::name_abbreviated(anchor::TextSpan& span) const {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kForms = {
      {{"mount ", "mt. "}, {"saint ", "st. "}, {"fort ", "ft. "}, {"point ", "pt. "}}};
  for (const auto& [full, abbr] : kForms) {
    for (const auto& [from, to] : {std::pair{full, abbr}, std::pair{abbr, full}}) {
      for (size_t i = folded_.find(from); i != std::string::npos; i = folded_.find(from, i + 1)) {
        if ((i > 0 && folded_[i - 1] != ' ') || i + from.size() >= folded_.size()) continue;
        scratch_.assign(folded_, 0, i).append(to).append(folded_, i + from.size());
        if (index_.find_verbatim(scratch_, span)) return true;
        if (to.ends_with(". ")) {  // "mt everest": the abbreviation without its point
          scratch_.assign(folded_, 0, i).append(to.substr(0, to.size() - 2)).append(" ");
          scratch_.append(folded_, i + from.size());
          if (index_.find_verbatim(scratch_, span)) return true;
        }
      }
    }
  }
  return false;
}

// A run of the answer's words that the sources write as a name, or verbatim (plural folded).
bool Checker::source_run(std::span<const std::string_view> words, anchor::TextSpan& span) const {
  scratch_.clear();
  for (const auto w : words) {
    if (!scratch_.empty()) scratch_.push_back(' ');
    scratch_.append(w);
  }
  // A name of the sources (for more words, also one they write with a middle initial: "Gary R.
  // Herbert" has the norm "gary herbert").
  if (const int64_t hit = index_.find_exact(anchor::Type::name, scratch_); hit >= 0) {
    const auto& s = index_.anchors()[static_cast<size_t>(hit)];
    span = {s.source, s.anchor.start, s.anchor.end};
    return true;
  }
  if (words.size() == 1) {
    // One word is a name only where the sources read it as one ("Gloucester"), not any word; a
    // country by its people's name ("Bosnia" for "Bosnian") only as a side of a coordination.
    return (index_.find_verbatim(scratch_, span) && !is_title(scratch_) && !is_opener(scratch_) &&
            scratch_.size() >= 3 && single_word_core_) ||
           (coordinated_ && run_with_country(words, span));
  }
  if (index_.find_verbatim(scratch_, span)) return true;
  // With its owners as the answer wrote them ("Omura's Whale" split at the possessive).
  if (std::any_of(words.begin(), words.end() - 1, possessive)) {
    scratch_.clear();
    for (const auto w : words) {
      if (!scratch_.empty()) scratch_.push_back(' ');
      scratch_.append(w);
      if (possessive(w) && w.data() != words.back().data()) scratch_.append("'s");
    }
    if (index_.find_verbatim(scratch_, span)) return true;
  }
  if (scratch_.size() > 3 && scratch_.back() == 's') {
    scratch_.pop_back();
    if (index_.find_verbatim(scratch_, span)) return true;
  }
  return run_with_country(words, span);
}

bool Checker::name_by_parts(std::string_view folded, anchor::TextSpan& span) const {
  std::array<std::string_view, kMaxWords> words{};
  const size_t n = split_words(folded, words);
  if (n < 2) return false;
  const std::span<const std::string_view> all(words.data(), n);
  // Coordination: each side of "and" / "&" on its own.
  for (size_t k = 1; k + 1 < n; ++k) {
    if (all[k] != "and" && all[k] != "&") continue;
    const auto left = all.subspan(0, k);
    const auto right = all.subspan(k + 1);
    anchor::TextSpan l;
    anchor::TextSpan r;
    coordinated_ = true;
    const bool left_ok = source_run(left, l) || name_by_parts_words(left, l);
    const bool right_ok = left_ok && (source_run(right, r) || name_by_parts_words(right, r));
    coordinated_ = false;
    if (right_ok) {
      span = l;
      return true;
    }
  }
  // A possessive inside ("Aberdeen's Cammy Smith", "University of Washington's Institute"): the owner
  // and the owned each as the sources write them.
  for (size_t k = 0; k + 1 < n; ++k) {
    if (!possessive(all[k])) continue;
    const auto left = all.subspan(0, k + 1);
    const auto right = all.subspan(k + 1);
    anchor::TextSpan l;
    anchor::TextSpan r;
    if ((source_run(left, l) || name_by_parts_words(left, l)) &&
        (source_run(right, r) || name_by_parts_words(right, r))) {
      span = r;
      return true;
    }
    break;
  }
  return name_by_parts_words(all, span);
}

// "Promoting FOX's show", "Contrasting Paul's view": a sentence's first word in -ing before an owner
// is a verb, not a given name.
bool Checker::gerund_before_owner(std::span<const std::string_view> words) const {
  return sentence_start_ && words.size() >= 2 && words[0].size() >= 6 && words[0].ends_with("ing") &&
         !given_name_in_ing(words[0]) && (possessive(words[1]) || (words.size() == 2 && owner_));
}

bool Checker::name_by_core(std::span<const std::string_view> words, anchor::TextSpan& span) const {
  const size_t n = words.size();
  // The longest run the sources write; then every other word must be theirs too. A one-word core
  // that the sources never read as a name ("Obama" of "Mr. Obama said") is accepted behind titles
  // and openers only: behind another source word it may be a different person ("Sheryl Ralph").
  for (size_t len = n; len >= 1; --len) {
    for (size_t i = 0; i + len <= n; ++i) {
      anchor::TextSpan core;
      // Behind an owner the answer names in the possessive ("Aberdeen's Pittodrie"), the core is a
      // place or a thing of that owner, not a second half of one person's name.
      single_word_core_ =
          len == 1 &&
          (std::all_of(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(i),
                       [&](std::string_view w) {
                         return is_title(w) || is_opener(w) || anchor::is_name_filler(w) ||
                                (w == words[0] && (leading_verb(w) || gerund_before_owner(words)));
                       }) ||
           (i > 0 && possessive(words[i - 1]) && (index_.find_alone(words[i - 1]) || country_named(words[i - 1]))));
      const bool found = source_run(words.subspan(i, len), core);
      single_word_core_ = false;
      if (!found) continue;
      // Before the core, a connector ("of", "at") makes the words before it a name of their own
      // ("Professor Hwang of Uppsala University" is a person and a place): allowed only when they
      // are titles ("CEO of News Corporation").
      bool descriptive = true;
      bool connector = false;
      for (size_t k = 0; k < i; ++k) {
        const std::string_view w = words[k];
        connector = connector || w == "of" || w == "at" || w == "de" || w == "van" || w == "von" || w == "from";
        descriptive = descriptive && (is_title(w) || is_opener(w) || anchor::is_name_filler(w));
      }
      // ... or an organisation the sources name, then a title ("Bank of England Governor Mark Carney").
      if (connector && !descriptive) {
        anchor::TextSpan org;
        if (i < 2 || !is_title(words[i - 1]) || !source_run(words.subspan(0, i - 1), org)) continue;
      }
      bool rest = true;
      for (size_t k = 0; k < n && rest; ++k) {
        if (k >= i && k < i + len) continue;
        const std::string_view w = words[k];
        if (anchor::is_name_filler(w)) continue;
        // Words after the core are a claim of their own ("Keonna Thomas of Philadelphia": an
        // affiliation; the checker's affiliation rule decides it), except a company or club form
        // after a name the sources state whole.
        // A common word the answer capitalised: a sentence's first word ("Earned Class 6A
        // Player") or a headline's ("Boston Marathon Bombing Survivor Testifies") after a name
        // of two words or more; after one word it may be a surname ("Aaron Judge").
        // In a heading every word is capitalised: a common word of the sources may stand anywhere.
        rest = k < i ? is_opener(w) || source_word(w) || country_only(w) || (k == 0 && leading_verb(w)) ||
                           (possessive(w) && country_named(w)) || (heading_ && source_common_word(w, true)) ||
                           (k == 0 && gerund_before_owner(words))
                     : (is_name_form(w) &&
                        (whole_source_name(words.subspan(i, len)) || (len == 1 && index_.find_alone(words[i])))) ||
                           (len >= 2 && source_common_word(w)) || (heading_ && source_common_word(w, true));
      }
      if (rest) {
        span = core;
        return true;
      }
    }
  }
  return false;
}

bool Checker::name_reordered(std::span<const std::string_view> words, anchor::TextSpan& span) const {
  // The words of one source name in another order ("Department of Justice" for "Justice
  // Department's National Security Division"): the answer's content words are the first words of
  // the source name, reordered. Any subset would let a name drop its middle ("Sheryl Ralph" for
  // "Sheryl Lee Ralph" is another person).
  size_t content = 0;
  for (const auto w : words) content += anchor::is_name_filler(w) ? 0 : 1;
  if (content < 2) return false;
  const auto all = index_.anchors();
  for (uint32_t idx : names_) {
    const std::string_view source_name = all[idx].anchor.norm;
    std::array<std::string_view, kMaxWords> lead{};
    size_t n_lead = 0;
    for (size_t i = 0; i < source_name.size() && n_lead < content;) {
      const size_t j = std::min(source_name.find(' ', i), source_name.size());
      const std::string_view w = trim_word(source_name.substr(i, j - i));
      if (!w.empty() && !anchor::is_name_filler(w)) lead[n_lead++] = w;
      i = j + 1;
    }
    if (n_lead < content) continue;
    bool every = true;
    for (const auto w : words) {
      if (!every) break;
      if (anchor::is_name_filler(w)) continue;
      every = std::find(lead.begin(), lead.begin() + static_cast<std::ptrdiff_t>(n_lead), w) !=
              lead.begin() + static_cast<std::ptrdiff_t>(n_lead);
    }
    if (every) {
      const auto& s = all[idx];
      span = {s.source, s.anchor.start, s.anchor.end};
      return true;
    }
  }
  return false;
}

bool Checker::name_by_parts_words(std::span<const std::string_view> words, anchor::TextSpan& span) const {
  const size_t n = words.size();
  if (n == 1) {
    // A single word beside a coordination: a word of the sources ("Burgers and Restaurants").
    return source_word(words[0]) && (span = {}, true);
  }
  // Titles alone ("Republican Senator", "Kentucky Senator" has a place too): a description, not a
  // name; the sources' own words.
  if (std::all_of(words.begin(), words.end(), [&](std::string_view w) {
        return anchor::is_name_filler(w) || ((is_title(w) || is_opener(w)) && source_word(w));
      })) {
    span = {};
    return true;
  }
  return name_by_core(words, span) || name_reordered(words, span) || given_and_surname(words, span) ||
         titled_name(words, span);
}

// Whether a source name is `w` after a title or role ("Striker Keating", "Governor Pence").
bool Checker::after_role(std::string_view w) const {
  const auto all = index_.anchors();
  for (uint32_t idx : names_) {
    const std::string_view n = all[idx].anchor.norm;
    const size_t sp = n.find(' ');
    if (sp != std::string_view::npos && n.rfind(' ') == sp && n.substr(sp + 1) == w && is_title(n.substr(0, sp))) {
      return true;
    }
  }
  return false;
}

// A person the sources name by surname ("Sheerin, 39, ...") and by given name ("Paul's desire to
// come back"), never whole: each is written on its own, and no source name pairs either with
// another ("Paul Smith", "Tom Sheerin" would make it two people).
bool Checker::given_and_surname(std::span<const std::string_view> words, anchor::TextSpan& span) const {
  if (words.size() != 2) return false;
  const std::string_view given = words[0];
  const std::string_view surname = words[1];
  for (const auto w : words) {
    if (w.size() < 3 || is_title(w) || is_opener(w) || anchor::is_name_filler(w)) return false;
    // On its own, or after a role the sources put before it ("Striker Keating, 21,").
    if (!index_.find_alone(w) && !after_role(w)) return false;
  }
  const auto all = index_.anchors();
  for (uint32_t idx : names_) {
    const std::string_view n = all[idx].anchor.norm;
    const size_t first_end = std::min(n.find(' '), n.size());
    const size_t last_start = n.rfind(' ');
    if (last_start == std::string_view::npos) continue;
    const std::string_view first = trim_word(n.substr(0, first_end));
    const std::string_view last = trim_word(n.substr(last_start + 1));
    if (is_title(first) && last_start == first_end) continue;  // "Striker Keating": a role, no given name
    if ((first == given && last != surname) || (last == surname && first != given)) return false;
  }
  span = {};
  return true;
}

}  // namespace sfcl::verify
