#include <cmath>
#include <limits>
#include <random>

#include "engine/sampler_impl.h"

namespace sfcl::engine {

Sampler::Sampler(const Model& model, const SamplingOptions& options)
    : options_(options), impl_(std::make_unique<Impl>()) {
  impl_->model = &model;
  impl_->n_vocab = model.n_vocab();
  impl_->cur.reserve(static_cast<size_t>(impl_->n_vocab));
  impl_->banned.assign(static_cast<size_t>(impl_->n_vocab), 0);
  if (options_.seed == 0xFFFFFFFFU) options_.seed = std::random_device{}();
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

Token Sampler::sample(const float* logits, std::span<const Token> banned, std::span<const Token> allowed) {
  auto& cur = impl_->cur;
  cur.clear();
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (Token t : banned) {
    if (t >= 0 && t < impl_->n_vocab) impl_->banned[static_cast<size_t>(t)] = 1;
  }
  if (!allowed.empty()) {
    for (Token t : allowed) {
      if (t >= 0 && t < impl_->n_vocab && impl_->banned[static_cast<size_t>(t)] == 0) {
        cur.push_back({t, logits[t], 0.0F});
      }
    }
  } else {
    for (Token t = 0; t < impl_->n_vocab; ++t) {
      if (impl_->banned[static_cast<size_t>(t)] == 0) cur.push_back({t, logits[t], 0.0F});
    }
  }
  for (Token t : banned) {
    if (t >= 0 && t < impl_->n_vocab) impl_->banned[static_cast<size_t>(t)] = 0;
  }
  if (cur.empty()) return -1;
  llama_token_data_array arr{cur.data(), cur.size(), -1, false};
  // The grammar goes first: the chain then only ever picks a token that keeps the output valid.
  if (impl_->grammar) llama_sampler_apply(impl_->grammar.get(), &arr);
  bool any_finite = false;
  for (size_t i = 0; i < arr.size; ++i) any_finite = any_finite || arr.data[i].logit != neg_inf;
  if (!any_finite) return -1;
  llama_sampler_apply(impl_->chain.get(), &arr);
  if (arr.selected < 0 || static_cast<size_t>(arr.selected) >= arr.size) return -1;
  const Token chosen = arr.data[arr.selected].id;
  llama_sampler_accept(impl_->chain.get(), chosen);
  if (impl_->grammar) llama_sampler_accept(impl_->grammar.get(), chosen);
  return chosen;
}

}  // namespace sfcl::engine
