// Names: capitalised word runs ("Acme Holdings Ltd.", "Dr. Chloe Turner", "Bank of China").
#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "anchor/lexer_words.h"

namespace sfcl::anchor::lex {
size_t capitalised_word(Src& src, size_t i) {
  if (!is_upper(src.at(i))) return 0;
  size_t j = i + 1;
  size_t letters = 1;  // in a row: a run longer than kMaxLetterRun is no word, so no name
  while (true) {
    const int c = src.at(j);
    if (is_alpha(c)) {
      if (++letters > kMaxLetterRun) return 0;
      ++j;
    } else if ((c == '\'' && is_alpha(src.at(j + 1))) ||
               // "Hans-Peter", not "Tamil-language", "London-based": a lower-case word after a
               // hyphen describes the name and is no part of it
               (c == '-' && is_upper(src.at(j + 1))) ||
               // a Latin letter with a diacritic: "Lüscher", "Siobhán", "Echeverría"; or a combining
               // mark after its letter (U+0300-U+036F: "Cafe\u0301")
               (((c >= 0xC3 && c <= 0xC9) || c == 0xCC || c == 0xCD) && (src.at(j + 1) & 0xC0) == 0x80)) {
      letters = c < 0x80 ? 1 : 0;  // "-V" ends with a letter of the next run; "ü" is none
      j += 2;
    } else {
      break;
    }
  }
  return j - i >= 2 ? j : 0;
}

namespace {

// A capitalised word of a name: "Acme", "McKay", "O'Neil", "IBM"; returns its end or 0.
size_t cap_word(Src& src, size_t i) {
  const size_t j = capitalised_word(src, i);
  if (j == 0) return 0;
  if (is_digit(src.at(j))) return 0;
  // "MRN-534782", "INV-2024": the word is an identifier's prefix, not part of a name.
  if (src.at(j) == '-' && is_digit(src.at(j + 1))) return 0;
  return j;
}

constexpr FirstBytes kNameStopFirst = first_bytes(kNameStop, kSelf, false);
constexpr FirstBytes kNameStopMoreFirst = first_bytes(kNameStopMore, kSelf, false);

bool is_month_word(std::string_view w);

// A capitalised count or quantifier that opens a sentence: "Three of …", "Most of …".
bool count_word(std::string_view w) {
  static constexpr std::array<std::string_view, 26> kCounts = {
      "One",     "Two",      "Three",     "Four",     "Five",   "Six",  "Seven", "Eight", "Nine",
      "Ten",     "Eleven",   "Twelve",    "Both",     "Each",   "All",  "Most",  "Many",  "Some",
      "Several", "Hundreds", "Thousands", "Millions", "Dozens", "Half", "None",  "Few"};
  return std::find(kCounts.begin(), kCounts.end(), w) != kCounts.end();
}

bool is_stop_word(std::string_view w) {
  if (w.empty()) return false;
  const int c = static_cast<unsigned char>(w.front());
  for (uint64_t bits = kNameStopFirst.at(c); bits != 0; bits &= bits - 1) {
    if (entry(kNameStop, bits) == w) return true;
  }
  for (uint64_t bits = kNameStopMoreFirst.at(c); bits != 0; bits &= bits - 1) {
    if (entry(kNameStopMore, bits) == w) return true;
  }
  return is_month_word(w);
}

bool is_month_word(std::string_view w) {
  int m = 0;
  Src tmp{w, true};
  return month_name(tmp, 0, m) == w.size();
}

// May, June or April is a surname ("Theresa May", "Brian May") after a name word that is no word of
// time or place ("Last May", "Until June", "In April") and where no day or year follows it.
bool month_in_name(Src& src, std::string_view previous, size_t word, size_t e) {
  const std::string_view month = src.s.substr(word, e - word);
  if (month != "May" && month != "June" && month != "April") return false;  // the months that are names
  static constexpr std::array<std::string_view, 22> kTimeWords = {
      "In",   "By",  "Since",  "Until", "Till", "During",  "Throughout", "Last", "Early", "Late", "Next",
      "This", "Mid", "Before", "After", "From", "Through", "Every",      "Each", "Of",    "On",   "Around"};
  if (std::find(kTimeWords.begin(), kTimeWords.end(), previous) != kTimeWords.end()) return false;
  if (src.at(e) != ' ') return true;
  return !is_digit(src.at(src.skip_spaces(e)));
}

// Longer capitalised runs are headings or shouting, not names: the scan gives up as soon as the run
// has one word more, so text in such a run is released while it is written instead of being held
// (and checked, and rewound) whole (docs/DESIGN.md, 'Hold-back and emission').
constexpr size_t kMaxNameWords = 6;

size_t corp_suffix(Src& src, size_t i) {
  for (auto s : kCorpSuffix) {
    if (src.match(i, s) && (s.back() == '.' || src.word_end(i + s.size()))) return i + s.size();
  }
  return 0;
}

// Capitalised words right before p in the same run ("Annual Report Board " before "Directors"), up
// to kMaxNameWords + 1. The scan from the run's first word read them as part of one name; when
// that name grew too long, a scan from inside the run must not find its tail as a name either.
// A stop word, a company suffix or anything but one space between words ends the run.
size_t run_words_before(std::string_view s, size_t p) {
  size_t n = 0;
  size_t q = p;
  while (n <= kMaxNameWords && q >= 3 && s[q - 1] == ' ' && is_alpha(static_cast<unsigned char>(s[q - 2]))) {
    size_t b = q - 2;
    while (b > 0 && (is_alpha(static_cast<unsigned char>(s[b - 1])) || s[b - 1] == '\'' || s[b - 1] == '-')) --b;
    if (b > 0 && (is_alnum(static_cast<unsigned char>(s[b - 1])) || static_cast<unsigned char>(s[b - 1]) >= 0x80)) {
      break;  // a word with a digit or a non-ASCII letter: not a plain capitalised word
    }
    const std::string_view w = s.substr(b, q - 1 - b);
    Src word{w, true};
    if (capitalised_word(word, 0) != w.size() || is_stop_word(w)) break;
    Src text{s.substr(0, q), true};
    if (corp_suffix(text, b) != 0) break;
    ++n;
    q = b;
  }
  return n;
}

}  // namespace

namespace {
// "Plan B. Then we go": a word that opens a sentence ends the name at the letter before it.
bool opens_sentence_after_initial(Src& src, size_t k) {
  const size_t e = cap_word(src, k);
  const std::string_view w = src.s.substr(k, e - k);
  static constexpr std::string_view kOpen[] = {"The", "Then", "This", "That", "These", "Those", "There",
                                               "It",  "He",   "She",  "We",   "They",  "I",     "You",
                                               "In",  "On",   "At",   "But",  "And",   "If"};
  return is_stop_word(w) || std::find(std::begin(kOpen), std::end(kOpen), w) != std::end(kOpen);
}

// "Gary R. Herbert", "John F. Kennedy": a middle initial at k between two words of a name (the word
// before it ends at k - 1). Not a king's numeral that ends a sentence ("Charles V. Francis I ..."),
// nor the letter of a thing's kind before a sentence ("Hepatitis B. Doctors", "Group D. Brazil").
bool middle_initial(Src& src, size_t k) {
  const int c = src.at(k);
  if (!is_upper(c) || c == 'I' || c == 'V' || c == 'X' || src.at(k + 1) != '.' || src.at(k + 2) != ' ' ||
      cap_word(src, k + 3) == 0 || opens_sentence_after_initial(src, k + 3)) {
    return false;
  }
  static constexpr std::string_view kLettered[] = {
      "Hepatitis", "Vitamin", "Group",    "Gate",     "Option",   "Plan",  "Type",     "Class",    "Grade",
      "Section",   "Part",    "Phase",    "Stage",    "Level",    "Block", "Building", "Room",     "Zone",
      "Category",  "Exhibit", "Appendix", "Annex",    "Schedule", "Model", "Series",   "Division", "League",
      "Pool",      "Tier",    "Team",     "Platform", "Row",      "Unit",  "Wing",     "Ward",     "Floor",
      "Lot",       "Area",    "Route",    "Line",     "Terminal", "Pier",  "Box",      "Form",     "Article"};
  const size_t w = word_start_back(src.s, k - 1);
  const std::string_view before = src.s.substr(w, k - 1 - w);
  return std::find(std::begin(kLettered), std::end(kLettered), before) == std::end(kLettered);
}

bool is_title_abbreviation(std::string_view w);

// "Republican Rep. Anthony D'Esposito", "Utah Gov. Gary Herbert": a title's abbreviation ends the
// words before the name, and is no name's last word; not where a sentence follows ("Hun Sen. He").
void drop_title_abbreviation(Src& src, size_t& end, size_t& words) {
  if (src.at(end) != '.' || src.at(end + 1) != ' ' || !is_upper(src.at(end + 2)) || words < 2 ||
      opens_sentence_after_initial(src, end + 2)) {
    return;
  }
  const size_t last = src.s.rfind(' ', end) + 1;
  if (is_title_abbreviation(src.s.substr(last, end - last))) {
    end = last - 1;
    --words;
  }
}

bool is_title_abbreviation(std::string_view w) {
  static constexpr std::string_view kTitles[] = {"Rep", "Sen", "Gov", "Gen", "Lt", "Col",  "Sgt", "Capt", "Cmdr",
                                                 "Adm", "Maj", "Det", "Rev", "Fr", "Atty", "Amb", "Pres", "Supt"};
  return std::find(std::begin(kTitles), std::end(kTitles), w) != std::end(kTitles);
}
}  // namespace

size_t scan_name(Src& src, size_t p, Anchor& a) {
  size_t words = 0;
  size_t end = 0;
  size_t j = p;
  for (auto h : kHonorifics) {
    if (src.match(p, h) && src.at(p + h.size()) == ' ') {
      j = p + h.size() + 1;
      words = 1;
      break;
    }
  }
  const size_t before = words == 0 ? run_words_before(src.s.substr(0, p), p) : 0;
  size_t e = cap_word(src, j);
  if (e == 0) return 0;
  if (words == 0 &&
      (is_stop_word(src.s.substr(j, e - j)) ||
       std::find(kQuantifierStop.begin(), kQuantifierStop.end(), src.s.substr(j, e - j)) != kQuantifierStop.end())) {
    return 0;
  }
  if (before + ++words > kMaxNameWords) return 0;
  end = e;
  while (src.at(end) == ' ') {
    size_t k = end + 1;
    if (size_t s = corp_suffix(src, k)) {
      end = s;
      ++words;
      break;
    }
    if (middle_initial(src, k)) {
      end = k + 2;
      if (before + ++words > kMaxNameWords) return 0;
      continue;
    }
    size_t w = cap_word(src, k);
    if (w == 0) {
      // "Bank of China": a lowercase connector between two capitalised words; not after a count or
      // quantifier that opens a sentence ("Three of Utah's", "Most of Europe").
      bool joined = false;
      if (words == 1 && count_word(src.s.substr(j, e - j))) break;
      for (auto c : kNameConnectors) {
        // "and"/"&" join only a one-word name ("Johnson and Johnson", "Procter & Gamble"): after
        // a full name ("Grace Hughes and Henry Foster") they separate two names.
        if ((c == "and" || c == "&") && words > 1) continue;
        if (src.match(k, c) && src.at(k + c.size()) == ' ') {
          const size_t w2 = cap_word(src, k + c.size() + 1);
          if (w2 != 0) {
            end = w2;
            if (before + ++words > kMaxNameWords) return 0;
            joined = true;
          }
          break;
        }
      }
      if (!joined) break;
      continue;
    }
    if (is_stop_word(src.s.substr(k, w - k))) {
      const std::string_view run = src.s.substr(p, end - p);
      const std::string_view previous = run.substr(run.rfind(' ') == std::string_view::npos ? 0 : run.rfind(' ') + 1);
      if (!(is_month_word(src.s.substr(k, w - k)) && month_in_name(src, previous, k, w))) break;
    }
    end = w;
    if (before + ++words > kMaxNameWords) return 0;
  }
  drop_title_abbreviation(src, end, words);
  if (words < 2 || before + words > kMaxNameWords) return 0;
  set_norm(a, Type::name, fold_name(src.s.substr(p, end - p)));
  return end;
}

}  // namespace sfcl::anchor::lex

namespace sfcl::anchor {

bool is_name_filler(std::string_view word) {
  const auto trim = [](std::string_view w) {
    while (!w.empty() && w.back() == '.') w.remove_suffix(1);
    return w;
  };
  word = trim(word);
  const auto same = [&](std::string_view entry) {
    entry = trim(entry);
    return entry.size() == word.size() && std::equal(entry.begin(), entry.end(), word.begin(), [](char x, char y) {
             return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
  };
  // The long forms of the company suffixes: "Acme Corporation" is "Acme Corp.".
  static constexpr std::string_view kCorpLongForms[] = {"Corporation", "Incorporated", "Limited", "Company"};
  return std::any_of(kHonorifics.begin(), kHonorifics.end(), same) ||
         std::any_of(kNameConnectors.begin(), kNameConnectors.end(), same) ||
         std::any_of(lex::kCorpSuffix.begin(), lex::kCorpSuffix.end(), same) ||
         std::any_of(std::begin(kCorpLongForms), std::end(kCorpLongForms), same);
}

}  // namespace sfcl::anchor
