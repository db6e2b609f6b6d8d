// The last renders of a Jinja chat template, by conversation shape. render_chat masks every
// message's content with a numbered placeholder before the template sees it, so the template's
// input is the shape of a conversation (roles, placeholders, tool calls, tools, flags), and
// requests of the same shape render to the same markup. Not thread-safe: common_render holds
// llama.cpp's common lock around every use.
#pragma once
#include <cstddef>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>

namespace sfcl::engine {

template <typename Value>
class RenderCache {
 public:
  RenderCache() = default;
  explicit RenderCache(size_t capacity) : capacity_(capacity) {}

  // The render kept for `key`, made the most recent; nullptr when none is.
  const Value* find(const std::string& key) {
    const auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    ++hits_;
    return &it->second->second;
  }

  // Keeps `value` for `key`, dropping the least recent render beyond the capacity.
  void put(std::string key, Value value) {
    if (capacity_ == 0 || index_.contains(key)) return;
    order_.emplace_front(std::move(key), std::move(value));
    index_.emplace(order_.front().first, order_.begin());
    if (order_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

  [[nodiscard]] size_t size() const { return order_.size(); }
  [[nodiscard]] size_t hits() const { return hits_; }
  [[nodiscard]] size_t capacity() const { return capacity_; }

 private:
  size_t capacity_ = 0;
  size_t hits_ = 0;
  std::list<std::pair<std::string, Value>> order_;  // most recent first
  std::unordered_map<std::string, typename std::list<std::pair<std::string, Value>>::iterator> index_;
};

}  // namespace sfcl::engine
