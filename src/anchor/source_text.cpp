// Verbatim support: each source's text folded once when indexed, so that an anchor written exactly
// as a source writes it (case and width aside) is found without a typed reading of its own. This is
// what keeps a name inside a longer name ("Lena Park" in "the Lena Park Dance Studio"), a year
// inside a date or a possessive ("Governor Maria Lopez's") from being flagged.
#include <algorithm>
#include <cstring>
#include <span>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "util/utf8.h"

namespace sfcl::anchor {

namespace {
constexpr char32_t kDropped = 0xFFFF;  // a combining mark: no folded character at all

// A Latin letter with a diacritic, precomposed (U+00C0-U+017F), as its base letter; 0 for none.
// Combined with dropping the combining marks (U+0300-U+036F), "Café" written precomposed (NFC) and
// as "e" plus an acute (NFD) fold alike, as "cafe".
char32_t latin_base(char32_t c) {
  // U+00C0-U+00FF, '?' where the letter has no ASCII base (Æ, Ð, ×, Þ, ß, ÷ ...).
  static constexpr std::string_view kLatin1 = "AAAAAA?CEEEEIIII?NOOOOO?OUUUUY??aaaaaa?ceeeeiiii?nooooo?ouuuuy?y";
  if (c >= 0xC0 && c <= 0xFF) {
    const char b = kLatin1[c - 0xC0];
    return b == '?' ? 0 : static_cast<char32_t>(b);
  }
  // U+0100-U+017F: pairs of upper and lower case of one base letter, in this order.
  static constexpr std::string_view kExtendedA =
      "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIi??JjKk?LlLlLlLlLlNnNnNn???OoOoOo??"
      "RrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZz?";
  if (c >= 0x100 && c <= 0x17F) {
    const char b = kExtendedA[c - 0x100];
    return b == '?' ? 0 : static_cast<char32_t>(b);
  }
  return 0;
}

// One folded character: ASCII case, full-width ASCII, typographic quotes and dashes, and every
// kind of space map to their plain ASCII form, a Latin letter with a diacritic to its base letter;
// anything else is kept as it is.
char32_t fold_char(char32_t c) {
  if (c >= 0x300 && c <= 0x36F) return kDropped;  // combining diacritical marks
  if (const char32_t b = latin_base(c); b != 0) c = b;
  if (c >= 0xFF01 && c <= 0xFF5E) c -= 0xFEE0;  // full-width ASCII
  switch (c) {
    case 0x3000:  // ideographic space
    case 0x00A0:  // no-break space
    case 0x202F:
    case 0x2009:
      return ' ';
    case 0x2018:
    case 0x2019:
      return '\'';
    case 0x201C:
    case 0x201D:
      return '"';
    case 0x2010:
    case 0x2011:
    case 0x2012:
    case 0x2013:
    case 0x2014:
      return '-';
    default:
      break;
  }
  if (c < 0x80) {
    if (is_space(static_cast<int>(c))) return ' ';
    return static_cast<char32_t>(to_lower(static_cast<int>(c)));
  }
  return c;
}

bool ascii_alnum(char c) { return is_alnum(static_cast<unsigned char>(c)); }

// A match must not be part of a longer word or number: "5" is not in "5.9" or "15", "Park" is not
// in "Parker". Han text has no word boundaries, so only the Latin side of a match is tested.
bool bounded(std::string_view hay, size_t pos, std::string_view needle) {
  const char first = needle.front();
  const char last = needle.back();
  if (pos > 0 && ascii_alnum(first)) {
    const char p = hay[pos - 1];
    if (ascii_alnum(p)) return false;
    if ((p == '.' || p == ',') && is_digit(first) && pos >= 2 && is_digit(hay[pos - 2])) return false;
  }
  const size_t end = pos + needle.size();
  if (end < hay.size() && ascii_alnum(last)) {
    const char n = hay[end];
    if (ascii_alnum(n)) return false;
    if ((n == '.' || n == ',') && is_digit(last) && end + 1 < hay.size() && is_digit(hay[end + 1])) return false;
  }
  return true;
}
}  // namespace

// A value found inside no source anchor is whole if word-bounded; one found inside an anchor must
// end where that anchor ends and begin at its start or after a space or punctuation.
bool SourceIndex::whole_value_at(const FoldedSource& t, size_t pos, uint32_t start, uint32_t end) {
  const auto& spans = t.anchor_spans;
  auto it = std::upper_bound(spans.begin(), spans.end(), std::make_pair(end, uint32_t{0}));
  bool inside = false;
  for (auto k = it; k != spans.begin();) {  // spans starting before the hit's end that reach into it
    --k;
    if (k->second > start) {
      inside = true;
      break;
    }
    if (spans.end() - k > 8) break;  // anchors rarely nest deeper than a few
  }
  if (!inside) return true;
  if (!std::binary_search(t.anchor_ends.begin(), t.anchor_ends.end(), end)) return false;
  if (pos == 0 || std::binary_search(spans.begin(), spans.end(), std::make_pair(start, end))) return true;
  const auto before = static_cast<unsigned char>(t.folded[pos - 1]);
  return before < 0x80 && !ascii_alnum(static_cast<char>(before)) && before != '-' && before != '.' && before != ',';
}

void fold_for_match(std::string_view text, std::string& out) {
  out.clear();
  bool space = false;
  for (size_t i = 0; i < text.size();) {
    const auto d = utf8::decode(text, i);
    i += static_cast<size_t>(d.length);
    const char32_t c = fold_char(d.cp);
    if (c == kDropped) continue;
    if (c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else {
      utf8::append(out, c);
    }
  }
}

void SourceIndex::add_text(std::string_view text) {
  FoldedSource f;
  f.folded.reserve(text.size());
  // Checkpoints (folded offset, original offset) wherever the two stop advancing together, so a
  // folded match maps back to the bytes the source wrote.
  bool space = false;
  size_t orig = 0;
  f.marks.push_back({0, 0});
  while (orig < text.size()) {
    const auto d = utf8::decode(text, orig);
    const size_t at = orig;
    orig += static_cast<size_t>(d.length);
    const char32_t c = fold_char(d.cp);
    if (c == kDropped) continue;
    if (c == ' ') {
      space = !f.folded.empty();
      continue;
    }
    if (space) {
      f.folded.push_back(' ');
      space = false;
    }
    const auto folded_at = static_cast<uint32_t>(f.folded.size());
    if (folded_at - f.marks.back().folded != at - f.marks.back().original) {
      f.marks.push_back({folded_at, static_cast<uint32_t>(at)});
    }
    if (c < 0x80) {
      f.folded.push_back(static_cast<char>(c));
    } else {
      utf8::append(f.folded, c);
    }
    f.capital.resize(f.folded.size(), false);
    if (d.cp >= 'A' && d.cp <= 'Z') f.capital.back() = f.cased = true;
    if (f.folded.size() - f.marks.back().folded != orig - f.marks.back().original) {
      f.marks.push_back({static_cast<uint32_t>(f.folded.size()), static_cast<uint32_t>(orig)});
    }
  }
  texts_.push_back(std::move(f));
}

uint32_t SourceIndex::FoldedSource::original(uint32_t folded_offset) const {
  auto it = std::upper_bound(marks.begin(), marks.end(), folded_offset,
                             [](uint32_t v, const Mark& m) { return v < m.folded; });
  --it;  // marks[0] is {0, 0}
  return it->original + (folded_offset - it->folded);
}

uint32_t SourceIndex::FoldedSource::folded_at(uint32_t original_offset) const {
  auto it = std::upper_bound(marks.begin(), marks.end(), original_offset,
                             [](uint32_t v, const Mark& m) { return v < m.original; });
  --it;
  const uint32_t at = it->folded + (original_offset - it->original);
  // Inside text that folding dropped or shortened: the next mark's offset at most.
  return std::min(at, std::next(it) == marks.end() ? static_cast<uint32_t>(folded.size()) : std::next(it)->folded);
}

namespace {
bool opens_with_person(std::string_view lead) {
  while (!lead.empty() && lead.front() == ' ') lead.remove_prefix(1);
  for (std::string_view p : {"他", "她", "其"}) {
    if (lead.starts_with(p)) return true;
  }
  size_t n = 0;
  while (n < lead.size() && is_alpha(static_cast<unsigned char>(lead[n]))) ++n;
  return one_of(lead.substr(0, n), {"he", "she", "they", "his", "her", "their"});
}

bool only_a_pronoun(std::string_view lead) {
  bool pronoun = false;
  size_t i = 0;
  while (i < lead.size()) {
    if (lead[i] == ' ') {
      ++i;
      continue;
    }
    size_t n = i;
    while (n < lead.size() && is_alpha(static_cast<unsigned char>(lead[n]))) ++n;
    if (n == i) return false;  // a digit, a Han character, punctuation
    const std::string_view w = lead.substr(i, n - i);
    if (!pronoun) {
      if (!one_of(w, {"it", "he", "she", "they", "this", "that", "these", "those"})) return false;
      pronoun = true;
    } else if (!says_nothing(w)) {
      return false;
    }
    i = n;
  }
  return pronoun;
}
}  // namespace

bool SourceIndex::sentence_writes(size_t i, std::span<const std::string_view> words) const {
  if (i < base_size_) return base_->sentence_writes(i, words);
  const SourceAnchor& s = anchors_[i - base_size_];
  const auto t = std::lower_bound(texts_.begin(), texts_.end(), s.source,
                                  [](const FoldedSource& f, int32_t id) { return f.id < id; });
  if (t == texts_.end() || t->id != s.source) return false;
  const auto& starts = t->sentence_starts;
  const auto next = std::upper_bound(starts.begin(), starts.end(), s.anchor.start);
  auto first = std::prev(next);
  const uint32_t hi = next == starts.end() ? static_cast<uint32_t>(t->folded.size()) : t->folded_at(*next);
  // A sentence that is a pronoun and function words before the value ("That was in 2004."), or that
  // opens with a person's pronoun ("She went home on 14 March"), says whose it is in the one before.
  const uint32_t opens = t->folded_at(*first);
  const std::string_view lead = std::string_view(t->folded).substr(opens, t->folded_at(s.anchor.start) - opens);
  if (first != starts.begin() && (only_a_pronoun(lead) || opens_with_person(lead))) --first;
  const uint32_t lo = t->folded_at(*first);
  const std::string_view sentence = std::string_view(t->folded).substr(lo, hi - lo);
  constexpr size_t kLongest = 32;
  std::array<char, kLongest> lower{};
  for (std::string_view word : words) {
    std::string_view stem = role_stem(word);
    if (stem.empty()) continue;
    const bool ascii = static_cast<unsigned char>(stem.front()) < 0x80;
    if (ascii && stem.size() > kLongest) return true;  // no role is this long: say nothing against it
    if (ascii) {
      for (size_t k = 0; k < stem.size(); ++k)
        lower[k] = static_cast<char>(to_lower(static_cast<unsigned char>(stem[k])));
      stem = std::string_view(lower.data(), stem.size());
    }
    for (size_t pos = sentence.find(stem); pos != std::string_view::npos; pos = sentence.find(stem, pos + 1)) {
      if (!ascii || pos == 0 || !is_alpha(static_cast<unsigned char>(sentence[pos - 1]))) return true;
    }
  }
  return false;
}

bool SourceIndex::find_verbatim(std::string_view folded, TextSpan& hit, bool whole_value) const {
  if (folded.empty()) return false;
  for (const FoldedSource& t : texts_) {
    const std::string_view hay = t.folded;
    for (size_t pos = hay.find(folded); pos != std::string_view::npos; pos = hay.find(folded, pos + 1)) {
      if (!bounded(hay, pos, folded)) continue;
      const uint32_t start = t.original(static_cast<uint32_t>(pos));
      const uint32_t end = t.original(static_cast<uint32_t>(pos + folded.size()));
      if (whole_value && !whole_value_at(t, pos, start, end)) continue;
      hit.source = t.id;
      hit.start = start;
      hit.end = end;
      return true;
    }
  }
  return base_ ? base_->find_verbatim(folded, hit, whole_value) : false;
}

bool SourceIndex::find_alone(std::string_view folded) const {
  if (folded.empty()) return false;
  for (const FoldedSource& t : texts_) {
    const std::string_view hay = t.folded;
    for (size_t pos = hay.find(folded); pos != std::string_view::npos; pos = hay.find(folded, pos + 1)) {
      if (!bounded(hay, pos, folded) || !t.capital[pos]) continue;
      const uint32_t start = t.original(static_cast<uint32_t>(pos));
      const uint32_t end = t.original(static_cast<uint32_t>(pos + folded.size()));
      const auto& spans = t.anchor_spans;
      const auto last = std::upper_bound(spans.begin(), spans.end(), std::make_pair(end, uint32_t{0}));
      const bool inside = std::any_of(
          spans.begin(), last, [&](const auto& sp) { return sp.second > start && sp.second - sp.first > end - start; });
      if (!inside) return true;
    }
  }
  return base_ != nullptr && base_->find_alone(folded);
}

bool SourceIndex::find_near(std::string_view a, std::string_view b, uint32_t within) const {
  if (a.empty() || b.empty()) return false;
  for (const FoldedSource& t : texts_) {
    const std::string_view hay = t.folded;
    for (size_t pa = hay.find(a); pa != std::string_view::npos; pa = hay.find(a, pa + 1)) {
      if (!bounded(hay, pa, a)) continue;
      // b may start from `within` bytes (and its own length) before a to `within` bytes after it.
      const size_t from = pa > within + b.size() ? pa - within - b.size() : 0;
      const size_t to = std::min(hay.size(), pa + a.size() + within);
      for (size_t pb = hay.find(b, from); pb != std::string_view::npos && pb <= to; pb = hay.find(b, pb + 1)) {
        if (!bounded(hay, pb, b) || (pb < pa + a.size() && pb + b.size() > pa)) continue;  // overlapping
        const size_t gap_start = pb < pa ? pb + b.size() : pa + a.size();
        const size_t gap_end = pb < pa ? pa : pb;
        if (gap_end - gap_start > within) continue;
        if (hay.substr(gap_start, gap_end - gap_start).find_first_of(".!?;") == std::string_view::npos) return true;
      }
    }
  }
  return base_ != nullptr && base_->find_near(a, b, within);
}

bool SourceIndex::find_lowercase(std::string_view folded, bool or_uncased) const {
  if (folded.empty()) return false;
  for (const FoldedSource& t : texts_) {
    // A corpus stored in lower case ("west ham are discussing ...") says nothing of what is a name.
    if (!t.cased && !or_uncased) continue;
    const std::string_view hay = t.folded;
    for (size_t pos = hay.find(folded); pos != std::string_view::npos; pos = hay.find(folded, pos + 1)) {
      if (bounded(hay, pos, folded) && !t.capital[pos] && is_alpha(static_cast<unsigned char>(hay[pos]))) return true;
    }
  }
  return base_ != nullptr && base_->find_lowercase(folded, or_uncased);
}

}  // namespace sfcl::anchor
