#include "train.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>
#include <thread>

#include "corpus.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-opt.h"
#include "ggml.h"
#include "gguf.h"
#include "graph.h"

namespace sfcl::demo {

// Documents in a row that may fail to fit the context before training gives up.
constexpr int kMaxSegmentMisses = 1000;
namespace {

using namespace graph;  // NOLINT(google-build-using-namespace): the graph's own pieces

using Clock = std::chrono::steady_clock;

struct Tokenizer {
  const engine::Model& m;
  std::vector<engine::Token> operator()(const std::string& s) const { return m.tokenize(s, false, true); }
};

// One document with its question/answer turns, as the chat template writes it (BOS first), and
// the positions whose next token is a loss target: answer tokens, then document tokens.
struct Segment {
  std::vector<engine::Token> tokens;
  std::vector<int> answer_targets;
  std::vector<int> doc_targets;
};

Segment build_segment(const Tokenizer& tok, const Document& d, std::mt19937_64& rng, int T, engine::Token bos,
                      double repeat_share) {
  Segment s;
  s.tokens.push_back(bos);
  auto append = [&](const std::vector<engine::Token>& t) { s.tokens.insert(s.tokens.end(), t.begin(), t.end()); };
  append(tok("<|im_start|>system\n" + d.text + "<|im_end|>\n"));
  const int doc_end = static_cast<int>(s.tokens.size());
  if (doc_end + 24 > T) return {};
  for (int p = 1; p + 1 < doc_end; ++p) s.doc_targets.push_back(p);
  // A "repeat the document" turn first in some segments: every token of it is predictable only by
  // copying from the context, which is what makes induction (copy) heads form; QA answers then
  // need only to find where the value starts.
  std::vector<QA> qas;
  if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < repeat_share) {
    qas.push_back({d.lang == "zh" ? "复述文件。" : "Repeat the document.", d.text});
  }
  std::vector<size_t> order(d.qas.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t qi : order) qas.push_back(d.qas[qi]);
  // Every question of the document (as many as fit): each answer's first value token is the one
  // training signal that teaches where to look, so a segment carries as many as it can.
  for (const QA& qa : qas) {
    const auto q = tok("<|im_start|>user\n" + qa.question + "<|im_end|>\n<|im_start|>assistant\n");
    const auto a = tok(qa.answer + "<|im_end|>");
    const auto nl = tok("\n");
    if (s.tokens.size() + q.size() + a.size() + nl.size() > static_cast<size_t>(T)) break;
    append(q);
    const int a0 = static_cast<int>(s.tokens.size());
    append(a);
    for (int p = a0 - 1; p + 1 < static_cast<int>(s.tokens.size()); ++p) s.answer_targets.push_back(p);
    append(nl);
  }
  if (s.answer_targets.empty()) return {};
  return s;
}

// A training row: several segments packed into T tokens (positions restart at each segment, the
// attention mask is causal within a segment and blocks everything across), padding after.
struct Row {
  std::vector<engine::Token> tokens;
  std::vector<int32_t> pos;
  std::vector<int> segment_start;  // per position: where its segment begins
  std::vector<std::pair<int, engine::Token>> targets;
};

// Appends `seg` at the row's end; false when it does not fit.
bool pack(const Segment& seg, int T, Row& row, std::vector<int>& answer, std::vector<int>& doc) {
  const int at = static_cast<int>(row.tokens.size());
  if (at + static_cast<int>(seg.tokens.size()) > T) return false;
  for (size_t i = 0; i < seg.tokens.size(); ++i) {
    row.tokens.push_back(seg.tokens[i]);
    row.pos.push_back(static_cast<int32_t>(i));
    row.segment_start.push_back(at);
  }
  for (int p : seg.answer_targets) answer.push_back(at + p);
  for (int p : seg.doc_targets) doc.push_back(at + p);
  return true;
}

// Closes a row: pads it to T and picks K targets (answer tokens first, document tokens fill up).
void finish_row(int T, int K, engine::Token pad, std::mt19937_64& rng, std::vector<int>& answer, std::vector<int>& doc,
                Row& row) {
  const int used = static_cast<int>(row.tokens.size());
  for (int p = used; p < T; ++p) {
    row.tokens.push_back(pad);
    row.pos.push_back(p - used);
    row.segment_start.push_back(used);
  }
  row.targets.clear();
  std::shuffle(answer.begin(), answer.end(), rng);
  std::shuffle(doc.begin(), doc.end(), rng);
  for (const auto* list : {&answer, &doc}) {
    for (int p : *list) {
      if (static_cast<int>(row.targets.size()) >= K) break;
      row.targets.emplace_back(p, row.tokens[static_cast<size_t>(p) + 1]);
    }
  }
  const size_t n = row.targets.size();
  while (static_cast<int>(row.targets.size()) < K) row.targets.push_back(row.targets[row.targets.size() % n]);
}

struct LrState {
  float lr = 0.0F;
};
ggml_opt_optimizer_params opt_params(void* ud) {
  ggml_opt_optimizer_params p = ggml_opt_get_default_optimizer_params(nullptr);
  p.adamw.alpha = static_cast<LrState*>(ud)->lr;
  p.adamw.beta1 = 0.9F;
  p.adamw.beta2 = 0.99F;
  p.adamw.eps = 1e-8F;
  p.adamw.wd = 0.0F;
  return p;
}

// A "document" of random words (letters, digits, amount and ID punctuation, corpus CJK
// characters): repeating it is possible only by copying from the context, the pure form of the
// skill grounded answers need.
Document random_copy_document(std::mt19937_64& rng) {
  static const std::string kAscii = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789$,.%-";
  static const std::vector<std::string> kCjk = corpus_characters();
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Document d;
  const bool zh = pick(0, 3) == 0;
  d.lang = zh ? "zh" : "en";
  const int words = pick(3, 8);
  for (int w = 0; w < words; ++w) {
    if (w > 0 && !zh) d.text += ' ';
    const int len = pick(2, 9);
    for (int c = 0; c < len; ++c) {
      if (zh && pick(0, 1) == 0) {
        d.text += kCjk[static_cast<size_t>(pick(0, static_cast<int>(kCjk.size()) - 1))];
      } else {
        d.text += kAscii[static_cast<size_t>(pick(0, static_cast<int>(kAscii.size()) - 1))];
      }
    }
  }
  return d;
}

// Greedy answers through llama.cpp on eval items: exact match of the answer text.
double exact_match(const std::filesystem::path& gguf, int n_items, uint64_t seed, Split split = Split::eval) {
  auto model = engine::Model::load({gguf});
  engine::Context ctx(*model, {512, 256, 1, 1});
  int ok = 0;
  for (int i = 0; i < n_items; ++i) {
    const Document d = make_document(seed, split, static_cast<uint64_t>(i));
    const QA& qa = d.qas[static_cast<size_t>(i) % d.qas.size()];
    const auto prompt = model->tokenize(chat_prompt(d.text, qa.question), true, true);
    if (prompt.size() > 400) continue;
    ctx.clear(0);
    ctx.decode(prompt, 0);
    engine::Sampler s(*model, {0.0F, 0, 1.0F, 0.0F, 1});
    std::string out;
    for (int t = 0; t < 80; ++t) {
      const engine::Token tok = s.sample(ctx.logits_last());
      if (model->is_eog(tok)) break;
      model->append_piece(tok, out);
      ctx.decode(std::span<const engine::Token>(&tok, 1), static_cast<int32_t>(prompt.size()) + t);
    }
    ok += out == qa.answer ? 1 : 0;
  }
  return static_cast<double>(ok) / n_items;
}

}  // namespace

std::string chat_prompt(const std::string& document, const std::string& question) {
  return "<|im_start|>system\n" + document + "<|im_end|>\n<|im_start|>user\n" + question +
         "<|im_end|>\n<|im_start|>assistant\n";
}

VocabOptions vocab_options(const TrainOptions& o) {
  VocabOptions v;
  v.digit_pairs = o.digit_pairs;
  v.merges = o.merges;
  v.seed = o.vocab_seed;
  return v;
}

engine::LlamaHParams demo_hparams(const TrainOptions& o, size_t n_vocab) {
  engine::LlamaHParams hp;
  hp.n_vocab = static_cast<uint32_t>(n_vocab);
  hp.n_embd = o.embd;
  hp.n_layer = o.layers;
  hp.n_head = o.heads;
  hp.n_head_kv = o.heads;
  hp.n_ff = o.ff;
  hp.n_ctx = std::max<uint32_t>(o.ctx, 512);
  return hp;
}

TrainReport train_demo(const TrainOptions& o) {
  if (o.embd % o.heads != 0) throw std::invalid_argument("--embd must be a multiple of --heads");
  std::filesystem::create_directories(o.work_dir);
  const auto vocab = demo_vocab(vocab_options(o));  // merges are learned here, once
  const engine::LlamaHParams hp = demo_hparams(o, vocab.size());
  const int T = static_cast<int>(o.ctx);
  const int B = o.batch;
  const int K = o.targets_per_row;
  const int N = B * K;
  const int V = static_cast<int>(hp.n_vocab);

  // The tokenizer is llama.cpp's own, read from a GGUF with this vocabulary.
  auto init = engine::random_llama_weights(hp, o.seed, 1.0F);
  if (!o.init_from.empty()) {
    // Continue from a checkpoint of the same shape (a recipe in stages).
    ggml_context* data_ctx = nullptr;
    gguf_context* g = gguf_init_from_file(o.init_from.c_str(), {false, &data_ctx});
    if (g == nullptr) throw std::runtime_error("cannot read --init-from " + o.init_from.string());
    for (auto& t : init) {
      ggml_tensor* src = ggml_get_tensor(data_ctx, t.name.c_str());
      if (src == nullptr || static_cast<size_t>(ggml_nelements(src)) != t.data.size()) {
        gguf_free(g);
        ggml_free(data_ctx);
        throw std::runtime_error("--init-from " + o.init_from.string() + ": tensor " + t.name +
                                 " missing or of another shape");
      }
      std::memcpy(t.data.data(), src->data, t.data.size() * sizeof(float));
    }
    gguf_free(g);
    ggml_free(data_ctx);
  } else if (o.residual_init) {
    // Token identity must stay visible in the residual stream: embeddings at unit scale, the
    // blocks' output projections scaled down by 1/sqrt(2 * layers) (GPT-2 style).
    const float branch = 1.0F / std::sqrt(2.0F * static_cast<float>(hp.n_layer));
    for (auto& t : init) {
      const float f = t.name == "token_embd.weight" ? std::sqrt(static_cast<float>(hp.n_embd))
                      : (t.name.ends_with("attn_output.weight") || t.name.ends_with("ffn_down.weight")) ? branch
                                                                                                        : 1.0F;
      for (auto& x : t.data) x *= f;
    }
  } else if (o.init_std > 0.0F) {
    // GPT-2 style: every matrix N(0, init_std), the blocks' output projections down by
    // 1/sqrt(2 * layers) so the residual stream starts close to the embeddings.
    const float branch = 1.0F / std::sqrt(2.0F * static_cast<float>(hp.n_layer));
    for (auto& t : init) {
      if (t.ne.size() == 1) continue;                                 // norm weights stay 1
      float f = o.init_std * std::sqrt(static_cast<float>(t.ne[0]));  // random_llama_weights: std 1/sqrt(fan-in)
      if (t.name.ends_with("attn_output.weight") || t.name.ends_with("ffn_down.weight")) f *= branch;
      for (auto& x : t.data) x *= f;
    }
  }
  const auto init_path = o.work_dir / "init.gguf";
  engine::write_llama_gguf(init_path, hp, vocab, init, engine::kChatMlTemplate, "sfcl-demo");
  auto tok_model = engine::Model::load({init_path});
  const Tokenizer tok{*tok_model};

  ggml_backend_t backend = cpu_backend(o.threads);
  ggml_init_params sp{ggml_tensor_overhead() * 64, nullptr, true};
  ggml_context* ctx_static = ggml_init(sp);
  Weights w = create_weights(ctx_static, hp);
  ggml_tensor* pos = ggml_new_tensor_1d(ctx_static, GGML_TYPE_I32, static_cast<int64_t>(T) * B);
  ggml_tensor* mask = ggml_new_tensor_4d(ctx_static, GGML_TYPE_F32, T, T, 1, B);  // per row: packed segments
  ggml_tensor* idx = ggml_new_tensor_1d(ctx_static, GGML_TYPE_I32, N);
  ggml_tensor* tokens = ggml_new_tensor_1d(ctx_static, GGML_TYPE_I32,
                                           static_cast<int64_t>(T) * B);  // static graphs: inputs live here too
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx_static, backend);
  for (const auto& t : init) {
    ggml_tensor* x = w.by_name.at(t.name);
    ggml_backend_tensor_set(x, t.data.data(), 0, ggml_nbytes(x));
    ggml_set_param(x);
  }

  ggml_init_params cp{ggml_tensor_overhead() * 4096 + ggml_graph_overhead_custom(4096, true), nullptr, true};
  ggml_context* ctx_compute = ggml_init(cp);
  ggml_tensor* sel = forward(ctx_compute, w, hp, tokens, pos, mask, T, B, idx);  // [V, N]: only the targets

  ggml_backend_sched_t sched = ggml_backend_sched_new(&backend, nullptr, 1, 8192, false, true);
  LrState lr;
  ggml_opt_params op = ggml_opt_default_params(sched, GGML_OPT_LOSS_TYPE_CROSS_ENTROPY);
  op.ctx_compute = ctx_compute;
  op.inputs = tokens;
  op.outputs = sel;
  op.opt_period = 1;
  op.get_opt_pars = opt_params;
  op.get_opt_pars_ud = &lr;
  op.optimizer = GGML_OPT_OPTIMIZER_TYPE_ADAMW;
  ggml_opt_context_t opt = ggml_opt_init(op);
  ggml_opt_result_t result = ggml_opt_result_init();

  std::mt19937_64 rng(o.seed);
  std::vector<int32_t> tok_buf(static_cast<size_t>(T) * B);
  std::vector<int32_t> idx_buf(static_cast<size_t>(N));
  std::vector<float> labels(static_cast<size_t>(V) * N);
  std::vector<int32_t> pos_buf(static_cast<size_t>(T) * B);
  std::vector<float> mask_buf(static_cast<size_t>(T) * T * B);
  Row row;
  std::vector<int> answer_pos;
  std::vector<int> doc_pos;
  Segment pending;  // the segment that did not fit in the previous row
  uint64_t doc_index = 0;
  TrainReport rep;
  const auto t0 = Clock::now();
  auto last_ckpt = t0;
  const double total_s = o.minutes * 60.0;
  int64_t tokens_seen = 0;
  double loss_ema = 0.0;
  for (int64_t step = 0;; ++step) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    if ((o.max_steps > 0 && step >= o.max_steps) || (o.max_steps == 0 && elapsed >= total_s)) break;
    const double frac =
        o.max_steps > 0 ? static_cast<double>(step) / static_cast<double>(o.max_steps) : elapsed / total_s;
    // Warm-up, constant, then a linear decay over the last `decay_share` of the run.
    const double decay_from = 1.0 - o.decay_share;
    lr.lr = step < o.warmup ? o.lr * static_cast<float>(step + 1) / static_cast<float>(o.warmup)
            : frac < decay_from
                ? o.lr
                : o.lr_min + (o.lr - o.lr_min) * static_cast<float>((1.0 - frac) / std::max(1e-9, o.decay_share));
    std::fill(labels.begin(), labels.end(), 0.0F);
    for (int b = 0; b < B; ++b) {
      row = Row{};
      answer_pos.clear();
      doc_pos.clear();
      for (;;) {
        for (int misses = 0; pending.tokens.empty(); ++misses) {
          // A context too short for any document would otherwise loop here for ever.
          if (misses == kMaxSegmentMisses) {
            throw std::runtime_error("--ctx " + std::to_string(T) +
                                     " is too short for the corpus documents (try --ctx 256 or more)");
          }
          const bool copy = std::uniform_real_distribution<double>(0.0, 1.0)(rng) < o.copy_share;
          pending = copy ? build_segment(tok, random_copy_document(rng), rng, T, tok_model->bos(), 1.0)
                         : build_segment(tok, make_document(o.seed, Split::train, doc_index++), rng, T,
                                         tok_model->bos(), o.repeat_share);
        }
        if (!pack(pending, T, row, answer_pos, doc_pos)) break;
        pending = Segment{};
      }
      finish_row(T, K, 3, rng, answer_pos, doc_pos, row);
      std::copy(row.tokens.begin(), row.tokens.end(), tok_buf.begin() + static_cast<ptrdiff_t>(b) * T);
      std::copy(row.pos.begin(), row.pos.end(), pos_buf.begin() + static_cast<ptrdiff_t>(b) * T);
      fill_row_mask(row.segment_start, T, mask_buf.data() + static_cast<size_t>(b) * T * T);
      for (int k = 0; k < K; ++k) {
        const auto& [p, next] = row.targets[static_cast<size_t>(k)];
        idx_buf[static_cast<size_t>(b) * K + k] = b * T + p;
        labels[(static_cast<size_t>(b) * K + k) * V + static_cast<size_t>(next)] = 1.0F;
      }
    }
    ggml_opt_alloc(opt, true);
    ggml_backend_tensor_set(ggml_opt_inputs(opt), tok_buf.data(), 0, ggml_nbytes(tokens));
    ggml_backend_tensor_set(idx, idx_buf.data(), 0, ggml_nbytes(idx));
    ggml_backend_tensor_set(pos, pos_buf.data(), 0, ggml_nbytes(pos));
    ggml_backend_tensor_set(mask, mask_buf.data(), 0, ggml_nbytes(mask));
    ggml_backend_tensor_set(ggml_opt_labels(opt), labels.data(), 0, labels.size() * sizeof(float));
    ggml_opt_result_reset(result);
    ggml_opt_eval(opt, result);
    double loss = 0.0;
    double unc = 0.0;
    ggml_opt_result_loss(result, &loss, &unc);
    tokens_seen += static_cast<int64_t>(T) * B;
    if (step == 0) rep.first_loss = loss;
    loss_ema = step == 0 ? loss : 0.98 * loss_ema + 0.02 * loss;
    rep.last_loss = loss;
    rep.steps = step + 1;
    const double now_s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (o.progress && o.on_step) {
      o.on_step({step + 1, loss, loss_ema, static_cast<double>(lr.lr),
                 static_cast<double>(tokens_seen) / std::max(1e-9, now_s), now_s});
    } else if (o.progress && (step % 10 == 0)) {
      const double tps = static_cast<double>(tokens_seen) / std::max(1e-9, now_s);
      const double left = o.max_steps > 0
                              ? now_s / static_cast<double>(step + 1) * static_cast<double>(o.max_steps - step - 1)
                              : std::max(0.0, total_s - now_s);
      std::fprintf(stderr, "\rstep %6lld | loss %.4f (avg %.4f) | lr %.2e | %6.0f tok/s | %3.0f%% | ETA %02d:%02d   ",
                   static_cast<long long>(step), loss, loss_ema, static_cast<double>(lr.lr), tps, 100.0 * frac,
                   static_cast<int>(left) / 60, static_cast<int>(left) % 60);
    }
    if (o.checkpoint_minutes > 0 &&
        std::chrono::duration<double>(Clock::now() - last_ckpt).count() >= o.checkpoint_minutes * 60.0) {
      last_ckpt = Clock::now();
      const auto ck = o.work_dir / ("ckpt-" + std::to_string(static_cast<int>(now_s / 60)) + "min.gguf");
      engine::write_llama_gguf(ck, hp, vocab, read_weights(w, hp), engine::kChatMlTemplate, "sfcl-demo");
      const double em = o.eval_items > 0 ? exact_match(ck, o.eval_items, o.seed) : -1.0;
      const double em_train = o.eval_items > 0 ? exact_match(ck, o.eval_items, o.seed, Split::train) : -1.0;
      std::fprintf(stderr, "\ncheckpoint %s: step %lld, loss %.4f, exact match eval %.1f%% train %.1f%%\n", ck.c_str(),
                   static_cast<long long>(step), loss_ema, 100.0 * em, 100.0 * em_train);
    }
  }
  rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  rep.tokens_per_second = static_cast<double>(tokens_seen) / std::max(1e-9, rep.seconds);
  const auto final_weights = read_weights(w, hp);
  for (size_t i = 0; i < final_weights.size(); ++i) {
    (final_weights[i].data == init[i].data ? rep.unchanged_tensors : rep.changed_tensors)
        .push_back(final_weights[i].name);
  }
  if (o.out.has_parent_path()) std::filesystem::create_directories(o.out.parent_path());
  engine::write_llama_gguf(o.out, hp, vocab, final_weights, engine::kChatMlTemplate, "sfcl-demo");
  if (o.progress && !o.on_step) std::fprintf(stderr, "\n");
  if (o.eval_items > 0) rep.exact_match = exact_match(o.out, o.eval_items, o.seed);
  ggml_opt_result_free(result);
  ggml_opt_free(opt);
  ggml_backend_sched_free(sched);
  ggml_free(ctx_compute);
  ggml_backend_buffer_free(buf);
  ggml_free(ctx_static);
  ggml_backend_free(backend);
  return rep;
}

}  // namespace sfcl::demo
