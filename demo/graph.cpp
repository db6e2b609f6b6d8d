#include "graph.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace sfcl::demo::graph {

Weights create_weights(ggml_context* ctx, const engine::LlamaHParams& hp) {
  Weights w;
  for (const auto& t : engine::llama_tensor_layout(hp)) {
    ggml_tensor* x = t.ne.size() == 1 ? ggml_new_tensor_1d(ctx, GGML_TYPE_F32, t.ne[0])
                                      : ggml_new_tensor_2d(ctx, GGML_TYPE_F32, t.ne[0], t.ne[1]);
    ggml_set_name(x, t.name.c_str());
    w.by_name[t.name] = x;
  }
  w.tok_embd = w.by_name["token_embd.weight"];
  w.output_norm = w.by_name["output_norm.weight"];
  w.output = w.by_name["output.weight"];
  for (uint32_t l = 0; l < hp.n_layer; ++l) {
    const std::string p = "blk." + std::to_string(l) + ".";
    auto g = [&](const char* n) { return w.by_name[p + n + ".weight"]; };
    w.layers.push_back({g("attn_norm"), g("attn_q"), g("attn_k"), g("attn_v"), g("attn_output"), g("ffn_norm"),
                        g("ffn_gate"), g("ffn_up"), g("ffn_down")});
  }
  return w;
}

// The llama forward pass as llama.cpp computes it (RoPE mode 0 on [head_dim, heads, T*B], causal
// softmax with scale 1/sqrt(head_dim), SwiGLU FFN); returns logits [n_vocab, T*B].
ggml_tensor* forward(ggml_context* ctx, const Weights& w, const engine::LlamaHParams& hp, ggml_tensor* tokens,
                     ggml_tensor* pos, ggml_tensor* mask, int T, int B, ggml_tensor* rows) {
  const int E = static_cast<int>(hp.n_embd);
  const int H = static_cast<int>(hp.n_head);
  const int hd = E / H;
  ggml_tensor* x = ggml_get_rows(ctx, w.tok_embd, tokens);  // [E, T*B]
  for (const Layer& L : w.layers) {
    ggml_tensor* h = ggml_mul(ctx, ggml_rms_norm(ctx, x, hp.rms_eps), L.attn_norm);
    ggml_tensor* q = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, L.wq, h), hd, H, static_cast<int64_t>(T) * B);
    ggml_tensor* k = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, L.wk, h), hd, H, static_cast<int64_t>(T) * B);
    ggml_tensor* v = ggml_mul_mat(ctx, L.wv, h);
    q = ggml_rope_ext(ctx, q, pos, nullptr, hd, 0, static_cast<int>(hp.n_ctx), hp.rope_freq_base, 1.0F, 0.0F, 1.0F,
                      0.0F, 0.0F);
    k = ggml_rope_ext(ctx, k, pos, nullptr, hd, 0, static_cast<int>(hp.n_ctx), hp.rope_freq_base, 1.0F, 0.0F, 1.0F,
                      0.0F, 0.0F);
    q = ggml_cont(ctx, ggml_permute(ctx, ggml_reshape_4d(ctx, q, hd, H, T, B), 0, 2, 1, 3));  // [hd, T, H, B]
    k = ggml_cont(ctx, ggml_permute(ctx, ggml_reshape_4d(ctx, k, hd, H, T, B), 0, 2, 1, 3));  // [hd, T, H, B]
    ggml_tensor* vt =
        ggml_cont(ctx, ggml_permute(ctx, ggml_reshape_4d(ctx, v, hd, H, T, B), 1, 2, 0, 3));  // [T, hd, H, B]
    ggml_tensor* kq = ggml_mul_mat(ctx, k, q);                                                // [T_k, T_q, H, B]
    kq = ggml_soft_max_ext(ctx, kq, mask, 1.0F / std::sqrt(static_cast<float>(hd)), 0.0F);
    ggml_tensor* kqv = ggml_mul_mat(ctx, vt, kq);              // [hd, T_q, H, B]
    kqv = ggml_cont(ctx, ggml_permute(ctx, kqv, 0, 2, 1, 3));  // [hd, H, T, B]
    x = ggml_add(ctx, x, ggml_mul_mat(ctx, L.wo, ggml_reshape_2d(ctx, kqv, E, static_cast<int64_t>(T) * B)));
    h = ggml_mul(ctx, ggml_rms_norm(ctx, x, hp.rms_eps), L.ffn_norm);
    ggml_tensor* a = ggml_swiglu_split(ctx, ggml_mul_mat(ctx, L.gate, h), ggml_mul_mat(ctx, L.up, h));
    x = ggml_add(ctx, x, ggml_mul_mat(ctx, L.down, a));
  }
  // Training needs logits only at its target positions: selecting them before the output
  // projection saves that matmul (and its backward) for every other position.
  if (rows != nullptr) x = ggml_get_rows(ctx, x, rows);  // [E, N]
  x = ggml_mul(ctx, ggml_rms_norm(ctx, x, hp.rms_eps), w.output_norm);
  return ggml_mul_mat(ctx, w.output, x);  // [V, T*B] or [V, N]
}

ggml_backend_t cpu_backend(int threads) {
  engine::load_backends();
  ggml_backend_t b = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, nullptr);
  if (b == nullptr) throw std::runtime_error("no ggml CPU backend");
  ggml_backend_reg_t reg = ggml_backend_dev_backend_reg(ggml_backend_get_device(b));
  auto set_threads = reinterpret_cast<ggml_backend_set_n_threads_t>(
      ggml_backend_reg_get_proc_address(reg, "ggml_backend_set_n_threads"));
  if (set_threads != nullptr) {
    set_threads(b, threads > 0 ? threads : static_cast<int>(std::max(1U, std::thread::hardware_concurrency())));
  }
  return b;
}

// One row's attention mask [T_k, T_q]: causal, and blocked across packed segments (position q
// sees k only when segment_start[q] <= k <= q).
void fill_row_mask(const std::vector<int>& segment_start, int T, float* m) {
  for (int q = 0; q < T; ++q) {
    const int from = segment_start[static_cast<size_t>(q)];
    for (int k = 0; k < T; ++k) m[static_cast<size_t>(q) * T + k] = k >= from && k <= q ? 0.0F : -INFINITY;
  }
}

std::vector<engine::NamedTensor> read_weights(const Weights& w, const engine::LlamaHParams& hp) {
  auto layout = engine::llama_tensor_layout(hp);
  for (auto& t : layout) {
    ggml_tensor* x = w.by_name.at(t.name);
    t.data.resize(static_cast<size_t>(ggml_nelements(x)));
    ggml_backend_tensor_get(x, t.data.data(), 0, ggml_nbytes(x));
  }
  return layout;
}
}  // namespace sfcl::demo::graph
