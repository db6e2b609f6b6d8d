// sfcl make-test-model: writes a tiny random LLaMA GGUF (tests and demos; never downloads).
#include <iostream>

#include "cli/commands.h"
#include "engine/engine.h"

namespace sfcl::cli {

namespace {

struct MakeTestModelOpts {
  std::string out;
  uint64_t seed = 1;
  engine::LlamaHParams hp;
};

void add_flags(CLI::App& cmd, MakeTestModelOpts& o) {
  cmd.add_option("out", o.out, "Output .gguf path")->required();
  cmd.add_option("--seed", o.seed, "Weight seed")->capture_default_str();
  cmd.add_option("--layers", o.hp.n_layer, "Layers")->capture_default_str()->check(CLI::Range(1, 64));
  cmd.add_option("--embd", o.hp.n_embd, "Embedding width (multiple of --heads)")->capture_default_str();
  cmd.add_option("--heads", o.hp.n_head, "Attention heads")->capture_default_str()->check(CLI::Range(1, 64));
  cmd.add_option("--ff", o.hp.n_ff, "Feed-forward width")->capture_default_str();
  cmd.add_option("--ctx", o.hp.n_ctx, "Training context length")->capture_default_str();
}

int run(const MakeTestModelOpts& o) {
  if (o.hp.n_embd % o.hp.n_head != 0) throw UsageError("--embd must be a multiple of --heads");
  engine::LlamaHParams hp = o.hp;
  hp.n_head_kv = hp.n_head;
  engine::write_tiny_test_model(o.out, o.seed, hp);
  std::cerr << "wrote " << o.out << "\n";
  return 0;
}

}  // namespace

Runner register_make_test_model(CLI::App& app) {
  return add_command<MakeTestModelOpts>(app, "make-test-model",
                                        "Write a tiny random-weight LLaMA GGUF with a byte vocabulary");
}

}  // namespace sfcl::cli
