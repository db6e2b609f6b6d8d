// The abstain fallback: an unsupported anchor is replaced by a marker ("[not in the sources]"), written as
// forced tokens instead of sampled ones. The anchor the marker stands in for is never checked.
#pragma once
#include <optional>
#include <utility>
#include <vector>

#include "engine/engine.h"

namespace sfcl::decode {

class Abstainer {
 public:
  // Forces `tokens` next, in place of the anchor starting at output token `first`.
  void start(std::vector<engine::Token> tokens, size_t first) {
    forced_ = std::move(tokens);
    pos_ = 0;
    marker_at_ = first;
  }
  // The next forced token, if any is left.
  std::optional<engine::Token> next() {
    if (pos_ < forced_.size()) return forced_[pos_++];
    return std::nullopt;
  }
  // The token next() returns, without taking it.
  [[nodiscard]] std::optional<engine::Token> peek() const {
    if (pos_ < forced_.size()) return forced_[pos_];
    return std::nullopt;
  }
  // Drops the forced tokens once all were appended.
  void drop_if_done() {
    if (pos_ >= forced_.size() && !forced_.empty()) {
      forced_.clear();
      pos_ = 0;
    }
  }
  // A rewind to output token `index` at or before the marker removes it, and what is left of it.
  // Returns the output index the marker stood at (kNone when it stays or there is none).
  size_t forget_from(size_t index) {
    if (marker_at_ == kNone || marker_at_ < index) return kNone;
    forced_.clear();
    pos_ = 0;
    return std::exchange(marker_at_, kNone);
  }
  // Forced tokens are still to be written.
  [[nodiscard]] bool pending() const { return pos_ < forced_.size(); }
  static constexpr size_t kNone = static_cast<size_t>(-1);
  // Gives up on the rest of the marker (the output's grammar does not allow it): nothing stands
  // in for the anchor any more, so whatever is written at its token is checked. Returns the
  // output index the marker stood at (kNone when there was none).
  size_t drop() {
    forced_.clear();
    pos_ = 0;
    return std::exchange(marker_at_, kNone);
  }
  // The anchor at output token `first` is (part of) the marker.
  [[nodiscard]] bool is_marker(size_t first) const { return first == marker_at_; }

 private:
  std::vector<engine::Token> forced_;
  size_t pos_ = 0;
  size_t marker_at_ = kNone;
};

}  // namespace sfcl::decode
