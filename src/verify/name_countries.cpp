// Countries around a name (docs/ANCHORS.md, "Checking"): a country's abbreviation that says where a
// body is ("US Senate"), a country named as its people ("American Samoan officials" for "American
// Samoa"), and an owner that is a country ("Colombia's Camilo Villegas"). Parts of name_parts.cpp's
// checks by parts.
#include <array>
#include <span>
#include <string_view>

#include "verify/verify.h"

namespace sfcl::verify {

// A country's abbreviation before a name says where it is, not who ("US Senate", "U.S. National
// Park Service" for the sources' "Senate", "National Park Service"), where the sources name no other
// of the two ("UK Senate" against "U.S. Senate" or "the United States Senate" is another claim).
bool Checker::country_only(std::string_view w) const {
  const bool us = w == "us" || w == "u.s";
  if (!us && w != "uk" && w != "u.k") return false;
  anchor::TextSpan span;
  if (us) {
    return !source_word("uk") && !index_.find_verbatim("united kingdom", span) &&
           !index_.find_verbatim("britain", span);
  }
  return !source_word("us") && !index_.find_verbatim("united states", span) && !index_.find_verbatim("america", span);
}

// "Colombia's" before a name the sources state ("Colombian Camilo Villegas", "Camilo Villegas of
// Colombia"), "Germany's" before "the German newspaper Bild": the owner is a country the sources
// name, by its name or its people's.
bool Checker::country_named(std::string_view w) const {
  anchor::TextSpan span;
  return index_.find_verbatim(w, span) || run_with_country(std::span<const std::string_view>(&w, 1), span);
}

// A run whose last word is a people's name for a country the sources name in that run ("American
// Samoan officials" for "American Samoa", "Korean" for "Korea", "Iraqi" for "Iraq"): the suffix
// replaced by the country's ending, regular forms only ("French" for "France" is not read).
bool Checker::run_with_country(std::span<const std::string_view> words, anchor::TextSpan& span) const {
  // (the people's suffix, the country's ending), the answer's plural first.
  constexpr std::array<std::pair<std::string_view, std::string_view>, 20> kForms = {{
      {"ians", "ia"}, {"ians", "y"}, {"ians", "a"},  {"ians", ""},   {"ian", "ia"},    {"ian", "y"}, {"ian", "a"},
      {"ian", ""},    {"ans", "a"},  {"ans", "o"},   {"an", "a"},    {"an", "o"},      {"ese", "a"}, {"ese", ""},
      {"ish", "ey"},  {"ish", "en"}, {"ish", "ain"}, {"ish", "and"}, {"ish", "eland"}, {"i", ""},
  }};
  const std::string_view last = words.back();
  // The other way round: a country the answer names where the sources write its people's name
  // ("Bosnia" for "the Bosnian war", "Italy" for "Italian", "Japan" for "Japanese").
  struct People {
    std::string_view ends;  // the country's ending
    size_t cut;             // bytes of it to drop
    std::string_view add;   // the people's suffix
  };
  constexpr std::array<People, 8> kPeoples = {{{"any", 1, ""},
                                               {"a", 0, "n"},
                                               {"o", 1, "an"},
                                               {"y", 1, "ian"},
                                               {"l", 0, "ian"},
                                               {"n", 0, "ese"},
                                               {"a", 1, "ese"},
                                               {"ain", 3, "ish"}}};
  for (const auto& p : kPeoples) {
    if (!last.ends_with(p.ends) || last.size() < p.cut + 3) continue;
    scratch_.clear();
    for (size_t k = 0; k + 1 < words.size(); ++k) scratch_.append(words[k]).push_back(' ');
    scratch_.append(last.substr(0, last.size() - p.cut)).append(p.add);
    if (index_.find_verbatim(scratch_, span)) return true;
  }
  for (const auto& [suffix, ending] : kForms) {
    if (!last.ends_with(suffix) || last.size() < suffix.size() + 2) continue;
    scratch_.clear();
    for (size_t k = 0; k + 1 < words.size(); ++k) scratch_.append(words[k]).push_back(' ');
    scratch_.append(last.substr(0, last.size() - suffix.size())).append(ending);
    if (index_.find_verbatim(scratch_, span)) return true;
  }
  return false;
}

}  // namespace sfcl::verify
