#include "gateway/held_tokens.h"

#include <algorithm>
#include <array>
#include <bit>

namespace sfcl::gateway {

namespace {

// Longest byte run split (bits of a uint64_t count the pieces): llama-server holds back at most a
// few tokens of one character, so anything longer is not a held character.
constexpr size_t kMaxHeldBytes = 63;

// Whether `s` is a sequence of whole UTF-8 characters (lead byte, then its continuation bytes).
bool whole_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t len = 0;
    if (c < 0x80) {
      len = 1;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
    } else {
      return false;  // a continuation byte where a character starts
    }
    if (i + len > s.size()) return false;
    for (size_t j = 1; j < len; ++j) {
      if ((static_cast<unsigned char>(s[i + j]) & 0xC0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

}  // namespace

PartialPieces::PartialPieces(const engine::Model& vocab) {
  pieces_.resize(static_cast<size_t>(std::max(0, vocab.n_vocab())));
  for (size_t t = 0; t < pieces_.size(); ++t) vocab.append_piece(static_cast<Token>(t), pieces_[t]);
  index_partial();
}

PartialPieces::PartialPieces(std::vector<std::string> pieces) : pieces_(std::move(pieces)) { index_partial(); }

void PartialPieces::index_partial() {
  for (size_t t = 0; t < pieces_.size(); ++t) {
    const std::string_view p = pieces_[t];
    if (p.empty() || whole_utf8(p)) continue;
    partial_.try_emplace(p, static_cast<Token>(t));  // the lowest id of equal pieces
    longest_partial_ = std::max(longest_partial_, p.size());
  }
}

std::string_view PartialPieces::piece(Token t) const {
  if (t < 0 || static_cast<size_t>(t) >= pieces_.size()) return {};
  return pieces_[static_cast<size_t>(t)];
}

bool PartialPieces::split(std::string_view bytes, int64_t count, std::vector<Token>& out) const {
  const size_t n = bytes.size();
  if (n == 0 || n > kMaxHeldBytes || count == 0 || count > static_cast<int64_t>(n)) return false;
  // fits[i], bit k: bytes[i..] splits into exactly k partial pieces.
  std::array<uint64_t, kMaxHeldBytes + 1> fits{};
  fits[n] = 1;
  for (size_t i = n; i-- > 0;) {
    for (size_t len = 1; len <= std::min(longest_partial_, n - i); ++len) {
      if (fits[i + len] != 0 && partial_.contains(bytes.substr(i, len))) fits[i] |= fits[i + len] << 1;
    }
  }
  auto k = count > 0 ? static_cast<int>(count) : std::countr_zero(fits[0]);
  if (k > static_cast<int>(kMaxHeldBytes) || ((fits[0] >> k) & 1) == 0) return false;
  for (size_t i = 0; k > 0; --k) {
    for (size_t len = std::min(longest_partial_, n - i); len >= 1; --len) {
      if (((fits[i + len] >> (k - 1)) & 1) == 0) continue;
      const auto it = partial_.find(bytes.substr(i, len));
      if (it == partial_.end()) continue;
      out.push_back(it->second);
      i += len;
      break;
    }
  }
  return true;
}

bool PartialPieces::ends_inside_character(std::span<const Token> tokens) const {
  std::array<unsigned char, 4> last{};  // the text's last bytes, the last one first
  size_t n = 0;
  for (auto it = tokens.rbegin(); it != tokens.rend() && n < last.size(); ++it) {
    const std::string_view p = piece(*it);
    for (size_t i = p.size(); i-- > 0 && n < last.size();) last[n++] = static_cast<unsigned char>(p[i]);
  }
  for (size_t i = 1; i <= n; ++i) {
    const unsigned char c = last[i - 1];
    // A lead byte whose character needs more bytes than follow it (llama-server's validate_utf8,
    // which looks no further than that).
    if (((c & 0xE0) == 0xC0 && i < 2) || ((c & 0xF0) == 0xE0 && i < 3) || ((c & 0xF8) == 0xF0 && i < 4)) return true;
  }
  return false;
}

bool HeldTokens::expand(std::span<const Token> tokens, std::string_view text, int64_t predicted) {
  ids_.clear();
  // -1: the count is not sent, the text alone tells whether tokens were held.
  int64_t held = 0;
  if (predicted >= 0) {
    held = std::max<int64_t>(0, predicted - predicted_ - static_cast<int64_t>(tokens.size()));
    predicted_ = predicted;
  } else if (!text.empty()) {
    held = -1;
  }
  if (held != 0 && pieces_ != nullptr) {
    suffix_.clear();
    for (Token t : tokens) suffix_.append(pieces_->piece(t));
    if (held < 0 && text == suffix_) held = 0;
    if (held != 0) {
      if (!text.ends_with(suffix_)) return false;
      if (!pieces_->split(text.substr(0, text.size() - suffix_.size()), held, ids_)) return false;
    }
  } else if (held > 0) {
    return false;
  }
  ids_.insert(ids_.end(), tokens.begin(), tokens.end());
  delivered_ += static_cast<int64_t>(ids_.size());
  return true;
}

}  // namespace sfcl::gateway
