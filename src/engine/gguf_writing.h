// Part of engine/engine.h (include that): GGUF writing with ggml's gguf.h, for tiny LLaMA models
// in tests, the demo model, random-weight models on real vocabularies and random LoRA adapters.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace sfcl::engine {

struct VocabEntry {
  std::string text;
  float score = 0.0F;
  int32_t type = 1;  // llama_token_type: 1 normal, 2 unknown, 3 control, 4 user-defined, 6 byte
};

// <unk> <s> </s> <pad>, 256 byte tokens, "▁", printable ASCII, <|im_start|> <|im_end|>, then
// `extra` (e.g. CJK characters) as normal tokens. SPM ("llama") tokenizer semantics.
std::vector<VocabEntry> make_byte_vocab(const std::vector<std::string>& extra = {});

struct LlamaHParams {
  uint32_t n_vocab = 0;
  uint32_t n_embd = 64;
  uint32_t n_layer = 2;
  uint32_t n_head = 4;
  uint32_t n_head_kv = 4;
  uint32_t n_ff = 128;
  uint32_t n_ctx = 1024;
  float rms_eps = 1e-5F;
  float rope_freq_base = 10000.0F;
  bool tie_output = false;  // no output.weight: llama.cpp reuses token_embd (as Qwen2 and Llama 3.2 do)
};

struct NamedTensor {
  std::string name;         // GGUF name, e.g. "blk.0.attn_q.weight"
  std::vector<int64_t> ne;  // ggml order: ne[0] = input dimension
  std::vector<float> data;  // f32, row-major in ggml order
};

// ChatML, which llama_chat_apply_template recognises.
extern const char* const kChatMlTemplate;

// Tensor shapes of the llama architecture for these hparams, data empty.
std::vector<NamedTensor> llama_tensor_layout(const LlamaHParams& hp);
// Random weights (normal, std = scale/sqrt(fan_in); norms = 1), deterministic in seed.
std::vector<NamedTensor> random_llama_weights(const LlamaHParams& hp, uint64_t seed, float scale = 1.0F);

// Writes a llama-architecture GGUF; throws EngineError on failure.
void write_llama_gguf(const std::filesystem::path& path, const LlamaHParams& hp, const std::vector<VocabEntry>& vocab,
                      const std::vector<NamedTensor>& tensors, const std::string& chat_template = kChatMlTemplate,
                      const std::string& name = "sfcl-tiny");

// Convenience for tests: a random tiny model with the byte vocabulary.
void write_tiny_test_model(const std::filesystem::path& path, uint64_t seed = 1, const LlamaHParams& hp = {});

// A random-weight llama-architecture model on a real tokenizer: every `tokenizer.*` key of
// `vocab_gguf` (e.g. llama.cpp's models/ggml-vocab-qwen2.gguf) is copied, so tokenisation, special
// tokens and the chat template are the real model's. hp.n_vocab is set from the vocabulary.
// Returns the vocabulary size. Throws EngineError.
uint32_t write_random_model_on_vocab(const std::filesystem::path& path, const std::filesystem::path& vocab_gguf,
                                     uint64_t seed, const LlamaHParams& hp);
// Shapes of public models (weights random), for speed measurements at real sizes:
// "qwen2-0.5b", "llama-3.2-1b". Throws EngineError naming the known shapes.
LlamaHParams model_shape(const std::string& name);
// A LoRA adapter for the model in `base` (any architecture llama.cpp reads; the base's tensor shapes
// are read from its GGUF): rank-`rank` A and B matrices, random normal (std `scale`, deterministic in
// seed), for every 2-D weight whose name contains one of `targets` ("attn_q", "attn_v", ...).
// Random weights: for tests of the adapter plumbing, not a fine-tune. Throws EngineError.
void write_random_lora(const std::filesystem::path& path, const std::filesystem::path& base, uint32_t rank,
                       uint64_t seed, float scale = 0.05F,
                       const std::vector<std::string>& targets = {"attn_q", "attn_v", "ffn_up"});
// llama.cpp's own quantiser (llama_model_quantize): type "f16", "q8_0", "q4_k_m". Throws EngineError.
void quantize_model(const std::filesystem::path& in, const std::filesystem::path& out, const std::string& type);

}  // namespace sfcl::engine
