// sfcl::verify — the per-anchor check of SPEC §2: typed comparison of one generated anchor with
// the anchors of the request's sources and the knowledge base.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "anchor/anchor.h"

namespace sfcl::verify {

enum class Verdict : uint8_t { confirmed, unsupported, unverifiable };
std::string_view verdict_name(Verdict v);

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
};

// Fact-checked types: every entity type, and obligation connectives (must / must_not).
bool is_checkable(const anchor::Anchor& a);

class Checker {
 public:
  Checker(const anchor::SourceIndex& index, const CheckerOptions& options);
  // Allocation-free after construction (buffers are reused); not thread-safe per instance.
  CheckResult check(const anchor::Anchor& a);
  [[nodiscard]] const anchor::SourceIndex& index() const { return index_; }
  [[nodiscard]] const CheckerOptions& options() const { return options_; }

 private:
  struct Grams {
    std::vector<uint32_t> hashes;  // sorted character-trigram hashes
    float norm = 0.0F;
  };
  static void trigrams(std::string_view text, std::vector<uint32_t>& out);
  static float cosine(const std::vector<uint32_t>& a, float na, const std::vector<uint32_t>& b, float nb);
  [[nodiscard]] bool has_numeric_source() const;

  const anchor::SourceIndex& index_;
  CheckerOptions options_;
  std::vector<std::pair<uint32_t, Grams>> names_;  // source name anchors with their trigrams
  std::vector<uint32_t> numeric_;                  // source anchors with a numeric value
  bool has_must_ = false;
  bool has_must_not_ = false;
  std::vector<uint32_t> query_;                    // scratch
};

}  // namespace sfcl::verify
