// An English ordinal that is a day of the month ("on the 3rd", "Thursday the 24th", "the 25th and
// 26th"), not a rank or a floor ("the 3rd floor", "the 21st century").
#include "anchor/lexer_internal.h"

namespace sfcl::anchor::lex {
namespace {

// "the " and a word that leads to a day before the ordinal at p: on, by, until, from, since, before,
// after, or a weekday ("Thursday the 24th").
bool cued_day(const Src& src, size_t p) {
  if (p < 5 || src.s.substr(p - 4, 4) != "the ") return false;
  const std::string_view lead = src.s.substr(0, p - 4);
  for (std::string_view w : {"on ", "by ", "until ", "till ", "from ", "since ", "before ", "after ", "Monday ",
                             "Tuesday ", "Wednesday ", "Thursday ", "Friday ", "Saturday ", "Sunday "}) {
    if (lead.size() >= w.size() && ieq_ascii(lead.substr(lead.size() - w.size()), w) &&
        (lead.size() == w.size() || !is_alpha(static_cast<unsigned char>(lead[lead.size() - w.size() - 1])))) {
      return true;
    }
  }
  return false;
}

// The second of two days joined after one cue: "on the 25th and 26th", "the 29th-30th".
bool second_day(const Src& src, size_t p) {
  std::string_view lead = src.s.substr(0, p);
  bool joined = false;
  for (std::string_view w : {" and ", " or ", "-", "\xE2\x80\x93"}) {
    if (lead.ends_with(w)) {
      lead.remove_suffix(w.size());
      joined = true;
      break;
    }
  }
  if (!joined || lead.size() < 3) return false;
  const std::string_view suffix = lead.substr(lead.size() - 2);
  if (suffix != "st" && suffix != "nd" && suffix != "rd" && suffix != "th") return false;
  size_t q = lead.size() - 2;
  const size_t digits_at = q;
  while (q > 0 && digits_at - q < 2 && is_digit(lead[q - 1])) --q;
  return q < digits_at && cued_day(src, q);
}

}  // namespace

// An ordinal [p, o) (digits [p, j)) that is a day of the month: "the 3rd" after on, by, until,
// from, since, before, after, around or a weekday, or the second of two such days ("the 25th and
// 26th"), with no noun after it ("on the 3rd floor" counts floors).
bool day_of_month(Src& src, size_t p, size_t j, size_t o) {
  if (j - p > 2 || src.number_at(p, j) < 1 || src.number_at(p, j) > 31 || p < 5) return false;
  if (!cued_day(src, p) && !second_day(src, p)) return false;
  if (src.at(o) == '-') return false;  // "the 2nd-ranked player"
  size_t k = o;
  while (src.at(k) == ' ') ++k;
  if (!is_alpha(src.at(k))) return true;
  if (src.match_ci(k, "from ")) return is_digit(src.at(k + 5));  // "the 24th from 2 pm", not "from the left"
  for (std::string_view w :
       {"at ",  "and ",  "or ",   "in ",    "when ", "to ",   "but ",   "with ", "after ", "before ",
        "was ", "were ", "said ", "wrote ", "gave ", "left ", "until ", "till ", "for ",   "on ",
        "it ",  "is ",   "will ", "we ",    "they ", "you ",  "he ",    "she ",  "there "}) {
    if (src.match_ci(k, w)) return true;
  }
  // "a reviewer on the 17th called it perfect": a verb in the past tense follows the day, and then
  // no noun ("after the 3rd failed attempt" is an ordinal).
  size_t e = k;
  while (is_lower(src.at(e))) ++e;
  if (e - k < 5 || !src.match(e - 2, "ed") || src.match(e - 3, "eed") || !src.word_end(e)) return false;
  size_t n = e;
  while (src.at(n) == ' ') ++n;
  if (!is_lower(src.at(n))) return true;
  for (std::string_view w :
       {"it ",         "the ",      "a ",   "an ",   "his ", "her ", "their ", "them ",  "him ", "that ",
        "to ",         "for ",      "in ",  "on ",   "at ",  "by ",  "with ",  "about ", "and ", "as ",
        "everything ", "everyone ", "all ", "this ", "its ", "our ", "my ",    "me ",    "us ",  "what "}) {
    if (src.match(n, w)) return true;
  }
  return false;
}

}  // namespace sfcl::anchor::lex
