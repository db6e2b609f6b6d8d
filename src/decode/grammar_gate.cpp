#include "decode/grammar_gate.h"

#include <algorithm>

namespace sfcl::decode {

void GrammarGate::reject(Token tok, engine::Sampler& sampler) {
  ++total_;
  if (rejected_.empty()) n_allows_ = sampler.grammar_allows(allows_);
  rejected_.push_back(tok);
}

void GrammarGate::narrow(NextToken& next) {
  if (rejected_.empty()) return;
  const size_t n_vocab = allows_.size();
  mark_.resize(n_vocab, 0);
  for (Token t : next.banned) {
    if (t >= 0 && static_cast<size_t>(t) < n_vocab) mark_[static_cast<size_t>(t)] = 1;
  }
  const auto open = [&](Token t) {
    return t >= 0 && static_cast<size_t>(t) < n_vocab && allows_[static_cast<size_t>(t)] != 0 &&
           mark_[static_cast<size_t>(t)] == 0;
  };
  allowed_.clear();
  banned_.clear();
  bool any = false;  // anything left at all (the local sampler returns -1 otherwise)
  if (!next.allowed.empty() || n_allows_ <= kMaxList) {
    if (!next.allowed.empty()) {
      // The constrain fallback's candidates: those the grammar allows too.
      for (Token t : next.allowed) {
        if (open(t)) allowed_.push_back(t);
      }
    } else {
      for (Token t = 0; static_cast<size_t>(t) < n_vocab; ++t) {
        if (open(t)) allowed_.push_back(t);
      }
    }
    any = !allowed_.empty();
  } else {
    // Too many to list: ban what the grammar forbids when that fits, else what was rejected.
    const bool complement = n_vocab - n_allows_ + next.banned.size() <= kMaxList;
    banned_.assign(next.banned.begin(), next.banned.end());
    for (Token t = 0; static_cast<size_t>(t) < n_vocab; ++t) {
      const auto i = static_cast<size_t>(t);
      if (complement && allows_[i] == 0 && mark_[i] == 0) banned_.push_back(t);
      any = any || open(t);
    }
    if (!complement) {
      for (Token t : rejected_) {
        if (mark_[static_cast<size_t>(t)] == 0) banned_.push_back(t);
      }
    }
  }
  for (Token t : next.banned) {
    if (t >= 0 && static_cast<size_t>(t) < n_vocab) mark_[static_cast<size_t>(t)] = 0;
  }
  if (!any) {
    next.forced = -1;
    next.banned = {};
    next.allowed = {};
  } else if (!allowed_.empty()) {
    next.allowed = allowed_;
  } else {
    next.banned = banned_;
  }
}

}  // namespace sfcl::decode
