// The demo model's vocabulary: llama's byte-level SPM layout plus the corpus's CJK characters and,
// optionally, digit pairs and subword merges learned from training documents (so a name or a
// date is a few tokens, as in the vocabularies of the models users bring).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace sfcl::demo {

struct VocabOptions {
  bool digit_pairs = false;  // "00".."99": llama.cpp's SPM merge pairs a digit run from the left
  int merges = 0;            // subword merges learned from training documents (0 = none)
  uint64_t seed = 42;        // which training documents they are learned from
};

// Byte-pair merges over `texts` (spaces as SPM's "▁"): only within a word of ASCII letters with
// its leading "▁", or within a run of Han characters, so no token mixes letters, digits and
// punctuation. Returns the merged pieces, most frequent first; deterministic.
std::vector<std::string> learn_merges(const std::vector<std::string>& texts, int n_merges);

// The vocabulary: make_byte_vocab + CJK characters + the options' extras. Merges get descending
// scores (llama.cpp's SPM tokenizer applies the highest-scoring pair first, as BPE would).
std::vector<engine::VocabEntry> demo_vocab(const VocabOptions& options = {});

}  // namespace sfcl::demo
