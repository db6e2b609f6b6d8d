// Checks of the training graph: its gradients against finite differences, and its logits for
// llama.cpp to reproduce.
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

#include "ggml-alloc.h"
#include "ggml-opt.h"
#include "gguf.h"
#include "graph.h"
#include "train.h"

namespace sfcl::demo {

using namespace graph;  // NOLINT(google-build-using-namespace): the graph's own pieces

std::vector<GradientError> gradient_check(const engine::LlamaHParams& hp, uint64_t seed, int per_tensor) {
  // Two rows of T tokens: the first packs two segments, the second holds one, as training packs.
  const int T = 12;
  const int B = 2;
  const int V = static_cast<int>(hp.n_vocab);
  std::mt19937_64 rng(seed);
  auto draw = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  ggml_backend_t backend = cpu_backend(1);
  ggml_init_params ip{ggml_tensor_overhead() * 4096 + 2 * ggml_graph_overhead_custom(8192, true), nullptr, true};
  ggml_context* ctx = ggml_init(ip);
  Weights w = create_weights(ctx, hp);
  ggml_tensor* tokens = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, static_cast<int64_t>(T) * B);
  ggml_tensor* pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, static_cast<int64_t>(T) * B);
  ggml_tensor* mask = ggml_new_tensor_4d(ctx, GGML_TYPE_F32, T, T, 1, B);
  std::vector<int32_t> target_rows;
  for (int p = 0; p + 1 < T * B; ++p) {
    if (p % T != T - 1 && draw(3) > 0) target_rows.push_back(p);
  }
  const int N = static_cast<int>(target_rows.size());
  ggml_tensor* idx = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, N);
  ggml_tensor* labels = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, V, N);
  for (auto& [name, x] : w.by_name) ggml_set_param(x);
  ggml_tensor* logits = forward(ctx, w, hp, tokens, pos, mask, T, B, idx);
  ggml_tensor* loss = ggml_cross_entropy_loss(ctx, logits, labels);
  ggml_set_loss(loss);
  ggml_cgraph* gf = ggml_new_graph_custom(ctx, 8192, true);
  ggml_cgraph* gb = ggml_new_graph_custom(ctx, 8192, true);
  ggml_build_forward_expand(gf, loss);
  ggml_graph_cpy(gf, gb);
  ggml_build_backward_expand(ctx, gb, nullptr);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx, backend);

  const auto init = engine::random_llama_weights(hp, seed, 1.0F);
  for (const auto& t : init) ggml_backend_tensor_set(w.by_name.at(t.name), t.data.data(), 0, t.data.size() * 4);
  std::vector<int32_t> tok(static_cast<size_t>(T) * B);
  for (auto& t : tok) t = draw(V);
  std::vector<int32_t> p(static_cast<size_t>(T) * B);
  std::vector<int> seg_start(static_cast<size_t>(T));
  std::vector<float> m(static_cast<size_t>(T) * T * B);
  for (int b = 0; b < B; ++b) {
    const int split = b == 0 ? T / 2 : 0;  // row 0: segments [0, T/2) and [T/2, T)
    for (int i = 0; i < T; ++i) {
      seg_start[static_cast<size_t>(i)] = i < split ? 0 : split;
      p[static_cast<size_t>(b) * T + i] = i - seg_start[static_cast<size_t>(i)];
    }
    fill_row_mask(seg_start, T, m.data() + static_cast<size_t>(b) * T * T);
  }
  std::vector<float> lab(static_cast<size_t>(V) * N, 0.0F);
  for (int k = 0; k < N; ++k) {
    lab[static_cast<size_t>(k) * V +
        static_cast<size_t>(tok[static_cast<size_t>(target_rows[static_cast<size_t>(k)]) + 1])] = 1.0F;
  }
  ggml_backend_tensor_set(tokens, tok.data(), 0, ggml_nbytes(tokens));
  ggml_backend_tensor_set(pos, p.data(), 0, ggml_nbytes(pos));
  ggml_backend_tensor_set(mask, m.data(), 0, ggml_nbytes(mask));
  ggml_backend_tensor_set(idx, target_rows.data(), 0, ggml_nbytes(idx));
  ggml_backend_tensor_set(labels, lab.data(), 0, ggml_nbytes(labels));
  ggml_graph_reset(gb);  // gradients 0, the loss's 1
  ggml_backend_graph_compute(backend, gb);

  auto loss_at = [&](ggml_tensor* x, int64_t i, float v) {
    ggml_backend_tensor_set(x, &v, static_cast<size_t>(i) * 4, 4);
    ggml_backend_graph_compute(backend, gf);
    float l = 0.0F;
    ggml_backend_tensor_get(loss, &l, 0, 4);
    return static_cast<double>(l);
  };
  std::vector<GradientError> out;
  for (const auto& t : init) {
    ggml_tensor* x = w.by_name.at(t.name);
    std::vector<float> g(t.data.size());
    ggml_backend_tensor_get(ggml_graph_get_grad(gb, x), g.data(), 0, g.size() * 4);
    GradientError e{t.name, 0.0, 0.0};
    for (float gi : g) e.max_abs_grad = std::max(e.max_abs_grad, static_cast<double>(std::fabs(gi)));
    // Sample among the elements with the larger gradients: tiny ones drown in float rounding.
    std::vector<int64_t> order(g.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return std::fabs(g[static_cast<size_t>(a)]) > std::fabs(g[static_cast<size_t>(b)]);
    });
    const int64_t pool = std::max<int64_t>(1, static_cast<int64_t>(order.size()) / 4);
    for (int s = 0; s < per_tensor; ++s) {
      const int64_t i = order[static_cast<size_t>(draw(static_cast<int>(pool)))];
      const float x0 = t.data[static_cast<size_t>(i)];
      const float h = 1e-2F * std::max(1.0F, std::fabs(x0));
      // Fourth-order central difference: f'(x) ~ (8 f(x+h/2) + f(x-h) - 8 f(x-h/2) - f(x+h)) / (6h).
      const double fu = loss_at(x, i, x0 + h);
      const double fd = loss_at(x, i, x0 - h);
      const double fuh = loss_at(x, i, x0 + h / 2);
      const double fdh = loss_at(x, i, x0 - h / 2);
      loss_at(x, i, x0);
      const double num = (8.0 * fuh + fd - 8.0 * fdh - fu) / (6.0 * h);
      const double ana = g[static_cast<size_t>(i)];
      const double rel = std::fabs(num - ana) / std::max({std::fabs(num), std::fabs(ana), 1e-3});
      e.max_rel_error = std::max(e.max_rel_error, rel);
    }
    out.push_back(e);
  }
  ggml_backend_buffer_free(buf);
  ggml_free(ctx);
  ggml_backend_free(backend);
  return out;
}

std::vector<float> graph_last_logits(const std::filesystem::path& path, const std::vector<engine::Token>& toks) {
  return graph_last_logits_batch(path, {toks}).at(0);
}

std::vector<std::vector<float>> graph_last_logits_batch(const std::filesystem::path& path,
                                                        const std::vector<std::vector<engine::Token>>& rows) {
  std::vector<std::vector<std::vector<engine::Token>>> packed;
  packed.reserve(rows.size());
  for (const auto& r : rows) packed.push_back({r});
  auto per_segment = graph_last_logits_packed(path, packed);
  std::vector<std::vector<float>> out;
  out.reserve(per_segment.size());
  for (auto& r : per_segment) out.push_back(std::move(r.at(0)));
  return out;
}

std::vector<std::vector<std::vector<float>>> graph_last_logits_packed(
    const std::filesystem::path& path, const std::vector<std::vector<std::vector<engine::Token>>>& rows) {
  if (rows.empty()) throw std::invalid_argument("graph_last_logits_packed: no rows");
  size_t row_len = 0;
  for (const auto& seg : rows[0]) row_len += seg.size();
  ggml_context* data_ctx = nullptr;
  gguf_init_params gp{false, &data_ctx};
  gguf_context* g = gguf_init_from_file(path.c_str(), gp);
  if (g == nullptr) throw std::runtime_error("cannot read " + path.string());
  auto u32 = [&](const char* k) { return gguf_get_val_u32(g, gguf_find_key(g, k)); };
  engine::LlamaHParams hp;
  hp.n_embd = u32("llama.embedding_length");
  hp.n_layer = u32("llama.block_count");
  hp.n_head = u32("llama.attention.head_count");
  hp.n_head_kv = u32("llama.attention.head_count_kv");
  hp.n_ff = u32("llama.feed_forward_length");
  hp.n_ctx = u32("llama.context_length");
  hp.n_vocab = u32("llama.vocab_size");
  const int T = static_cast<int>(row_len);
  const int B = static_cast<int>(rows.size());
  for (const auto& r : rows) {
    size_t n = 0;
    for (const auto& seg : r) n += seg.size();
    if (n != row_len) throw std::invalid_argument("graph_last_logits_packed: rows differ in length");
  }
  ggml_backend_t backend = cpu_backend(1);
  ggml_context* ctx_static = ggml_init({ggml_tensor_overhead() * 64, nullptr, true});
  Weights w = create_weights(ctx_static, hp);
  ggml_tensor* pos = ggml_new_tensor_1d(ctx_static, GGML_TYPE_I32, static_cast<int64_t>(T) * B);
  ggml_tensor* mask = ggml_new_tensor_4d(ctx_static, GGML_TYPE_F32, T, T, 1, B);
  ggml_tensor* tokens = ggml_new_tensor_1d(ctx_static, GGML_TYPE_I32, static_cast<int64_t>(T) * B);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx_static, backend);
  for (auto& [name, x] : w.by_name) {
    ggml_tensor* src = ggml_get_tensor(data_ctx, name.c_str());
    if (src == nullptr) throw std::runtime_error("tensor missing: " + name);
    ggml_backend_tensor_set(x, src->data, 0, ggml_nbytes(x));
  }
  // The same packing as training: positions restart per segment, attention stays inside it.
  std::vector<int32_t> p;
  std::vector<int32_t> all;
  std::vector<float> m(static_cast<size_t>(T) * T * B);
  std::vector<std::vector<int>> last(rows.size());  // per row: index of each segment's last token
  for (size_t b = 0; b < rows.size(); ++b) {
    std::vector<int> seg_start;
    for (const auto& seg : rows[b]) {
      const int at = static_cast<int>(seg_start.size());
      for (size_t i = 0; i < seg.size(); ++i) {
        p.push_back(static_cast<int32_t>(i));
        all.push_back(seg[i]);
        seg_start.push_back(at);
      }
      last[b].push_back(static_cast<int>(seg_start.size()) - 1);
    }
    fill_row_mask(seg_start, T, m.data() + b * static_cast<size_t>(T) * T);
  }
  ggml_backend_tensor_set(pos, p.data(), 0, ggml_nbytes(pos));
  ggml_backend_tensor_set(mask, m.data(), 0, ggml_nbytes(mask));
  ggml_backend_tensor_set(tokens, all.data(), 0, ggml_nbytes(tokens));
  ggml_context* ctx = ggml_init({ggml_tensor_overhead() * 2048 + ggml_graph_overhead(), nullptr, true});
  ggml_tensor* logits = forward(ctx, w, hp, tokens, pos, mask, T, B);
  ggml_cgraph* gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, logits);
  ggml_gallocr_t alloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
  ggml_gallocr_alloc_graph(alloc, gf);
  ggml_backend_graph_compute(backend, gf);
  std::vector<std::vector<std::vector<float>>> out(rows.size());
  for (size_t b = 0; b < rows.size(); ++b) {
    for (int at : last[b]) {
      auto& v = out[b].emplace_back(static_cast<size_t>(hp.n_vocab));
      ggml_backend_tensor_get(logits, v.data(), (b * T + static_cast<size_t>(at)) * hp.n_vocab * sizeof(float),
                              hp.n_vocab * sizeof(float));
    }
  }
  ggml_gallocr_free(alloc);
  ggml_free(ctx);
  ggml_backend_buffer_free(buf);
  ggml_free(ctx_static);
  ggml_backend_free(backend);
  gguf_free(g);
  ggml_free(data_ctx);
  return out;
}

}  // namespace sfcl::demo
