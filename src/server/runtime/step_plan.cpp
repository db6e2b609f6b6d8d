// What one scheduler step feeds: which slot a prompt takes, each slot's share of the batch, and
// which prompts sit out a step while a first text waits for its token (declared in scheduler.h).
#include <algorithm>
#include <optional>

#include "server/runtime/scheduler.h"

namespace sfcl::server {

size_t pick_slot(std::span<const SlotCandidate> free) {
  std::optional<size_t> best;
  int64_t best_gain = 0;
  for (size_t i = 0; i < free.size(); ++i) {
    // Tokens it saves minus tokens of its cache this prompt throws away.
    const int64_t gain = 2 * static_cast<int64_t>(free[i].shared) - static_cast<int64_t>(free[i].cached);
    if (gain > best_gain) {
      best = i;
      best_gain = gain;
    }
  }
  if (best) return *best;
  size_t pick = 0;
  for (size_t i = 1; i < free.size(); ++i) {
    const bool empty = free[i].cached == 0;
    const bool pick_empty = free[pick].cached == 0;
    if (empty != pick_empty ? empty : free[i].last_used < free[pick].last_used) pick = i;
  }
  return pick;
}

void plan_step(std::span<const int32_t> waiting, std::span<const uint64_t> admitted, size_t first, int32_t budget,
               std::vector<SlotTake>& out) {
  out.clear();
  const size_t n = waiting.size();
  size_t prompts = 0;
  for (size_t i = 0; i < n; ++i) prompts += waiting[i] > 1 ? 1 : 0;
  int32_t decode_budget = budget;
  if (prompts > 0) decode_budget -= std::max<int32_t>(1, budget / 8);
  for (size_t k = 0; k < n && decode_budget > 0; ++k) {
    const size_t i = (first + k) % n;
    if (waiting[i] != 1) continue;
    out.push_back({static_cast<int32_t>(i), 1});
    --decode_budget;
    --budget;
  }
  // The oldest admission first, ties by slot: a handful of prompts, so a scan per pick costs
  // nothing that matters, and nothing is allocated per step.
  const auto before = [&](size_t a, size_t b) {
    return admitted[a] != admitted[b] ? admitted[a] < admitted[b] : a < b;
  };
  size_t last = n;  // the prompt fed last; the next pick comes after it in that order
  for (size_t p = 0; p < prompts && budget > 0; ++p) {
    size_t pick = n;
    for (size_t i = 0; i < n; ++i) {
      if (waiting[i] <= 1 || (last != n && !before(last, i))) continue;
      if (pick == n || before(i, pick)) pick = i;
    }
    if (pick == n) break;
    last = pick;
    const int32_t take = std::min(waiting[pick], budget);
    out.push_back({static_cast<int32_t>(pick), take});
    budget -= take;
  }
  std::sort(out.begin(), out.end(), [](const SlotTake& a, const SlotTake& b) { return a.slot < b.slot; });
}

bool defer_prompts(std::span<int32_t> waiting, std::span<const uint8_t> first_token_held, bool deferred_last_step) {
  if (deferred_last_step) return false;
  bool held = false;
  bool prompt = false;
  for (size_t i = 0; i < waiting.size(); ++i) {
    held = held || (first_token_held[i] != 0 && waiting[i] == 1);
    prompt = prompt || waiting[i] > 1;
  }
  if (!held || !prompt) return false;
  for (int32_t& w : waiting) {
    if (w > 1) w = 0;
  }
  return true;
}

}  // namespace sfcl::server
