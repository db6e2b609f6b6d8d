#include "decode/logprobs.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace sfcl::decode {

void compute_logprob(const engine::Model& model, std::span<const float> logits, Token tok, int32_t n_top,
                     TokenLogprob& out) {
  const size_t k = static_cast<size_t>(std::clamp(n_top, 0, TokenLogprob::kMaxTop));
  // The k largest so far, largest first: a token enters only when it beats the smallest kept, so
  // the pass costs about one comparison per token (a partial selection, not a sort of the row).
  std::array<std::pair<float, Token>, TokenLogprob::kMaxTop> best{};
  size_t kept = 0;
  float max = -std::numeric_limits<float>::infinity();
  for (size_t i = 0; i < logits.size(); ++i) {
    const float v = logits[i];
    max = std::max(max, v);
    if (k == 0 || (kept == k && !(v > best[k - 1].first))) continue;
    size_t at = kept < k ? kept++ : k - 1;
    while (at > 0 && v > best[at - 1].first) {
      best[at] = best[at - 1];
      --at;
    }
    best[at] = {v, static_cast<Token>(i)};
  }
  double sum = 0.0;
  for (const float v : logits) sum += std::exp(static_cast<double>(v - max));
  const auto log_z = static_cast<float>(static_cast<double>(max) + std::log(sum));
  out.token = tok;
  out.logprob = tok >= 0 && static_cast<size_t>(tok) < logits.size() ? logits[static_cast<size_t>(tok)] - log_z
                                                                     : -std::numeric_limits<float>::infinity();
  out.piece.clear();
  if (tok >= 0) model.append_piece(tok, out.piece);
  out.top.resize(kept);
  for (size_t i = 0; i < kept; ++i) {
    TokenLogprob::Alternative& alt = out.top[i];
    alt.token = best[i].second;
    alt.logprob = best[i].first - log_z;
    alt.piece.clear();
    model.append_piece(alt.token, alt.piece);
  }
}

}  // namespace sfcl::decode
