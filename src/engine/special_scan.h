// Private to src/engine: the special-token texts of a vocabulary as a byte trie, for finding them
// in one pass (tokenize.cpp: pieces for llama_tokenize; chat_literal.cpp: client text the template
// renders as markup).
#pragma once
#include <algorithm>
#include <array>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

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

inline std::shared_ptr<const SpecialScan> build_special_scan(const llama_vocab* vocab) {
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

}  // namespace sfcl::engine
