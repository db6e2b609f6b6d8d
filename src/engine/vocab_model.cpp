// Random-weight models on real tokenizers: the check loop and the benchmarks run on the
// vocabularies users bring (byte-level BPE of 128k-152k tokens, SentencePiece), not only on the
// tiny byte vocabulary (docs/DESIGN.md, "Test models").
#include <cstring>
#include <string_view>

#include "engine/engine.h"
#include "engine/gguf_file.h"
#include "gguf.h"
#include "llama.h"

namespace sfcl::engine {

uint32_t write_random_model_on_vocab(const std::filesystem::path& path, const std::filesystem::path& vocab_gguf,
                                     uint64_t seed, const LlamaHParams& hp_in) {
  gguf_init_params params{true, nullptr};
  GgufPtr src(gguf_init_from_file(vocab_gguf.c_str(), params));
  if (!src) throw EngineError("not a readable GGUF vocabulary: " + vocab_gguf.string());
  const int64_t tokens = gguf_find_key(src.get(), "tokenizer.ggml.tokens");
  if (tokens < 0) throw EngineError(vocab_gguf.string() + " has no tokenizer.ggml.tokens");
  LlamaHParams hp = hp_in;
  hp.n_vocab = static_cast<uint32_t>(gguf_get_arr_n(src.get(), tokens));

  GgufPtr dst(gguf_init_empty());
  gguf_set_kv(dst.get(), src.get());
  // Keep only the tokenizer: the architecture keys of the vocabulary's own model (qwen2.*, ...)
  // would contradict the llama shape written below.
  std::vector<std::string> drop;
  for (int64_t i = 0; i < gguf_get_n_kv(dst.get()); ++i) {
    const std::string_view key = gguf_get_key(dst.get(), i);
    if (!key.starts_with("tokenizer.")) drop.emplace_back(key);
  }
  for (const auto& key : drop) gguf_remove_key(dst.get(), key.c_str());
  gguf_context* g = dst.get();
  set_llama_hparams(g, hp, "sfcl-random-" + vocab_gguf.stem().string());
  write_gguf_file(path, g, random_llama_weights(hp, seed));
  return hp.n_vocab;
}

LlamaHParams model_shape(const std::string& name) {
  LlamaHParams hp;
  hp.tie_output = true;
  hp.rms_eps = 1e-6F;
  if (name == "qwen2-0.5b") {
    hp.n_embd = 896;
    hp.n_layer = 24;
    hp.n_head = 14;
    hp.n_head_kv = 2;
    hp.n_ff = 4864;
    hp.n_ctx = 32768;
    hp.rope_freq_base = 1000000.0F;
    return hp;
  }
  if (name == "llama-3.2-1b") {
    hp.n_embd = 2048;
    hp.n_layer = 16;
    hp.n_head = 32;
    hp.n_head_kv = 8;
    hp.n_ff = 8192;
    hp.n_ctx = 131072;
    hp.rope_freq_base = 500000.0F;
    hp.rms_eps = 1e-5F;
    return hp;
  }
  throw EngineError("unknown model shape '" + name + "' (known: qwen2-0.5b, llama-3.2-1b)");
}

void quantize_model(const std::filesystem::path& in, const std::filesystem::path& out, const std::string& type) {
  load_backends();
  llama_model_quantize_params qp = llama_model_quantize_default_params();
  if (type == "f16") {
    qp.ftype = LLAMA_FTYPE_MOSTLY_F16;
  } else if (type == "q8_0") {
    qp.ftype = LLAMA_FTYPE_MOSTLY_Q8_0;
  } else if (type == "q4_k_m") {
    qp.ftype = LLAMA_FTYPE_MOSTLY_Q4_K_M;
  } else {
    throw EngineError("unknown weight type '" + type + "' (known: f32, f16, q8_0, q4_k_m)");
  }
  if (llama_model_quantize(in.c_str(), out.c_str(), &qp) != 0) {
    throw EngineError("llama.cpp could not quantise " + in.string());
  }
}

}  // namespace sfcl::engine
