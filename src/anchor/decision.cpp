// Decision points (docs/DESIGN.md, "Anchors"): anchors in the input that signal a decision.
#include "anchor/anchor.h"

namespace sfcl::anchor {

bool is_decision_point(const Anchor& a) {
  switch (a.type) {
    case Type::amount:
    case Type::date:
      return true;
    case Type::logic:
      return a.norm == "must" || a.norm == "must_not" || a.norm == "commit";
    default:
      return false;
  }
}

DecisionCount count_decision_points(std::string_view text, const LexerOptions& options) {
  DecisionCount count;
  std::vector<Anchor> anchors;
  anchors.reserve(text.size() / 16 + 16);
  extract_into(text, anchors, options);
  count.anchors = anchors.size();
  for (const auto& a : anchors) {
    ++count.by_type[static_cast<size_t>(a.type)];
    if (is_decision_point(a)) ++count.total;
  }
  return count;
}

}  // namespace sfcl::anchor
