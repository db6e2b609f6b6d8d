// What the check loop's sampler picks at a position it can decide without asking a backend: a
// sole candidate (any sampler), at temperature 0 the greedy pick from the backend's raw top tokens
// there, and when sampling under a ban, a draw from them (docs/SCALING.md, "Calls").
#pragma once
#include <optional>
#include <span>
#include <vector>

#include "decode/decode.h"
#include "engine/engine.h"
#include "gateway/completion_stream.h"

namespace sfcl::gateway {

// The token any sampler picks under `next` when its allow-list names one token only (the
// constrainer's lists may repeat a token).
std::optional<Token> sole_candidate(const decode::NextToken& next);

// The greedy pick under `next` from the raw top tokens of a position (most likely first): the
// first one `next` allows. nullopt when they cannot tell: none allowed among them, or a tie with
// another allowed token, listed or not (greedy breaks ties by an order the list does not keep).
std::optional<Token> greedy_from_top(std::span<const TopProb> top, const decode::NextToken& next);

// `sampler`'s draw under `next`'s ban from the raw top tokens of a position (most likely first),
// which is its draw from the whole distribution there: its chain keeps the top_k best tokens the
// ban allows first, so when the list holds top_k of them (or the whole vocabulary) nothing beyond
// it could be drawn, and the rest of the chain reads only their logits' differences, which the log
// probabilities keep. nullopt when the list cannot tell (too few allowed tokens in it), or `next`
// has an allow-list or `top_k` is 0.
struct DrawScratch {
  explicit DrawScratch(size_t n_vocab);
  std::vector<float> logits;    // -inf but while a draw runs
  std::vector<uint8_t> banned;  // 0 but while a draw runs
};
std::optional<Token> draw_from_top(std::span<const TopProb> top, const decode::NextToken& next, int32_t top_k,
                                   engine::Sampler& sampler, DrawScratch& scratch);

}  // namespace sfcl::gateway
