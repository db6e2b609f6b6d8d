#include "server/runtime/prompt_cache.h"

#include <algorithm>

namespace sfcl::server {

namespace {
size_t common_prefix(std::span<const engine::Token> a, std::span<const engine::Token> b) {
  const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  return static_cast<size_t>(ia - a.begin());
}
bool same_lora(const std::vector<float>& a, std::span<const float> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}
}  // namespace

bool PromptCache::save(std::span<const engine::Token> tokens, size_t bytes,
                       const std::function<bool(std::vector<uint8_t>&)>& fill, std::span<const float> lora) {
  if (tokens.empty() || bytes == 0 || bytes > limit_) return false;
  for (const Entry& e : entries_) {
    if (same_lora(e.lora, lora) && common_prefix(e.tokens, tokens) == tokens.size()) return false;  // already held
  }
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (same_lora(it->lora, lora) &&
        common_prefix(it->tokens, tokens) == it->tokens.size()) {  // the new one extends it
      bytes_ -= it->state.size();
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
  // Room first, so the cache never holds more than the limit while the new state is copied.
  while (!entries_.empty() && bytes_ + bytes > limit_) {
    bytes_ -= entries_.front().state.size();
    entries_.pop_front();
  }
  Entry e;
  e.tokens.assign(tokens.begin(), tokens.end());
  e.lora.assign(lora.begin(), lora.end());
  if (!fill(e.state) || e.state.empty() || bytes_ + e.state.size() > limit_) return false;
  bytes_ += e.state.size();
  entries_.push_back(std::move(e));
  return true;
}

const PromptCache::Entry* PromptCache::find(std::span<const engine::Token> prompt, size_t longer_than, size_t& common,
                                            std::span<const float> lora) {
  auto best = entries_.end();
  size_t best_len = longer_than;
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (!same_lora(it->lora, lora)) continue;
    const size_t l = common_prefix(it->tokens, prompt);
    if (l > best_len) {
      best = it;
      best_len = l;
    }
  }
  if (best == entries_.end()) return nullptr;
  entries_.splice(entries_.end(), entries_, best);  // most recently used
  common = best_len;
  return &entries_.back();
}

void PromptCache::drop(const Entry* entry) {
  const auto it = std::find_if(entries_.begin(), entries_.end(), [entry](const Entry& e) { return &e == entry; });
  if (it == entries_.end()) return;
  bytes_ -= it->state.size();
  entries_.erase(it);
}

}  // namespace sfcl::server
