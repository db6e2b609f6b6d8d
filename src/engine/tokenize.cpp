// Tokenising in time linear in the text. llama.cpp splits a text at its special tokens in a list it
// walks from the start for every occurrence found, so a text with many of them (a raw prompt of
// copies of "<|im_end|>", a chat of many tiny messages, whose markup holds two per message) costs
// time quadratic in their number. Here one pass over a trie of the special texts finds them, and
// llama_tokenize runs on pieces that hold a bounded number each, cut right after an occurrence (a
// special token ends a piece of text in llama.cpp too, so the tokens do not change). Texts with few
// occurrences go to llama_tokenize whole, exactly as before. docs/DESIGN.md, 'Serving'.
#include <algorithm>
#include <array>

#include "engine/engine.h"
#include "llama.h"

namespace sfcl::engine {

// A byte trie of the texts llama.cpp's partition looks for (control, user-defined and unknown
// tokens): leftmost-longest matches in one pass, at most the longest special text's length of
// steps per byte.
struct SpecialScan {
  struct Node {
    std::vector<std::pair<unsigned char, int32_t>> next;  // sorted by byte
    Token token = -1;                                     // a special text ends here
    bool plain = false;                                   // also split out without parse_special (a user-defined token)
  };
  std::array<int32_t, 256> root{};  // child of the root per first byte; 0 = none
  std::vector<Node> nodes;          // nodes[0] is the root

  [[nodiscard]] int32_t child(int32_t node, unsigned char c) const {
    if (node == 0) return root[c];
    const auto& next = nodes[static_cast<size_t>(node)].next;
    const auto it = std::lower_bound(next.begin(), next.end(), std::pair<unsigned char, int32_t>{c, 0},
                                     [](const auto& a, const auto& b) { return a.first < b.first; });
    return it != next.end() && it->first == c ? it->second : 0;
  }

  void add(std::string_view text, Token token, bool plain) {
    int32_t node = 0;
    for (const char ch : text) {
      const auto c = static_cast<unsigned char>(ch);
      int32_t n = child(node, c);
      if (n == 0) {
        n = static_cast<int32_t>(nodes.size());
        nodes.emplace_back();
        if (node == 0) {
          root[c] = n;
        } else {
          auto& next = nodes[static_cast<size_t>(node)].next;
          next.insert(std::upper_bound(next.begin(), next.end(), std::pair<unsigned char, int32_t>{c, 0},
                                       [](const auto& a, const auto& b) { return a.first < b.first; }),
                      {c, n});
        }
      }
      node = n;
    }
    Node& end = nodes[static_cast<size_t>(node)];
    if (end.token < 0) {
      end.token = token;
      end.plain = plain;
    }
  }

  // Length of the longest special text at text[at], or 0; its token in `token`.
  size_t match(std::string_view text, size_t at, bool parse_special, Token& token) const {
    size_t best = 0;
    int32_t node = 0;
    for (size_t i = at; i < text.size(); ++i) {
      node = child(node, static_cast<unsigned char>(text[i]));
      if (node == 0) break;
      const Node& n = nodes[static_cast<size_t>(node)];
      if (n.token >= 0 && (parse_special || n.plain)) {
        best = i + 1 - at;
        token = n.token;
      }
    }
    return best;
  }
};

namespace {

// Occurrences of special texts per llama_tokenize call: its partition costs this squared.
constexpr size_t kSpecialsPerCall = 256;

std::shared_ptr<const SpecialScan> build_scan(const llama_vocab* vocab) {
  auto scan = std::make_shared<SpecialScan>();
  scan->nodes.emplace_back();
  const int32_t n = llama_vocab_n_tokens(vocab);
  constexpr int32_t kSpecial = LLAMA_TOKEN_ATTR_CONTROL | LLAMA_TOKEN_ATTR_USER_DEFINED | LLAMA_TOKEN_ATTR_UNKNOWN;
  for (Token t = 0; t < n; ++t) {
    const int32_t attr = llama_vocab_get_attr(vocab, t);
    if ((attr & kSpecial) == 0) continue;
    const char* text = llama_vocab_get_text(vocab, t);
    if (text == nullptr || *text == '\0') continue;
    scan->add(text, t, (attr & (LLAMA_TOKEN_ATTR_CONTROL | LLAMA_TOKEN_ATTR_UNKNOWN)) == 0);
  }
  return scan;
}

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

std::vector<Token> Model::tokenize(std::string_view text, bool add_special, bool parse_special) const {
  std::call_once(special_scan_once_, [this] { special_scan_ = build_scan(vocab_); });
  const SpecialScan& scan = *special_scan_;
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
