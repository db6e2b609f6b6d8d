#include "decode/constrainer.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_set>

#include "util/assert.h"

namespace sfcl::decode {

using anchor::Anchor;
using engine::Token;

namespace {
// Calls f(t) for every numeric type other than `type`, in enum order.
template <typename F>
void for_other_numeric_types(anchor::Type type, F&& f) {
  for (size_t i = 0; i < static_cast<size_t>(anchor::kTypeCount); ++i) {
    const auto t = static_cast<anchor::Type>(i);
    if (t != type && anchor::is_numeric(t)) f(t);
  }
}
}  // namespace

std::string_view bound_field(const anchor::SourceIndex& sources, std::string_view text, const Anchor& a) {
  const std::string_view f = anchor::field_label(text, a.start);
  if (f.empty()) return {};
  auto bound = [&](anchor::Type t) {
    const auto ids = sources.of_type(t);
    return std::any_of(ids.begin(), ids.end(),
                       [&](uint32_t i) { return anchor::same_label(sources.anchors()[i].field, f); });
  };
  if (bound(a.type)) return f;
  if (a.type == anchor::Type::number) {
    bool any = false;
    for_other_numeric_types(a.type, [&](anchor::Type t) { any = any || bound(t); });
    if (any) return f;
  }
  return {};
}

bool in_field(const anchor::SourceIndex& sources, uint32_t i, std::string_view field) {
  return field.empty() || anchor::same_label(sources.anchors()[i].field, field);
}

bool Constrainer::build(const engine::Model& model, const anchor::SourceIndex& sources, const Anchor& a,
                        std::string_view field, std::string_view prefix) {
  cands_.clear();
  // A hash set, not a list: a request's sources may hold tens of thousands of values of one type,
  // and this runs on the decode thread that every slot shares.
  std::unordered_set<std::string_view> seen;
  auto add_type = [&](anchor::Type t) {
    for (uint32_t i : sources.of_type(t)) {
      const auto& s = sources.anchors()[i];
      if (!in_field(sources, i, field) || s.part) continue;
      if (s.text.empty() || !seen.insert(s.anchor.norm).second) continue;
      if (a.type == anchor::Type::logic && !anchor::is_obligation(s.anchor)) continue;
      cands_.push_back(model.tokenize(std::string(prefix) + s.text, false, false));
    }
  };
  // Only values of the anchor's own type: an amount in place of a bare number is grounded by
  // construction and absurd to read ("The paper is Nature $12,500.00.").
  add_type(a.type);
  return !cands_.empty();
}

bool Constrainer::keep_prefix(std::span<const Token> kept) {
  if (kept.empty()) {
    alive_.assign(cands_.size(), 1);
    return true;
  }
  alive_.assign(cands_.size(), 0);
  bool any = false;
  for (size_t c = 0; c < cands_.size(); ++c) {
    alive_[c] = cands_[c].size() > kept.size() && std::equal(kept.begin(), kept.end(), cands_[c].begin()) ? 1 : 0;
    any = any || alive_[c] != 0;
  }
  return any;
}

void Constrainer::start(size_t first, size_t from) {
  SFCL_ASSERT(from >= first, "constraining starts inside the value");
  active_ = true;
  depth_ = from - first;
  anchor_ = first;
  value_end_ = 0;
  extension_bans_ = 0;
}

Constrainer::Choice Constrainer::choices(std::span<const Token> word_start_tokens) {
  allowed_.clear();
  bool complete = false;
  for (size_t c = 0; c < cands_.size(); ++c) {
    if (!alive_[c]) continue;
    if (cands_[c].size() == depth_) {
      complete = true;
    } else {
      allowed_.push_back(cands_[c][depth_]);
    }
  }
  if (!complete) return {allowed_, {}};
  glue_ban_.clear();
  for (Token w : word_start_tokens) {
    if (std::find(allowed_.begin(), allowed_.end(), w) == allowed_.end()) glue_ban_.push_back(w);
  }
  return {{}, glue_ban_};
}

void Constrainer::advance(Token tok, size_t end_bytes) {
  bool any = false;
  for (size_t c = 0; c < cands_.size(); ++c) {
    alive_[c] = alive_[c] && cands_[c].size() > depth_ && cands_[c][depth_] == tok;
    any = any || alive_[c];
  }
  ++depth_;
  if (!any) {
    active_ = false;
    value_end_ = end_bytes;
  }
}

bool Constrainer::next_is_unlikely(const float* logits, size_t n_vocab, std::span<const Token> bans,
                                   float temperature) {
  allowed_.clear();
  for (size_t c = 0; c < cands_.size(); ++c) {
    if (alive_[c] && cands_[c].size() > depth_) allowed_.push_back(cands_[c][depth_]);
  }
  if (allowed_.empty()) return false;
  // A mask, not a search: after a separator ban `bans` holds every word-start token.
  ban_mask_.assign(n_vocab, 0);
  for (Token t : bans) {
    if (t >= 0 && static_cast<size_t>(t) < n_vocab) ban_mask_[static_cast<size_t>(t)] = 1;
  }
  size_t best = n_vocab;
  for (size_t t = 0; t < n_vocab; ++t) {
    if (ban_mask_[t] == 0 && (best == n_vocab || logits[t] > logits[best])) best = t;
  }
  if (best == n_vocab) return false;
  auto is_allowed = [&](size_t t) {
    return std::find(allowed_.begin(), allowed_.end(), static_cast<Token>(t)) != allowed_.end();
  };
  if (temperature <= 0.0F) return !is_allowed(best);
  double all = 0.0;
  double good = 0.0;
  for (size_t t = 0; t < n_vocab; ++t) {
    if (ban_mask_[t] != 0) continue;
    const double p = std::exp(static_cast<double>(logits[t] - logits[best]) / temperature);
    all += p;
    if (is_allowed(t)) good += p;
  }
  return good < kFutileMass * all;
}

}  // namespace sfcl::decode
