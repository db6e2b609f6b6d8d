// The role of a value: what it is the value of, read from the words around it (docs/ANCHORS.md,
// "Roles"). "total due $21,705.60" states a total due, "subtotal $18,240.00" a subtotal, "arrested on
// March 26" the date of an arrest; "Monday to Thursday from 5:00 PM" the hours of four days. The
// checker compares an answer's value with the source values of the same role.
#include <span>
#include <unordered_set>

#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

bool one_of(std::string_view w, std::initializer_list<std::string_view> list) {
  for (std::string_view s : list) {
    if (ieq_ascii(w, s)) return true;
  }
  return false;
}

size_t word_start_back(std::string_view t, size_t end) {
  size_t i = end;
  while (i > 0 && (is_alpha(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '\'')) --i;
  while (i < end && t[i] == '\'') ++i;  // a quote before a word, not an apostrophe in it
  return i;
}

namespace {
constexpr size_t kRoleReach = 48;  // bytes before a value searched for its role word

// The start of a hyphenated word that ends at `w`: "Follow-up", "check-out" are one role.
size_t hyphened_start(std::string_view t, size_t w) {
  while (w >= 2 && t[w - 1] == '-' && is_alpha(static_cast<unsigned char>(t[w - 2]))) w = word_start_back(t, w - 1);
  return w;
}

// "The due date on invoice 7 is", "the issue date of the invoice was": the head noun of a subject
// followed by a prepositional phrase, searched back from its link over at most four words. Its start,
// or npos.
size_t head_before_phrase(std::string_view t, size_t stop, size_t i) {
  for (int step = 0; step < 5 && i > stop; ++step) {
    while (i > stop && t[i - 1] == ' ') --i;
    size_t w = i;
    while (w > stop && t[w - 1] != ' ') --w;  // any token: a number, an identifier, a word
    if (w == i || w == stop) return std::string_view::npos;
    const std::string_view word = t.substr(w, i - w);
    if (word.find_first_of(".;!?,:\n") != std::string_view::npos) return std::string_view::npos;
    if (step > 0 && one_of(word, {"of", "on", "for", "in"})) {
      size_t h = w - 1;
      while (h > stop && t[h - 1] == ' ') --h;
      const size_t hw = word_start_back(t, h);
      if (hw < h && one_of(t.substr(hw, h - hw), {"date", "time"})) return hw;
      return std::string_view::npos;
    }
    i = w;
  }
  return std::string_view::npos;
}
template <size_t N>
bool listed(std::string_view w, const std::string_view (&list)[N]) {
  for (std::string_view x : list) {
    if (ieq_ascii(w, x)) return true;
  }
  return false;
}

// What may stand between a role word and its value: articles and approximations ("the", "about",
// "upwards of"), at most one link ("is", "was", "of": "the total is $5", "a fee of $5"), and at
// most one of "on", "in", "at" after a verb ("arrested on March 26", "founded in 1998").
constexpr std::string_view kArticles[] = {"a",      "an",      "the",  "about",   "around", "approximately", "roughly",
                                          "nearly", "almost",  "over", "upwards", "upward", "some",          "just",
                                          "only",   "exactly", "its",  "his",     "her",    "their"};
bool is_article(std::string_view w) { return listed(w, kArticles); }
constexpr std::string_view kLinks[] = {"is", "was",    "were",   "are",   "be",    "been",
                                       "of", "equals", "stands", "stood", "totals"};
bool is_link(std::string_view w) { return listed(w, kLinks); }
constexpr std::string_view kPlacePrepositions[] = {"on", "in", "at", "since"};
bool is_place_preposition(std::string_view w) { return listed(w, kPlacePrepositions); }
// A verb that a date or place preposition follows: a past form ("arrested", "founded") or one of
// the common irregular ones.
bool is_verb_form(std::string_view w) {
  if (w.size() >= 5 && (w.ends_with("ed") || w.ends_with("ED"))) return true;
  return one_of(w, {"born", "held", "won", "began", "begun", "made", "paid", "sold", "built", "died", "met", "left",
                    "took", "taken", "set", "signed", "opened", "closed", "due", "expires", "ends", "starts", "open",
                    "operating", "operated",
                    // the second word of a phrasal verb: "went public", "took office", "came to power"
                    "public", "bankrupt", "office", "power", "online"});
}

// Words read right before a value that say nothing about what it is the value of: connectors,
// other prepositions ("since 2010", "for 45 minutes"), reporting verbs, units of time.
constexpr std::string_view kGeneric[] = {
    "and", "or", "but", "than", "more", "less", "which", "who", "whom", "what", "with", "said", "says", "say", "told",
    "according", "reported", "per", "each", "every", "all", "between", "least", "most", "mid", "late", "early",
    "another", "other", "next", "last", "first", "same", "while", "when", "where", "during", "into", "through",
    "within", "across", "among", "against", "like", "such", "including", "include", "includes", "plus", "minus",
    "number", "amount", "value", "figure", "date", "time", "year", "years", "day", "days", "month", "months", "it",
    "they", "we", "you", "she", "he", "there", "here", "not", "any", "both", "since", "for", "until", "till", "before",
    "after", "from", "by", "to", "up", "down", "now", "then", "still", "also", "again", "this", "that", "these",
    "those", "has", "have", "had", "will", "would", "can", "could", "may", "might", "about", "around", "over", "under",
    "than", "via", "off", "out", "onto", "upon", "toward", "towards", "approximately", "nearly", "almost", "just",
    "only", "some", "page", "step", "item", "part", "line", "note", "see",
    // verbs of estimating and reporting: "estimated at $212 million" says how, not what
    "estimated", "expected", "projected", "forecast", "predicted", "stated", "listed", "given", "recorded", "measured",
    "put", "seen", "valued", "priced", "rated", "ranked", "scheduled", "planned", "set"};
bool is_generic(std::string_view w) { return w.size() < 3 || listed(w, kGeneric); }
bool s_has_colon(std::string_view gap) { return gap.find(':') != std::string_view::npos; }

}  // namespace

// Looked up in one table of lower-case words, built once: clause words ask for every word of every
// value's clause, and the lists above compared one by one cost more than the rest of the indexing.
bool says_nothing(std::string_view w) {
  static constexpr std::string_view kMagnitudes[] = {"million", "billion", "trillion", "thousand",
                                                     "hundred", "percent", "cent"};
  static const std::unordered_set<std::string_view> kWords = [] {
    std::unordered_set<std::string_view> words;
    for (const std::span<const std::string_view> list :
         {std::span<const std::string_view>(kGeneric), std::span<const std::string_view>(kArticles),
          std::span<const std::string_view>(kLinks), std::span<const std::string_view>(kPlacePrepositions),
          std::span<const std::string_view>(kMagnitudes)}) {
      words.insert(list.begin(), list.end());
    }
    return words;
  }();
  constexpr size_t kLongest = 16;  // no listed word is longer
  if (w.size() < 3) return true;
  if (w.size() > kLongest) return false;
  std::array<char, kLongest> lower{};
  for (size_t i = 0; i < w.size(); ++i) lower[i] = static_cast<char>(to_lower(static_cast<unsigned char>(w[i])));
  return kWords.contains(std::string_view(lower.data(), w.size()));
}

namespace {
// "Discharge date: 11 March", "the commencement date is", "Final exam:", "Filing deadline:": a head
// noun that says only what kind of value follows takes the word before it ("Commencement Date" as a
// defined term too).
bool is_kind(std::string_view w) { return one_of(w, {"date", "time", "amount", "number", "deadline", "exam"}); }

std::string_view head_of_kind(std::string_view text, size_t w, std::string_view word, bool labelled) {
  if (!is_kind(word) || w < 2 || text[w - 1] != ' ') return {};
  size_t w2 = hyphened_start(text, word_start_back(text, w - 1));
  // "Final exam date": heads stacked, the word before them all.
  if (w2 + 1 < w && is_kind(text.substr(w2, w - 1 - w2)) && w2 >= 2 && text[w2 - 1] == ' ') {
    w = w2;
    w2 = hyphened_start(text, word_start_back(text, w - 1));
  }
  const std::string_view head = text.substr(w2, w - 1 - w2);
  const bool titled = is_upper(static_cast<unsigned char>(word.front()));
  if (!head.empty() && !is_generic(head) && !is_article(head) && !is_link(head) &&
      (!is_upper(static_cast<unsigned char>(head.front())) || titled || labelled)) {
    return head;
  }
  return {};
}
// Where the role word ending at i starts, its last part starting at `last`: a label's or subject's
// compound is one word ("Follow-up", "Check-out"), a verb keeps its own ("co-founded" is founded),
// and a phrase of generic words is none of them ("year-on-year").
size_t role_word_start(std::string_view text, size_t last, size_t i) {
  const size_t w = hyphened_start(text, last);
  if (w < last && (is_verb_form(text.substr(last, i - last)) || is_generic(text.substr(w, text.find('-', w) - w)))) {
    return last;
  }
  return w;
}

// "scheduled for", "set for" ending at the word "for" at w: where the verb starts, or npos.
size_t set_for(std::string_view text, size_t w, std::string_view word) {
  if (!ieq_ascii(word, "for") || w < 2) return std::string_view::npos;
  const size_t v = word_start_back(text, w - 1);
  return v < w - 1 && one_of(text.substr(v, w - 1 - v), {"scheduled", "set", "planned", "booked", "slated"})
             ? v
             : std::string_view::npos;
}
}  // namespace

std::string_view role_before(std::string_view text, size_t start) {
  start = std::min(start, text.size());
  // A value glued to a word (the rest of a value cut at kMaxAnchorBytes, digits after a run too
  // long for a word) has no word of its own before it.
  if (start > 0 && is_alnum(static_cast<unsigned char>(text[start - 1]))) return {};
  size_t i = start;
  const size_t stop = start > kRoleReach ? start - kRoleReach : 0;
  // What stands right before a value's first character: a space, a separator, an opening quote.
  while (i > stop && (text[i - 1] == ' ' || text[i - 1] == ':' || text[i - 1] == '"' || text[i - 1] == '\'' ||
                      text[i - 1] == '=' || text[i - 1] == '\t' || text[i - 1] == '|')) {
    --i;
  }
  if (i > 0 && static_cast<unsigned char>(text[i - 1]) >= 0x80) {
    if (const auto r = cn_role_before(text, start); !r.empty()) return r;
    return cn_role_before(text, i);
  }
  // "Total due: $5", and a table's row "| Total due | $5 |": the words before are a label.
  const bool labelled = i < start && (s_has_colon(text.substr(i, start - i)) ||
                                      text.substr(i, start - i).find('|') != std::string_view::npos);
  bool linked = false;
  bool placed = false;
  for (int step = 0; step < 5 && i > stop; ++step) {
    const size_t last = word_start_back(text, i);
    if (last == i) return {};  // a digit, a value, a sentence end, a bracket: no word before
    const size_t w = role_word_start(text, last, i);
    const std::string_view word = text.substr(w, i - w);
    const bool next_ok = w > 0 && text[w - 1] == ' ';
    auto go_on = [&] {
      i = w;
      while (i > stop && text[i - 1] == ' ') --i;
    };
    // "The follow-up is on 3 June", "Check-out is at 11 am": a subject linked to its place in time.
    if (placed && !linked && one_of(word, {"is", "was", "are", "were"}) && next_ok) {
      placed = false;
      linked = true;
      go_on();
      continue;
    }
    if (placed) return is_verb_form(word) && !is_generic(word) ? word : std::string_view{};
    // "The hearing is scheduled for 5 May": what is set for a time is the subject's.
    if (const size_t v = linked || !next_ok ? std::string_view::npos : set_for(text, w, word);
        v != std::string_view::npos) {
      i = v;
      while (i > stop && text[i - 1] == ' ') --i;
      placed = true;
      continue;
    }
    if (is_article(word) || (!linked && is_link(word))) {
      if (is_link(word)) {
        linked = true;
        // "The due date on invoice 7 is": the subject's head before its phrase.
        if (const size_t head = head_before_phrase(text, stop, w); head != std::string_view::npos) {
          size_t end = head;
          while (end < w && is_alpha(static_cast<unsigned char>(text[end]))) ++end;  // after "date"
          const std::string_view kind = head_of_kind(text, head, text.substr(head, end - head), labelled);
          if (!kind.empty()) return kind;  // "Date of birth is": no modifier, the noun after is read
        }
      }
      if (!next_ok) return {};
      go_on();
      continue;
    }
    if (!linked && is_place_preposition(word)) {
      placed = true;
      if (!next_ok) return {};
      go_on();
      continue;
    }
    if (const std::string_view head = head_of_kind(text, w, word, labelled); !head.empty()) return head;
    if (is_generic(word)) return {};
    // A capitalised word is a name, not a role, unless it is a label ("Total due: $5") or opens its
    // sentence before a link ("Rent is $2,400").
    const bool opens = w == 0 || text[w - 1] == '\n' || (linked && w >= 2 && text[w - 2] == '.');
    if (is_upper(static_cast<unsigned char>(word.front())) && !labelled && !opens) return {};
    return word;
  }
  return {};
}

namespace {
// A value that opens its sentence ("On March 26 he was charged", "In 2014, the firm moved"): the
// text before it is empty or a sentence end, after at most "On", "In", "At", "By".
bool opens_sentence(std::string_view before) {
  size_t i = before.size();
  while (i > 0 && before[i - 1] == ' ') --i;
  const size_t w = word_start_back(before, i);
  if (w < i && one_of(before.substr(w, i - w), {"on", "in", "at", "by"})) {
    i = w;
    while (i > 0 && before[i - 1] == ' ') --i;
  }
  if (i == 0) return true;
  const char c = before[i - 1];
  return c == '\n' || c == '.' || c == '!' || c == '?' || c == ';';
}
}  // namespace

// The clause's verb after a value that opens its sentence: "charged" in "On March 26 he was charged".
std::string_view role_after(std::string_view after) {
  constexpr int kMaxWords = 5;
  size_t i = 0;
  for (int n = 0; n < kMaxWords; ++n) {
    while (i < after.size() && (after[i] == ' ' || after[i] == ',')) ++i;
    const size_t w = i;
    while (i < after.size() && is_alpha(static_cast<unsigned char>(after[i]))) ++i;
    if (i == w) return {};  // a digit, a sentence end, a bracket
    const std::string_view word = after.substr(w, i - w);
    if (is_verb_form(word) && !is_generic(word)) return word;
  }
  return {};
}

std::string_view role_of(std::string_view before, std::string_view after) {
  const std::string_view r = role_before(before, before.size());
  if (!r.empty()) return r;
  if (opens_sentence(before)) return role_after(after);
  if (!after.empty() && static_cast<unsigned char>(after.front()) >= 0x80 && opens_cn_clause(before)) {
    return cn_role_after(after);
  }
  return {};
}

namespace {
// The verb before a short object that stands before "on"/"in" and a value: "adopted the budget on
// June 17", "was elected a Royal Academician in 1998". Not past a phrasal verb's particle ("passed
// away in 2001") or a pronoun ("released him on 6 March"), whose event is read elsewhere.
std::string_view verb_before_object(std::string_view before) {
  size_t i = before.size();
  while (i > 0 && before[i - 1] == ' ') --i;
  size_t w = word_start_back(before, i);
  if (w == i || !is_place_preposition(before.substr(w, i - w))) return {};
  int object_words = 3;
  bool valued = false;  // one value may stand in the object ("paid the balance of $55,634.20 on")
  for (int k = 0; k <= object_words && w > 1 && before[w - 1] == ' '; ++k) {
    const size_t v = word_start_back(before, w - 1);
    if (v == w - 1) {  // a value, punctuation: an object only once, and only a value
      size_t t = w - 1;
      while (t > 0 && before[t - 1] != ' ') --t;
      const std::string_view token = before.substr(t, w - 1 - t);
      if (valued || token.find_first_of("0123456789") == std::string_view::npos ||
          !(is_alnum(static_cast<unsigned char>(token.back())) || token.back() == '%')) {
        return {};
      }
      valued = true;
      object_words += 2;
      w = t;
      if (const size_t of = w > 1 ? word_start_back(before, w - 1) : w;
          of < w - 1 && before.substr(of, w - 1 - of) == "of") {
        w = of;
      }
      continue;
    }
    const std::string_view word = before.substr(v, w - 1 - v);
    if (k == 0 && one_of(word, {"away", "out", "up", "off", "down", "over", "back", "him", "her", "it", "them"})) {
      return {};
    }
    // "the revised balance": a participle after an article describes the object.
    const size_t prev = v > 1 && before[v - 1] == ' ' ? word_start_back(before, v - 1) : v;
    const bool described =
        prev < v - 1 && one_of(before.substr(prev, v - 1 - prev), {"a", "an", "the", "its", "his", "her", "their"});
    if (k > 0 && is_verb_form(word) && !described) return is_generic(word) ? std::string_view{} : word;
    if (k == 0 && is_verb_form(word)) return {};  // role_before's own reading
    if (is_link(word) || (says_nothing(word) && !is_article(word))) return {};
    w = v;
  }
  return {};
}
}  // namespace

// Only the answer's side: in the sources, such readings would set a paraphrase of the same event
// ("that deal closed in 2020", 2009年病故) against the answer's word as another role's value.
std::string_view answer_role_of(std::string_view before, std::string_view after) {
  if (!before.ends_with("于") && !before.ends_with("在")) return verb_before_object(before);
  return cn_answer_role(before, after);
}

namespace {
// Han characters that make a pair of no word of what a value is of: particles and prepositions.
constexpr std::u32string_view kCnLinkChars = U"于在的了是为和与及将已被把也都并而又着过从对向以至";
bool links(char32_t c) { return kCnLinkChars.find(c) != std::u32string_view::npos; }
}  // namespace

size_t subject_words(std::string_view before, std::string_view role,
                     std::array<std::string_view, kSubjectWords>& words) {
  constexpr size_t kReach = 160;  // bytes of the sentence read back from the value
  size_t n = 0;
  size_t i = before.size();
  const size_t stop = before.size() > kReach ? before.size() - kReach : 0;
  char32_t later = 0;  // the Han character after the one read, in a run
  while (i > stop && n < words.size()) {
    const auto c = static_cast<unsigned char>(before[i - 1]);
    if (c >= 0x80) {
      size_t k = i - 1;
      while (k > 0 && (static_cast<unsigned char>(before[k]) & 0xC0) == 0x80) --k;
      const auto d = utf8::decode(before, k);
      if (d.cp == U'。' || d.cp == U'！' || d.cp == U'？' || d.cp == U'；') break;
      const bool han = d.cp >= 0x4E00 && d.cp <= 0x9FFF;
      if (han && later != 0 && !links(d.cp) && !links(later)) {
        const std::string_view pair = before.substr(k, i - k + 3);
        if (pair != role) words[n++] = pair;
      }
      later = han ? d.cp : 0;
      i = k;
      continue;
    }
    later = 0;
    if (c == '\n' || ((c == '.' || c == '!' || c == '?') && i < before.size() && before[i] == ' ')) break;
    if (!is_alpha(c)) {
      --i;
      continue;
    }
    const size_t w = word_start_back(before, i);
    std::string_view word = before.substr(w, i - w);
    if (word.ends_with("'s") || word.ends_with("'")) word = word.substr(0, word.rfind('\''));  // "Yuen's": Yuen
    if (!says_nothing(word) && !same_role(word, role)) words[n++] = word;
    i = w == i ? i - 1 : w;
  }
  return n;
}

}  // namespace sfcl::anchor
