// `sfcl train-demo`: trains the demo model from scratch with sfcl's own ggml graph of the llama
// architecture and ggml's generic optimizer (ggml-opt, AdamW), then writes a GGUF that llama.cpp
// serves. (llama_opt_* cannot train attn_k/attn_v/token_embd: see docs/FIDELITY.md.)
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "vocab.h"

namespace sfcl::demo {

// Where a run is, after one optimizer step.
struct TrainStep {
  int64_t step = 0;       // steps done
  double loss = 0.0;      // this step's
  double loss_avg = 0.0;  // exponential moving average
  double lr = 0.0;
  double tokens_per_second = 0.0;
  double elapsed_s = 0.0;
};

struct TrainOptions {
  std::filesystem::path out = "demo/sfcl-demo.gguf";
  std::filesystem::path work_dir = "demo/work";  // checkpoints (git-ignored)
  double minutes = 60.0;
  int64_t max_steps = 0;  // 0 = until `minutes`
  uint32_t layers = 2;
  uint32_t embd = 128;
  uint32_t heads = 4;
  uint32_t ff = 512;
  uint32_t ctx = 256;
  int batch = 16;
  int targets_per_row = 128;  // answer tokens first, document tokens fill the rest
  uint64_t seed = 42;
  double repeat_share = 0.5;        // rows that start with a "repeat the document" turn
  bool residual_init = false;       // unit-scale embeddings, down-scaled block outputs (slows copying: measured)
  float init_std = 0.0F;            // > 0: every matrix N(0, init_std), block outputs scaled down
  double copy_share = 0.0;          // rows that repeat a random-word document (pure copying)
  std::filesystem::path init_from;  // start from this checkpoint's weights instead of random ones
  float lr = 3e-3F;
  float lr_min = 3e-4F;
  int warmup = 100;
  double decay_share = 0.2;  // linear lr decay over this last share of the run (0 = none)
  bool digit_pairs = false;  // the vocabulary also holds "00".."99" (digit runs tokenise in pairs)
  int merges = 0;            // subword merges learned from training documents (demo/vocab.h)
  uint64_t vocab_seed = 42;  // which documents the merges are learned from (keep it to continue a run)
  int threads = 0;
  double checkpoint_minutes = 5.0;
  int eval_items = 40;  // greedy exact match through llama.cpp at each checkpoint
  bool progress = true;
  // With `progress`: called after every step instead of the built-in status line (sfcl train-demo
  // draws a progress bar with it).
  std::function<void(const TrainStep&)> on_step;
};

struct TrainReport {
  int64_t steps = 0;
  double first_loss = 0.0;
  double last_loss = 0.0;
  double tokens_per_second = 0.0;
  double seconds = 0.0;
  double exact_match = -1.0;                 // at the end, on eval_items items (-1 = not measured)
  std::vector<std::string> changed_tensors;  // tensors whose values differ from the init
  std::vector<std::string> unchanged_tensors;
};

TrainReport train_demo(const TrainOptions& options);

// The vocabulary these options train with (demo/vocab.h).
VocabOptions vocab_options(const TrainOptions& options);
engine::LlamaHParams demo_hparams(const TrainOptions& options, size_t n_vocab);

// Runs sfcl's training graph forward on one token sequence and returns the logits of the last
// position (for the test that llama.cpp reproduces the graph).
std::vector<float> graph_last_logits(const std::filesystem::path& gguf, const std::vector<engine::Token>& tokens);
// The same for several rows of equal length in one batch, as training runs them.
std::vector<std::vector<float>> graph_last_logits_batch(const std::filesystem::path& gguf,
                                                        const std::vector<std::vector<engine::Token>>& rows);

// Several segments packed per row, as training packs documents (positions restart per segment,
// attention stays inside it): the logits at the last token of every segment, per row.
std::vector<std::vector<std::vector<float>>> graph_last_logits_packed(
    const std::filesystem::path& gguf, const std::vector<std::vector<std::vector<engine::Token>>>& rows);

// Compares the training graph's backward pass (ggml autodiff through the packed, masked forward
// and the cross-entropy over selected target rows) with central finite differences on a small
// random model: per weight tensor, the largest relative error over `per_tensor` sampled elements.
struct GradientError {
  std::string tensor;
  double max_rel_error = 0.0;
  double max_abs_grad = 0.0;
};
std::vector<GradientError> gradient_check(const engine::LlamaHParams& hp, uint64_t seed, int per_tensor);

// Chat-formatted example text as llama_chat_apply_template writes ChatML.
std::string chat_prompt(const std::string& document, const std::string& question);

}  // namespace sfcl::demo
