// Per-token (legacy) mode: the current sentence is re-scanned for anchors at every token, and its
// anchors are final once the sentence ends. Kept as the baseline the anchor mode is measured
// against.
#pragma once
#include <span>
#include <string_view>
#include <vector>

#include "anchor/anchor.h"

namespace sfcl::decode {

// A sentence ends at a newline, a CJK terminator, or ". " ("12,500.00" is not an end).
bool sentence_end(std::string_view text);

class SentenceScanner {
 public:
  SentenceScanner();
  // Anchors of the sentence that starts at start() in `text`, with offsets into `text`.
  std::span<const anchor::Anchor> scan(std::string_view text, const anchor::LexerOptions& options);
  // The text from start() on ends a sentence (or the output ended: `final`).
  [[nodiscard]] bool ends(std::string_view text, bool final) const {
    return final || sentence_end(text.substr(start_));
  }
  [[nodiscard]] size_t start() const { return start_; }
  void next_sentence(size_t start) { start_ = start; }
  // The text was cut to `size` bytes.
  void clamp(size_t size) { start_ = std::min(start_, size); }

 private:
  size_t start_ = 0;
  std::vector<anchor::Anchor> anchors_;
};

}  // namespace sfcl::decode
