// sfcl::verify — the per-anchor check (docs/DESIGN.md, "The check"): typed comparison of one generated anchor with
// the anchors of the request's sources and the knowledge base.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "anchor/anchor.h"

namespace sfcl::verify {

// derived: equal to a one-step computation over source values (docs/ANCHORS.md, "Checking").
// constrained: written by the constrain fallback from a source value of the anchor's type after the
// model's own tries failed; grounded by construction, never reported as `confirmed` (the checker
// itself never returns it: the loop marks what the fallback wrote).
enum class Verdict : uint8_t { confirmed, unsupported, unverifiable, derived, constrained };
inline constexpr size_t kVerdictCount = 5;
std::string_view verdict_name(Verdict v);
// Every verdict's name, in enum order (for choices and error messages).
std::span<const std::string_view> verdict_names();

// Why an anchor is unsupported: nothing of its type in any source (absent), values of its type but
// none equal (mismatch), or the value is in the sources under another field's label (other_field).
enum class Reason : uint8_t { none, absent, mismatch, other_field };
std::string_view reason_name(Reason r);

enum class Derivation : uint8_t {
  none,
  sum,
  difference,
  percent_of,
  ratio,
  date_difference,
  list_count,
  share_of,
  percent_change,
  date_shift,
  time_span,
  proportion,
  average,
  remainder
};
std::string_view derivation_name(Derivation d);

struct CheckerOptions {
  float threshold = 0.87F;
  // Per-type thresholds; NaN = use `threshold`.
  std::array<float, anchor::kTypeCount> type_threshold = [] {
    std::array<float, anchor::kTypeCount> a{};
    a.fill(std::nanf(""));
    return a;
  }();
  // strict: with no source text at all, anchors are unsupported (absent), not unverifiable.
  bool strict = false;
  // Numbers equal to a one-step computation over source values are `derived`, not unsupported.
  bool derived = true;

  [[nodiscard]] float threshold_for(anchor::Type t) const {
    const float v = type_threshold[static_cast<size_t>(t)];
    return std::isnan(v) ? threshold : v;
  }
};

struct CheckResult {
  Verdict verdict = Verdict::unverifiable;
  Reason reason = Reason::none;  // unsupported only
  float confidence = 0.0F;
  int64_t support = -1;  // index into SourceIndex::anchors() of the supporting anchor, or -1
  // Where the sources support it (confirmed: the supporting anchor, or the verbatim occurrence).
  anchor::TextSpan span;
  bool checked = false;  // false for anchor types that are reported but never fact-checked
  // The value is in the source, but not under the label of the field it was written in ("Opened
  // by: Acme Ltd." where the source states Acme as the account): unsupported for that reason.
  bool other_field = false;
  bool verbatim = false;  // confirmed because its text occurs as written in a source
  // Confirmed with its role: the text states what the value is of ("total due", its days of the week)
  // and the cited source occurrence is stated under that same role (docs/ANCHORS.md, "Roles"). False
  // for a confirmation whose role could not be read or that the sources state under no role: the
  // report says `role: null`. A value the sources state only under other roles is unsupported
  // (`other_field`).
  bool role_matched = false;
  // The role matched: the source occurrence's role, the field label both use, or the noun both
  // count; empty for `role: null`. A view into the index or the checked text, valid while they are.
  std::string_view role;
  Derivation derivation = Derivation::none;
  std::array<int64_t, 3> operands{-1, -1, -1};  // derived: indices into SourceIndex::anchors()
};

class DerivedValues;

// Fact-checked types: every entity type, and obligation connectives (must / must_not).
bool is_checkable(const anchor::Anchor& a);
// Types whose values are read with a role (docs/ANCHORS.md, "Roles"): numbers and what carries one,
// dates and times, identifiers.
bool has_role(anchor::Type t);
// The confidence of a confirmation whose role was not read (`role: null`): below one read and
// matched, never below the threshold that confirmed it.
constexpr float kRoleUnread = 0.95F;
// The confidence of a value the sources write another way: by a name's parts, in another written
// form, or rounded as the answer says (rounded.cpp).
constexpr float kByParts = 0.9F;
// The most items an answer's own list is counted with (own_lists.cpp), and the largest source count
// that can contradict such a count (roles.cpp): longer lists are not counted by hand.
constexpr double kMaxListed = 12;

class Checker {
 public:
  Checker(const anchor::SourceIndex& index, const CheckerOptions& options);
  ~Checker();
  Checker(const Checker&) = delete;
  Checker& operator=(const Checker&) = delete;
  // Allocation-free after construction (buffers are reused); not thread-safe per instance.
  // `field`: the label of the "Label: value" field the anchor was written in (anchor::field_label
  // of the output), or empty. When the sources state values of the anchor's type under that same
  // label, the anchor must match one of them; otherwise any same-type source value supports it.
  // `surface`: the anchor as written (for the verbatim rule); empty skips that rule.
  // `before` / `after`: the text around the anchor, views of one text with the anchor between them
  // (the answer's own lists and dates are read across it: own_lists.cpp, shown_spans.cpp). Where the whole sentence is
  // known (`after` not null: a finished text, as `sfcl anchors check` and the eval read it), a value equal to a
  // computation over source values is `derived` only where its sentence names the computation
  // ("in total", "合计", "more than"; derivation_cues.cpp). A stream checks a value when it completes,
  // before the words that often name the computation ("$3,000 in total"), so there (`after` null)
  // the test is skipped rather than backtrack a right sum.
  CheckResult check(const anchor::Anchor& a, std::string_view field = {}, std::string_view surface = {},
                    std::string_view before = {}, std::string_view after = {});
  [[nodiscard]] const anchor::SourceIndex& index() const { return index_; }
  [[nodiscard]] const CheckerOptions& options() const { return options_; }

 private:
  static float cosine(const std::vector<uint32_t>& a, float na, const std::vector<uint32_t>& b, float nb);
  bool quantity_by_number(const anchor::Anchor& a, int64_t& support) const;
  // 第一场比赛 for the sources' 首场比赛 (measures.cpp).
  bool first_said_with_shou(std::string_view surface, std::string_view after, anchor::TextSpan& span) const;
  bool measure_variant(const anchor::Anchor& a, std::string_view before, std::string_view after,
                       anchor::TextSpan& span) const;
  // 积7分 for the sources' 7个积分 (measures.cpp).
  bool points_as_count(const anchor::Anchor& a, anchor::TextSpan& span) const;
  [[nodiscard]] std::string_view text_before_value(uint32_t i) const;  // source anchor i's clause before it
  bool value_before_word(const anchor::Anchor& a, std::span<const uint32_t> candidates, std::string_view unit,
                         std::string_view word, anchor::TextSpan& span) const;
  // 两万三千年 for the sources' 2.3万年 (measures.cpp).
  bool years_after_number(const anchor::Anchor& a, anchor::TextSpan& span) const;
  // "scored four times" for the sources' "four goals", and the other way (measures.cpp).
  bool goals_as_times(const anchor::Anchor& a, std::string_view before, anchor::TextSpan& span) const;
  // "on the 22nd" for a source date on the 22nd of a month (days.cpp).
  bool ordinal_as_day(const anchor::Anchor& a, std::string_view surface, std::string_view before,
                      std::string_view after, anchor::TextSpan& span) const;
  // A source measure or duration equal to `a` in another unit of its dimension (measures.cpp).
  bool in_another_unit(const anchor::Anchor& a, int64_t& support) const;
  bool race_time_as_span(const anchor::Anchor& a, int64_t& support) const;
  bool compound_duration(const anchor::Anchor& a, const anchor::UnitScale& to, double precision,
                         int64_t& support) const;
  // A source date or year inside the decade `a` writes ("the 1990s", "mid-1990s"; decades.cpp).
  bool in_decade(const anchor::Anchor& a, int64_t& support) const;
  [[nodiscard]] bool year_in_decade(const anchor::Anchor& a, uint32_t i) const;  // source date or year i
  static bool is_decade(const anchor::Anchor& a);
  void bind_decade_to_role(const anchor::Anchor& a, std::string_view role, CheckResult& r);
  // A source clause that is a paragraph of `a`, or the article and paragraph of `a` written apart.
  bool clause_by_parts(const anchor::Anchor& a, int64_t& support) const;
  // A source number or identifier with the digits of a phone-shaped `a` (written_forms.cpp).
  [[nodiscard]] int64_t same_digits(const anchor::Anchor& a) const;
  static bool year_of(std::string_view norm);
  [[nodiscard]] int64_t date_in_year(std::string_view year) const;
  [[nodiscard]] bool has_numeric_source() const;
  // Support of source anchor `i` for `a` (1 exact, 0.9 partial date, name trigram cosine, else 0).
  float similarity(const anchor::Anchor& a, uint32_t i);
  // check()'s steps after an exact match (checker.cpp)
  float best_support(const anchor::Anchor& a, int64_t& best_idx);
  bool confirm_written(const anchor::Anchor& a, std::string_view field, std::string_view surface,
                       std::string_view before, std::string_view after, CheckResult& r);
  bool confirm_derived(const anchor::Anchor& a, std::string_view before, std::string_view after, CheckResult& r);
  // A source value of `a`'s type and unit that `a` rounds as the words around it say: "nearly 2
  // trillion" for 1.99671 trillion, "约2万亿元", "over 1,500" for 1,532, "1000多人" (rounded.cpp).
  bool confirm_rounded(const anchor::Anchor& a, std::string_view field, std::string_view surface,
                       std::string_view before, std::string_view after, CheckResult& r);
  bool bind_to_field(const anchor::Anchor& a, std::string_view field, CheckResult& r);
  void cap_unread_role(const anchor::Anchor& a, CheckResult& r) const;
  void bind(const anchor::Anchor& a, std::string_view field, std::string_view surface, std::string_view before,
            std::string_view after, CheckResult& r);
  // written_forms.cpp: the value in another written form the sources use ("WA", "92 to 8", "eighth")
  bool written_otherwise(const anchor::Anchor& a, std::string_view surface, std::string_view before,
                         std::string_view after, anchor::TextSpan& span) const;
  bool season_year(std::string_view surface, std::string_view before, anchor::TextSpan& span) const;  // seasons.cpp
  bool time_in_words(std::string_view norm, anchor::TextSpan& span) const;
  bool age_in_years(const anchor::Anchor& a, std::string_view after, anchor::TextSpan& span) const;
  bool dimensions_written(anchor::TextSpan& span) const;
  bool name_by_initials(std::string_view surface, anchor::TextSpan& span) const;
  bool name_abbreviated(anchor::TextSpan& span) const;  // name_parts.cpp
  bool surname_with_title(anchor::TextSpan& span) const;  // cn_titles.cpp
  bool name_as_domain(anchor::TextSpan& span) const;      // domains.cpp
  // roles.cpp
  void bind_to_role(const anchor::Anchor& a, std::string_view before, std::string_view after, CheckResult& r);
  [[nodiscard]] bool sentence_states_role(uint32_t i, std::string_view role) const;
  void bind_name_to_field(const anchor::Anchor& a, std::string_view before, std::string_view after, CheckResult& r);
  bool bind_to_days(const anchor::Anchor& a, std::string_view before, std::string_view after, CheckResult& r);
  [[nodiscard]] bool counted_otherwise(const anchor::Anchor& a, std::string_view surface, std::string_view before,
                                       std::string_view after) const;
  void bind_to_count(const anchor::Anchor& a, std::string_view surface, std::string_view before, std::string_view after,
                     CheckResult& r);
  // events.cpp: a count of another event's ("killed nine" where nine were injured)
  void bind_to_event(const anchor::Anchor& a, std::string_view before, std::string_view after, CheckResult& r);
  // clauses.cpp: a value whose clause words are another source value's, never its own's
  void bind_to_clause(const anchor::Anchor& a, std::string_view before, CheckResult& r);
  // own_lists.cpp: a count of the items the answer lists beside it ("A、B和C三名", "two: A and B")
  [[nodiscard]] static bool counts_own_list(const anchor::Anchor& a, std::string_view before, std::string_view after);
  [[nodiscard]] static bool counts_list_before(const anchor::Anchor& a, std::string_view before);
  // shown_spans.cpp: a span between two dates or times the answer writes beside it ("18日至24日的7天");
  // sets shown_time_ when the two are times.
  bool span_shown(const anchor::Anchor& a, std::string_view before, std::string_view after);
  // and a date a day before or after one written beside it ("3月9日…前一天（即8日）")
  bool date_shown(const anchor::Anchor& a, std::string_view before, std::string_view after);
  // and a gap stated after two values of the sentence ("2小时27分05秒…2小时48分11秒，两人相差21分06秒")
  Derivation arithmetic_shown(const anchor::Anchor& a, std::string_view before);
  [[nodiscard]] bool count_in_words_unverifiable(const anchor::Anchor& a, std::string_view surface,
                                                 std::string_view before, std::string_view after) const;
  static void misattributed(CheckResult& r);
  [[nodiscard]] bool type_present(const anchor::Anchor& a) const;
  static void trim_name(std::string& folded);
  bool find_written(const anchor::Anchor& a, anchor::TextSpan& span) const;
  // A Chinese name without the words before it, or in another legal form (han_names.cpp).
  bool han_name_in_sources(std::string_view name, anchor::TextSpan& span) const;
  bool han_legal_form(anchor::TextSpan& span) const;
  bool affiliation_written(std::string_view surface, anchor::TextSpan& span) const;
  void cite(CheckResult& r) const;
  // A name checked by its parts (name_parts.cpp): `folded` is fold_for_match of what was written.
  bool name_by_parts(std::string_view folded, anchor::TextSpan& span) const;
  bool name_by_parts_words(std::span<const std::string_view> words, anchor::TextSpan& span) const;
  // name_by_parts_words' two readings: a run the sources write with every other word theirs, or
  // the words of one source name reordered.
  bool name_by_core(std::span<const std::string_view> words, anchor::TextSpan& span) const;
  bool name_reordered(std::span<const std::string_view> words, anchor::TextSpan& span) const;
  bool given_and_surname(std::span<const std::string_view> words, anchor::TextSpan& span) const;
  // name_descriptions.cpp
  bool titled_name(std::span<const std::string_view> words, anchor::TextSpan& span) const;
  [[nodiscard]] bool lowercase_words(std::span<const std::string_view> words) const;
  [[nodiscard]] bool coordinated_name(std::string_view w) const;
  [[nodiscard]] bool gerund_before_owner(std::span<const std::string_view> words) const;
  [[nodiscard]] bool after_role(std::string_view w) const;
  bool run_with_country(std::span<const std::string_view> words, anchor::TextSpan& span) const;
  bool source_run(std::span<const std::string_view> words, anchor::TextSpan& span) const;
  [[nodiscard]] bool source_word(std::string_view w) const;
  // `any_case`: a heading's word, which the sources may write in any case.
  [[nodiscard]] bool source_common_word(std::string_view w, bool any_case = false) const;
  [[nodiscard]] bool leading_verb(std::string_view w) const;
  [[nodiscard]] bool country_only(std::string_view w) const;
  [[nodiscard]] bool country_named(std::string_view w) const;
  bool whole_source_name(std::span<const std::string_view> words) const;
  bool derivation_cued(Derivation d, std::string_view before, std::string_view after);

  const anchor::SourceIndex& index_;
  CheckerOptions options_;
  std::vector<uint32_t> names_;    // name anchors: the request's sources, then the knowledge base
  std::vector<uint32_t> numeric_;  // source anchors with a numeric value
  bool has_must_ = false;
  bool has_must_not_ = false;
  std::vector<uint32_t> query_;            // scratch: trigrams of the checked name
  bool query_ready_ = false;               // query_ holds the trigrams of this check's anchor
  std::string folded_;                     // scratch: the checked anchor's text, folded for the verbatim rule
  mutable std::string scratch_;            // scratch: a run of a name's words (name_parts.cpp)
  mutable std::string core_scratch_;       // scratch: a name's core looked up whole (name_parts.cpp)
  mutable bool single_word_core_ = false;  // name_parts.cpp: a one-word core behind titles only
  std::vector<anchor::Anchor> shown_anchors_;  // scratch: the anchors of a value's sentence (shown_spans.cpp)
  bool shown_time_ = false;                    // span_shown found the span between two times
  mutable bool coordinated_ = false;       // name_parts.cpp: checking a side of "X and Y"
  bool heading_ = false;                   // name_parts.cpp: the name stands in a heading line
  bool owner_ = false;                     // name_parts.cpp: the name ends in "'s" (trim_name cut it)
  bool sentence_start_ = false;            // name_parts.cpp: the name opens a sentence or a line
  std::string cue_scratch_;                // scratch: the clause before a derived value, case-folded
  std::unique_ptr<DerivedValues> derived_;
};

}  // namespace sfcl::verify
