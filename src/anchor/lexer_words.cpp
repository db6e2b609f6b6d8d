// English keywords and word-shaped anchors: logic words, clause references, code signatures,
// spelled-out numbers, URLs and email addresses.
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "anchor/lexer_words.h"

namespace sfcl::anchor::lex {

namespace {
constexpr FirstBytes kLogicFirst = first_bytes(kLogic, kText, true);
}  // namespace

size_t scan_logic(Src& src, size_t p, Anchor& a) {
  const int c0 = src.at(p);
  for (uint64_t bits = kLogicFirst.at(c0); bits != 0; bits &= bits - 1) {
    const Word& w = entry(kLogic, bits);
    // Lowercase, or capitalised at a sentence start; never ALL CAPS matches of short words.
    if (src.match_ci(p, w.text) && src.word_end(p + w.text.size())) {
      bool rest_lower = true;
      for (size_t k = 1; k < w.text.size(); ++k) rest_lower = rest_lower && !is_upper(src.at(p + k));
      if (!rest_lower) continue;
      set_norm(a, Type::logic, std::string(w.norm));
      return p + w.text.size();
    }
  }
  return 0;
}

namespace {
constexpr FirstBytes kClauseFirst = first_bytes(kClauseWords, kText, false);

size_t dotted_number(Src& src, size_t k) {
  size_t j = src.digits(k);
  if (j == k) return 0;
  while (src.at(j) == '.' && is_digit(src.at(j + 1))) j = src.digits(j + 1);
  return j;
}

}  // namespace

// "(3)", "(b)", "(iv)" after a clause number, up to three: its paragraphs, kept in the norm as
// written ("12(3)(b)"), so "Article 12(3)" is one reference and 第十二条第三款 can be the same one.
size_t clause_parts(Src& src, size_t j, std::string& num) {
  constexpr size_t kMaxParts = 3;
  constexpr size_t kMaxPartLength = 4;
  for (size_t n = 0; n < kMaxParts && src.at(j) == '('; ++n) {
    size_t e = j + 1;
    while (e - j - 1 < kMaxPartLength && is_alnum(src.at(e))) ++e;
    if (e == j + 1 || src.at(e) != ')') break;
    num.push_back('(');
    for (size_t i = j + 1; i < e; ++i) num.push_back(static_cast<char>(to_lower(static_cast<unsigned char>(src.s[i]))));
    num.push_back(')');
    j = e + 1;
  }
  return j;
}

size_t scan_clause(Src& src, size_t p, Anchor& a) {
  for (uint64_t bits = kClauseFirst.at(src.at(p)); bits != 0; bits &= bits - 1) {
    const ClauseWord& w = entry(kClauseWords, bits);
    if (!src.match(p, w.text)) continue;
    size_t k = p + w.text.size();
    if (w.text == "§" && src.match(k, "§")) k += w.text.size();
    if (w.needs_space && src.at(k) != ' ') return 0;
    if (src.at(k) == ' ') k = src.skip_spaces(k);
    const size_t j = dotted_number(src, k);
    if (j == 0) return 0;
    if (is_alnum(src.at(j)) && !src.word_end(j)) return 0;
    std::string num(src.s.substr(k, j - k));
    const size_t nz = num.find_first_not_of('0');
    if (nz != std::string::npos && nz > 0) num.erase(0, nz);
    const size_t e = clause_parts(src, j, num);
    set_norm(a, Type::clause, num);
    return e;
  }
  return 0;
}

namespace {
bool ident_char(int c) { return is_alnum(c) || c == '_'; }

constexpr FirstBytes kCodeFirst = first_bytes(
    kCodeKeywords, [](const CodeKeyword& k) { return k.kw; }, false);

}  // namespace

size_t scan_code_signature(Src& src, size_t p, Anchor& a) {
  for (uint64_t bits = kCodeFirst.at(src.at(p)); bits != 0; bits &= bits - 1) {
    const CodeKeyword& kw = entry(kCodeKeywords, bits);
    if (!src.match(p, kw.kw) || src.at(p + kw.kw.size()) != ' ') continue;
    const size_t k = p + kw.kw.size() + 1;
    const int c = src.at(k);
    if (!is_alpha(c) && c != '_') return 0;
    if (kw.kw == "class" && !is_upper(c)) return 0;
    size_t j = k;
    for (size_t letters = 0; ident_char(src.at(j)); ++j) {
      letters = is_alpha(src.at(j)) ? letters + 1 : 0;
      if (letters > kMaxLetterRun) return 0;  // no name (docs/DESIGN.md, 'Hold-back and emission')
    }
    const int after = src.at(j);
    bool ok = false;
    if (kw.needs_paren) {
      ok = after == '(' || (kw.kw == "fn" && after == '<');
    } else {
      ok = after == ':' || after == '(' || after == '{' || after == ';' || (after == ' ' && src.at(j + 1) == '{') ||
           (after == ' ' && src.match(j + 1, "extends"));
    }
    if (!ok) return 0;
    set_norm(a, Type::code_signature, std::string(kw.kw) + " " + std::string(src.s.substr(k, j - k)));
    return j;
  }
  return 0;
}

namespace {
constexpr FirstBytes kSpelledFirst = first_bytes(kSpelled, kText, true);

}  // namespace

// "thirty days", "thirty (30) days", "ten percent".
size_t and_a_half(Src& src, size_t j, std::string_view& unit) {
  if (!src.match_ci(j, " and a half")) return 0;
  return duration_suffix(src, j + 11, unit, false);
}

size_t scan_unit_and_a_half(Src& src, size_t p, Anchor& a) {
  const auto take = [&](size_t e, std::string norm, double value) {
    set_norm(a, Type::duration, std::move(norm));
    a.value = value;
    return e;
  };
  for (std::string_view q : {"quarter of an hour", "quarter-hour", "quarter hour"}) {
    if (src.match_ci(p, q) && src.word_end(p + q.size())) return take(p + q.size(), "15 minute", 15);
  }
  for (std::string_view h : {"half-hour", "half hour"}) {
    if (src.match_ci(p, h) && src.word_end(p + h.size())) return take(p + h.size(), "30 minute", 30);
  }
  size_t k = p;
  if (src.match_ci(p, "an ")) {
    k += 3;
  } else if (src.match_ci(p, "a ")) {
    k += 2;
  } else {
    return 0;
  }
  for (std::string_view u : {"hour", "day", "week", "month", "year"}) {
    if (src.match_ci(k, u) && src.match_ci(k + u.size(), " and a half") && src.word_end(k + u.size() + 11)) {
      return take(k + u.size() + 11, "1.5 " + std::string(u), 1.5);
    }
  }
  return 0;
}

namespace {
// "-five" or " five" after a tens word ending at j: the end and the unit's value, or 0.
size_t hyphenated_unit(Src& src, size_t j, int& unit) {
  if (src.at(j) != '-' && src.at(j) != ' ') return 0;
  for (size_t k = 0; k < 9; ++k) {  // kSpelled starts with one .. nine
    const Word& w = kSpelled[k];
    if (src.match_ci(j + 1, w.text) && src.word_end(j + 1 + w.text.size())) {
      unit = static_cast<int>(k) + 1;
      return j + 1 + w.text.size();
    }
  }
  return 0;
}
}  // namespace

namespace {
// Words after a number in words that make it no count of anything: "two of them", "two to
// three", "nine to five", "two or three", "three in ten".
constexpr std::array<std::string_view, 16> kNotCounted = {
    "of", "to", "or", "and", "in", "out", "at", "on", "by", "for", "from", "with", "than", "per", "thirds", "quarters"};

struct Magnitude {
  std::string_view word;
  uint64_t scale;
};
constexpr std::array<Magnitude, 4> kMagnitudes = {
    {{"hundred", 100}, {"thousand", 1000}, {"million", 1000000}, {"billion", 1000000000}}};

// A number word from one to ninety-nine at k ("four", "twelve", "forty-two"): its end and value, or 0.
size_t small_number_word(Src& src, size_t k, uint64_t& value) {
  constexpr size_t kUpToNinety = 27;  // kSpelled: one .. ninety, then "half" and "twice"
  for (size_t i = 0; i < kUpToNinety; ++i) {
    const Word& w = kSpelled[i];
    if (!src.match_ci(k, w.text) || !src.word_end(k + w.text.size())) continue;
    value = std::strtoull(std::string(w.norm).c_str(), nullptr, 10);
    size_t e = k + w.text.size();
    int unit = 0;
    if (value >= 20 && src.at(e) == '-') {
      if (size_t h = hyphenated_unit(src, e, unit)) {
        value += static_cast<uint64_t>(unit);
        e = h;
      }
    }
    return e;
  }
  return 0;
}

// The words after a first number word that go on with it: "thousand four hundred and twelve",
// "million". Returns their end (j when none) and the whole value.
size_t spelled_tail(Src& src, size_t j, uint64_t& value) {
  uint64_t total = 0;
  uint64_t current = value;
  bool scaled = false;
  uint64_t last_scale = 0;  // each of thousand, million, billion once, larger first
  while (src.at(j) == ' ') {
    size_t k = j + 1;
    if (scaled && src.match_ci(k, "and ")) k += 4;  // "four hundred and twelve"
    bool matched = false;
    for (const Magnitude& m : kMagnitudes) {
      if (current == 0 || !src.match_ci(k, m.word) || !src.word_end(k + m.word.size())) continue;
      // "two hundred hundred", "two thousand three million": no number; the chain stops before it
      if (m.scale == 100 ? current >= 100 : (last_scale != 0 && m.scale >= last_scale)) break;
      if (m.scale == 100) {
        current *= 100;
      } else {
        total += current * m.scale;
        current = 0;
        last_scale = m.scale;
      }
      j = k + m.word.size();
      scaled = matched = true;
      break;
    }
    if (matched) continue;
    uint64_t more = 0;
    const size_t e = scaled && current % 100 == 0 ? small_number_word(src, k, more) : 0;
    if (e == 0) break;
    current += more;
    j = e;
  }
  value = total + current;
  return j;
}

// "three women", "thirty-one passengers", "two million people", "three goals": a number in words
// before the lower-case word it counts is that count, as "3 women" is, so a source's "3" and an
// answer's "three" (or the other way round) are one value (docs/ANCHORS.md, "Numbers in words").
size_t spelled_count(Src& src, size_t j, std::string_view digits, bool in_title, Anchor& a) {
  if (src.at(j) != ' ') return 0;
  uint64_t whole = std::strtoull(std::string(digits).c_str(), nullptr, 10);
  const size_t tail = spelled_tail(src, j, whole);
  const bool magnitude = tail != j;
  j = tail;
  const std::string norm = std::to_string(whole);
  const auto value = static_cast<double>(whole);
  std::string_view unit;
  if (size_t e = quantity_suffix(src, j, unit)) {
    set_norm(a, Type::quantity, norm + " " + std::string(unit));
    a.value = value;
    return e;
  }
  if (!magnitude) {
    // A name may follow ("Two New York women"), but not inside a title ("The Three Musketeers").
    if (src.at(j) != ' ' || !is_alpha(src.at(j + 1)) || (in_title && is_upper(src.at(j + 1)))) return 0;
    size_t k = j + 1;
    while (is_alpha(src.at(k)) && k - j <= kMaxLetterRun) ++k;  // a longer run is no word: decided there
    if (k - j > kMaxLetterRun || !src.word_end(k)) return 0;
    const std::string_view next = src.s.substr(j + 1, k - j - 1);
    // A part of a whole: "three of the alleged attackers" counts attackers, as "three attackers" does.
    const bool part = next == "of" && (src.match(k, " the ") || src.match(k, " their ") || src.match(k, " its "));
    for (std::string_view w : kNotCounted) {
      if (next == w && !part) return 0;
    }
  }
  set_norm(a, Type::number, norm);
  a.value = value;
  return j;
}
}  // namespace

size_t scan_spelled(Src& src, size_t p, Anchor& a) {
  for (uint64_t bits = kSpelledFirst.at(src.at(p)); bits != 0; bits &= bits - 1) {
    Word w = entry(kSpelled, bits);
    if (!src.match_ci(p, w.text) || !src.word_end(p + w.text.size())) continue;
    size_t j = p + w.text.size();
    std::string compound;
    if (w.norm.size() == 2 && w.norm[1] == '0' && w.norm[0] >= '2') {  // "twenty-five"
      int unit = 0;
      if (size_t e = hyphenated_unit(src, j, unit)) {
        compound = std::string(1, w.norm[0]) + static_cast<char>('0' + unit);
        w.norm = compound;
        j = e;
      }
    }
    if (w.text == "twice") {  // "twice daily": two times, as 两次 is; "twice as large": a multiple, as 两倍 is
      const Compared how = times_compared(src, j);
      if (how == Compared::wait) return 0;
      set_norm(a, Type::quantity, how == Compared::yes ? "2 倍" : "2 次");
      a.value = 2;
      return j;
    }
    const bool half = w.norm == "0.5";
    if (half) {  // "half an hour", "half a day" (not "half-year", a period, nor "half the time")
      if (src.match_ci(j, " an ")) {
        j += 3;
      } else if (src.match_ci(j, " a ")) {
        j += 2;
      } else {
        return 0;
      }
    }
    if (src.at(j) == ' ' && src.at(j + 1) == '(') {  // "thirty (30)"
      const size_t d1 = src.digits(j + 2);
      if (d1 > j + 2 && src.at(d1) == ')') j = d1 + 1;
    }
    std::string_view unit;
    if (size_t e = and_a_half(src, j, unit); e > 0 && !half) {  // "two and a half hours"
      set_norm(a, Type::duration, std::string(w.norm) + ".5 " + std::string(unit));
      a.value = std::strtod(std::string(w.norm).c_str(), nullptr) + 0.5;
      return e;
    }
    if (size_t e = duration_suffix(src, j, unit, false)) {
      set_norm(a, Type::duration, std::string(w.norm) + " " + std::string(unit));
      a.value = std::strtod(std::string(w.norm).c_str(), nullptr);
      return e;
    }
    if (half) return 0;
    if (size_t e = percent_suffix(src, j); e > 0 && src.at(j) == ' ') {
      set_norm(a, Type::percent, std::string(w.norm) + "%");
      a.value = std::strtod(std::string(w.norm).c_str(), nullptr);
      return e;
    }
    // "one" is a pronoun as often ("one of", "no one"), except before a scale ("one hundred people")
    if (w.norm == "1" && !(src.at(j) == ' ' && (src.match_ci(j + 1, "hundred") || src.match_ci(j + 1, "thousand") ||
                                                src.match_ci(j + 1, "million") || src.match_ci(j + 1, "billion")))) {
      return 0;
    }
    // Capitalised after a word, the number is part of a title or a name.
    const bool in_title = is_upper(src.at(p)) && p >= 2 && src.s[p - 1] == ' ' && is_alnum(src.at(p - 2));
    return spelled_count(src, j, w.norm, in_title, a);
  }
  return 0;
}

size_t scan_url(Src& src, size_t p, Anchor& a) {
  size_t k = 0;
  if (src.match(p, "https://")) {
    k = p + 8;
  } else if (src.match(p, "http://")) {
    k = p + 7;
  } else {
    return 0;
  }
  size_t j = k;
  while (true) {
    const int c = src.at(j);
    if (c == kEnd || is_space(c) || c == '<' || c == '>' || c == '"' || c >= 0x80) break;
    ++j;
  }
  while (j > k && (src.s[j - 1] == '.' || src.s[j - 1] == ',' || src.s[j - 1] == ')' || src.s[j - 1] == ';')) --j;
  if (j == k) return 0;
  set_norm(a, Type::identifier, std::string(src.s.substr(p, j - p)));
  return j;
}

size_t scan_email(Src& src, size_t p, Anchor& a) {
  size_t j = p;
  auto local = [](int c) { return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'; };
  // A run of more than kMaxLetterRun letters is no part of an address.
  size_t letters = 0;
  for (; local(src.at(j)); ++j) {
    letters = is_alpha(src.at(j)) ? letters + 1 : 0;
    if (letters > kMaxLetterRun) return 0;
  }
  if (j == p || src.at(j) != '@') return 0;
  size_t d = j + 1;
  size_t last_dot = 0;
  letters = 0;
  while (true) {
    const int c = src.at(d);
    if (is_alnum(c) || c == '-') {
      letters = is_alpha(c) ? letters + 1 : 0;
      if (letters > kMaxLetterRun) return 0;
      ++d;
    } else if (c == '.' && is_alnum(src.at(d + 1))) {
      last_dot = d;
      ++d;
    } else {
      break;
    }
  }
  if (last_dot == 0 || d - last_dot - 1 < 2) return 0;
  std::string norm(src.s.substr(p, d - p));
  for (auto& ch : norm) ch = static_cast<char>(to_lower(static_cast<unsigned char>(ch)));
  set_norm(a, Type::identifier, std::move(norm));
  return d;
}

}  // namespace sfcl::anchor::lex
