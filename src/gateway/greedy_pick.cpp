#include "gateway/greedy_pick.h"

#include <algorithm>
#include <cmath>

namespace sfcl::gateway {

std::optional<Token> sole_candidate(const decode::NextToken& next) {
  if (next.allowed.empty()) return std::nullopt;
  const Token t = next.allowed.front();
  if (next.allowed.size() == 1) return t;
  if (std::any_of(next.allowed.begin(), next.allowed.end(), [&](Token a) { return a != t; })) return std::nullopt;
  if (std::find(next.banned.begin(), next.banned.end(), t) != next.banned.end()) return std::nullopt;
  return t;
}

// A strictly larger logprob means a strictly larger logit (softmax and log keep the order), so
// the list's order is the logits' order except among equal values.
std::optional<Token> greedy_from_top(std::span<const TopProb> top, const decode::NextToken& next) {
  const auto allowed = [&](Token t) {
    if (std::find(next.banned.begin(), next.banned.end(), t) != next.banned.end()) return false;
    return next.allowed.empty() || std::find(next.allowed.begin(), next.allowed.end(), t) != next.allowed.end();
  };
  for (size_t i = 0; i < top.size(); ++i) {
    if (!allowed(top[i].id)) continue;
    const double lp = top[i].logprob;
    if (std::isinf(lp) || top.back().logprob == lp) return std::nullopt;  // ties what may lie beyond the list
    for (size_t k = i + 1; k < top.size(); ++k) {
      if (top[k].logprob == lp && allowed(top[k].id)) return std::nullopt;
    }
    return top[i].id;
  }
  return std::nullopt;
}

}  // namespace sfcl::gateway
