// Subword merges for the demo vocabulary (plain BPE over pre-split words; the tokenizer that
// applies them is llama.cpp's SPM, which merges the highest-scoring adjacent pair first).
#include "vocab.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "corpus.h"
#include "util/utf8.h"

namespace sfcl::demo {
namespace {

constexpr std::string_view kSpace = "\xE2\x96\x81";  // SPM's "▁"

bool is_letter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_han(char32_t c) { return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF); }

// Splits a text into the words merges may happen in: "▁"? + ASCII letters, or a Han run.
void add_words(std::string_view text, std::map<std::vector<std::string>, int64_t>& words) {
  std::vector<std::string> word;
  bool han_word = false;
  auto flush = [&] {
    if (word.size() >= 2) ++words[word];
    word.clear();
  };
  bool pending_space = false;
  for (size_t i = 0; i < text.size();) {
    const utf8::Decoded d = utf8::decode(text, i);
    const std::string ch(text.substr(i, static_cast<size_t>(d.length)));
    i += static_cast<size_t>(d.length);
    if (d.cp == U' ') {
      flush();
      pending_space = true;
      continue;
    }
    const bool letter = is_letter(d.cp);
    const bool han = is_han(d.cp);
    if (!word.empty() && ((letter && !han_word) || (han && han_word))) {
      word.push_back(ch);
    } else {
      flush();
      if (letter || han) {
        if (letter && pending_space) word.emplace_back(kSpace);
        word.push_back(ch);
        han_word = han;
      }
    }
    pending_space = false;
  }
  flush();
}

}  // namespace

std::vector<std::string> learn_merges(const std::vector<std::string>& texts, int n_merges) {
  std::map<std::vector<std::string>, int64_t> counted;
  for (const auto& t : texts) add_words(t, counted);
  std::vector<std::pair<std::vector<std::string>, int64_t>> words(counted.begin(), counted.end());
  std::vector<std::string> merges;
  for (int m = 0; m < n_merges; ++m) {
    std::map<std::pair<std::string, std::string>, int64_t> pairs;
    for (const auto& [w, n] : words) {
      for (size_t k = 0; k + 1 < w.size(); ++k) pairs[{w[k], w[k + 1]}] += n;
    }
    // Most frequent pair; ties go to the first in the map's order (deterministic).
    auto best = pairs.end();
    for (auto it = pairs.begin(); it != pairs.end(); ++it) {
      if (best == pairs.end() || it->second > best->second) best = it;
    }
    if (best == pairs.end() || best->second < 2) break;
    const auto [a, b] = best->first;
    const std::string merged = a + b;
    merges.push_back(merged);
    for (auto& [w, n] : words) {
      std::vector<std::string> out;
      out.reserve(w.size());
      for (size_t k = 0; k < w.size(); ++k) {
        if (k + 1 < w.size() && w[k] == a && w[k + 1] == b) {
          out.push_back(merged);
          ++k;
        } else {
          out.push_back(w[k]);
        }
      }
      w = std::move(out);
    }
  }
  return merges;
}

std::vector<engine::VocabEntry> demo_vocab(const VocabOptions& o) {
  std::vector<std::string> extra = corpus_characters();
  if (o.digit_pairs) {
    // Half as many tokens per number, date or identifier, and a digit pair is far rarer in a
    // document than a single digit, so copying by matching the previous token is less ambiguous.
    for (char a = '0'; a <= '9'; ++a) {
      for (char b = '0'; b <= '9'; ++b) extra.push_back(std::string{a, b});
    }
  }
  std::vector<std::string> merges;
  if (o.merges > 0) {
    // Learned from training documents only: eval names and values are split into these pieces.
    std::vector<std::string> texts;
    for (uint64_t i = 0; i < 3000; ++i) {
      const Document d = make_document(o.seed, Split::train, i);
      texts.push_back(d.text);
      for (const auto& qa : d.qas) texts.push_back(qa.question + "\n" + qa.answer);
    }
    texts.emplace_back("system\nuser\nassistant\n");
    for (auto& m : learn_merges(texts, o.merges)) {
      // A merge equal to an existing token is skipped (a CJK pair never is one; kept for safety).
      if (std::find(extra.begin(), extra.end(), m) == extra.end()) merges.push_back(std::move(m));
    }
  }
  const size_t first_merge = extra.size();
  extra.insert(extra.end(), merges.begin(), merges.end());
  auto vocab = engine::make_byte_vocab(extra);
  // Merges sit at the end of the vocabulary, most frequent first.
  const size_t base = vocab.size() - extra.size() + first_merge;
  for (size_t k = 0; k < merges.size(); ++k) vocab[base + k].score = -1.0F - static_cast<float>(k);
  return vocab;
}

}  // namespace sfcl::demo
