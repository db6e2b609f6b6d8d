// Log-probabilities of output tokens (Options::logprobs): the chosen token's and the most likely
// alternatives', from one row of logits, without sorting the vocabulary.
#pragma once
#include <span>

#include "decode/decode.h"

namespace sfcl::decode {

// Fills `out` (token, logprob, piece, top) for `tok` sampled from `logits`, with the `n_top` most
// likely tokens, most likely first. Reuses `out`'s storage; two passes over the row.
void compute_logprob(const engine::Model& model, std::span<const float> logits, Token tok, int32_t n_top,
                     TokenLogprob& out);

// Fills `out` (token, logprob, piece, top) for `tok` from what a remote engine reported (null:
// nothing; the logprob stays NaN then, and unless `own`, the report's logprob being another
// token's), with at most `n_top` of its alternatives.
void reported_logprob(const engine::Model& model, Token tok, const ReportedLogprob* reported, bool own, int32_t n_top,
                      TokenLogprob& out);

}  // namespace sfcl::decode
