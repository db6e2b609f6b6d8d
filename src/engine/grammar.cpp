// The sampler's grammar (llama.cpp's grammar sampler): every sampled token keeps the output valid
// (checked after the chain, or applied before it: SamplingOptions::grammar_first), and it is rebuilt
// from the kept tokens after a rewind.
#include "engine/sampler_impl.h"

namespace sfcl::engine {

void Sampler::set_grammar(const GrammarSpec& grammar) {
  impl_->grammar_spec = grammar;
  impl_->prefix.clear();
  if (!grammar.prefix.empty()) {
    impl_->prefix = impl_->model->tokenize(grammar.prefix, false, true);
    // Some tokenizers put a space before the first special token (common/sampling.cpp does the same).
    if (!impl_->prefix.empty() && grammar.prefix[0] != ' ') {
      const std::string p = impl_->model->piece(impl_->prefix.front());
      if (!p.empty() && p[0] == ' ') impl_->prefix.erase(impl_->prefix.begin());
    }
  }
  build_grammar();
}

bool Sampler::has_grammar() const { return impl_->grammar != nullptr; }

void Sampler::build_grammar() {
  const GrammarSpec& g = impl_->grammar_spec;
  impl_->grammar.reset();
  if (g.gbnf.empty()) return;
  const llama_vocab* vocab = impl_->model->vocab();
  if (g.lazy) {
    std::vector<const char*> patterns;
    patterns.reserve(g.trigger_patterns.size());
    for (const auto& p : g.trigger_patterns) patterns.push_back(p.c_str());
    impl_->grammar.reset(llama_sampler_init_grammar_lazy_patterns(vocab, g.gbnf.c_str(), "root", patterns.data(),
                                                                  patterns.size(), g.trigger_tokens.data(),
                                                                  g.trigger_tokens.size()));
  } else {
    impl_->grammar.reset(llama_sampler_init_grammar(vocab, g.gbnf.c_str(), "root"));
  }
  if (impl_->grammar == nullptr) throw EngineError("the grammar does not parse");
  try {
    for (Token t : impl_->prefix) llama_sampler_accept(impl_->grammar.get(), t);
  } catch (const std::exception& e) {
    impl_->grammar.reset();
    throw EngineError(std::string("the grammar rejects the start of the reply: ") + e.what());
  }
}

void Sampler::reset_grammar(std::span<const Token> kept) {
  if (impl_->grammar == nullptr) return;
  build_grammar();
  for (Token t : kept) llama_sampler_accept(impl_->grammar.get(), t);
}

bool grammar_accepts(llama_sampler* grammar, Token token) {
  llama_token_data one{token, 0.0F, 0.0F};
  llama_token_data_array arr{&one, 1, -1, false};
  llama_sampler_apply(grammar, &arr);
  return std::isfinite(one.logit);
}

bool Sampler::accept_forced(Token token) {
  if (impl_->grammar == nullptr) return true;
  if (!grammar_accepts(impl_->grammar.get(), token)) return false;
  llama_sampler_accept(impl_->grammar.get(), token);
  return true;
}

size_t Sampler::grammar_allows(std::vector<uint8_t>& flags) {
  const auto n = static_cast<size_t>(impl_->n_vocab);
  if (impl_->grammar == nullptr) {
    flags.assign(n, 1);
    return n;
  }
  // The same apply the sampler makes before its chain, on the whole vocabulary.
  auto& cur = impl_->cur;
  cur.clear();
  for (Token t = 0; t < impl_->n_vocab; ++t) cur.push_back({t, 0.0F, 0.0F});
  llama_token_data_array arr{cur.data(), cur.size(), -1, false};
  llama_sampler_apply(impl_->grammar.get(), &arr);
  flags.assign(n, 0);
  size_t allowed = 0;
  for (size_t i = 0; i < arr.size; ++i) {
    if (std::isfinite(arr.data[i].logit)) {
      flags[static_cast<size_t>(arr.data[i].id)] = 1;
      ++allowed;
    }
  }
  return allowed;
}

}  // namespace sfcl::engine
