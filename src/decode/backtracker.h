// Backtrack bookkeeping of one sequence: the token budget, the attempts and fallback of each
// anchor (by the output index of its first token), and the tokens banned at one output position.
#pragma once
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "engine/engine.h"

namespace sfcl::decode {

class Backtracker {
 public:
  // Sampled tokens beyond max_tokens * (1 + max_backtracks), so a sequence that used all of
  // max_tokens can still regenerate its last anchor.
  static constexpr int64_t kBudgetSlack = 16;

  Backtracker(int32_t max_tokens, int32_t max_backtracks);

  // Sampled-token budget (regenerated tokens included).
  [[nodiscard]] int64_t budget() const { return budget_; }
  [[nodiscard]] bool within_budget(int64_t decoded) const { return decoded < budget_; }
  // Backtracks are allowed: budget left and not stopped (context full, budget spent).
  [[nodiscard]] bool can_backtrack(int64_t decoded) const { return within_budget(decoded) && !stopped_; }
  void stop() { stopped_ = true; }

  [[nodiscard]] int32_t attempts(size_t first) const;
  [[nodiscard]] bool fell_back(size_t first) const;
  // Another retry of the anchor at `first` is allowed by its attempts and fallback.
  [[nodiscard]] bool may_retry(size_t first) const;
  // Counts a retry; returns the attempts so far.
  int32_t add_attempt(size_t first);
  void mark_fell_back(size_t first);
  // The anchor at `first` was rewound away (its marker or flag with it): an anchor written there
  // again is checked and retried afresh.
  void forget_fallback(size_t first);
  // Every fallback mark after output index `index` (per-token mode rewinds whole sentences).
  void forget_fallbacks_after(size_t index);

  // Bans `tok` at output position `at` (bans at another position are dropped).
  void ban(size_t at, engine::Token tok);
  // Adds to the bans of the position last banned at.
  void ban_more(std::span<const engine::Token> toks);
  // Tokens banned when sampling output position `index`.
  [[nodiscard]] std::span<const engine::Token> bans_at(size_t index) const;
  // Every token of the current ban list, wherever it applies.
  [[nodiscard]] std::span<const engine::Token> bans() const { return bans_; }

 private:
  struct AnchorAttempts {
    int32_t retries = 0;     // backtracks spent on the anchor
    bool fell_back = false;  // its fallback ran: never retried again
  };
  static constexpr size_t kNoPosition = static_cast<size_t>(-1);

  int32_t max_backtracks_;
  int64_t budget_;
  bool stopped_ = false;
  std::unordered_map<size_t, AnchorAttempts> anchors_;
  size_t ban_at_ = kNoPosition;
  std::vector<engine::Token> bans_;
};

}  // namespace sfcl::decode
