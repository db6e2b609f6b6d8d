#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include "engine/engine.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "llama-cpp.h"

namespace sfcl::engine {

struct Batch::Impl {
  llama_batch batch;
};

Batch::Batch(int32_t capacity) : impl_(std::make_unique<Impl>()), capacity_(capacity) {
  impl_->batch = llama_batch_init(capacity, 0, 1);
}
Batch::~Batch() { llama_batch_free(impl_->batch); }
void Batch::clear() {
  n_ = 0;
  impl_->batch.n_tokens = 0;
}
int32_t Batch::add(Token token, int32_t pos, int32_t seq, bool want_logits) {
  if (n_ >= capacity_) throw EngineError("batch full");
  llama_batch& b = impl_->batch;
  b.token[n_] = token;
  b.pos[n_] = pos;
  b.n_seq_id[n_] = 1;
  b.seq_id[n_][0] = seq;
  b.logits[n_] = want_logits ? 1 : 0;
  b.n_tokens = ++n_;
  return n_ - 1;
}

Context::Context(const Model& model, const ContextOptions& options) : model_(model), n_vocab_(model.n_vocab()) {
  llama_context_params p = llama_context_default_params();
  p.n_ctx = options.n_ctx;
  p.n_batch = options.n_batch;
  p.n_ubatch = options.n_ubatch > 0 ? std::min(options.n_ubatch, options.n_batch) : options.n_batch;
  p.n_seq_max = std::max<uint32_t>(1, options.n_seq_max);
  const int32_t threads = options.n_threads > 0
                              ? options.n_threads
                              : static_cast<int32_t>(std::max(1U, std::thread::hardware_concurrency()));
  p.n_threads = threads;
  p.n_threads_batch = options.n_threads_batch > 0 ? options.n_threads_batch : threads;
  p.kv_unified = options.kv_unified;
  p.no_perf = true;
  if (!options.flash_attn) p.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
  if (options.flash_attn && options.flash_attn_on) p.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_ENABLED;
  p.type_k = static_cast<ggml_type>(cache_type_from_name(options.cache_type_k));
  p.type_v = static_cast<ggml_type>(cache_type_from_name(options.cache_type_v));
  if (options.kv_f32) {
    p.type_k = GGML_TYPE_F32;
    p.type_v = GGML_TYPE_F32;
  }
  // Owned here until the constructor cannot throw any more, then by ~Context.
  llama_context_ptr ctx(llama_init_from_model(model.raw(), p));
  if (ctx == nullptr) {
    throw EngineError("llama.cpp could not create a context (n_ctx=" + std::to_string(options.n_ctx) + ", KV cache " +
                      options.cache_type_k + "/" + options.cache_type_v + "; llama.cpp's reason is logged above)");
  }
  n_batch_ = llama_n_batch(ctx.get());
  batch_ = std::make_unique<Batch>(static_cast<int32_t>(n_batch_));
  ctx_ = ctx.release();
  // A persistent CPU threadpool, as llama-server attaches one: without it ggml creates and joins
  // its worker threads for every graph, i.e. for every decoded token.
  if (ggml_backend_dev_t cpu = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU); cpu != nullptr) {
    ggml_backend_reg_t reg = ggml_backend_dev_backend_reg(cpu);
    auto* make =
        reinterpret_cast<decltype(ggml_threadpool_new)*>(ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_new"));
    threadpool_free_ =
        reinterpret_cast<void (*)(ggml_threadpool*)>(ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_free"));
    if (make != nullptr && threadpool_free_ != nullptr) {
      ggml_threadpool_params tpp = ggml_threadpool_params_default(threads);
      threadpool_ = make(&tpp);
      if (threadpool_ != nullptr) llama_attach_threadpool(ctx_, threadpool_, nullptr);
    }
  }
}

Context::~Context() {
  llama_free(ctx_);
  if (threadpool_ != nullptr) threadpool_free_(threadpool_);
}

void Context::decode(std::span<const Token> tokens, int32_t pos, int32_t seq) {
  if (tokens.empty()) return;
  if (static_cast<uint64_t>(pos) + tokens.size() > n_ctx()) {
    throw EngineError("context full: " + std::to_string(pos + tokens.size()) + " tokens > n_ctx " +
                      std::to_string(n_ctx()));
  }
  Batch& batch = *batch_;
  for (size_t i = 0; i < tokens.size();) {
    batch.clear();
    const size_t n = std::min<size_t>(tokens.size() - i, n_batch_);
    for (size_t k = 0; k < n; ++k) {
      const bool last = (i + k + 1 == tokens.size());
      batch.add(tokens[i + k], pos + static_cast<int32_t>(i + k), seq, last);
    }
    decode(batch);
    i += n;
  }
}

void Context::decode(Batch& batch) {
  if (batch.size() == 0) return;
  const int32_t rc = llama_decode(ctx_, batch.impl_->batch);
  if (rc != 0) {
    throw EngineError("llama_decode failed (code " + std::to_string(rc) + ", " + std::to_string(batch.size()) +
                      " tokens)");
  }
  last_logits_index_ = batch.size() - 1;
}

const float* Context::logits_last() const { return llama_get_logits_ith(ctx_, -1); }
const float* Context::logits(int32_t batch_index) const { return llama_get_logits_ith(ctx_, batch_index); }

void Context::rewind(int32_t seq, int32_t pos) { llama_memory_seq_rm(llama_get_memory(ctx_), seq, pos, -1); }
void Context::clear(int32_t seq) { llama_memory_seq_rm(llama_get_memory(ctx_), seq, -1, -1); }
void Context::clear_all() { llama_memory_clear(llama_get_memory(ctx_), true); }
int32_t Context::seq_end(int32_t seq) const { return llama_memory_seq_pos_max(llama_get_memory(ctx_), seq) + 1; }
uint32_t Context::n_ctx() const { return llama_n_ctx(ctx_); }

size_t Context::state_size(int32_t seq) const { return llama_state_seq_get_size(ctx_, seq); }

bool Context::save_state(int32_t seq, std::vector<uint8_t>& out) const {
  out.resize(state_size(seq));
  const size_t n = llama_state_seq_get_data(ctx_, out.data(), out.size(), seq);
  out.resize(n);
  return n > 0;
}

bool Context::restore_state(int32_t seq, std::span<const uint8_t> state) {
  clear(seq);
  if (state.empty()) return false;
  if (llama_state_seq_set_data(ctx_, state.data(), state.size(), seq) != state.size()) {
    clear(seq);
    return false;
  }
  return true;
}

size_t Context::save_file(int32_t seq, const std::string& path, std::span<const Token> tokens) const {
  return llama_state_seq_save_file(ctx_, path.c_str(), seq, tokens.data(), tokens.size());
}

size_t Context::load_file(int32_t seq, const std::string& path, std::vector<Token>& tokens, size_t max_tokens) {
  clear(seq);
  tokens.clear();
  // llama_state_seq_load_file aborts the process (GGML_ASSERT) on a file cut short after its
  // token list, so the file is read here: its header (magic, version, token count, tokens) checked,
  // and its state handed to llama_state_seq_set_data, whose buffer reader refuses a short one.
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return 0;
  const auto size = static_cast<size_t>(in.tellg());
  constexpr size_t kHeader = 3 * sizeof(uint32_t);
  constexpr size_t kStatePrefix = sizeof(uint32_t) + sizeof(int32_t);  // the state's magic, its sequence
  if (size < kHeader) return 0;
  std::vector<uint8_t> bytes(size);
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) return 0;
  std::array<uint32_t, 3> head{};
  std::memcpy(head.data(), bytes.data(), kHeader);
  const size_t n_tokens = head[2];
  if (head[0] != LLAMA_STATE_SEQ_MAGIC || head[1] != LLAMA_STATE_SEQ_VERSION || n_tokens == 0 ||
      n_tokens > max_tokens || n_tokens > (size - kHeader) / sizeof(Token)) {
    return 0;
  }
  tokens.resize(n_tokens);
  std::memcpy(tokens.data(), bytes.data() + kHeader, n_tokens * sizeof(Token));
  // The in-memory state begins with the library's own magic and a sequence id: taken from the
  // state of the (now empty) sequence itself, written over the end of the token list.
  std::vector<uint8_t> probe(state_size(seq));
  if (probe.size() < kStatePrefix || llama_state_seq_get_data(ctx_, probe.data(), probe.size(), seq) < kStatePrefix) {
    tokens.clear();
    return 0;
  }
  const size_t state_at = kHeader + n_tokens * sizeof(Token) - kStatePrefix;
  std::memcpy(bytes.data() + state_at, probe.data(), kStatePrefix);
  const size_t state_bytes = size - state_at;
  if (llama_state_seq_set_data(ctx_, bytes.data() + state_at, state_bytes, seq) != state_bytes) {
    clear(seq);
    tokens.clear();
    return 0;
  }
  return size;
}

}  // namespace sfcl::engine
