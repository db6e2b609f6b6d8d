// The demo model's training graph, built on ggml itself (llama.cpp's training API cannot train
// from scratch: docs/DESIGN.md, "Training the demo model"). Internal to demo/: the trainer and the
// checks that llama.cpp reproduces the graph share it.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "ggml-backend.h"
#include "ggml.h"

namespace sfcl::demo::graph {

struct Layer {
  ggml_tensor *attn_norm, *wq, *wk, *wv, *wo, *ffn_norm, *gate, *up, *down;
};
struct Weights {
  ggml_tensor* tok_embd = nullptr;
  std::vector<Layer> layers;
  ggml_tensor* output_norm = nullptr;
  ggml_tensor* output = nullptr;
  std::map<std::string, ggml_tensor*> by_name;
};

Weights create_weights(ggml_context* ctx, const engine::LlamaHParams& hp);
// The LLaMA forward pass over [T, B] tokens (positions restart per packed segment; `mask` is causal
// and block-diagonal); logits [V, T*B], or only at `rows` when given.
ggml_tensor* forward(ggml_context* ctx, const Weights& w, const engine::LlamaHParams& hp, ggml_tensor* tokens,
                     ggml_tensor* pos, ggml_tensor* mask, int T, int B, ggml_tensor* rows = nullptr);
ggml_backend_t cpu_backend(int threads);
void fill_row_mask(const std::vector<int>& segment_start, int T, float* m);
std::vector<engine::NamedTensor> read_weights(const Weights& w, const engine::LlamaHParams& hp);

}  // namespace sfcl::demo::graph
