#include "decode/logprobs.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace sfcl::decode {

namespace {

// e^x for x <= 0, to about 1e-7 relative, in plain arithmetic the compiler vectorises (std::exp
// is a library call per element: the normaliser's pass over a 152k-token row would cost most of
// a decode step). x = n ln2 + g with |g| <= ln2/2; e^g by its Taylor series to g^6.
inline float exp_nonpositive(float x) {
  constexpr float kLog2e = 1.44269504F;
  constexpr float kLn2 = 0.693147181F;
  // Clamped to -80 (e^-80 adds nothing next to the row's largest term, e^0). For x <= 0 (and
  // -inf) a smaller float is a larger unsigned bit pattern: an integer min, which vectorises where
  // a float compare or std::fmax (a library call) would not.
  x = std::bit_cast<float>(std::min(std::bit_cast<uint32_t>(x), std::bit_cast<uint32_t>(-80.0F)));
  const auto n = static_cast<int32_t>(x * kLog2e - 0.5F);  // rounds (truncation of a negative)
  const float g = x - static_cast<float>(n) * kLn2;
  const float p =
      1.0F + g * (1.0F + g * (0.5F + g * (1.0F / 6 + g * (1.0F / 24 + g * (1.0F / 120 + g * (1.0F / 720))))));
  return std::bit_cast<float>(std::bit_cast<int32_t>(p) + (n << 23));
}

// sum of e^(v - max) over the row, in lanes so that the reduction vectorises.
double sum_exp(std::span<const float> logits, float max) {
  constexpr size_t kLanes = 16;
  std::array<float, kLanes> acc{};
  const float* row = logits.data();
  const size_t whole = logits.size() / kLanes * kLanes;
  for (size_t i = 0; i < whole; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) acc[j] += exp_nonpositive(row[i + j] - max);
  }
  double sum = 0.0;
  for (size_t i = whole; i < logits.size(); ++i) sum += exp_nonpositive(row[i] - max);
  for (const float a : acc) sum += a;
  return sum;
}

}  // namespace

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
  const double sum = sum_exp(logits, max);
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

void reported_logprob(const engine::Model& model, Token tok, const ReportedLogprob* reported, bool own, int32_t n_top,
                      TokenLogprob& out) {
  out.token = tok;
  out.logprob = own && reported != nullptr ? reported->logprob : std::numeric_limits<float>::quiet_NaN();
  out.piece.clear();
  if (tok >= 0) model.append_piece(tok, out.piece);
  const size_t k = reported == nullptr ? 0 : std::min(reported->top.size(), static_cast<size_t>(std::max(0, n_top)));
  out.top.resize(k);
  for (size_t i = 0; i < k; ++i) {
    out.top[i].token = reported->top[i].first;
    out.top[i].logprob = reported->top[i].second;
    out.top[i].piece.clear();
    model.append_piece(out.top[i].token, out.top[i].piece);
  }
}

}  // namespace sfcl::decode
