#include "gateway/greedy_pick.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

DrawScratch::DrawScratch(size_t n_vocab)
    : logits(n_vocab, -std::numeric_limits<float>::infinity()), banned(n_vocab, 0) {}

std::optional<Token> draw_from_top(std::span<const TopProb> top, const decode::NextToken& next, int32_t top_k,
                                   engine::Sampler& sampler, DrawScratch& scratch) {
  if (top_k <= 0 || !next.allowed.empty() || top.empty()) return std::nullopt;
  const size_t n_vocab = scratch.logits.size();
  const auto in_vocab = [&](Token t) { return t >= 0 && static_cast<size_t>(t) < n_vocab; };
  // Flags, not a search: a ban after a value holds most of a vocabulary.
  for (Token t : next.banned) {
    if (in_vocab(t)) scratch.banned[static_cast<size_t>(t)] = 1;
  }
  size_t allowed = 0;
  double kth = 0.0;  // the top_k-th allowed token's log-probability
  for (const TopProb& p : top) {
    if (in_vocab(p.id) && scratch.banned[static_cast<size_t>(p.id)] == 0 && std::isfinite(p.logprob)) {
      if (++allowed == static_cast<size_t>(top_k)) kth = p.logprob;
    }
  }
  for (Token t : next.banned) {
    if (in_vocab(t)) scratch.banned[static_cast<size_t>(t)] = 0;
  }
  if (top.size() < n_vocab) {
    if (allowed < static_cast<size_t>(top_k)) return std::nullopt;
    // A token past the list may tie the top_k-th: which of them the chain keeps, the list cannot say.
    if (kth == top.back().logprob) return std::nullopt;
  }
  for (const TopProb& p : top) {
    if (in_vocab(p.id) && std::isfinite(p.logprob))
      scratch.logits[static_cast<size_t>(p.id)] = static_cast<float>(p.logprob);
  }
  sampler.set_temperature(next.temperature);
  const Token t = sampler.sample(scratch.logits.data(), next.banned, {});
  for (const TopProb& p : top) {
    if (in_vocab(p.id)) scratch.logits[static_cast<size_t>(p.id)] = -std::numeric_limits<float>::infinity();
  }
  if (t < 0) return std::nullopt;
  return t;
}

}  // namespace sfcl::gateway
