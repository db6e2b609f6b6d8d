// The grammar (tools, structured output) for engines that sample without it: a remote backend's own
// grammar starts at its first generated token and cannot resume mid-answer after a re-request, so
// the loop keeps the grammar and checks every token the engine returns against it. A rejected token
// is not taken; it is banned at its position and the engine samples again. The first rejection also
// reads the grammar's allowed set there, which goes out as an allow-list (or its complement as bans)
// when either fits a request: at temperature 0 the answer is the local loop's, the most likely token
// the grammar allows. After a position that needed the grammar, the next one's set is read before
// the engine is asked, and a small one goes out at once (docs/DESIGN.md, 'Gateway').
#pragma once
#include <cstdint>
#include <vector>

#include "decode/decode.h"

namespace sfcl::decode {

class GrammarGate {
 public:
  // The most tokens one allow-list or ban-list may hold (each is a logit_bias entry in the request
  // body); beyond it the rejected tokens are banned one by one.
  static constexpr size_t kMaxList = 1024;
  // After a position that needed the grammar, the next one's allowed set goes out before the engine
  // is asked when it holds at most this many tokens (JSON structure: a character and its spaced
  // variant); a set of one is written without a call. The engine's free choice is likely rejected
  // there too, and a rejection costs a call more.
  static constexpr size_t kEagerList = 16;

  // The token at the current position was taken: the next position is a new one.
  void advance();
  // A rewind: the position is a new one, and what came before says nothing about it.
  void reset();
  // The grammar rejected `tok` at the current position; the first rejection reads what it allows.
  void reject(Token tok, engine::Sampler& sampler);
  // Narrows `next` (the loop's own constraint at this position) to what the grammar allows. When
  // nothing is left, `next.forced` is -1: the output ends, as the local sampler's does. `eager`:
  // the position may be read before any rejection (not where the loop must see the engine's own
  // choice first, as at a retry's first token).
  void narrow(NextToken& next, engine::Sampler& sampler, bool eager);

 private:
  // Fills allowed_ with the open tokens of the loop's constraint (mark_ holds its bans).
  void list_open(const NextToken& next);

  std::vector<Token> rejected_;
  std::vector<uint8_t> allows_;  // per token: the grammar allows it at this position
  size_t n_allows_ = 0;
  bool have_allows_ = false;   // allows_ is this position's
  bool needed_ = false;        // this position needed the grammar (a rejection, or one token allowed)
  bool streak_ = false;        // so did the previous one
  std::vector<uint8_t> mark_;  // scratch: the loop's bans, cleared after each narrow()
  std::vector<Token> allowed_;
  std::vector<Token> banned_;
};

}  // namespace sfcl::decode
