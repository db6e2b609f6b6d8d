// sfcl train-demo: reproduces the demo model (own ggml graph + ggml-opt AdamW, fixed seed).
#include <cstdio>

#include "tools/commands.h"
#include "tools/progress.h"
#include "train.h"

namespace sfcl::tools {

namespace {

struct TrainDemoOpts {
  demo::TrainOptions train;
};

void add_flags(CLI::App& cmd, TrainDemoOpts& opts) {
  demo::TrainOptions& o = opts.train;
  cmd.add_option("--out", o.out, "Output GGUF")->capture_default_str();
  cmd.add_option("--work-dir", o.work_dir, "Checkpoints directory")->capture_default_str();
  cmd.add_option("--minutes", o.minutes, "Training time budget")->capture_default_str()->check(CLI::Range(0.01, 1e4));
  cmd.add_option("--max-steps", o.max_steps, "Stop after this many steps (0 = use --minutes)")->capture_default_str();
  cmd.add_option("--layers", o.layers, "Transformer layers")->capture_default_str()->check(CLI::Range(1, 12));
  cmd.add_option("--embd", o.embd, "Embedding width")->capture_default_str()->check(CLI::Range(16, 4096));
  cmd.add_option("--heads", o.heads, "Attention heads")->capture_default_str()->check(CLI::Range(1, 64));
  cmd.add_option("--ff", o.ff, "Feed-forward width")->capture_default_str()->check(CLI::Range(16, 16384));
  cmd.add_option("--ctx", o.ctx, "Training sequence length")->capture_default_str()->check(CLI::Range(64, 4096));
  cmd.add_option("--batch", o.batch, "Sequences per optimizer step")->capture_default_str()->check(CLI::Range(1, 256));
  cmd.add_option("--targets-per-row", o.targets_per_row, "Loss targets per row (answer tokens first)")
      ->capture_default_str()
      ->check(CLI::Range(4, 4096));
  cmd.add_option("--repeat-share", o.repeat_share, "Share of rows that start with a repeat-the-document turn")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd.add_option("--residual-init", o.residual_init, "Unit-scale embeddings and down-scaled block outputs at init")
      ->capture_default_str();
  cmd.add_option("--init-std", o.init_std,
                 "Initial weight std for every matrix, block outputs scaled by 1/sqrt(2*layers) (0 = 1/sqrt(fan-in))")
      ->capture_default_str()
      ->check(CLI::Range(0.0F, 1.0F));
  cmd.add_option("--copy-share", o.copy_share, "Share of rows that repeat a random-word document")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd.add_option("--init-from", o.init_from, "Start from this checkpoint (same shape) instead of random weights");
  cmd.add_option("--decay-share", o.decay_share, "Linear learning-rate decay over this last share of the run")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd.add_option("--digit-pairs", o.digit_pairs, "Add the 100 two-digit tokens \"00\"..\"99\" to the vocabulary")
      ->capture_default_str();
  cmd.add_option("--merges", o.merges, "Subword merges learned from training documents (0 = byte-level words)")
      ->capture_default_str()
      ->check(CLI::Range(0, 8000));
  cmd.add_option("--vocab-seed", o.vocab_seed,
                 "Seed of the documents the merges are learned from (same value to continue a checkpoint)")
      ->capture_default_str();
  cmd.add_option("--seed", o.seed, "Seed (data and weights)")->capture_default_str();
  cmd.add_option("--lr", o.lr, "Peak AdamW learning rate")->capture_default_str();
  cmd.add_option("-t,--threads", o.threads, "CPU threads (0 = all)")->capture_default_str();
  cmd.add_option("--checkpoint-minutes", o.checkpoint_minutes, "Minutes between checkpoints (0 = none)")
      ->capture_default_str();
  cmd.add_option("--eval-items", o.eval_items, "Eval items for greedy exact match at checkpoints")
      ->capture_default_str();
}

int run(const TrainDemoOpts& opts) {
  demo::TrainOptions train = opts.train;
  // A run ends after --max-steps, else after --minutes: the bar counts whichever ends it.
  const bool by_steps = train.max_steps > 0;
  Progress progress("train", by_steps ? train.max_steps : static_cast<int64_t>(train.minutes * 60.0),
                    by_steps ? "steps" : "s");
  if (!by_steps) progress.hide_rate();  // seconds per second
  train.on_step = [&progress, by_steps](const demo::TrainStep& s) {
    char note[128];
    std::snprintf(note, sizeof note, "step %lld, loss %.4f (avg %.4f), lr %.2e, %.0f tok/s",
                  static_cast<long long>(s.step), s.loss, s.loss_avg, s.lr, s.tokens_per_second);
    progress.note(note);
    progress.set(by_steps ? s.step : static_cast<int64_t>(s.elapsed_s));
  };
  const demo::TrainReport r = demo::train_demo(train);
  progress.finish();
  std::printf(
      "{\"steps\":%lld,\"first_loss\":%.4f,\"last_loss\":%.4f,\"tokens_per_second\":%.0f,\"seconds\":%.1f,"
      "\"exact_match\":%.3f,\"changed_tensors\":%zu,\"unchanged_tensors\":%zu,\"out\":\"%s\"}\n",
      static_cast<long long>(r.steps), r.first_loss, r.last_loss, r.tokens_per_second, r.seconds, r.exact_match,
      r.changed_tensors.size(), r.unchanged_tensors.size(), opts.train.out.c_str());
  return 0;
}

}  // namespace

Runner register_train_demo(CLI::App& app) {
  return cli::add_command<TrainDemoOpts>(app, "train-demo",
                                         "Train the demo grounded-QA model from scratch (writes a GGUF)");
}

}  // namespace sfcl::tools
