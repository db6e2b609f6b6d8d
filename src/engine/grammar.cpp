// The sampler's grammar (llama.cpp's grammar sampler): every sampled token keeps the output valid
// (checked after the chain, or applied before it: SamplingOptions::grammar_first), and it is rebuilt
// from the kept tokens after a rewind.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/sampler_impl.h"

namespace sfcl::engine {

namespace {

size_t skip_blanks(std::string_view s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

// The digits at `i` as a number (saturating) in `value`; returns where they end.
size_t read_count(std::string_view s, size_t i, uint64_t& value, bool& any) {
  value = 0;
  any = false;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    any = true;
    value = std::min<uint64_t>(value * 10 + static_cast<uint64_t>(s[i] - '0'), uint64_t{1} << 40);
    ++i;
  }
  return i;
}

}  // namespace

void check_grammar_bounds(std::string_view g) {
  if (g.size() > kMaxGrammarBytes) {
    throw EngineError("the grammar is " + std::to_string(g.size()) + " bytes; this server accepts at most " +
                      std::to_string(kMaxGrammarBytes));
  }
  bool in_string = false;
  bool in_class = false;
  size_t nesting = 0;
  size_t alternatives = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    const char c = g[i];
    if (in_string || in_class) {
      if (c == '\\') {
        ++i;  // an escaped character, whatever it is
      } else if (in_string && c == '"') {
        in_string = false;
      } else if (in_class && c == ']') {
        in_class = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
        in_class = true;
        break;
      case '#':
        while (i + 1 < g.size() && g[i + 1] != '\n') ++i;
        break;
      case '(':
        if (++nesting > kMaxGrammarNesting) {
          throw EngineError("the grammar nests groups more than " + std::to_string(kMaxGrammarNesting) +
                            " deep; this server accepts at most that many");
        }
        break;
      case ')':
        if (nesting > 0) --nesting;
        break;
      case '|':
        if (++alternatives > kMaxGrammarAlternatives) {
          throw EngineError("the grammar has more than " + std::to_string(kMaxGrammarAlternatives) +
                            " alternatives (a JSON schema enum or anyOf is one per value); this server accepts at "
                            "most that many");
        }
        break;
      case '{': {
        uint64_t low = 0;
        uint64_t high = 0;
        bool has_low = false;
        bool has_high = false;
        size_t j = read_count(g, skip_blanks(g, i + 1), low, has_low);
        j = skip_blanks(g, j);
        const bool range = j < g.size() && g[j] == ',';
        if (range) j = skip_blanks(g, read_count(g, skip_blanks(g, j + 1), high, has_high));
        if (!has_low || j >= g.size() || g[j] != '}') break;  // not a repetition: the parser says what
        const std::string text(g.substr(i, j + 1 - i));
        if (low > kMaxGrammarRepeat || (has_high && high > kMaxGrammarRepeat)) {
          throw EngineError("the grammar repeats " + text + ": bounds above " + std::to_string(kMaxGrammarRepeat) +
                            " are refused (each repetition is a rule of its own)");
        }
        if (range && has_high && low > high) {
          throw EngineError("the grammar repeats " + text + ": the minimum is above the maximum");
        }
        i = j;
        break;
      }
      default:
        break;
    }
  }
}

void Sampler::set_grammar(const GrammarSpec& grammar) {
  check_grammar_bounds(grammar.gbnf);  // once: a rewind rebuilds the same grammar
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
