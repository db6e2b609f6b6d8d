// Tokenising in time linear in the text. llama.cpp splits a text at its special tokens in a list it
// walks from the start for every occurrence found, so a text with many of them (a raw prompt of
// copies of "<|im_end|>", a chat of many tiny messages, whose markup holds two per message) costs
// time quadratic in their number. Here one pass over a trie of the special texts finds them, and
// llama_tokenize runs on pieces that hold a bounded number each, cut right after an occurrence (a
// special token ends a piece of text in llama.cpp too, so the tokens do not change). Texts with few
// occurrences go to llama_tokenize whole, exactly as before. docs/DESIGN.md, 'Serving'.
#include <algorithm>
#include <array>

#include "engine/special_scan.h"
#include "llama.h"

namespace sfcl::engine {

namespace {

// Occurrences of special texts per llama_tokenize call: its partition costs this squared.
constexpr size_t kSpecialsPerCall = 256;

void tokenize_into(const llama_vocab* vocab, std::string_view text, bool add_special, bool parse_special,
                   std::vector<Token>& out) {
  const size_t base = out.size();
  out.resize(base + text.size() + 8);
  int32_t n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), out.data() + base,
                             static_cast<int32_t>(out.size() - base), add_special, parse_special);
  if (n < 0) {
    if (n == INT32_MIN) throw EngineError("tokenization overflow");
    out.resize(base + static_cast<size_t>(-n));
    n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), out.data() + base,
                       static_cast<int32_t>(out.size() - base), add_special, parse_special);
    if (n < 0) throw EngineError("tokenization failed");
  }
  out.resize(base + static_cast<size_t>(n));
}

}  // namespace

const SpecialScan& Model::special_scan() const {
  std::call_once(special_scan_once_, [this] { special_scan_ = build_special_scan(vocab_); });
  return *special_scan_;
}

std::vector<Token> Model::tokenize(std::string_view text, bool add_special, bool parse_special) const {
  const SpecialScan& scan = special_scan();
  // Where the pieces end: after every kSpecialsPerCall-th occurrence (not after one that strips the
  // blanks to its right: those belong to it).
  std::vector<size_t> cuts;
  size_t found = 0;
  for (size_t i = 0; i < text.size();) {
    if (scan.root[static_cast<unsigned char>(text[i])] == 0) {
      ++i;
      continue;
    }
    Token token = -1;
    const size_t len = scan.match(text, i, parse_special, token);
    if (len == 0) {
      ++i;
      continue;
    }
    i += len;
    if (++found >= kSpecialsPerCall && (llama_vocab_get_attr(vocab_, token) & LLAMA_TOKEN_ATTR_RSTRIP) == 0) {
      cuts.push_back(i);
      found = 0;
    }
  }
  std::vector<Token> out;
  if (cuts.empty() || llama_vocab_type(vocab_) == LLAMA_VOCAB_TYPE_WPM) {
    tokenize_into(vocab_, text, add_special, parse_special, out);
    return out;
  }
  if (cuts.back() != text.size()) cuts.push_back(text.size());
  // BOS comes with the first piece; an EOS the vocabulary adds goes after the last.
  const bool eos = add_special && llama_vocab_get_add_eos(vocab_);
  size_t from = 0;
  for (const size_t to : cuts) {
    tokenize_into(vocab_, text.substr(from, to - from), add_special && from == 0, parse_special, out);
    if (eos && from == 0 && !out.empty() && out.back() == llama_vocab_eos(vocab_)) out.pop_back();
    from = to;
  }
  if (eos) out.push_back(llama_vocab_eos(vocab_));
  return out;
}

}  // namespace sfcl::engine
