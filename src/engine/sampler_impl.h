// Private to src/engine: the sampler's state, shared by sampler.cpp (the chain) and grammar.cpp.
#pragma once
#include <cmath>
#include <vector>

#include "engine/engine.h"
#include "llama-cpp.h"

namespace sfcl::engine {

struct Sampler::Impl {
  const Model* model = nullptr;
  llama_sampler_ptr chain;
  llama_sampler_ptr grammar;  // null: no grammar
  GrammarSpec grammar_spec;
  std::vector<Token> prefix;  // grammar_spec.prefix, tokenised
  int32_t n_vocab = 0;
  std::vector<llama_token_data> cur;  // reused every call: no allocation per token
  std::vector<uint8_t> banned;        // per-token flags, cleared after each call
};

// Whether `grammar` allows `token` next: its apply on a one-candidate array (the verdict on a token
// does not depend on the other candidates).
bool grammar_accepts(llama_sampler* grammar, Token token);

// Whether some candidate is not -inf (banned or rejected by the grammar).
inline bool any_finite(const llama_token_data* data, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (data[i].logit != -INFINITY) return true;
  }
  return false;
}

}  // namespace sfcl::engine
