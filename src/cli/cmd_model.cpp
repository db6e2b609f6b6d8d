// sfcl make-test-model: writes a tiny random LLaMA GGUF (tests and demos; never downloads).
#include <iostream>

#include "cli/commands.h"
#include "engine/engine.h"

namespace sfcl::cli {

Runner register_make_test_model(CLI::App& app) {
  auto* cmd = app.add_subcommand("make-test-model", "Write a tiny random-weight LLaMA GGUF with a byte vocabulary");
  struct Opts {
    std::string out;
    uint64_t seed = 1;
    engine::LlamaHParams hp;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("out", o->out, "Output .gguf path")->required();
  cmd->add_option("--seed", o->seed, "Weight seed")->capture_default_str();
  cmd->add_option("--layers", o->hp.n_layer, "Layers")->capture_default_str()->check(CLI::Range(1, 64));
  cmd->add_option("--embd", o->hp.n_embd, "Embedding width (multiple of --heads)")->capture_default_str();
  cmd->add_option("--heads", o->hp.n_head, "Attention heads")->capture_default_str()->check(CLI::Range(1, 64));
  cmd->add_option("--ff", o->hp.n_ff, "Feed-forward width")->capture_default_str();
  cmd->add_option("--ctx", o->hp.n_ctx, "Training context length")->capture_default_str();
  return [o]() -> int {
    if (o->hp.n_embd % o->hp.n_head != 0) throw UsageError("--embd must be a multiple of --heads");
    o->hp.n_head_kv = o->hp.n_head;
    engine::write_tiny_test_model(o->out, o->seed, o->hp);
    std::cerr << "wrote " << o->out << "\n";
    return 0;
  };
}

}  // namespace sfcl::cli
