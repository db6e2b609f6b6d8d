#include "decode/grammar_gate.h"

namespace sfcl::decode {

void GrammarGate::advance() {
  streak_ = needed_;
  needed_ = false;
  have_allows_ = false;
  rejected_.clear();
}

void GrammarGate::reset() {
  streak_ = false;
  needed_ = false;
  have_allows_ = false;
  rejected_.clear();
}

void GrammarGate::reject(Token tok, engine::Sampler& sampler) {
  needed_ = true;
  if (!have_allows_) n_allows_ = sampler.grammar_allows(allows_);
  have_allows_ = true;
  rejected_.push_back(tok);
}

void GrammarGate::list_open(const NextToken& next) {
  const size_t n_vocab = allows_.size();
  const auto open = [&](Token t) {
    return t >= 0 && static_cast<size_t>(t) < n_vocab && allows_[static_cast<size_t>(t)] != 0 &&
           mark_[static_cast<size_t>(t)] == 0;
  };
  allowed_.clear();
  if (!next.allowed.empty()) {
    // The constrain fallback's candidates: those the grammar allows too.
    for (Token t : next.allowed) {
      if (open(t)) allowed_.push_back(t);
    }
    return;
  }
  for (Token t = 0; static_cast<size_t>(t) < n_vocab; ++t) {
    if (open(t)) allowed_.push_back(t);
  }
}

void GrammarGate::narrow(NextToken& next, engine::Sampler& sampler, bool eager) {
  const bool before_rejection = rejected_.empty();
  if (before_rejection) {
    // Only right after a position that needed the grammar, and only when it leaves a few tokens.
    if (!streak_ || !eager || !sampler.has_grammar()) return;
    if (!have_allows_) n_allows_ = sampler.grammar_allows(allows_);
    have_allows_ = true;
    if (next.allowed.empty() && n_allows_ > kEagerList + next.banned.size()) return;
  }
  const size_t n_vocab = allows_.size();
  mark_.resize(n_vocab, 0);
  for (Token t : next.banned) {
    if (t >= 0 && static_cast<size_t>(t) < n_vocab) mark_[static_cast<size_t>(t)] = 1;
  }
  banned_.clear();
  bool any = false;  // anything left at all (the local sampler returns -1 otherwise)
  if (!next.allowed.empty() || n_allows_ <= kMaxList) {
    list_open(next);
    any = !allowed_.empty();
  } else {
    // Too many to list: ban what the grammar forbids when that fits, else what was rejected.
    allowed_.clear();
    const bool complement = n_vocab - n_allows_ + next.banned.size() <= kMaxList;
    banned_.assign(next.banned.begin(), next.banned.end());
    for (size_t i = 0; i < n_vocab; ++i) {
      if (complement && allows_[i] == 0 && mark_[i] == 0) banned_.push_back(static_cast<Token>(i));
      any = any || (allows_[i] != 0 && mark_[i] == 0);
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
  if (before_rejection) {
    if (any && (allowed_.empty() || allowed_.size() > kEagerList)) return;  // the engine chooses freely
    needed_ = true;
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
