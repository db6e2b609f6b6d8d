// The anchor lexer: one forward pass, hand-written matchers tried at word starts, no regex, no
// allocation per character. Incremental correctness rests on one rule: every read goes through
// Src, and a read past the end of the text seen so far marks the decision as provisional.
#include <algorithm>
#include <array>
#include <bit>
#include <limits>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "anchor/lexer_words.h"

namespace sfcl::anchor::lex {
namespace {

// The clause, logic, code and spelled-number keywords all require the word at p to be exactly
// their leading run of letters ("shall" of "shall not", "forty" of "forty-five", "Sec" of
// "Sec."): a word that is none of these runs cannot start any of them.
struct KeywordLeads {
  std::array<std::string_view, 64> words{};
  size_t n = 0;
  FirstBytes first;
  constexpr void add(std::string_view w) {
    size_t k = 0;
    while (k < w.size() && is_alnum(static_cast<unsigned char>(w[k]))) ++k;
    if (k == 0) return;  // "§": not an ASCII word
    const int c = static_cast<unsigned char>(w[0]);
    first.mask[static_cast<size_t>(to_lower(c))] |= uint64_t{1} << n;
    first.mask[static_cast<size_t>(to_lower(c) - 32)] |= uint64_t{1} << n;
    words[n++] = w.substr(0, k);
  }
};
constexpr KeywordLeads kKeywordLeads = [] {
  KeywordLeads k;
  for (const auto& w : kClauseWords) k.add(w.text);
  for (const auto& w : kLogic) k.add(w.text);
  for (const auto& w : kCodeKeywords) k.add(w.kw);
  return k;
}();
static_assert(kKeywordLeads.n == kClauseWords.size() - 1 + kLogic.size() + kCodeKeywords.size());
constexpr KeywordLeads kSpelledLeads = [] {  // a table of its own: one mask holds 64 words
  KeywordLeads k;
  for (const auto& w : kSpelled) k.add(w.text);
  return k;
}();
static_assert(kSpelledLeads.n == kSpelled.size());

// Inlined: it runs at every word, twice.
[[gnu::always_inline]] inline bool keyword_lead(const KeywordLeads& leads, std::string_view word) {
  for (uint64_t bits = leads.first.at(static_cast<unsigned char>(word[0])); bits != 0; bits &= bits - 1) {
    const std::string_view w = leads.words[static_cast<size_t>(std::countr_zero(bits))];
    if (w.size() != word.size()) continue;
    bool same = true;
    for (size_t k = 0; k < w.size() && same; ++k)
      same = to_lower(static_cast<unsigned char>(w[k])) == to_lower(static_cast<unsigned char>(word[k]));
    if (same) return true;
  }
  return false;
}

// A word of ASCII letters (digits in it or not) at p, c its first byte, skip its end: an
// identifier, URL, email, DOI, amount, date, keyword, citation or name starting there, or 0.
size_t scan_letter_word(Src& src, size_t p, int c, Anchor& a, size_t skip) {
  // A word with neither digits nor '@' / ':' / '-' after it can only be a keyword or a name.
  bool special = false;
  for (size_t k = p; k < skip; ++k) special = special || is_digit(static_cast<unsigned char>(src.s[k]));
  const int after = src.at(skip);
  special = special || after == '@' || after == ':' || after == '-' || after == '_' || after == '.' || after == '/' ||
            after == '$' || after == '+' || after == '%';
  if (after == ':') {
    if (c == 'd' || c == 'D') {
      if (size_t e = scan_doi(src, p, a)) return e;
    }
    if (c == 'a' || c == 'A') {
      if (size_t e = scan_arxiv(src, p, a)) return e;
    }
  }
  if (special) {
    // Both would read only what is read already and fail: a URL starts with "http", and an
    // email's local part runs on past this word only through '.', '_', '%', '+' or '-' to '@'.
    if (c == 'h') {
      if (size_t e = scan_url(src, p, a)) return e;
    }
    if (after == '@' || after == '.' || after == '_' || after == '%' || after == '+' || after == '-') {
      if (size_t e = scan_email(src, p, a)) return e;
    }
  }
  const bool upper = is_upper(c);
  if (upper) {
    if (size_t e = scan_prefixed_amount(src, p, a)) return e;
    if (c == 'Q') {  // at any other byte scan_quarter fails, having read only that byte
      if (size_t e = scan_quarter(src, p, a)) return e;
    }
    if (c == 'F') {
      if (size_t e = scan_fiscal_year(src, p, a)) return e;
    }
  }
  if (special) {
    if (size_t e = scan_identifier(src, p)) {
      set_norm(a, Type::identifier, std::string(src.s.substr(p, e - p)));
      return e;
    }
  }
  if (upper || is_lower(c)) {  // a source written in lower case has its months in lower case
    if (size_t e = scan_month_first(src, p, a)) return e;
  }
  if (upper) {
    if (c == 'N' || c == 'C' || c == 'V') {
      if (size_t e = scan_holiday(src, p, a)) return e;
    }
  }
  const std::string_view word = src.s.substr(p, skip - p);
  if (keyword_lead(kKeywordLeads, word)) {
    if (size_t e = scan_clause(src, p, a)) return e;
    if (size_t e = scan_logic(src, p, a)) return e;
    if (size_t e = scan_code_signature(src, p, a)) return e;
  }
  if (word.size() <= 7 &&
      (ieq_ascii(word, "a") || ieq_ascii(word, "an") || ieq_ascii(word, "quarter") || ieq_ascii(word, "half"))) {
    if (size_t e = scan_unit_and_a_half(src, p, a); e != 0 || (e = scan_past_hour(src, p, a)) != 0) return e;
  }
  if (keyword_lead(kSpelledLeads, word)) {
    if (size_t e = scan_spelled(src, p, a)) return e;
  }
  if (upper) {
    // A reference goes on with " et al.", " and"/" &" and another author, more capitalised words
    // or a volume number, or "," after "(": any other next byte rules one out without a scan.
    const int next = src.at(skip + 1);
    const bool maybe_citation =
        (after == ' ' && (next == 'e' || next == 'a' || next == '&' || is_upper(next) || is_digit(next))) ||
        (after == ',' && p > 0 && src.s[p - 1] == '(') || after == '.' || after == '-' || after == '\'' ||
        after >= 0x80;
    if (maybe_citation) {
      if (size_t e = scan_author_citation(src, p, a)) return e;
    }
    if (after >= 0x80) {
      if (size_t e = scan_cn_author_citation(src, p, a)) return e;
    }
    return scan_name(src, p, a);
  }
  return 0;
}

// At an ASCII letter or digit c at p.
size_t scan_word(Src& src, size_t p, int c, Anchor& a, size_t& skip, const LexerOptions& opt) {
  // Inside a word nothing starts, except a number or code after a run too long to be a word
  // ("ScoresScores…Scores2031": 2031 is still checked).
  if (p > 0 && is_alnum(static_cast<unsigned char>(src.s[p - 1])) && !(is_digit(c) && src.long_run_before(p))) {
    skip = src.inner_skip(p);
    return 0;
  }
  skip = src.word_run_end(p);
  if (skip == p) {  // more than kMaxLetterRun letters: no word, whatever follows them
    skip = p + kMaxLetterRun + 1;
    return 0;
  }
  if (is_digit(c)) {
    skip = p + 1;
    if (c == '1') {
      if (size_t e = scan_doi(src, p, a)) return e;
    }
    if (size_t e = scan_case_citation(src, p, a)) return e;
    return scan_digit_start(src, p, a, opt);
  }
  return scan_letter_word(src, p, c, a, skip);
}

// At an ASCII byte c that is no letter or digit: amounts, JSON, XML, phone numbers, " = ".
size_t scan_punct(Src& src, size_t p, int c, Anchor& a) {
  switch (c) {
    case '$':
      return scan_prefixed_amount(src, p, a);
    case '{':
    case '[':
    case '"':
      return scan_json(src, p, a);
    case '<':
      return scan_xml(src, p, a);
    case '(':
      return scan_area_code_phone(src, p, a);
    case '=':
      if (p > 0 && src.s[p - 1] == ' ' && src.at(p + 1) == ' ') {
        set_norm(a, Type::logic, "equals");
        return p + 1;
      }
      return 0;
    default:
      return 0;
  }
}

// At a character beyond ASCII: §, 《, currency signs, Chinese and Japanese text.
size_t scan_non_ascii(Src& src, size_t p, Anchor& a, size_t& skip) {
  const auto d = src.cp(p);
  skip = p + (d.length > 0 ? static_cast<size_t>(d.length) : 1);
  if (d.length == 0) return 0;
  if (d.cp == U'§') return scan_clause(src, p, a);
  if (d.cp == U'《') return scan_cn_title_citation(src, p, a);
  if (d.cp == U'€' || d.cp == U'£' || d.cp == U'¥' || d.cp == U'￥') return scan_prefixed_amount(src, p, a);
  if (is_han(d.cp)) {
    if (cn_surname(d.cp)) {  // a Chinese reference ("王等（2021）") or name starts with a surname
      if (size_t e = scan_cn_author_citation(src, p, a)) return e;
      if (size_t e = scan_cn_person(src, p, a)) return e;
    }
    if (jp_surname_first(d.cp)) {
      if (size_t e = scan_jp_person(src, p, a)) return e;
    }
    const size_t e = scan_han(src, p, d.cp, a);
    // The organisation-name scan from p failed, crossing only plain characters: a start at any of
    // them reaches only that scan (no keyword, no numeral) and fails the same way, so skip them.
    if (e == 0 && src.org_from == p && src.org_plain && src.org_to > skip) {
      // ... except at a surname, where a personal name may start.
      size_t k = skip;
      while (k < src.org_to) {
        const auto c = utf8::decode(src.s, k);
        if (cn_surname(c.cp) || jp_surname_first(c.cp)) break;
        k += static_cast<size_t>(c.length);
      }
      skip = k;
    }
    return e;
  }
  return 0;
}

// Tries every matcher at p. Returns the anchor end (> p) or 0 with `skip` set to where the
// scan goes on.
size_t scan_at(Src& src, size_t p, Anchor& a, size_t& skip, const LexerOptions& opt) {
  const int c = src.at(p);
  if (c >= 0x80) return scan_non_ascii(src, p, a, skip);
  if (is_alnum(c)) return scan_word(src, p, c, a, skip, opt);
  skip = p + 1;
  return scan_punct(src, p, c, a);
}

// ASCII bytes no matcher starts at (spaces, most punctuation): scan_at would read only that byte
// and move on, so run() does that itself.
constexpr std::array<bool, 256> kInert = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x80; ++c) t[static_cast<size_t>(c)] = !is_alnum(c);
  for (char c : std::string_view("${[\"<=(")) t[static_cast<unsigned char>(c)] = false;
  return t;
}();

// The rest of a value cut at kMaxAnchorBytes, from the cut to the next space (sentence punctuation
// at its end excluded): an identifier of its own, so no byte of a long value goes unchecked. The
// sources' long values are cut at the same offsets from their start, so a value they write is
// found piece by piece. Returns its end, or p when nothing follows the cut.
size_t scan_continuation(Src& src, size_t p, Anchor& a) {
  size_t e = p;
  for (int c = src.at(e); c > ' ' && c < 0x7F; c = src.at(e)) ++e;
  while (e > p && std::string_view(".,;:!?)]}'\"").find(src.s[e - 1]) != std::string_view::npos) --e;
  if (e > p) set_norm(a, Type::identifier, std::string(src.s.substr(p, e - p)));
  return e;
}

// Scans from `pos` while decisions are final; stops at the first provisional one. `cut_ends` are
// the ends of the anchors cut at kMaxAnchorBytes, in order: the rest of each is read there.
void run(std::string_view text, size_t& pos, bool final, std::vector<Anchor>& out, std::vector<LexVisit>* visits,
         std::vector<size_t>& cut_ends, const LexerOptions& opt) {
  Src src{text, final};
  Anchor a;
  while (pos < text.size()) {
    const bool continued = !cut_ends.empty() && cut_ends.back() == pos;
    if (!continued && kInert[static_cast<unsigned char>(text[pos])]) {
      if (visits != nullptr) {
        const uint32_t prev = visits->empty() ? 0 : visits->back().reach;
        visits->push_back({static_cast<uint32_t>(pos), std::max(prev, static_cast<uint32_t>(pos))});
      }
      ++pos;
      continue;
    }
    // The scan sees the text up to kMaxAnchorBytes from pos, as final once that much is written:
    // the same view in batch and incremental scans, so their anchors stay equal.
    const bool cut = text.size() >= pos + kMaxAnchorBytes;
    src.s = cut ? text.substr(0, pos + kMaxAnchorBytes) : text;
    src.final = final || cut;
    src.overrun = false;
    src.max_read = pos;
    a.norm.clear();
    a.alt_norm.clear();
    a.ambiguous = false;
    a.value = std::numeric_limits<double>::quiet_NaN();
    size_t skip = pos + 1;
    const size_t e = continued ? scan_continuation(src, pos, a) : scan_at(src, pos, a, skip, opt);
    if (src.overrun && !src.final) return;  // may still grow into (or out of) an anchor
    if (cut && e == pos + kMaxAnchorBytes) cut_ends.push_back(e);
    if (visits != nullptr) {
      const uint32_t prev = visits->empty() ? 0 : visits->back().reach;
      visits->push_back({static_cast<uint32_t>(pos), std::max(prev, static_cast<uint32_t>(src.max_read))});
    }
    if (e > pos) {
      a.start = static_cast<uint32_t>(pos);
      a.end = static_cast<uint32_t>(e);
      out.push_back(std::move(a));
      a = Anchor{};
      pos = e;
    } else {
      pos = std::max(skip, pos + 1);
    }
  }
}

}  // namespace
}  // namespace sfcl::anchor::lex

namespace sfcl::anchor {

std::vector<Anchor> extract(std::string_view text, const LexerOptions& options) {
  std::vector<Anchor> out;
  extract_into(text, out, options);
  return out;
}

void extract_into(std::string_view text, std::vector<Anchor>& out, const LexerOptions& options) {
  size_t pos = 0;
  std::vector<size_t> cut_ends;
  lex::run(text, pos, true, out, nullptr, cut_ends, options);
}

Incremental::Incremental(const LexerOptions& options) : options_(options) {}

void Incremental::feed(std::string_view chunk, std::vector<Anchor>& out) {
  text_.append(chunk);
  scan(false, out);
}

void Incremental::finish(std::vector<Anchor>& out) { scan(true, out); }

void Incremental::scan(bool final, std::vector<Anchor>& out) {
  lex::run(text_, scan_pos_, final, out, &visits_, cut_ends_, options_);
}

size_t Incremental::truncate(size_t offset) {
  if (offset < text_.size()) text_.resize(offset);
  // Redo every decision that looked at a removed byte (reach is a running maximum), resuming
  // from a position the batch scan also visited, so results stay identical.
  size_t resume = scan_pos_;
  while (!visits_.empty() && visits_.back().reach >= offset) {
    resume = visits_.back().pos;
    visits_.pop_back();
  }
  scan_pos_ = std::min(resume, scan_pos_);
  // A cut anchor is scanned again when scanning resumes before its end (no visit lies inside it).
  while (!cut_ends_.empty() && cut_ends_.back() > scan_pos_) cut_ends_.pop_back();
  return scan_pos_;
}

void Incremental::reset() {
  text_.clear();
  visits_.clear();
  scan_pos_ = 0;
  cut_ends_.clear();
}

}  // namespace sfcl::anchor
