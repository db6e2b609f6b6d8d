// The raw top tokens the backends report, by output position, and what is read from them.
#pragma once
#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <vector>

#include "decode/decode.h"
#include "gateway/completion_stream.h"

namespace sfcl::gateway {

inline constexpr double kUnknownLogprob = std::numeric_limits<double>::quiet_NaN();

// Whether `ev` names every one of its tokens' positions, in order: one entry per token, and where
// the entries carry ids (llama-server's), the same ids.
inline bool every_position_reported(const CompletionEvent& ev) {
  if (ev.positions.size() != ev.tokens.size()) return false;
  for (size_t i = 0; i < ev.tokens.size(); ++i) {
    if (ev.positions[i].id >= 0 && ev.positions[i].id != ev.tokens[i]) return false;
  }
  return true;
}

// `t`'s log-probability among a position's raw top tokens; NaN when not among them.
inline double logprob_in(std::span<const TopProb> top, Token t) {
  for (const TopProb& p : top) {
    if (p.id == t) return p.logprob;
  }
  return kUnknownLogprob;
}

// The raw top tokens the backends reported, by output position: row p is the distribution at
// position p given the output before it, so it holds until a token before p changes.
class TopRows {
 public:
  explicit TopRows(size_t capacity) { rows_.reserve(capacity); }
  // A token is written at `pos` (or the output was cut to `pos`): later rows described another output.
  void keep_through(size_t pos) {
    if (rows_.size() > pos + 1) rows_.resize(pos + 1);
  }
  void store(size_t pos, std::span<const TopProb> top) {
    rows_.resize(pos);  // rows before it that no backend reported stay empty
    Row& row = rows_.emplace_back();
    row.n = std::min(top.size(), row.top.size());
    std::copy_n(top.begin(), row.n, row.top.begin());
  }
  [[nodiscard]] std::span<const TopProb> at(size_t pos) const {
    if (pos >= rows_.size()) return {};
    return {rows_[pos].top.data(), rows_[pos].n};
  }

 private:
  struct Row {
    std::array<TopProb, decode::TokenLogprob::kMaxTop> top{};
    size_t n = 0;
  };
  std::vector<Row> rows_;
};

}  // namespace sfcl::gateway
