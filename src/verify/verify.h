// sfcl::verify — the per-anchor check of SPEC §2: typed comparison of one generated anchor with
// the anchors of the request's sources and the knowledge base.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "anchor/anchor.h"

namespace sfcl::verify {

enum class Verdict : uint8_t { confirmed, unsupported, unverifiable };
std::string_view verdict_name(Verdict v);
// Every verdict's name, in enum order (for choices and error messages).
std::span<const std::string_view> verdict_names();

struct CheckerOptions {
  float threshold = 0.87F;
  // Per-type thresholds; NaN = use `threshold`.
  std::array<float, anchor::kTypeCount> type_threshold = [] {
    std::array<float, anchor::kTypeCount> a{};
    a.fill(std::nanf(""));
    return a;
  }();
  // strict: an anchor of a type the source never mentions is unsupported, not unverifiable.
  bool strict = false;

  [[nodiscard]] float threshold_for(anchor::Type t) const {
    const float v = type_threshold[static_cast<size_t>(t)];
    return std::isnan(v) ? threshold : v;
  }
};

struct CheckResult {
  Verdict verdict = Verdict::unverifiable;
  float confidence = 0.0F;
  int64_t support = -1;  // index into SourceIndex::anchors() of the supporting anchor, or -1
  bool checked = false;  // false for anchor types that are reported but never fact-checked
  // The value is in the source, but not under the label of the field it was written in ("Opened
  // by: Acme Ltd." where the source states Acme as the account): unsupported for that reason.
  bool other_field = false;
};

// Fact-checked types: every entity type, and obligation connectives (must / must_not).
bool is_checkable(const anchor::Anchor& a);

class Checker {
 public:
  Checker(const anchor::SourceIndex& index, const CheckerOptions& options);
  // Allocation-free after construction (buffers are reused); not thread-safe per instance.
  // `field`: the label of the "Label: value" field the anchor was written in (anchor::field_label
  // of the output), or empty. When the sources state values of the anchor's type under that same
  // label, the anchor must match one of them; otherwise any same-type source value supports it.
  CheckResult check(const anchor::Anchor& a, std::string_view field = {});
  [[nodiscard]] const anchor::SourceIndex& index() const { return index_; }
  [[nodiscard]] const CheckerOptions& options() const { return options_; }

 private:
  static float cosine(const std::vector<uint32_t>& a, float na, const std::vector<uint32_t>& b, float nb);
  [[nodiscard]] bool has_numeric_source() const;
  // Support of source anchor `i` for `a` (1 exact, 0.9 partial date, name trigram cosine, else 0).
  float similarity(const anchor::Anchor& a, uint32_t i);
  void bind_to_field(const anchor::Anchor& a, std::string_view field, CheckResult& r);

  const anchor::SourceIndex& index_;
  CheckerOptions options_;
  std::vector<uint32_t> names_;    // name anchors: the request's sources, then the knowledge base
  std::vector<uint32_t> numeric_;  // source anchors with a numeric value
  bool has_must_ = false;
  bool has_must_not_ = false;
  std::vector<uint32_t> query_;  // scratch: trigrams of the checked name
  bool query_ready_ = false;     // query_ holds the trigrams of this check's anchor
};

}  // namespace sfcl::verify
