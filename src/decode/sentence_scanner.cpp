#include "decode/sentence_scanner.h"

namespace sfcl::decode {

namespace {
// Anchors of one sentence, reserved so a scan does not allocate per token.
constexpr size_t kReservedAnchors = 16;
}  // namespace

bool sentence_end(std::string_view text) {
  if (text.empty()) return false;
  const char c = text.back();
  if (c == '\n') return true;
  if (text.size() >= 2 && (c == ' ' || c == '\t')) {
    const char p = text[text.size() - 2];
    if (p == '.' || p == '!' || p == '?') return true;
  }
  for (std::string_view t : {"。", "！", "？", "；"}) {
    if (text.size() >= t.size() && text.substr(text.size() - t.size()) == t) return true;
  }
  return false;
}

SentenceScanner::SentenceScanner() { anchors_.reserve(kReservedAnchors); }

std::span<const anchor::Anchor> SentenceScanner::scan(std::string_view text, const anchor::LexerOptions& options) {
  anchors_.clear();
  anchor::extract_into(text.substr(start_), anchors_, options);
  for (auto& a : anchors_) {
    a.start += static_cast<uint32_t>(start_);
    a.end += static_cast<uint32_t>(start_);
  }
  return anchors_;
}

}  // namespace sfcl::decode
