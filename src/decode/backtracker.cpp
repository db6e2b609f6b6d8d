#include "decode/backtracker.h"

#include <algorithm>

namespace sfcl::decode {

Backtracker::Backtracker(int32_t max_tokens, int32_t max_backtracks)
    : max_backtracks_(max_backtracks),
      budget_(static_cast<int64_t>(max_tokens) * (1 + std::max(0, max_backtracks)) + kBudgetSlack) {}

int32_t Backtracker::attempts(size_t first) const {
  const auto it = anchors_.find(first);
  return it == anchors_.end() ? 0 : it->second.retries;
}

bool Backtracker::fell_back(size_t first) const {
  const auto it = anchors_.find(first);
  return it != anchors_.end() && it->second.fell_back;
}

bool Backtracker::may_retry(size_t first) const {
  const auto it = anchors_.find(first);
  if (it == anchors_.end()) return max_backtracks_ > 0;
  return it->second.retries < max_backtracks_ && !it->second.fell_back;
}

int32_t Backtracker::add_attempt(size_t first) { return ++anchors_[first].retries; }

void Backtracker::mark_fell_back(size_t first) { anchors_[first].fell_back = true; }

void Backtracker::forget_fallback(size_t first) {
  if (const auto it = anchors_.find(first); it != anchors_.end()) it->second.fell_back = false;
}

void Backtracker::forget_fallbacks_after(size_t index) {
  for (auto& [first, a] : anchors_) {
    if (first > index) a.fell_back = false;
  }
}

void Backtracker::ban(size_t at, engine::Token tok) {
  if (ban_at_ != at) bans_.clear();
  ban_at_ = at;
  bans_.push_back(tok);
}

void Backtracker::ban_more(std::span<const engine::Token> toks) { bans_.insert(bans_.end(), toks.begin(), toks.end()); }

std::span<const engine::Token> Backtracker::bans_at(size_t index) const {
  return ban_at_ == index ? std::span<const engine::Token>(bans_) : std::span<const engine::Token>();
}

}  // namespace sfcl::decode
