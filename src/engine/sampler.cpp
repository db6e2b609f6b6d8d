#include <random>

#include "engine/sampler_impl.h"

namespace sfcl::engine {
namespace {
// A seed for a request that gave none. Drawn from a per-thread generator seeded once by the system:
// std::random_device costs a system call (and more) per draw, and every sequence built draws one,
// also those that never sample (greedy, the gateway's).
uint32_t fresh_seed() {
  thread_local std::mt19937 gen(std::random_device{}());
  return static_cast<uint32_t>(gen());
}
}  // namespace

Sampler::Sampler(const Model& model, const SamplingOptions& options)
    : options_(options), impl_(std::make_unique<Impl>()) {
  impl_->model = &model;
  impl_->n_vocab = model.n_vocab();
  impl_->cur.reserve(static_cast<size_t>(impl_->n_vocab));
  impl_->banned.assign(static_cast<size_t>(impl_->n_vocab), 0);
  if (options_.seed == 0xFFFFFFFFU) options_.seed = fresh_seed();
  build_chain();
}

Sampler::~Sampler() = default;

void Sampler::build_chain() {
  impl_->chain.reset(llama_sampler_chain_init(llama_sampler_chain_default_params()));
  llama_sampler* chain = impl_->chain.get();
  if (options_.temperature <= 0.0F) {
    llama_sampler_chain_add(chain, llama_sampler_init_greedy());
    return;
  }
  if (options_.top_k > 0) llama_sampler_chain_add(chain, llama_sampler_init_top_k(options_.top_k));
  if (options_.top_p < 1.0F) llama_sampler_chain_add(chain, llama_sampler_init_top_p(options_.top_p, 1));
  if (options_.min_p > 0.0F) llama_sampler_chain_add(chain, llama_sampler_init_min_p(options_.min_p, 1));
  llama_sampler_chain_add(chain, llama_sampler_init_temp(options_.temperature));
  // A rebuilt chain gets a derived seed so dynamic temperature does not replay old draws.
  llama_sampler_chain_add(chain, llama_sampler_init_dist(options_.seed + rebuilds_));
}

void Sampler::set_temperature(float temperature) {
  if (temperature == options_.temperature) return;
  options_.temperature = temperature;
  ++rebuilds_;
  build_chain();
}

namespace {

// The candidates: `allowed` (or the whole vocabulary) less `banned`, in token order. `flags` are
// per-token scratch, all 0 on entry and on return. False when no candidate has a finite logit.
bool fill_candidates(std::vector<llama_token_data>& cur, std::vector<uint8_t>& flags, int32_t n_vocab,
                     const float* logits, std::span<const Token> banned, std::span<const Token> allowed) {
  for (Token t : banned) {
    if (t >= 0 && t < n_vocab) flags[static_cast<size_t>(t)] = 1;
  }
  if (!allowed.empty()) {
    cur.clear();
    for (Token t : allowed) {
      if (t >= 0 && t < n_vocab && flags[static_cast<size_t>(t)] == 0) cur.push_back({t, logits[t], 0.0F});
    }
  } else {
    // The whole vocabulary, every step: written in place in one plain pass (a resize to n_vocab
    // zeroes the array, so it happens only when the array was shorter), then the bans taken out.
    const auto n = static_cast<size_t>(n_vocab);
    if (cur.size() != n) cur.resize(n);
    llama_token_data* out = cur.data();
    for (size_t t = 0; t < n; ++t) out[t] = {static_cast<Token>(t), logits[t], 0.0F};
    if (!banned.empty()) {
      std::erase_if(cur, [&](const llama_token_data& d) { return flags[static_cast<size_t>(d.id)] != 0; });
    }
  }
  for (Token t : banned) {
    if (t >= 0 && t < n_vocab) flags[static_cast<size_t>(t)] = 0;
  }
  return any_finite(cur.data(), cur.size());
}

// The chain's pick from `arr`, after `grammar` (null: none) sets what it rejects to -inf; -1 when
// nothing is left.
Token pick(llama_token_data_array& arr, llama_sampler* chain, llama_sampler* grammar) {
  if (grammar != nullptr) {
    llama_sampler_apply(grammar, &arr);
    if (!any_finite(arr.data, arr.size)) return -1;
  }
  llama_sampler_apply(chain, &arr);
  if (arr.selected < 0 || static_cast<size_t>(arr.selected) >= arr.size) return -1;
  return arr.data[arr.selected].id;
}

}  // namespace

Token Sampler::sample(const float* logits, std::span<const Token> banned, std::span<const Token> allowed) {
  auto& cur = impl_->cur;
  llama_sampler* chain = impl_->chain.get();
  llama_sampler* grammar = impl_->grammar.get();
  if (!fill_candidates(cur, impl_->banned, impl_->n_vocab, logits, banned, allowed)) return -1;
  llama_token_data_array arr{cur.data(), cur.size(), -1, false};
  Token chosen = -1;
  if (grammar == nullptr || options_.grammar_first) {
    chosen = pick(arr, chain, grammar);
  } else {
    // Check first (docs/DESIGN.md, 'Tools and structured output'): the grammar reads one token
    // unless it rejects the chain's pick; then the chain picks again from what the grammar allows.
    chosen = pick(arr, chain, nullptr);
    if (chosen >= 0 && !grammar_accepts(grammar, chosen)) {
      fill_candidates(cur, impl_->banned, impl_->n_vocab, logits, banned, allowed);
      arr = {cur.data(), cur.size(), -1, false};
      chosen = pick(arr, chain, grammar);
    }
  }
  if (chosen < 0) return -1;
  llama_sampler_accept(chain, chosen);
  if (grammar != nullptr) llama_sampler_accept(grammar, chosen);
  return chosen;
}

}  // namespace sfcl::engine
