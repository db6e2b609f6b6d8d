#include <algorithm>
#include <cmath>

#include "verify/calendar.h"
#include "verify/derived.h"
#include "verify/verify.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

bool is_checkable(const Anchor& a) {
  if (anchor::kind_of(a.type) == anchor::Kind::entity) return true;
  return anchor::is_obligation(a);
}

namespace {
// Confidence of a partial date that agrees with a fuller one ("2024-06" within "2024-06-15"), and of
// an article by one of its paragraphs ("12" by "12(3)").
constexpr float kPartialDate = 0.9F;
// Confidence of a measure the sources state in another unit ("0.5 g" for "500 mg").
constexpr float kInAnotherUnit = 0.95F;

std::string_view trim_word(std::string_view w) {
  while (!w.empty() && (w.back() == '.' || w.back() == ',')) w.remove_suffix(1);
  return w;
}

template <typename F>
void for_each_word(std::string_view s, F&& f) {
  size_t i = 0;
  while (i < s.size()) {
    const size_t j = std::min(s.find(' ', i), s.size());
    if (const auto w = trim_word(s.substr(i, j - i)); !w.empty()) f(w);
    i = j + 1;
  }
}

// Trigram similarity alone confirms a source name with a word added ("Dr. Chloe Turner MRN" at
// 0.90 against "Dr. Chloe Turner"). Every other Latin-script word of the answer's name must be one
// of the source name's words, or an initial of one ("J." for "John"). Norms are case-folded.
bool words_within(std::string_view name, std::string_view source) {
  bool ok = true;
  for_each_word(name, [&](std::string_view w) {
    if (!ok) return;
    if (std::any_of(w.begin(), w.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) return;
    if (anchor::is_name_filler(w)) return;
    bool found = false;
    for_each_word(source,
                  [&](std::string_view s) { found = found || s == w || (w.size() == 1 && s.front() == w.front()); });
    ok = found;
  });
  return ok;
}
}  // namespace

Checker::Checker(const anchor::SourceIndex& index, const CheckerOptions& options) : index_(index), options_(options) {
  const auto all = index_.anchors();
  // The request's own sources first, so that a tie in name similarity cites them, not the
  // knowledge base. Name trigrams were computed when the anchors were indexed.
  for (int pass = 0; pass < 2; ++pass) {
    for (uint32_t i : index_.of_type(Type::name)) {
      if ((all[i].source >= 0) == (pass == 0)) names_.push_back(i);
    }
  }
  for (auto t : {Type::number, Type::amount, Type::percent, Type::duration, Type::quantity}) {
    for (uint32_t i : index_.of_type(t)) {
      if (!std::isnan(all[i].anchor.value)) numeric_.push_back(i);
    }
  }
  for (uint32_t i : index_.of_type(Type::logic)) {
    if (all[i].anchor.norm == "must") has_must_ = true;
    if (all[i].anchor.norm == "must_not") has_must_not_ = true;
  }
  query_.reserve(256);
  folded_.reserve(256);
  core_scratch_.reserve(256);
  if (options_.derived) derived_ = std::make_unique<DerivedValues>(index_);
}

Checker::~Checker() = default;

// A name as written in an answer may carry what the source wrote around it, not in it: a
// possessive ("Lopez's" for the source's "Lopez").
void Checker::trim_name(std::string& folded) {
  for (std::string_view p : {"'s", "'"}) {
    if (folded.size() > p.size() + 2 && folded.ends_with(p)) {
      folded.resize(folded.size() - p.size());
      break;
    }
  }
}

// The verbatim lookup; a name also in its other spellings, a Chinese one without the words before it
// (han_names.cpp).
bool Checker::find_written(const Anchor& a, anchor::TextSpan& span) const {
  // Names and citations are found as words; any other value only whole, never a part of one.
  const bool whole_value = a.type != Type::name && a.type != Type::citation;
  // A rank written with digits alone ("排名15位", the "2" of "第1和2名") says it is a rank only by
  // where it stands: the same characters elsewhere ("15位选手", "2名") are a count.
  const bool bare_rank =
      a.norm.starts_with('#') && !folded_.empty() && folded_.front() >= '0' && folded_.front() <= '9' &&
      !(folded_.ends_with("st") || folded_.ends_with("nd") || folded_.ends_with("rd") || folded_.ends_with("th"));
  if (!bare_rank && index_.find_verbatim(folded_, span, whole_value)) return true;
  if (a.type != Type::name) return false;
  // An initial the answer adds to a name the sources write without one ("Gary R. Herbert" for
  // "Gary Herbert"); never another initial than theirs (their name without it is only a part).
  if (const size_t at = anchor::middle_initial_at(a.norm); at != std::string::npos) {
    scratch_.assign(a.norm).erase(at, 3);
    if (const int64_t hit = index_.find_exact(Type::name, scratch_); hit >= 0 && !index_.anchors()[hit].part) {
      const auto& s = index_.anchors()[static_cast<size_t>(hit)];
      span = {s.source, s.anchor.start, s.anchor.end};
      return true;
    }
  }
  // Compounds are written with a space or a hyphen ("African Americans" for "African-Americans") or
  // as one word ("Super Bowl" for "Superbowl"): each is looked up in the other spellings.
  for (const auto& [from, to] : {std::pair{' ', '-'}, std::pair{'-', ' '}, std::pair{' ', '\0'}}) {
    if (folded_.find(from) == std::string::npos) continue;
    scratch_.assign(folded_);
    std::replace(scratch_.begin(), scratch_.end(), from, to);
    if (to == '\0') std::erase(scratch_, '\0');
    if (index_.find_verbatim(scratch_, span)) return true;
  }
  return han_name_in_sources(folded_, span);
}

// Whether the sources state any value of the anchor's type (a bare number compares with every
// numeric value): "absent" or "mismatch" when it is unsupported.
bool Checker::type_present(const Anchor& a) const {
  switch (a.type) {
    case Type::number:
      return has_numeric_source();
    case Type::logic:
      return has_must_ || has_must_not_;
    default:
      return !index_.of_type(a.type).empty();
  }
}

void Checker::cite(CheckResult& r) const {
  if (r.support < 0) return;
  const auto& s = index_.anchors()[static_cast<size_t>(r.support)];
  r.span = {s.source, s.anchor.start, s.anchor.end};
}

float Checker::cosine(const std::vector<uint32_t>& a, float na, const std::vector<uint32_t>& b, float nb) {
  if (a.empty() || b.empty()) return 0.0F;
  size_t i = 0;
  size_t j = 0;
  size_t dot = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      ++dot;
      ++i;
      ++j;
    }
  }
  return static_cast<float>(dot) / (na * nb);
}

bool Checker::has_numeric_source() const { return !numeric_.empty(); }

// A year as a number and as a date norm write the same four digits ("1998").
bool Checker::year_of(std::string_view norm) {
  return norm.size() == 4 && norm.find_first_not_of("0123456789") == std::string_view::npos &&
         (norm[0] == '1' || norm[0] == '2');
}

// A source date in the year `year` (norm "1998" or "1998-..."), or -1.
int64_t Checker::date_in_year(std::string_view year) const {
  for (uint32_t i : index_.of_type(Type::date)) {
    const std::string& n = index_.anchors()[i].anchor.norm;
    if (n.starts_with(year) && (n.size() == 4 || n[4] == '-')) return i;
  }
  return -1;
}

// Best support of `a` short of an exact match: an equal value, a quantity's bare number, a
// compatible date, or the closest name by trigram cosine; returns its confidence (0 when none).
float Checker::best_support(const Anchor& a, int64_t& best_idx) {
  const auto& all = index_.anchors();
  float best = 0.0F;
  switch (a.type) {
    case Type::number:
      // A bare number is supported by any source value that equals it ("12,500" by "$12,500.00"),
      // a year by a date in that year ("in 1998" by "1998年", as by "March 12, 1998").
      for (uint32_t i : numeric_) {
        if (all[i].anchor.value == a.value) {
          best = 1.0F;
          best_idx = i;
          break;
        }
      }
      if (best == 0.0F && year_of(a.norm)) best_idx = date_in_year(a.norm);
      if (best == 0.0F && best_idx < 0) best_idx = same_digits(a);  // "4008201234" by "400-820-1234"
      if (best_idx >= 0) best = 1.0F;
      break;
    case Type::quantity:
    case Type::duration:
      if (a.type == Type::quantity && quantity_by_number(a, best_idx)) return 1.0F;
      if (in_another_unit(a, best_idx)) best = kInAnotherUnit;
      if (best == 0.0F && a.type == Type::duration && race_time_as_span(a, best_idx)) best = 1.0F;
      break;
    case Type::time:
      if (race_time_as_span(a, best_idx)) best = 1.0F;
      break;
    case Type::date:
      for (uint32_t i : index_.of_type(Type::date)) {
        const float s = similarity(a, i);
        if (s > best) {
          best = s;
          best_idx = i;
          break;
        }
      }
      if (best == 0.0F && year_of(a.norm)) {  // "1998年" by "in 1998"
        for (uint32_t i : index_.of_type(Type::number)) {
          if (all[i].anchor.norm == a.norm) {
            best = 1.0F;
            best_idx = i;
            break;
          }
        }
      }
      break;
    case Type::name: {
      anchor::name_trigrams(a.norm, query_);
      query_ready_ = true;
      const float qn = std::sqrt(static_cast<float>(query_.size()));
      const float name_threshold = options_.threshold_for(Type::name);
      for (uint32_t idx : names_) {
        const auto& g = all[idx].grams;
        const float c = cosine(query_, qn, g, std::sqrt(static_cast<float>(g.size())));
        // The word test runs only where similarity alone would confirm (it is the costlier one).
        if (c > best && (c < name_threshold || c >= 1.0F || words_within(a.norm, all[idx].anchor.norm))) {
          best = c;
          best_idx = idx;
        }
      }
      break;
    }
    case Type::clause:
      if (clause_by_parts(a, best_idx)) best = kPartialDate;
      break;
    case Type::score:  // "0:3失利" for the winner's "3:0": the same score from the other side
      if (const size_t dash = a.norm.find('-'); dash != std::string::npos && a.norm.find(' ') == std::string::npos) {
        best_idx = index_.find_exact(Type::score, a.norm.substr(dash + 1) + "-" + a.norm.substr(0, dash));
        if (best_idx >= 0) best = kByParts;
      }
      break;
    case Type::identifier:
      if (in_decade(a, best_idx)) best = kPartialDate;  // "the 1990s" by "1995"
      if (best == 0.0F && (best_idx = same_digits(a)) >= 0) best = 1.0F;
      break;
    default:
      break;  // numeric types, other identifiers, clauses: exact or nothing (12,500 vs 12,600 is a miss)
  }
  return best;
}

namespace {
// A markdown heading ("# ...", or a line in bold): its words are capitalised as a title's are.
// ("## Title", not "#1 scorer"; "**Title**" alone on its line, not "**Label:** text **bold**").
bool in_heading(std::string_view before, std::string_view after) {
  if (before.data() == nullptr || after.data() == nullptr) return false;
  const size_t from = before.rfind('\n');
  std::string_view head = before.substr(from == std::string_view::npos ? 0 : from + 1);
  std::string_view tail = after.substr(0, std::min(after.size(), after.find('\n')));
  while (!head.empty() && head.front() == ' ') head.remove_prefix(1);
  while (!tail.empty() && (tail.back() == ' ' || tail.back() == '\r')) tail.remove_suffix(1);
  const size_t hashes = head.find_first_not_of('#');
  if (hashes != std::string_view::npos && hashes > 0 && head[hashes] == ' ') return true;
  return head.starts_with("**") && tail.ends_with("**") && head.find("**", 2) == std::string_view::npos &&
         tail.substr(0, tail.size() - 2).find("**") == std::string_view::npos;
}

// Whether a sentence or a line starts right before: nothing, or an end mark, a colon, a bullet.
bool starts_line_or_sentence(std::string_view before) {
  if (before.data() == nullptr) return false;
  while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
  if (before.empty()) return true;
  for (std::string_view end : {".", "!", "?", ":", "\n", "*", "-", "\"", "("}) {
    if (before.ends_with(end)) return true;
  }
  return false;
}
}  // namespace

// Written exactly as a source writes it (a name inside a longer name, a year inside a date, a
// possessive), by a name's parts, or in another written form: confirmed, bound to its field.
bool Checker::confirm_written(const Anchor& a, std::string_view field, std::string_view surface,
                              std::string_view before, std::string_view after, CheckResult& r) {
  anchor::fold_for_match(surface, folded_);
  if (a.type == Type::name) trim_name(folded_);
  if (find_written(a, r.span) || (a.type == Type::name && affiliation_written(surface, r.span))) {
    r.verdict = Verdict::confirmed;
    r.confidence = 1.0F;
    r.verbatim = true;
    r.support = -1;
    bind(a, field, surface, before, after, r);
    return true;
  }
  if (a.type == Type::name) {  // what name_by_parts reads of the name's place in the text
    heading_ = in_heading(before, after);
    owner_ = surface.ends_with("'s") || surface.ends_with("\u2019s");
    sentence_start_ = starts_line_or_sentence(before);
  }
  if (a.type == Type::name && name_by_parts(folded_, r.span)) {
    // Each part is the sources', the whole is not written there: confirmed below certainty.
    r.verdict = Verdict::confirmed;
    r.confidence = kByParts;
    r.support = -1;
    if (!field.empty()) bind_to_field(a, field, r);
    return true;
  }
  if (written_otherwise(a, surface, before, after, r.span)) {
    // The sources write the value another way ("WA", "92 to 8", "eighth"): below certainty.
    r.verdict = Verdict::confirmed;
    r.confidence = kByParts;
    r.support = -1;
    bind(a, field, surface, before, after, r);
    return true;
  }
  return false;
}

CheckResult Checker::check(const Anchor& a, std::string_view field, std::string_view surface, std::string_view before,
                           std::string_view after) {
  CheckResult r;
  query_ready_ = false;
  if (!is_checkable(a)) return r;
  if (!index_.has_text()) {
    // Nothing to check against: reported as unverifiable, unsupported only when strict. A citation
    // is unsupported all the same: a reference no source gave is invented.
    if (options_.strict || a.type == Type::citation) {
      r.checked = true;
      r.verdict = Verdict::unsupported;
      r.reason = Reason::absent;
    }
    return r;
  }
  r.checked = true;
  // 1. Exact typed match (both readings of an ambiguous date), else the best similar one.
  int64_t hit = index_.find_exact(a.type, a.norm);
  if (hit < 0 && !a.alt_norm.empty()) hit = index_.find_exact(a.type, a.alt_norm);
  if (hit >= 0) {
    r.verdict = Verdict::confirmed;
    r.confidence = 1.0F;
    r.support = hit;
    cite(r);
    bind(a, field, surface, before, after, r);
    return r;
  }
  int64_t best_idx = -1;
  const float best = best_support(a, best_idx);
  r.confidence = best;
  if (best_idx >= 0 && best >= options_.threshold_for(a.type)) {
    r.verdict = Verdict::confirmed;
    r.support = best_idx;
    cite(r);
    bind(a, field, surface, before, after, r);
    return r;
  }
  // 2. Written as the sources write it.
  if (!surface.empty() && a.type != Type::logic && confirm_written(a, field, surface, before, after, r)) return r;
  // 3. A one-step computation over source values; a source value rounded as the answer says it is.
  if (confirm_derived(a, before, after, r) || confirm_rounded(a, field, surface, before, after, r)) return r;
  r.support = -1;
  if (a.type == Type::logic && !type_present(a)) return r;  // no obligation to compare with: unverifiable
  // The answer's own arithmetic over values it writes beside this one.
  Derivation shown = Derivation::none;
  if (counts_own_list(a, before, after) && !counted_otherwise(a, surface, before, after)) {
    shown = Derivation::list_count;
  } else if (span_shown(a, before, after)) {
    shown = shown_time_ ? Derivation::time_span : Derivation::date_difference;
  } else if (date_shown(a, before, after)) {
    shown = Derivation::date_shift;
  } else {
    shown = arithmetic_shown(a, before);
  }
  if (shown != Derivation::none) {
    r.verdict = Verdict::derived;
    r.confidence = 1.0F;
    r.derivation = shown;
    return r;
  }
  if (count_in_words_unverifiable(a, surface, before, after)) return r;
  r.verdict = Verdict::unsupported;
  r.reason = type_present(a) ? Reason::mismatch : Reason::absent;
  return r;
}

float Checker::similarity(const Anchor& a, uint32_t i) {
  const Anchor& s = index_.anchors()[i].anchor;
  if (s.norm == a.norm || (!a.alt_norm.empty() && s.norm == a.alt_norm)) return 1.0F;
  if (a.type == Type::number) return anchor::is_numeric(s.type) && s.value == a.value ? 1.0F : 0.0F;
  if (s.type != a.type) return 0.0F;
  if (a.type == Type::date) {
    return date_compatible(a.norm, s.norm) || (!a.alt_norm.empty() && date_compatible(a.alt_norm, s.norm))
               ? kPartialDate
               : 0.0F;
  }
  if (a.type != Type::name) return 0.0F;
  if (!query_ready_) {
    anchor::name_trigrams(a.norm, query_);
    query_ready_ = true;
  }
  const auto& g = index_.anchors()[i].grams;
  return cosine(query_, std::sqrt(static_cast<float>(query_.size())), g, std::sqrt(static_cast<float>(g.size())));
}

// A confirmed value is bound to its field's label where the sources use it, else to its role.
void Checker::bind(const Anchor& a, std::string_view field, std::string_view surface, std::string_view before,
                   std::string_view after, CheckResult& r) {
  if (!field.empty() && bind_to_field(a, field, r)) return;
  bind_to_role(a, before, after, r);
  bind_to_count(a, surface, before, after, r);
  bind_to_event(a, before, after, r);
  bind_to_clause(a, before, r);
  cap_unread_role(a, r);
}

// A confirmed anchor written under a label the sources also use for values of its type must match
// one of those values: the right value under the wrong label is the error a reviewer misses most.
// True when the label binds (the sources state values of the type under it).
bool Checker::bind_to_field(const Anchor& a, std::string_view field, CheckResult& r) {
  const auto& all = index_.anchors();
  if (r.support >= 0 && anchor::same_label(all[static_cast<size_t>(r.support)].field, field)) {
    r.role_matched = true;
    r.role = all[static_cast<size_t>(r.support)].field;
    return true;
  }
  bool bound = false;
  float best = 0.0F;
  int64_t best_idx = -1;
  auto consider = [&](uint32_t i) {
    if (!anchor::same_label(all[i].field, field)) return;
    bound = true;
    const float s = similarity(a, i);
    if (s > best) {
      best = s;
      best_idx = i;
    }
  };
  if (a.type == Type::number) {
    for (uint32_t i : numeric_) consider(i);
  } else {
    for (uint32_t i : index_.of_type(a.type)) consider(i);
  }
  if (!bound) return false;  // the sources state nothing of this type under that label
  if (best_idx >= 0 && best >= options_.threshold_for(a.type)) {
    r.support = best_idx;
    r.confidence = best;
    r.verbatim = false;
    r.role_matched = true;
    r.role = all[static_cast<size_t>(best_idx)].field;
    cite(r);
    return true;
  }
  misattributed(r);
  r.confidence = best;
  return true;
}

}  // namespace sfcl::verify
