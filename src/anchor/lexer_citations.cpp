// Citations: references to published work, which no answer may invent (docs/DESIGN.md, 'The
// check'). DOIs, arXiv ids, "Chen et al. (2021)", "(Graves, 2018)", "Smith and Jones, 2019",
// journal references ("Nature 615, 452–458 (2023)"), case citations ("512 U.S. 218 (1994)"), and
// in Chinese 《书名》 followed by a year or volume ("《自然》2023年第615卷") and "王等（2021）".
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"

namespace sfcl::anchor::lex {
namespace {

// Letters, digits and Han characters, everything else one space: "Nature 615, 452–458 (2023)" and
// "Nature 615: 452-458, 2023" read alike.
std::string citation_norm(std::string_view text) {
  std::string out;
  bool space = false;
  for (size_t i = 0; i < text.size();) {
    const auto d = utf8::decode(text, i);
    i += static_cast<size_t>(d.length);
    char32_t c = d.cp;
    if (c >= 0xFF01 && c <= 0xFF5E) c -= 0xFEE0;  // full-width ASCII
    const bool keep = (c < 0x80 && is_alnum(static_cast<int>(c))) || is_han(c) || (c >= 0xC0 && c < 0x250);
    if (!keep) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    if (c < 0x80) {
      out.push_back(static_cast<char>(to_lower(static_cast<int>(c))));
    } else {
      utf8::append(out, c);
    }
  }
  return out;
}

size_t finish(Src& src, size_t p, size_t end, Anchor& a) {
  set_norm(a, Type::citation, citation_norm(src.s.substr(p, end - p)));
  return end;
}

// " (2021)", " (2021a)", ", 2021", " 2021": the end after a four-digit year at i, or 0.
size_t year_after(Src& src, size_t i, bool allow_bare) {
  size_t j = i;
  bool paren = false;
  if (src.at(j) == ',') ++j;
  if (src.at(j) == ' ') ++j;
  if (src.at(j) == '(') {
    paren = true;
    ++j;
  } else if (j == i || (!allow_bare && src.at(i) != ',')) {
    return 0;
  }
  const size_t y = j;
  j = src.digits(j);
  if (j - y != 4) return 0;
  if (is_lower(src.at(j)) && !is_alpha(src.at(j + 1))) ++j;  // 2021a
  if (paren) {
    if (src.at(j) != ')') return 0;
    ++j;
  } else if (!src.word_end(j)) {
    return 0;
  }
  return j;
}

// A capitalised author word: "Chen", "Olsen-Vick", "O'Neil", "Lüscher".
size_t author_word(Src& src, size_t i) { return capitalised_word(src, i); }
}  // namespace

bool is_dash_at(Src& src, size_t i, size_t& len) {
  if (src.at(i) == '-') {
    len = 1;
    return true;
  }
  if (src.match(i, "\xE2\x80\x93") || src.match(i, "\xE2\x80\x94")) {  // – —
    len = 3;
    return true;
  }
  return false;
}

size_t scan_doi(Src& src, size_t p, Anchor& a) {
  size_t j = p;
  if (src.match_ci(j, "doi:")) j = src.skip_spaces(j + 4);
  if (!src.match(j, "10.")) return 0;
  const size_t doi = j;  // "doi:10.1/x" and "10.1/x" are one citation
  const size_t reg = j + 3;
  j = src.digits(reg);
  if (j - reg < 4 || src.at(j) != '/') return 0;
  const size_t suffix = ++j;
  size_t end = suffix;
  while (true) {
    const int c = src.at(j);
    if (c == kEnd || is_space(c) || c >= 0x80 || c == '"' || c == '<' || c == '>') break;
    ++j;
    if (is_alnum(c) || c == ')' || c == '/') end = j;  // trailing '.', ',' and ';' end the sentence
  }
  if (end == suffix) return 0;
  set_norm(a, Type::citation, citation_norm(src.s.substr(doi, end - doi)));
  return end;
}

size_t scan_arxiv(Src& src, size_t p, Anchor& a) {
  if (!src.match_ci(p, "arxiv:")) return 0;
  size_t j = src.skip_spaces(p + 6);
  const size_t y = j;
  j = src.digits(j);
  if (j - y != 4 || src.at(j) != '.') return 0;
  const size_t n = j + 1;
  j = src.digits(n);
  if (j - n < 4 || j - n > 5) return 0;
  if (src.at(j) == 'v' && is_digit(src.at(j + 1))) j = src.digits(j + 1);
  if (!src.word_end(j)) return 0;
  return finish(src, p, j, a);
}

// "Chen et al. (2021)", "Chen et al., 2021", "Chen et al.", "Smith and Jones (2019)",
// "Smith & Jones, 2019", "(Graves, 2018)" (the author inside parentheses), and journal references.
size_t scan_author_citation(Src& src, size_t p, Anchor& a) {
  size_t e = author_word(src, p);
  if (e == 0) return 0;
  // "et al."
  if (src.match(e, " et al.")) {
    const size_t after = e + 7;
    const size_t y = year_after(src, after, true);
    return finish(src, p, y != 0 ? y : after, a);
  }
  // "Smith and Jones" / "Smith & Jones" + year
  for (std::string_view c : {" and ", " & "}) {
    if (src.match(e, c)) {
      const size_t e2 = author_word(src, e + c.size());
      if (e2 == 0) break;
      if (src.match(e2, " et al.")) {
        const size_t y = year_after(src, e2 + 7, true);
        return finish(src, p, y != 0 ? y : e2 + 7, a);
      }
      if (const size_t y = year_after(src, e2, false)) return finish(src, p, y, a);
      break;
    }
  }
  // "(Graves, 2018)"
  if (p > 0 && src.s[p - 1] == '(' && src.at(e) == ',') {
    if (const size_t y = year_after(src, e, false)) {
      if (src.at(y) == ')') return finish(src, p, y, a);
    }
  }
  // A journal reference: capitalised words (abbreviations with dots allowed), a volume, optionally
  // an issue, then pages after ',' or ':' — a page range or a year in parentheses must follow.
  // Words that open a phrase or name a month make it a date or a sentence, never a journal
  // ("In March 2020, 15-20 people").
  auto not_journal = [&](size_t from, size_t to) {
    const std::string_view w = src.s.substr(from, to - from);
    for (std::string_view x :
         {"In",  "On",  "At", "By", "From",  "To",     "Since",   "Until", "Before", "After", "During",
          "For", "The", "A",  "An", "About", "Around", "Between", "Of",    "And",    "Or",    "As"}) {
      if (w == x) return true;
    }
    int m = 0;
    Src tmp{w, true};
    return month_name(tmp, 0, m) == w.size();
  };
  if (not_journal(p, e)) return 0;
  size_t j = e;
  for (int words = 1; words < 6; ++words) {
    if (src.at(j) == '.') ++j;
    if (src.at(j) != ' ') break;
    const size_t w = author_word(src, j + 1);
    if (w == 0) break;
    if (not_journal(j + 1, w)) return 0;
    j = w;
  }
  if (src.at(j) == '.') ++j;
  if (src.at(j) != ' ' || !is_digit(src.at(j + 1))) return 0;
  size_t v = src.digits(j + 1);
  if (v - (j + 1) > 5) return 0;
  if (src.at(v) == '(') {  // issue
    const size_t iss = src.digits(v + 1);
    if (iss == v + 1 || src.at(iss) != ')') return 0;
    v = iss + 1;
  }
  if ((src.at(v) != ',' && src.at(v) != ':') || src.at(v + 1) != ' ' || !is_digit(src.at(v + 2))) return 0;
  size_t pg = src.digits(v + 2);
  bool strong = false;
  size_t dash = 0;
  if (is_dash_at(src, pg, dash) && is_digit(src.at(pg + dash))) {
    pg = src.digits(pg + dash);
    strong = true;
  }
  if (const size_t y = year_after(src, pg, false)) {
    pg = y;
    strong = true;
  }
  if (!strong || !src.word_end(pg)) return 0;
  return finish(src, p, pg, a);
}

// "512 U.S. 218 (1994)", "88 Wm. App. 3d 421 (2023)", "F.3d 1021 (9th Cir. 2011)".
size_t scan_case_citation(Src& src, size_t p, Anchor& a) {
  size_t j = src.digits(p);
  if (j == p || j - p > 4 || src.at(j) != ' ') return 0;
  bool dotted = false;
  int tokens = 0;
  size_t k = j + 1;
  while (tokens < 5) {
    const int c = src.at(k);
    if (!is_upper(c) && !is_digit(c)) break;
    size_t t = k;
    for (size_t letters = 0; is_alnum(src.at(t)) || src.at(t) == '.'; ++t) {
      dotted = dotted || src.at(t) == '.';
      letters = is_alpha(src.at(t)) ? letters + 1 : 0;
      if (letters > kMaxLetterRun) return 0;  // no word (docs/DESIGN.md, 'Hold-back and emission')
    }
    if (is_digit(c) && !is_alpha(src.at(t - 1))) break;  // the page number, not "3d"
    ++tokens;
    if (src.at(t) != ' ') return 0;
    k = t + 1;
  }
  if (tokens == 0 || !dotted || !is_digit(src.at(k))) return 0;
  size_t pg = src.digits(k);
  if (src.at(pg) != ' ' || src.at(pg + 1) != '(') return 0;
  // "(1994)", "(9th Cir. 2011)": a year right before the closing parenthesis.
  size_t q = pg + 2;
  for (int n = 0; n < 30 && src.at(q) != ')' && src.at(q) != kEnd; ++n) ++q;
  if (src.at(q) != ')' || q < pg + 6) return 0;
  for (size_t y = q - 4; y < q; ++y) {
    if (!is_digit(static_cast<unsigned char>(src.s[y]))) return 0;
  }
  return finish(src, p, q + 1, a);
}

// 《书名》 followed by a year ("2023年") or a volume/issue ("第615卷"): a cited publication.
size_t scan_cn_title_citation(Src& src, size_t p, Anchor& a) {
  size_t j = p + 3;  // past 《
  for (int n = 0; n < 60; ++n) {
    const auto d = src.cp(j);
    if (d.length == 0) return 0;
    j += static_cast<size_t>(d.length);
    if (d.cp == U'》') break;
    if (d.cp == U'《' || d.cp == '\n') return 0;
  }
  if (src.s.substr(j - 3, 3) != "\xE3\x80\x8B") return 0;  // 》
  const size_t title_end = j;
  // A name in parentheses may stand between title and year: 《自然·地球科学》（Nature Geoscience）2024年.
  size_t gloss_end = j;
  if (src.match(j, "（") || src.at(j) == '(') {
    size_t k = j + (src.at(j) == '(' ? 1 : 3);
    for (int n = 0; n < 60; ++n) {
      if (src.match(k, "）")) {
        gloss_end = k + 3;
        break;
      }
      if (src.at(k) == ')') {
        gloss_end = k + 1;
        break;
      }
      const auto d = src.cp(k);
      if (d.length == 0 || d.cp == '\n') return 0;
      k += static_cast<size_t>(d.length);
    }
    j = gloss_end;
  }
  size_t end = j;
  const size_t y = src.digits(j);
  if (y - j == 4 && src.match(y, "年")) end = y + 3;
  // 第615卷 第3期 第452–458页
  while (src.match(end, "第")) {
    size_t k = src.digits(end + 3);
    if (k == end + 3) break;
    size_t dash = 0;
    if (is_dash_at(src, k, dash) && is_digit(src.at(k + dash))) k = src.digits(k + dash);
    if (src.match(k, "卷") || src.match(k, "期") || src.match(k, "页")) {
      end = k + 3;
    } else {
      break;
    }
  }
  if (end == j) {
    // No venue or year: the title itself (a law, a report, a book), compared as one name. The
    // state's name before a law's is often left out: 《民法典》 is 《中华人民共和国民法典》.
    std::string_view inner = src.s.substr(p + 3, title_end - 3 - (p + 3));
    if (inner.starts_with("中华人民共和国") && inner.size() > 21) inner.remove_prefix(21);
    if (inner.empty()) return 0;
    set_norm(a, Type::title, "《" + citation_norm(inner) + "》");
    return title_end;
  }
  // The parenthesised name is left out of the norm: with or without it, it is one citation.
  set_norm(
      a, Type::citation,
      citation_norm(src.s.substr(p, title_end - p)) + " " + citation_norm(src.s.substr(gloss_end, end - gloss_end)));
  return end;
}

// "王等（2021）", "Liu等(2021)": a surname and up to two more characters, or a Latin name, then 等
// and a year in parentheses.
size_t scan_cn_author_citation(Src& src, size_t p, Anchor& a) {
  size_t j = p;
  const auto first = src.cp(p);
  if (first.length == 0) return 0;
  if (is_han(first.cp)) {
    if (!cn_surname(first.cp)) return 0;
    for (int n = 0; n < 3 && !src.match(j, "等"); ++n) {
      const auto d = src.cp(j);
      if (d.length == 0 || !is_han(d.cp)) return 0;
      j += static_cast<size_t>(d.length);
    }
  } else {
    if (!is_upper(static_cast<int>(first.cp))) return 0;
    while (is_alpha(src.at(j)) || src.at(j) == '-') ++j;
  }
  if (j == p || !src.match(j, "等")) return 0;
  j += 3;
  size_t close_len = 0;
  if (src.match(j, "（")) {
    j += 3;
    close_len = 3;
  } else if (src.at(j) == '(') {
    j += 1;
    close_len = 1;
  } else {
    return 0;
  }
  const size_t y = src.digits(j);
  if (y - j != 4) return 0;
  if (!(close_len == 3 ? src.match(y, "）") : src.at(y) == ')')) return 0;
  return finish(src, p, y + close_len, a);
}

}  // namespace sfcl::anchor::lex
