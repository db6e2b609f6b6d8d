// The ids of tokens llama-server sampled but sent no event for. Its stream holds back a token whose
// text ends inside a UTF-8 character until a later token completes the character; that event's
// `tokens` names only the completing token, but its text carries the bytes of all of them, and
// `tokens_predicted` counts them (docs/SCALING.md, "Characters split over tokens"). The held ids
// are read back from those bytes with the vocabulary's pieces that are not whole UTF-8.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/engine.h"

namespace sfcl::gateway {

using engine::Token;

// Every token's piece (as llama-server writes it: no special tokens' text), and the pieces that are
// not whole UTF-8 by their bytes. Built once per vocabulary.
class PartialPieces {
 public:
  explicit PartialPieces(const engine::Model& vocab);
  // Pieces by id (for a vocabulary read elsewhere).
  explicit PartialPieces(std::vector<std::string> pieces);
  // The index holds views into the pieces.
  PartialPieces(const PartialPieces&) = delete;
  PartialPieces& operator=(const PartialPieces&) = delete;

  [[nodiscard]] std::string_view piece(Token t) const;
  [[nodiscard]] size_t size() const { return pieces_.size(); }
  // Appends the ids of pieces, none of them whole UTF-8, that make up `bytes`: `count` of them, or
  // as few as can be when count < 0. Where several splits fit, the one with the longest pieces
  // first (what a byte-level BPE vocabulary samples most). False when none fits.
  bool split(std::string_view bytes, int64_t count, std::vector<Token>& out) const;
  // Whether the text of `tokens` ends inside a UTF-8 character (as llama-server decides it: a lead
  // byte without all its continuation bytes among the last four).
  [[nodiscard]] bool ends_inside_character(std::span<const Token> tokens) const;

 private:
  void index_partial();
  std::vector<std::string> pieces_;
  std::unordered_map<std::string_view, Token> partial_;  // views into pieces_
  size_t longest_partial_ = 0;
};

// Reads one call's stream: the ids of each event with those held before it put back in order.
class HeldTokens {
 public:
  explicit HeldTokens(const PartialPieces* pieces) : pieces_(pieces) {}
  // A new call.
  void clear() {
    delivered_ = 0;
    predicted_ = 0;
  }
  // One event: its `tokens`, its text (the bytes it releases; empty when not sent), and the number
  // of tokens the backend has sampled in this call so far (-1 when not sent). False when tokens
  // were held and cannot be read back: the stream is no longer known to continue the output.
  bool expand(std::span<const Token> tokens, std::string_view text, int64_t predicted);
  // The ids of the last event expanded, held ones first.
  [[nodiscard]] std::span<const Token> ids() const { return ids_; }
  // True when the backend reports more tokens sampled than its events carried (the stream ended
  // inside a character): `predicted` is the count of its last event.
  [[nodiscard]] bool lost(int64_t predicted) const { return predicted > delivered_; }

 private:
  const PartialPieces* pieces_;
  std::vector<Token> ids_;
  std::string suffix_;
  int64_t delivered_ = 0;
  int64_t predicted_ = 0;
};

}  // namespace sfcl::gateway
