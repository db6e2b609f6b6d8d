// The output of one sequence as tokens and as text, with the byte offset where each token starts:
// the check loop finds anchors in bytes and rewinds in tokens, and this is the one map between
// the two. Emission (what the client has seen) only moves forward.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "util/utf8.h"

namespace sfcl::decode {

class OutputText {
 public:
  OutputText();

  // Appends the piece of `tok`; returns the size of the text before it (a token may add no text
  // yet when it ends inside a multi-byte character).
  size_t append(const engine::Model& model, engine::Token tok);
  // Output token whose bytes contain `byte` (the first of tokens with equal starts; 0 when none).
  [[nodiscard]] size_t token_at(size_t byte) const;
  // First output token that starts at or after `byte` (size() when none).
  [[nodiscard]] size_t first_token_from(size_t byte) const;
  [[nodiscard]] size_t token_start(size_t index) const { return token_start_[index]; }
  // True when token `index` starts inside a character (the middle byte of a CJK character).
  [[nodiscard]] bool starts_mid_character(size_t index) const;
  // Byte where the next token's text will start (text plus bytes of an unfinished character).
  [[nodiscard]] size_t end_bytes() const { return text_.size() + assembler_.pending_bytes(); }

  // Keeps tokens [0, index), moved back to the token that began the character `index` starts
  // inside; returns that index. Emitted text is not retracted.
  size_t rewind(size_t index);
  // Drops text from `bytes` on (a stop sequence) and keeps the tokens.
  void truncate_text(size_t bytes);
  // The shortest the text has been since the last call (SIZE_MAX when it only grew): what a scan
  // of it that skips bytes it already read must read again.
  size_t take_low_water() { return std::exchange(low_water_, SIZE_MAX); }
  // Moves emission to `limit` (never inside a character); returns the newly emitted bytes.
  std::string_view emit(size_t limit);

  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] std::string_view slice(size_t start, size_t end) const {
    return std::string_view(text_).substr(start, end - start);
  }
  [[nodiscard]] const std::vector<engine::Token>& tokens() const { return tokens_; }
  [[nodiscard]] size_t size() const { return tokens_.size(); }
  [[nodiscard]] size_t emitted() const { return emitted_; }

 private:
  std::vector<engine::Token> tokens_;  // accepted output tokens
  std::vector<uint32_t> token_start_;  // byte offset of each output token in text_
  std::string text_;                   // detokenised output (valid UTF-8)
  size_t emitted_ = 0;
  size_t low_water_ = SIZE_MAX;
  utf8::StreamAssembler assembler_;
  std::string piece_;  // scratch: the bytes of one token
};

}  // namespace sfcl::decode
