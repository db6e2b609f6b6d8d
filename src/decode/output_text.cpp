#include "decode/output_text.h"

#include <algorithm>

#include "util/assert.h"

namespace sfcl::decode {

namespace {
// Reserved up front so a typical answer never reallocates on the per-token path.
constexpr size_t kReservedBytes = 4096;

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
}  // namespace

OutputText::OutputText() { text_.reserve(kReservedBytes); }

size_t OutputText::append(const engine::Model& model, engine::Token tok) {
  token_start_.push_back(static_cast<uint32_t>(end_bytes()));
  tokens_.push_back(tok);
  piece_.clear();
  model.append_piece(tok, piece_);
  const size_t before = text_.size();
  assembler_.feed(piece_, text_);
  return before;
}

size_t OutputText::token_at(size_t byte) const {
  const auto it = std::upper_bound(token_start_.begin(), token_start_.end(), static_cast<uint32_t>(byte));
  size_t k = static_cast<size_t>(it - token_start_.begin());
  if (k == 0) return 0;
  --k;
  while (k > 0 && token_start_[k - 1] == token_start_[k]) --k;
  return k;
}

size_t OutputText::first_token_from(size_t byte) const {
  const auto it = std::lower_bound(token_start_.begin(), token_start_.end(), static_cast<uint32_t>(byte));
  return static_cast<size_t>(it - token_start_.begin());
}

bool OutputText::starts_mid_character(size_t index) const {
  const size_t b = token_start_[index];
  return b < text_.size() && is_continuation_byte(text_[b]);
}

size_t OutputText::rewind(size_t index) {
  SFCL_ASSERT(index <= tokens_.size(), "a rewind keeps a prefix of the output");
  // Byte-level tokens: start again at the token that began the character `index` starts inside.
  while (index > 0 && index < token_start_.size() && starts_mid_character(index)) --index;
  const size_t cut = index < token_start_.size() ? token_start_[index] : text_.size();
  tokens_.resize(index);
  token_start_.resize(index);
  text_.resize(std::min(cut, text_.size()));
  low_water_ = std::min(low_water_, text_.size());
  assembler_.reset();
  return index;
}

void OutputText::truncate_text(size_t bytes) {
  text_.resize(bytes);
  low_water_ = std::min(low_water_, text_.size());
}

std::string_view OutputText::emit(size_t limit) {
  limit = std::min(limit, text_.size());
  // Never cut a character: a token boundary can fall inside a multi-byte character.
  while (limit > emitted_ && limit < text_.size() && is_continuation_byte(text_[limit])) --limit;
  if (limit <= emitted_) return {};
  const std::string_view chunk = std::string_view(text_).substr(emitted_, limit - emitted_);
  emitted_ = limit;
  return chunk;
}

}  // namespace sfcl::decode
