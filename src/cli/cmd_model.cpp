// sfcl make-test-model: writes a random-weight LLaMA GGUF, on the tiny byte vocabulary or on a real
// tokenizer taken from a vocabulary GGUF (tests, demos and benchmarks; never downloads).
#include <iostream>

#include "cli/commands.h"
#include "engine/engine.h"

namespace sfcl::cli {

namespace {

struct MakeTestModelOpts {
  std::string out;
  uint64_t seed = 1;
  engine::LlamaHParams hp;
  std::string vocab;  // a GGUF whose tokenizer.* keys the model takes
  std::string like;   // a public model's shape
  std::string type = "f32";
};

void add_flags(CLI::App& cmd, MakeTestModelOpts& o) {
  cmd.add_option("out", o.out, "Output .gguf path")->required();
  cmd.add_option("--seed", o.seed, "Weight seed")->capture_default_str();
  cmd.add_option("--layers", o.hp.n_layer, "Layers")->capture_default_str()->check(CLI::Range(1, 64));
  cmd.add_option("--embd", o.hp.n_embd, "Embedding width (multiple of --heads)")->capture_default_str();
  cmd.add_option("--heads", o.hp.n_head, "Attention heads")->capture_default_str()->check(CLI::Range(1, 64));
  cmd.add_option("--ff", o.hp.n_ff, "Feed-forward width")->capture_default_str();
  cmd.add_option("--ctx", o.hp.n_ctx, "Training context length")->capture_default_str();
  cmd.add_option(
         "--vocab", o.vocab,
         "Take the tokenizer (and chat template) of this GGUF, e.g. .deps/llama.cpp/models/ggml-vocab-qwen2.gguf")
      ->check(CLI::ExistingFile);
  cmd.add_option("--like", o.like, "Shape of a public model, weights random: qwen2-0.5b, llama-3.2-1b (needs --vocab)")
      ->check(CLI::IsMember({"qwen2-0.5b", "llama-3.2-1b"}));
  cmd.add_option("--type", o.type, "Weight type, quantised by llama.cpp: f32, f16, q8_0, q4_k_m")
      ->capture_default_str()
      ->check(CLI::IsMember({"f32", "f16", "q8_0", "q4_k_m"}));
}

int run(const MakeTestModelOpts& o) {
  if (o.hp.n_embd % o.hp.n_head != 0) throw UsageError("--embd must be a multiple of --heads");
  if (!o.like.empty() && o.vocab.empty()) throw UsageError("--like needs --vocab (the shape's own tokenizer)");
  engine::LlamaHParams hp = o.hp;
  hp.n_head_kv = hp.n_head;
  if (!o.like.empty()) hp = engine::model_shape(o.like);
  const std::filesystem::path out = o.out;
  const std::filesystem::path f32 = o.type == "f32" ? out : std::filesystem::path(o.out + ".f32.tmp");
  if (o.vocab.empty()) {
    engine::write_tiny_test_model(f32, o.seed, hp);
  } else {
    if (o.like.empty()) hp.tie_output = true;
    const uint32_t n_vocab = engine::write_random_model_on_vocab(f32, o.vocab, o.seed, hp);
    std::cerr << "vocabulary: " << n_vocab << " tokens from " << o.vocab << "\n";
  }
  if (f32 != out) {
    engine::quantize_model(f32, out, o.type);
    std::error_code ec;
    std::filesystem::remove(f32, ec);
  }
  std::cerr << "wrote " << o.out << "\n";
  return 0;
}

}  // namespace

namespace {
struct MakeTestLoraOpts {
  std::string out;
  std::string base;
  uint32_t rank = 8;
  uint64_t seed = 1;
  float scale = 0.05F;
};

void add_flags(CLI::App& cmd, MakeTestLoraOpts& o) {
  cmd.add_option("out", o.out, "Output .gguf path")->required();
  cmd.add_option("--base", o.base, "The model GGUF the adapter is for")->required()->check(CLI::ExistingFile);
  cmd.add_option("--rank", o.rank, "LoRA rank")->capture_default_str()->check(CLI::Range(1, 256));
  cmd.add_option("--seed", o.seed, "Weight seed")->capture_default_str();
  cmd.add_option("--scale", o.scale, "Standard deviation of the random A and B")->capture_default_str();
}

int run(const MakeTestLoraOpts& o) {
  engine::write_random_lora(o.out, o.base, o.rank, o.seed, o.scale);
  std::cerr << "wrote " << o.out << "\n";
  return 0;
}
}  // namespace

Runner register_make_test_lora(CLI::App& app) {
  return add_command<MakeTestLoraOpts>(
      app, "make-test-lora",
      "Write a random-weight LoRA adapter GGUF for a model (attn_q, attn_v, ffn_up), for testing --lora");
}

Runner register_make_test_model(CLI::App& app) {
  return add_command<MakeTestModelOpts>(
      app, "make-test-model", "Write a random-weight LLaMA GGUF (byte vocabulary, or a real one with --vocab)");
}

}  // namespace sfcl::cli
