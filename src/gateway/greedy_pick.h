// What the check loop's sampler picks at a position it can decide without asking a backend: a
// sole candidate (any sampler), or at temperature 0 the greedy pick from the backend's raw top
// tokens there (docs/SCALING.md, "Calls").
#pragma once
#include <optional>
#include <span>

#include "decode/decode.h"
#include "gateway/completion_stream.h"

namespace sfcl::gateway {

// The token any sampler picks under `next` when its allow-list names one token only (the
// constrainer's lists may repeat a token).
std::optional<Token> sole_candidate(const decode::NextToken& next);

// The greedy pick under `next` from the raw top tokens of a position (most likely first): the
// first one `next` allows. nullopt when they cannot tell: none allowed among them, or a tie with
// another allowed token, listed or not (greedy breaks ties by an order the list does not keep).
std::optional<Token> greedy_from_top(std::span<const TopProb> top, const decode::NextToken& next);

}  // namespace sfcl::gateway
