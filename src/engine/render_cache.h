// The last renders of a Jinja chat template, by conversation shape. render_chat masks every
// message's content with a numbered placeholder before the template sees it, so the template's
// input is the shape of a conversation (roles, placeholders, tool calls, tools, flags), and
// requests of the same shape render to the same markup. Bounded by entries and by bytes (keys
// and values, as put's caller counts them). Not thread-safe: common_render holds llama.cpp's common
// lock around every use.
#pragma once
#include <cstddef>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace sfcl::engine {

template <typename Value>
class RenderCache {
 public:
  RenderCache() = default;
  RenderCache(const RenderCache&) = delete;
  RenderCache& operator=(const RenderCache&) = delete;
  RenderCache(RenderCache&&) = delete;
  RenderCache& operator=(RenderCache&&) = delete;
  ~RenderCache() = default;

  // At most `capacity` renders and `max_bytes` bytes (0: none kept). Set before the first put.
  void bound(size_t capacity, size_t max_bytes) {
    capacity_ = capacity;
    max_bytes_ = max_bytes;
  }

  // The render kept for `key`, made the most recent; nullptr when none is.
  const Value* find(std::string_view key) {
    const auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    ++hits_;
    return &it->second->value;
  }

  // Keeps `value` for `key` (`bytes`: both together), dropping the least recent renders beyond
  // the bounds. A render larger than an eighth of the byte bound is not kept.
  void put(std::string key, Value value, size_t bytes) {
    if (capacity_ == 0 || bytes > max_bytes_ / 8 || index_.contains(key)) return;
    order_.push_front({std::move(key), std::move(value), bytes});
    index_.emplace(order_.front().key, order_.begin());
    bytes_ += bytes;
    while (order_.size() > capacity_ || bytes_ > max_bytes_) {
      bytes_ -= order_.back().bytes;
      index_.erase(order_.back().key);
      order_.pop_back();
    }
  }

  [[nodiscard]] size_t size() const { return order_.size(); }
  [[nodiscard]] size_t bytes() const { return bytes_; }
  [[nodiscard]] size_t hits() const { return hits_; }

 private:
  struct Kept {
    std::string key;
    Value value;
    size_t bytes;
  };
  size_t capacity_ = 0;
  size_t max_bytes_ = 0;
  size_t bytes_ = 0;
  size_t hits_ = 0;
  std::list<Kept> order_;  // most recent first; list nodes stay put, so the index views their keys
  std::unordered_map<std::string_view, typename std::list<Kept>::iterator> index_;
};

}  // namespace sfcl::engine
