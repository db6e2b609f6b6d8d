// A value's clause words (docs/ANCHORS.md, "Clause words"): the content words written next to it in
// its sentence. Where no single role word says what a value is the value of ("Wakefield Council
// estimated its immediate costs at £2.3 million"), the words of its clause still do, and the checker
// compares an answer value's words with those of the source values of its type.
#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

namespace {

constexpr uint32_t kFnvBasis = 2166136261U;
constexpr uint32_t kFnvPrime = 16777619U;

uint32_t hash_lower(std::string_view s) {
  uint32_t h = kFnvBasis;
  for (char c : s) {
    h ^= static_cast<uint32_t>(to_lower(static_cast<unsigned char>(c)));
    h *= kFnvPrime;
  }
  return h;
}

// "arrested" = "arrests" = "arrest", "Council's" = "council", "estimate" = "estimated".
std::string_view stem(std::string_view w) {
  for (std::string_view p : {"'s", "\xE2\x80\x99s"}) {
    if (w.size() > p.size() && w.ends_with(p)) w.remove_suffix(p.size());
  }
  for (std::string_view s : {"ing", "ed", "es", "s"}) {
    if (w.size() >= s.size() + 4 && ieq_ascii(w.substr(w.size() - s.size()), s)) {
      w.remove_suffix(s.size());
      break;
    }
  }
  if (w.size() >= 5 && (w.back() == 'e' || w.back() == 'E')) w.remove_suffix(1);
  return w;
}

// Words that may stand between two values of one list or range ("from 22 to 61", "2019 and 2020",
// "3月1日至5日"): the values share the clause's words before the first.
// Words that set a value against the one before ("$2.3 million, compared with $1.8 million").
bool compares(std::string_view w) { return one_of(w, {"compared", "versus", "vs", "against", "whereas"}); }
// Words that make a value a part of the one before ("$12 billion. Of that, cloud services contributed
// $4 billion", "其中").
bool names_part(std::string_view gap) {
  for (std::string_view m : {"of that", "of this", "of these", "of those", "of them", "of which", "of whom",
                             "including", "among them", "其中", "包括"}) {
    for (size_t at = 0; at + m.size() <= gap.size(); ++at) {
      if (to_lower(static_cast<unsigned char>(gap[at])) == m.front() && ieq_ascii(gap.substr(at, m.size()), m)) {
        return true;
      }
    }
  }
  return false;
}
bool is_connector(std::string_view w) {
  return one_of(w, {"to", "and", "or", "through", "until", "till", "from", "-", "--"});
}
constexpr std::u32string_view kCnConnectors = U"至到和与及或";
// Characters that make a Chinese pair of characters say nothing of its own (的事, 是在).
constexpr std::u32string_view kCnParticles = U"的了是在于为和与及等将已被把其该这那也都并而又着过从对向以至";
// Han characters that end a value written in digits (2015年, 3月, 15个): the value's, not its clause's.
constexpr std::u32string_view kCnValueEnds = U"年月日号时点分秒个万亿千百元岁名位次人家所项场届倍米天周";

enum class Tok : uint8_t { end, stop, comma, item, word, digits, han };

struct Token {
  Tok kind = Tok::end;
  std::string_view text;
};

// Where a clause ends: a sentence's end, a record's structure ("{'review_stars': 5.0"). A comma is a
// token of its own (Tok::comma).
bool ends_sentence(std::string_view t, size_t i) {
  const char c = t[i];
  if (c == '\n' || c == '!' || c == '?' || c == '{' || c == '}' || c == '[' || c == ']') return true;
  // A full stop before anything but a letter or digit (not "3.5", "U.S"), and not an abbreviation's
  // ("No. SC298412", "Dr. Lee").
  if (c != '.' || (i + 1 < t.size() && is_alnum(static_cast<unsigned char>(t[i + 1])))) return false;
  const std::string_view w = t.substr(word_start_back(t, i), i - word_start_back(t, i));
  // An initial ("U.S. market", "John F. Kennedy") ends no sentence.
  if (w.size() == 1 && is_upper(static_cast<unsigned char>(w[0]))) return false;
  return !one_of(w, {"no", "nos",  "mr",  "mrs", "ms",  "dr",  "st",  "inc",    "ltd", "co",  "corp", "vs",  "jr",
                     "sr", "prof", "gen", "gov", "sen", "rep", "fig", "approx", "ref", "art", "sec",  "para"});
}
bool is_cn_stop(char32_t c) { return c == U'。' || c == U'！' || c == U'？'; }
bool word_byte(unsigned char c) { return is_alnum(c) || c == '\'' || c == '-'; }
bool is_latin_letter(char32_t c) { return c >= 0xC0 && c < 0x250; }

size_t cp_start(std::string_view t, size_t i) {
  while (i > 0 && (static_cast<unsigned char>(t[i]) & 0xC0) == 0x80) --i;
  return i;
}

// The token ending at `i` (exclusive), read backwards; `i` moves to its start.
Token token_back(std::string_view t, size_t& i) {
  while (i > 0) {
    const size_t s = cp_start(t, i - 1);
    const auto d = utf8::decode(t, s);
    if (d.cp == ';' || d.cp == U'；') {
      i = s;
      return {Tok::item, {}};
    }
    // A Chinese comma parts clauses that often share nothing ("据刘子君介绍，自9月22日…"): it ends
    // the words before a value; an English one may enclose words of the value's own clause.
    if (d.cp == U'，') return {Tok::stop, {}};
    if (d.cp == ',') {
      i = s;
      return {Tok::comma, {}};
    }
    if (d.cp < 0x80 && ends_sentence(t, s)) return {Tok::stop, {}};
    if (is_cn_stop(d.cp)) return {Tok::stop, {}};
    if (is_han(d.cp)) {
      size_t b = s;
      while (b > 0) {
        const size_t p = cp_start(t, b - 1);
        if (!is_han(utf8::decode(t, p).cp)) break;
        b = p;
      }
      const std::string_view run = t.substr(b, i - b);
      i = b;
      return {Tok::han, run};
    }
    if (word_byte(static_cast<unsigned char>(d.cp < 0x80 ? d.cp : 0)) || is_latin_letter(d.cp)) {
      size_t b = s;
      while (b > 0) {
        const size_t p = cp_start(t, b - 1);
        const auto e = utf8::decode(t, p);
        const bool inner_mark = (e.cp == '.' || e.cp == ',') && p > 0 && is_digit(t[p - 1]) && is_digit(t[p + 1]);
        if (!(e.cp < 0x80 && word_byte(static_cast<unsigned char>(e.cp))) && !is_latin_letter(e.cp) && !inner_mark) {
          break;
        }
        b = p;
      }
      const std::string_view w = t.substr(b, i - b);
      i = b;
      const bool digits = std::any_of(w.begin(), w.end(), [](char c) { return is_digit(c); });
      return {digits ? Tok::digits : Tok::word, w};
    }
    i = s;  // a space, a bracket, a quote, a comma, a currency sign: nothing of its own
  }
  return {Tok::end, {}};
}

// The token starting at `i`, read forwards; `i` moves past it.
Token token_fwd(std::string_view t, size_t& i) {
  while (i < t.size()) {
    const auto d = utf8::decode(t, i);
    if (d.cp == ',' || d.cp == U'，') {
      i += d.length;
      return {Tok::comma, {}};
    }
    if (d.cp == ';' || d.cp == U'；' || (d.cp < 0x80 && ends_sentence(t, i)) || is_cn_stop(d.cp)) {
      return {Tok::stop, {}};
    }
    if (is_han(d.cp)) {
      size_t e = i + d.length;
      while (e < t.size()) {
        const auto n = utf8::decode(t, e);
        if (!is_han(n.cp)) break;
        e += n.length;
      }
      const std::string_view run = t.substr(i, e - i);
      i = e;
      return {Tok::han, run};
    }
    if ((d.cp < 0x80 && word_byte(static_cast<unsigned char>(d.cp))) || is_latin_letter(d.cp)) {
      size_t e = i;
      while (e < t.size()) {
        const auto n = utf8::decode(t, e);
        const bool inner_mark =
            (n.cp == '.' || n.cp == ',') && e > 0 && e + 1 < t.size() && is_digit(t[e - 1]) && is_digit(t[e + 1]);
        if (!(n.cp < 0x80 && word_byte(static_cast<unsigned char>(n.cp))) && !is_latin_letter(n.cp) && !inner_mark) {
          break;
        }
        e += n.length;
      }
      const std::string_view w = t.substr(i, e - i);
      i = e;
      const bool digits = std::any_of(w.begin(), w.end(), [](char c) { return is_digit(c); });
      return {digits ? Tok::digits : Tok::word, w};
    }
    i += d.length;
  }
  return {Tok::end, {}};
}

// Bytes read on either side of a value at most: a clause of function words alone ends here.
constexpr size_t kClauseReach = 400;
// Words an item of a source's enumeration may have of its own and still share its list's: one
// ("二级为75%").
constexpr size_t kItemWords = 1;

class Collector {
 public:
  explicit Collector(ClauseWords& out) : out_(out) {}
  [[nodiscard]] bool full() const { return out_.size == kClauseWords; }

  // An English word, unless it says nothing (a function word, a connector).
  void word(std::string_view w) {
    while (!w.empty() && (w.front() == '\'' || w.front() == '-')) w.remove_prefix(1);  // quotes, dashes
    while (!w.empty() && (w.back() == '\'' || w.back() == '-')) w.remove_suffix(1);
    if (w.size() < 3 || says_nothing(w) || is_connector(w)) return;
    add(hash_lower(stem(w)));
  }
  // A run of Han characters as its pairs, nearest first (`backwards`).
  void han(std::string_view run, bool backwards) {
    // Only the characters nearest the value count: the run's tail before it, its head after it.
    size_t off[kMaxRun + 1];
    size_t n = 0;
    if (backwards) {
      size_t k = run.size();
      while (k > 0 && n < kMaxRun) {
        k = cp_start(run, k - 1);
        ++n;
      }
      run = run.substr(k);
      n = 0;
    }
    for (size_t k = 0; k < run.size() && n < kMaxRun;) {
      off[n++] = k;
      k += utf8::decode(run, k).length;
    }
    if (n < 2) return;
    off[n] = n < kMaxRun ? run.size() : off[n - 1] + utf8::decode(run, off[n - 1]).length;
    for (size_t j = 0; j + 1 < n && !full(); ++j) {
      const size_t p = backwards ? n - 2 - j : j;
      const char32_t first = utf8::decode(run, off[p]).cp;
      const char32_t second = utf8::decode(run, off[p + 1]).cp;
      if (kCnParticles.find(first) != std::u32string_view::npos ||
          kCnParticles.find(second) != std::u32string_view::npos) {
        continue;
      }
      add(hash_lower(run.substr(off[p], off[p + 2] - off[p])));
      out_.han = true;
    }
  }

 private:
  static constexpr size_t kMaxRun = 24;
  void add(uint32_t h) {
    for (size_t k = 0; k < out_.size; ++k) {
      if (out_.hashes[k] == h) return;
    }
    if (!full()) out_.hashes[out_.size++] = h;
  }
  ClauseWords& out_;
};

// A Han run right after digits begins with the value's own character (2015年成立: 成立). At the
// start of `t`, `after_digits` says whether digits stood before it (15岁时打破 after the value 15).
std::string_view drop_value_end(std::string_view t, std::string_view run, bool after_digits = false) {
  const size_t at = static_cast<size_t>(run.data() - t.data());
  if (at == 0 ? !after_digits : !is_digit(t[at - 1])) return run;
  const auto d = utf8::decode(run, 0);
  return kCnValueEnds.find(d.cp) != std::u32string_view::npos ? run.substr(d.length) : run;
}

bool cn_connector_only(std::string_view run) {
  const auto d = utf8::decode(run, 0);
  return static_cast<size_t>(d.length) == run.size() && kCnConnectors.find(d.cp) != std::u32string_view::npos;
}

}  // namespace

void ClauseWords::add_all(const ClauseWords& other) {
  for (size_t k = 0; k < other.size && size < kClauseWords; ++k) {
    if (!has_hash(other.hashes[k])) hashes[size++] = other.hashes[k];
  }
  han = han || other.han;
}

bool ClauseWords::has_word(std::string_view w) const { return has_hash(hash_lower(stem(w))); }

size_t ClauseWords::shared(const ClauseWords& other) const {
  size_t n = 0;
  for (size_t i = 0; i < size; ++i) {
    for (size_t j = 0; j < other.size; ++j) {
      if (hashes[i] == other.hashes[j]) {
        ++n;
        break;
      }
    }
  }
  return n;
}

// Back to the sentence's start or to the value before (a value joined to this one by "to", "and",
// 至 shares the words before it: "expanded from 22 to 61" gives 61 "expanded").
ClauseWords clause_words_before(std::string_view before, bool items, bool past_commas) {
  if (before.size() > kClauseReach) before.remove_prefix(before.size() - kClauseReach);
  ClauseWords out;
  Collector c(out);
  size_t i = before.size();
  bool joined = true;  // only connectors since the value (or the value skipped last)
  while (!c.full()) {
    const Token t = token_back(before, i);
    if (t.kind == Tok::end || t.kind == Tok::stop) break;
    // A comma ends the clause ("In March, the council estimated …"), unless nothing was read yet:
    // a clause in commas before the value ("Benefits, chiefly reduced fraud, are estimated at").
    if (t.kind == Tok::comma) {
      if (out.size > 0 && !past_commas) break;
      continue;
    }
    if (t.kind == Tok::item) {
      // An item of an enumeration ("报销比例为85%；二级为75%") shares its list's words, past the
      // item before and its value.
      if (!items || out.size > kItemWords) break;
      joined = true;
      continue;
    }
    if (t.kind == Tok::digits) {
      if (!joined) break;
      out.joined = true;
      continue;
    }
    if (t.kind == Tok::word) {
      c.word(t.text);
      if (!is_connector(t.text)) joined = false;
      continue;
    }
    const std::string_view run = drop_value_end(before, t.text);
    if (run.empty() || cn_connector_only(run)) continue;
    c.han(run, true);
    joined = false;
  }
  return out;
}

// Forward to the clause's end or the next value.
ClauseWords clause_words_after(std::string_view after, bool after_digits) {
  after = after.substr(0, kClauseReach);
  ClauseWords out;
  Collector c(out);
  size_t i = 0;
  while (!c.full()) {
    const Token t = token_fwd(after, i);
    if (t.kind == Tok::end || t.kind == Tok::stop || t.kind == Tok::digits) break;
    // A value that opens its sentence before a comma: its clause follows ("In 2019, revenue fell").
    if (t.kind == Tok::comma) {
      if (out.size > 0) break;
      continue;
    }
    if (t.kind == Tok::word) {
      c.word(t.text);
      continue;
    }
    const std::string_view run = drop_value_end(after, t.text, after_digits);
    if (!run.empty()) c.han(run, false);
  }
  return out;
}

// Whether the text between two values joins them into one range or list: connectors, commas,
// function words and units of magnitude only ("from $5 million in 2019 to $7 million", "$5m in
// 2019, $6m in 2020", "3月1日至").
bool joins_values(std::string_view gap) {
  size_t i = 0;
  for (;;) {
    const Token t = token_fwd(gap, i);
    switch (t.kind) {
      case Tok::end:
        return true;
      case Tok::comma:
        continue;
      case Tok::word:
        if (is_connector(t.text) || says_nothing(t.text) || compares(t.text)) continue;
        return false;
      case Tok::han:
        if (cn_connector_only(t.text)) continue;
        return false;
      default:
        return false;
    }
  }
}

namespace {
// Values a range or a list continues with another value: not names, titles or structure.
bool joins_others(Type t) {
  return t == Type::number || t == Type::amount || t == Type::percent || t == Type::date || t == Type::duration ||
         t == Type::quantity || t == Type::time;
}
}  // namespace

std::vector<uint32_t> sentence_starts(std::string_view text) {
  std::vector<uint32_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (ends_sentence(text, i)) starts.push_back(static_cast<uint32_t>(i + 1));
    } else if (c == 0xE3 || c == 0xEF) {  // the lead byte of 。, ！ and ？
      const auto d = utf8::decode(text, i);
      if (is_cn_stop(d.cp)) starts.push_back(static_cast<uint32_t>(i + static_cast<size_t>(d.length)));
    }
  }
  return starts;
}

void SourceClauses::next(std::string_view text, const Anchor& a, ClauseWords& before, ClauseWords& after) {
  // Sentences since the last value, counted as clause_words_before ends them.
  for (size_t i = std::min<size_t>(pos_, a.start); i < a.start;) {
    const auto d = utf8::decode(text, i);
    if ((d.cp < 0x80 && ends_sentence(text, i)) || is_cn_stop(d.cp)) ++sentence_;
    i += static_cast<size_t>(d.length);
  }
  pos_ = a.start;
  // Only a value near the one before continues it (the gap is read once per value, never for names).
  constexpr size_t kJoinReach = 160;
  const bool near = joins_others(a.type) && end_ > 0 && end_ <= a.start && a.start - end_ <= kJoinReach;
  const std::string_view gap = near ? text.substr(end_, a.start - end_) : std::string_view{};
  // Only values are compared by their clause words (Checker::bind_to_clause): names keep none.
  if (!joins_others(a.type) && a.type != Type::identifier) {
    before = {};
    after = {};
    return;
  }
  const bool joined = !gap.empty() && joins_values(gap);
  before = joined ? words_ : clause_words_before(text.substr(0, a.start), true);
  // A part of the value before shares its words too, after its own ("Of that, cloud services
  // contributed $4 billion" after "total revenue was $12 billion").
  if (!joined && !gap.empty() && names_part(gap)) before.add_all(words_);
  after = clause_words_after(text.substr(a.end), a.end > 0 && is_digit(text[a.end - 1]));
  if (joins_others(a.type)) {
    end_ = a.end;
    words_ = before;
  }
}

}  // namespace sfcl::anchor
