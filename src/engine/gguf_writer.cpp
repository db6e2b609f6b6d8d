// Writes llama-architecture GGUF files with ggml's gguf.h. Used for the tiny random models the
// tests run on and for the demo model the trainer produces.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "engine/engine.h"
#include "engine/gguf_file.h"
#include "ggml.h"
#include "gguf.h"

namespace sfcl::engine {

const char* const kChatMlTemplate =
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + "
    "'<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

std::vector<VocabEntry> make_byte_vocab(const std::vector<std::string>& extra) {
  std::vector<VocabEntry> v;
  v.push_back({"<unk>", 0.0F, 2});
  v.push_back({"<s>", 0.0F, 3});
  v.push_back({"</s>", 0.0F, 3});
  v.push_back({"<pad>", 0.0F, 3});
  for (int b = 0; b < 256; ++b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "<0x%02X>", b);
    v.push_back({buf, 0.0F, 6});
  }
  v.push_back({"\xE2\x96\x81", 0.0F, 1});  // "▁", SPM's space
  for (int c = 0x21; c <= 0x7E; ++c) v.push_back({std::string(1, static_cast<char>(c)), 0.0F, 1});
  v.push_back({"<|im_start|>", 0.0F, 3});
  v.push_back({"<|im_end|>", 0.0F, 3});
  for (const auto& e : extra) v.push_back({e, 0.0F, 1});
  return v;
}

std::vector<NamedTensor> llama_tensor_layout(const LlamaHParams& hp) {
  const int64_t E = hp.n_embd;
  const int64_t V = hp.n_vocab;
  const int64_t F = hp.n_ff;
  const int64_t KV = static_cast<int64_t>(hp.n_embd / hp.n_head) * hp.n_head_kv;
  std::vector<NamedTensor> t;
  t.push_back({"token_embd.weight", {E, V}, {}});
  for (uint32_t l = 0; l < hp.n_layer; ++l) {
    const std::string p = "blk." + std::to_string(l) + ".";
    t.push_back({p + "attn_norm.weight", {E}, {}});
    t.push_back({p + "attn_q.weight", {E, E}, {}});
    t.push_back({p + "attn_k.weight", {E, KV}, {}});
    t.push_back({p + "attn_v.weight", {E, KV}, {}});
    t.push_back({p + "attn_output.weight", {E, E}, {}});
    t.push_back({p + "ffn_norm.weight", {E}, {}});
    t.push_back({p + "ffn_gate.weight", {E, F}, {}});
    t.push_back({p + "ffn_up.weight", {E, F}, {}});
    t.push_back({p + "ffn_down.weight", {F, E}, {}});
  }
  t.push_back({"output_norm.weight", {E}, {}});
  if (!hp.tie_output) t.push_back({"output.weight", {E, V}, {}});
  return t;
}

std::vector<NamedTensor> random_llama_weights(const LlamaHParams& hp, uint64_t seed, float scale) {
  std::vector<NamedTensor> tensors = llama_tensor_layout(hp);
  std::mt19937_64 rng(seed);
  for (auto& t : tensors) {
    size_t n = 1;
    for (int64_t d : t.ne) n *= static_cast<size_t>(d);
    t.data.resize(n);
    if (t.ne.size() == 1) {
      std::fill(t.data.begin(), t.data.end(), 1.0F);
      continue;
    }
    std::normal_distribution<float> dist(0.0F, scale / std::sqrt(static_cast<float>(t.ne[0])));
    for (auto& x : t.data) x = dist(rng);
  }
  return tensors;
}

namespace {

void set_byte_vocab(gguf_context* g, const std::vector<VocabEntry>& vocab, const std::string& chat_template) {
  std::vector<const char*> texts;
  std::vector<float> scores;
  std::vector<int32_t> types;
  int32_t im_end = -1;
  for (size_t i = 0; i < vocab.size(); ++i) {
    texts.push_back(vocab[i].text.c_str());
    scores.push_back(vocab[i].score);
    types.push_back(vocab[i].type);
    if (vocab[i].text == "<|im_end|>") im_end = static_cast<int32_t>(i);
  }
  gguf_set_val_str(g, "tokenizer.ggml.model", "llama");
  gguf_set_arr_str(g, "tokenizer.ggml.tokens", texts.data(), texts.size());
  gguf_set_arr_data(g, "tokenizer.ggml.scores", GGUF_TYPE_FLOAT32, scores.data(), scores.size());
  gguf_set_arr_data(g, "tokenizer.ggml.token_type", GGUF_TYPE_INT32, types.data(), types.size());
  gguf_set_val_u32(g, "tokenizer.ggml.unknown_token_id", 0);
  gguf_set_val_u32(g, "tokenizer.ggml.bos_token_id", 1);
  gguf_set_val_u32(g, "tokenizer.ggml.eos_token_id", 2);
  gguf_set_val_u32(g, "tokenizer.ggml.padding_token_id", 3);
  if (im_end >= 0) gguf_set_val_u32(g, "tokenizer.ggml.eot_token_id", static_cast<uint32_t>(im_end));
  gguf_set_val_bool(g, "tokenizer.ggml.add_bos_token", true);
  gguf_set_val_bool(g, "tokenizer.ggml.add_eos_token", false);
  gguf_set_val_bool(g, "tokenizer.ggml.add_space_prefix", false);
  if (!chat_template.empty()) gguf_set_val_str(g, "tokenizer.chat_template", chat_template.c_str());
}

}  // namespace

void GgufFree::operator()(gguf_context* g) const { gguf_free(g); }

void set_llama_hparams(gguf_context* g, const LlamaHParams& hp, const std::string& name) {
  gguf_set_val_str(g, "general.architecture", "llama");
  gguf_set_val_str(g, "general.name", name.c_str());
  gguf_set_val_u32(g, "llama.context_length", hp.n_ctx);
  gguf_set_val_u32(g, "llama.embedding_length", hp.n_embd);
  gguf_set_val_u32(g, "llama.block_count", hp.n_layer);
  gguf_set_val_u32(g, "llama.feed_forward_length", hp.n_ff);
  gguf_set_val_u32(g, "llama.attention.head_count", hp.n_head);
  gguf_set_val_u32(g, "llama.attention.head_count_kv", hp.n_head_kv);
  gguf_set_val_f32(g, "llama.attention.layer_norm_rms_epsilon", hp.rms_eps);
  gguf_set_val_f32(g, "llama.rope.freq_base", hp.rope_freq_base);
  gguf_set_val_u32(g, "llama.rope.dimension_count", hp.n_embd / hp.n_head);
  gguf_set_val_u32(g, "llama.vocab_size", hp.n_vocab);
}

void write_gguf_file(const std::filesystem::path& path, gguf_context* g, const std::vector<NamedTensor>& tensors) {
  size_t bytes = 0;
  for (const auto& t : tensors) bytes += t.data.size() * sizeof(float) + 64;
  ggml_init_params ip{bytes + tensors.size() * ggml_tensor_overhead() + 4096, nullptr, false};
  ggml_context* ctx = ggml_init(ip);
  if (ctx == nullptr) throw EngineError("write_gguf_file: out of memory for " + path.string());
  for (const auto& t : tensors) {
    size_t n = 1;
    for (int64_t d : t.ne) n *= static_cast<size_t>(d);
    if (n != t.data.size()) {
      ggml_free(ctx);
      throw EngineError("write_gguf_file: tensor " + t.name + " has the wrong number of values");
    }
    ggml_tensor* x = ggml_new_tensor(ctx, GGML_TYPE_F32, static_cast<int>(t.ne.size()), t.ne.data());
    ggml_set_name(x, t.name.c_str());
    std::memcpy(x->data, t.data.data(), n * sizeof(float));
    gguf_add_tensor(g, x);
  }
  const std::string tmp = path.string() + ".tmp";
  const bool ok = gguf_write_to_file(g, tmp.c_str(), false);
  ggml_free(ctx);
  std::error_code ec;
  if (!ok) {
    std::filesystem::remove(tmp, ec);
    throw EngineError("could not write " + path.string());
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw EngineError("could not write " + path.string() + ": " + ec.message());
}

void write_llama_gguf(const std::filesystem::path& path, const LlamaHParams& hp, const std::vector<VocabEntry>& vocab,
                      const std::vector<NamedTensor>& tensors, const std::string& chat_template,
                      const std::string& name) {
  if (hp.n_vocab != vocab.size()) throw EngineError("write_llama_gguf: n_vocab does not match the vocabulary");
  GgufPtr g(gguf_init_empty());
  set_llama_hparams(g.get(), hp, name);
  set_byte_vocab(g.get(), vocab, chat_template);
  write_gguf_file(path, g.get(), tensors);
}

void write_tiny_test_model(const std::filesystem::path& path, uint64_t seed, const LlamaHParams& hp_in) {
  const std::vector<VocabEntry> vocab = make_byte_vocab();
  LlamaHParams hp = hp_in;
  hp.n_vocab = static_cast<uint32_t>(vocab.size());
  write_llama_gguf(path, hp, vocab, random_llama_weights(hp, seed), kChatMlTemplate, "sfcl-tiny-random");
}

}  // namespace sfcl::engine
