// What a count counts (docs/ANCHORS.md, "Roles"): "80 owners" counts owners, "15个进球" goals. The
// same number counting something else in the sources ("80 residents", "15个国家") is another value
// in the same digits. The noun is read right after the count; only plain plural nouns in English
// (a count's adjectives, verbs and function words say nothing that can be compared) and the
// characters after a measure word in Chinese, where a modifier may stand before the noun.
#include <algorithm>
#include <array>

#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

namespace {
constexpr size_t kClauseBytes = 90;  // a source value's clause is read up to 30 Han characters each side
constexpr size_t kEnWords = 3;       // a source's counted noun within its first three words ("80 new residents")
constexpr size_t kZhChars = 6;       // Chinese: the first six characters after the measure word
constexpr std::string_view kPartOf = " of the ";  // a part of a whole counts the whole's noun

// Words ending in "s" that are no plural noun after a number: verbs ("Route 66 runs"), and units
// other anchors read. (Shorter words and those ending in "ss", "us", "is" are no plural anyway.)
bool is_not_noun(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "does",    "goes",   "always", "perhaps", "whereas", "besides", "towards", "upwards",  "afterwards",
      "times",   "years",  "days",   "weeks",   "months",  "hours",   "minutes", "seconds",  "sometimes",
      "remains", "stands", "seems",  "makes",   "takes",   "comes",   "becomes", "includes", "follows",
      "shows",   "says",   "means",  "gives",   "runs",    "others",  "ones"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

// The lower-case word at the start of `s`, or empty.
std::string_view word_at(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && is_lower(static_cast<unsigned char>(s[n]))) ++n;
  if (n < s.size() && is_alpha(static_cast<unsigned char>(s[n]))) return {};  // "iPhones": not a plain word
  return s.substr(0, n);
}

// A plain English plural noun: "owners", "residents", "countries"; not "glass", "bonus", "basis".
bool is_plural_noun(std::string_view w) {
  static constexpr std::string_view kIrregular[] = {"men",  "women", "children", "people",
                                                    "feet", "teeth", "mice",     "geese"};
  if (std::find(std::begin(kIrregular), std::end(kIrregular), w) != std::end(kIrregular)) return true;
  if (w.size() < 4 || w.back() != 's') return false;
  const char before = w[w.size() - 2];
  if (before == 's' || before == 'u' || before == 'i') return false;
  return !is_not_noun(w);
}

// What follows a verb and never a noun: "spans 11 states", "crosses the river", "reaches its peak".
bool is_object_start(std::string_view rest) {
  if (rest.empty() || rest[0] != ' ') return false;
  rest.remove_prefix(1);
  if (!rest.empty() && is_digit(rest[0])) return true;
  const std::string_view w = word_at(rest);
  static constexpr std::string_view kWords[] = {"the", "a", "an", "his", "her", "their", "its", "this", "these", "those"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

// An adjective that may stand between a count and its noun ("four alleged attackers", "three new
// stores", "two senior officials"): a short list. By its ending a word is as often a verb ("12
// developed complications", "25 reported losses") or a noun ("40 hospital patients").
bool is_modifier(std::string_view w) {
  return one_of(w, {"new",         "old",     "more",      "other",         "young",        "big",       "small",
                    "large",       "major",   "main",      "key",           "top",          "full",      "extra",
                    "further",     "dead",    "straight",  "separate",      "senior",       "junior",    "former",
                    "current",     "missing", "remaining", "unarmed",       "existing",     "surviving", "additional",
                    "consecutive", "alleged", "suspected", "injured",       "wounded",      "armed",     "unidentified",
                    "unnamed",     "foreign", "local",     "international", "professional", "permanent", "temporary",
                    "elderly",     "adult",   "female",    "male",          "civilian",     "military"});
}

// A plural noun at the start of `s` (" owners were"), not a verb with its object (" spans 11 states"),
// possibly after up to two adjectives (" alleged attackers").
std::string_view plural_noun_at(std::string_view s) {
  constexpr int kModifiers = 2;
  for (int k = 0;; ++k) {
    const std::string_view w = word_at(s);
    if (is_plural_noun(w)) return !is_object_start(s.substr(w.size())) ? w : std::string_view{};
    if (k == kModifiers || !is_modifier(w) || s.size() <= w.size() || s[w.size()] != ' ') return {};
    s.remove_prefix(w.size() + 1);
  }
}

// The noun of a count hyphenated to it ("2-bedroom flat", "3-person team"): singular, at least three
// letters, not glued to another hyphen.
std::string_view hyphened_noun_at(std::string_view s) {
  const std::string_view w = word_at(s);
  return w.size() >= 3 && (w.size() == s.size() || s[w.size()] != '-') ? w : std::string_view{};
}

// One noun, singular or plural: "owners" and "owner", "countries" and "country", "matches" and "match".
// Words for the people of a place in general: a count of one is a count of the other ("3,000
// villagers" for "3,000 men, women and children", 村民 for 男女老少).
bool people_in_general(std::string_view noun) {
  static constexpr std::array<std::string_view, 16> kPeople = {
      "people", "persons", "residents", "villagers", "inhabitants", "civilians", "locals",   "citizens",
      "村民",   "居民",    "群众",      "民众",      "百姓",        "平民",      "男女老少", "市民"};
  return std::any_of(kPeople.begin(), kPeople.end(), [&](std::string_view w) {
    if (static_cast<unsigned char>(w[0]) >= 0x80) return noun.starts_with(w);
    return noun == w || (noun.size() + 1 == w.size() && w.starts_with(noun));  // "villager"
  });
}

// A noun the lexer counts as persons ("workers", "patients", "players": kQuantityUnitsEn).
bool counts_persons(std::string_view noun) {
  return std::any_of(lex::kQuantityUnitsEn.begin(), lex::kQuantityUnitsEn.end(),
                     [&](const lex::QuantityUnit& u) { return u.unit == "person" && u.text == noun; });
}

bool same_noun(std::string_view a, std::string_view b) {
  const auto singular = [](std::string_view w, bool& y) {
    y = false;
    if (w.ends_with("ies") && w.size() > 4) {
      y = true;
      return w.substr(0, w.size() - 3);
    }
    if (w.ends_with("y")) {
      y = true;
      return w.substr(0, w.size() - 1);
    }
    if (w.ends_with("ches") || w.ends_with("shes") || w.ends_with("xes")) return w.substr(0, w.size() - 2);
    if (w.ends_with("s")) return w.substr(0, w.size() - 1);
    return w;
  };
  bool ya = false;
  bool yb = false;
  const std::string_view ra = singular(a, ya);
  const std::string_view rb = singular(b, yb);
  if (ra == rb && ya == yb) return true;
  if (people_in_general(a) && people_in_general(b)) return true;
  // A compound and its head noun: "quakes" and "earthquakes", "players" and "footballplayers".
  constexpr size_t kMinHead = 5;
  const std::string_view shorter = a.size() < b.size() ? a : b;
  const std::string_view longer = a.size() < b.size() ? b : a;
  return shorter.size() >= kMinHead && longer.ends_with(shorter);
}

// A number right after a capitalised word is part of a name ("Interstate 80", "Apollo 11", "Route
// 66", "Article 5"), not a count; a sentence's first article or approximation is no such word.
namespace {
// The other end of a range or choice the noun after it counts too: "100 - 200 words", "3 or 4 days",
// "10 to 15 minutes". Its length, or 0.
size_t range_partner(std::string_view rest) {
  size_t i = 0;
  while (i < rest.size() && rest[i] == ' ') ++i;
  if (rest.substr(i).starts_with("-")) {
    ++i;
  } else if (rest.substr(i).starts_with("\xE2\x80\x93")) {
    i += std::string_view("\xE2\x80\x93").size();
  } else if (i > 0 && (rest.substr(i).starts_with("to ") || rest.substr(i).starts_with("or "))) {
    i += 2;
  } else {
    return 0;
  }
  while (i < rest.size() && rest[i] == ' ') ++i;
  const size_t digits = i;
  while (i < rest.size() && (is_digit(rest[i]) || ((rest[i] == ',' || rest[i] == '.') && i + 1 < rest.size() &&
                                                   is_digit(rest[i + 1]) && i > digits))) {
    ++i;
  }
  return i > digits ? i : 0;
}
}  // namespace

namespace {
// The clause of a number that names a thing ("Room 3", "Gate 12", "Chapter 3", 12号登机口): it counts
// nothing.
constexpr std::string_view kNamedNumber = "\x01";

// The capitalised word right before a number and one space ("Apollo" of "Apollo 11"), or empty.
std::string_view capitalised_before(std::string_view before) {
  if (before.empty() || before.back() != ' ') return {};
  before.remove_suffix(1);
  size_t i = before.size();
  while (i > 0 && is_alpha(static_cast<unsigned char>(before[i - 1]))) --i;
  const std::string_view w = before.substr(i);
  return !w.empty() && is_upper(static_cast<unsigned char>(w[0])) ? w : std::string_view{};
}

// A label word right before the number that numbers rooms, gates, chapters ...: the number is part of
// the thing's name, never a count of anything. Not after another capitalised word, where the label
// word ends a name ("Tampa Bay 5", "the Royal Albert Hall 12 nights", "Jimmy Page").
bool numbers_a_thing(std::string_view before) {
  const std::string_view w = capitalised_before(before);
  if (w.empty() ||
      !one_of(w, {"Room",  "Gate",    "Platform", "Chapter", "Floor",    "Ward",     "Bed",     "Suite",
                  "Unit",  "Lot",     "Plot",     "Table",   "Figure",   "Appendix", "Exhibit", "Schedule",
                  "Step",  "Phase",   "Stage",    "Level",   "Grade",    "Episode",  "Season",  "Volume",
                  "Track", "Channel", "Route",    "Bus",     "Terminal", "Pier",     "Door",    "Locker"})) {
    return false;
  }
  const std::string_view name = capitalised_before(before.substr(0, before.size() - 1 - w.size()));
  return name.empty() || one_of(name, {"In", "At", "On", "The", "A", "An", "From", "To", "By", "For", "And", "Or"});
}
}  // namespace

bool after_name(std::string_view before) {
  const std::string_view w = capitalised_before(before);
  if (w.empty()) return false;
  static constexpr std::string_view kOpeners[] = {"The",  "A",      "An",       "About",  "Over",   "Some",
                                                  "All",  "Only",   "Nearly",   "Almost", "Around", "Approximately",
                                                  "Just", "Roughly", "Exactly", "Another"};
  return std::find(std::begin(kOpeners), std::end(kOpeners), w) == std::end(kOpeners);
}

// Characters that follow a measure word without being what it counts: particles, prepositions,
// approximations (15个以上, 1万余起, 3个多月).
bool is_zh_function(char32_t c) {
  static constexpr char32_t kChars[] = {U'的', U'了', U'在', U'和', U'与', U'及', U'或', U'中', U'是', U'为', U'以',
                                        U'对', U'被', U'把', U'从', U'到', U'也', U'都', U'就', U'还', U'并', U'等',
                                        U'多', U'余', U'左', U'右', U'内', U'后', U'前', U'之', U'上', U'下', U'里',
                                        U'来', U'共', U'均', U'各', U'已', U'将', U'又', U'至'};
  return std::find(std::begin(kChars), std::end(kChars), c) != std::end(kChars);
}

bool han_at(std::string_view s, size_t i, char32_t& cp, size_t& len) {
  if (i >= s.size()) return false;
  const auto d = utf8::decode(s, i);
  cp = d.cp;
  len = static_cast<size_t>(d.length);
  return is_han(d.cp);
}
// The Han characters at the start of `s`, at most kZhChars (a measure word's noun and what follows
// it up to the first punctuation or other script).
std::string_view han_run(std::string_view s) {
  size_t i = 0;
  char32_t cp = 0;
  size_t len = 0;
  for (size_t k = 0; k < kZhChars && han_at(s, i, cp, len); ++k) {
    // A joining word before the next count ends the noun: "830只手和227件法器", "3名男子与两名女子".
    if (k > 0 && (cp == U'和' || cp == U'与' || cp == U'及') && i + len < s.size()) {
      char32_t next = 0;
      size_t next_len = 0;
      if (is_digit(s[i + len]) || (han_at(s, i + len, next, next_len) && is_cn_numeral(next))) break;
    }
    i += len;
  }
  return s.substr(0, i);
}

// Whether each of the first two characters of `a` (one, if it has one) occurs in `b`.
bool leads_within(std::string_view a, std::string_view b) {
  size_t i = 0;
  char32_t cp = 0;
  size_t len = 0;
  for (int k = 0; k < 2 && han_at(a, i, cp, len); ++k, i += len) {
    if (b.find(a.substr(i, len)) == std::string_view::npos) return false;
  }
  return i > 0;
}
}  // namespace

std::string_view counted_noun(std::string_view before, std::string_view after, bool measure_word) {
  if (after.empty()) return {};
  if (!measure_word) {
    if (after_name(before) || (after[0] != ' ' && after[0] != '-')) return {};
    if (after.starts_with(kPartOf)) after.remove_prefix(kPartOf.size() - 1);  // "three of the alleged attackers"
    return after[0] == '-' ? hyphened_noun_at(after.substr(1)) : plural_noun_at(after.substr(1));
  }
  const std::string_view run = han_run(after);
  char32_t cp = 0;
  size_t len = 0;
  return run.empty() || (han_at(run, 0, cp, len), is_zh_function(cp)) ? std::string_view{} : run;
}

Counted counts(std::string_view noun, std::string_view clause, size_t after) {
  if (clause == kNamedNumber) return noun.empty() ? Counted::unknown : Counted::other;  // "Room 3": no 3 nights
  const std::string_view source_after = clause.substr(std::min(after, clause.size()));
  if (noun.empty() || source_after.empty()) return Counted::unknown;
  if (is_lower(static_cast<unsigned char>(noun[0]))) {
    if (source_after[0] != ' ' && source_after[0] != '-') return Counted::unknown;
    std::string_view rest = source_after.substr(1);
    // A unit of time is a duration's, never a count of the answer's noun: "3 weeks" gives no "3 wards".
    if (const std::string_view unit = word_at(rest);
        source_after[0] == ' ' &&
        one_of(unit, {"years", "months", "weeks", "days", "nights", "hours", "minutes", "seconds", "decades"})) {
      return same_noun(unit, noun) ? Counted::same : Counted::other;
    }

    const std::string_view first = source_after[0] == '-' ? hyphened_noun_at(rest) : plural_noun_at(rest);
    // People described by an adjective may be named by a noun of it: "17 new people" may be the
    // answer's "17 newcomers", while "12 people" are never "12 addresses" nor "12 survivors".
    const bool described_people = one_of(first, {"people", "persons"}) && !rest.starts_with(first);
    // "12 people" against the answer's "12 local workers": workers are people; which of them is
    // the answer's claim, as the lexer's own "12 workers" (a count of persons) is.
    const bool people_for_person = one_of(first, {"people", "persons"}) && counts_persons(noun);
    const bool noun_first = !first.empty() && !described_people && !people_for_person;
    // A part of a whole counts the whole's noun: "Three of the alleged attackers".
    if (source_after.starts_with(kPartOf)) rest.remove_prefix(kPartOf.size() - 1);
    if (people_in_general(noun) && (rest.starts_with("men, women") || rest.starts_with("men and women"))) {
      return Counted::same;  // "300 men, women and children" are the villagers
    }
    for (size_t k = 0; k < kEnWords && !rest.empty(); ++k) {
      const std::string_view w = word_at(rest);
      if (w.empty()) break;
      if (same_noun(w, noun)) return Counted::same;
      rest.remove_prefix(w.size());
      if (rest.empty() || rest[0] != ' ') break;
      rest.remove_prefix(1);
    }
    return noun_first ? Counted::other : Counted::unknown;
  }
  // An age ("15岁时打破…进球纪录") counts nothing, whatever the clause goes on to name.
  if (source_after.starts_with("岁") || source_after.starts_with("周岁")) return Counted::other;
  const std::string_view source = han_run(source_after);
  char32_t cp = 0;
  size_t len = 0;
  if (source.empty() || (han_at(source, 0, cp, len), is_zh_function(cp))) return Counted::unknown;
  // The noun may stand after a modifier on either side (两支主要球队, 两支球队), after a clause
  // (612例经二甲双胍治疗…的患者) or before the count (电子体温计中有36支): the same thing is counted
  // when the answer's noun begins with characters of the source's clause, or the source's noun
  // with characters of the answer's.
  return leads_within(noun, clause) || leads_within(source, noun) ||
                 (people_in_general(noun) && people_in_general(source))
             ? Counted::same
             : Counted::other;
}

CountedText counted_text(std::string_view text, const Anchor& a) {
  // 号 numbers a thing (12号登机口), not people (200号工人 counts workers).
  const std::string_view after = text.substr(a.end);
  const bool hao = after.starts_with("号") && !after.substr(3).starts_with("人") && !after.substr(3).starts_with("工");
  if (a.type == Type::number && (numbers_a_thing(text.substr(0, a.start)) || hao)) {
    return {kNamedNumber, 0};  // "Room 3", 12号登机口
  }
  if (after_name(text.substr(0, a.start))) return {};
  size_t from = a.end;
  if (a.type == Type::quantity || a.type == Type::duration) {
    // An English unit is what the count counts: "80 residents" is read from " residents".
    const std::string_view written = text.substr(a.start, a.end - a.start);
    // In words the number may itself be hyphenated ("thirty-one passengers"): the unit is the last word.
    const size_t sep =
        is_alpha(static_cast<unsigned char>(written.front())) && written.find(' ') != std::string_view::npos
            ? written.rfind(' ')
            : written.find_first_of(" -");
    if (sep != std::string_view::npos && is_alpha(static_cast<unsigned char>(written.back()))) from = a.start + sep;
  }
  from += range_partner(text.substr(from));
  const auto boundary = [&](size_t i) {
    return text[i] == '\n' || text.substr(i).starts_with("。") || text.substr(i).starts_with("！") ||
           text.substr(i).starts_with("？") || text.substr(i).starts_with("；");
  };
  size_t begin = a.start > kClauseBytes ? a.start - kClauseBytes : 0;
  for (size_t i = a.start; i > begin; --i) {
    if (boundary(i - 1)) {
      begin = i;
      break;
    }
  }
  while (begin < a.start && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) ++begin;
  size_t end = std::min(text.size(), from + kClauseBytes);
  for (size_t i = from; i < end; ++i) {
    if (boundary(i)) {
      end = i;
      break;
    }
  }
  while (end < text.size() && end > from && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return {text.substr(begin, end - begin), from - begin};
}

}  // namespace sfcl::anchor
