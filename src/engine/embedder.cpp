// Embeddings through llama.cpp: a context with embeddings on and the chosen pooling, one sequence
// decoded whole per input, the pooled vector normalised by llama.cpp's common_embd_normalize (as
// llama-server does).
#include <algorithm>
#include <thread>

#include "common.h"
#include "engine/engine.h"
#include "llama-cpp.h"

namespace sfcl::engine {

namespace {
enum llama_pooling_type pooling_of(Pooling p) {
  switch (p) {
    case Pooling::none:
      return LLAMA_POOLING_TYPE_NONE;
    case Pooling::mean:
      return LLAMA_POOLING_TYPE_MEAN;
    case Pooling::cls:
      return LLAMA_POOLING_TYPE_CLS;
    case Pooling::last:
      return LLAMA_POOLING_TYPE_LAST;
    case Pooling::model:
      break;
  }
  return LLAMA_POOLING_TYPE_UNSPECIFIED;
}
}  // namespace

Embedder::Embedder(const Model& model, const EmbedderOptions& options) : model_(model) {
  llama_context_params p = llama_context_default_params();
  p.embeddings = true;
  p.pooling_type = pooling_of(options.pooling);
  p.n_ctx = std::max<uint32_t>(options.n_ctx, 16);
  p.n_batch = p.n_ctx;
  p.n_ubatch = p.n_ctx;  // pooling reads a sequence in one ubatch
  p.n_seq_max = 1;
  const int32_t threads = options.n_threads > 0
                              ? options.n_threads
                              : static_cast<int32_t>(std::max(1U, std::thread::hardware_concurrency()));
  p.n_threads = threads;
  p.n_threads_batch = threads;
  p.no_perf = true;
  llama_context_ptr ctx(llama_init_from_model(model.raw(), p));
  if (ctx == nullptr) {
    throw EngineError("llama.cpp could not create an embeddings context (n_ctx=" + std::to_string(p.n_ctx) +
                      "; llama.cpp's reason is logged above)");
  }
  pooling_ = llama_pooling_type(ctx.get());
  if (pooling_ == LLAMA_POOLING_TYPE_RANK) {
    throw EngineError("this model is a reranker (pooling rank): it has no embeddings to serve");
  }
  pooled_ = pooling_ != LLAMA_POOLING_TYPE_NONE;
  n_embd_ = llama_model_n_embd_out(model.raw());
  // The longest input is what one ubatch holds (llama.cpp may round n_ctx up; a batch over
  // n_batch is an abort, not an error).
  n_ctx_ = std::min({llama_n_ctx(ctx.get()), llama_n_batch(ctx.get()), llama_n_ubatch(ctx.get())});
  ctx_ = ctx.release();
}

Embedder::~Embedder() { llama_free(ctx_); }

const char* Embedder::pooling_name() const {
  switch (pooling_) {
    case LLAMA_POOLING_TYPE_NONE:
      return "none";
    case LLAMA_POOLING_TYPE_MEAN:
      return "mean";
    case LLAMA_POOLING_TYPE_CLS:
      return "cls";
    case LLAMA_POOLING_TYPE_LAST:
      return "last";
    default:
      return "unknown";
  }
}

std::vector<std::vector<float>> Embedder::embed(std::span<const Token> tokens, int normalize) {
  if (tokens.empty()) throw EngineError("an embedding needs at least one token");
  if (tokens.size() > n_ctx_) {
    throw EngineError("the input is " + std::to_string(tokens.size()) + " tokens; embeddings take at most " +
                      std::to_string(n_ctx_));
  }
  const int32_t n_vocab = model_.n_vocab();
  for (const Token t : tokens) {
    if (t < 0 || t >= n_vocab) throw EngineError("token id " + std::to_string(t) + " is outside the vocabulary");
  }
  llama_memory_clear(llama_get_memory(ctx_), true);
  llama_batch batch = llama_batch_init(static_cast<int32_t>(tokens.size()), 0, 1);
  for (size_t i = 0; i < tokens.size(); ++i) {
    batch.token[i] = tokens[i];
    batch.pos[i] = static_cast<llama_pos>(i);
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = 0;
    batch.logits[i] = 1;  // every token's output: pooling reads them all
  }
  batch.n_tokens = static_cast<int32_t>(tokens.size());
  const int32_t rc = llama_decode(ctx_, batch);
  llama_batch_free(batch);
  if (rc != 0) throw EngineError("llama_decode failed for an embedding (" + std::to_string(rc) + ")");
  std::vector<std::vector<float>> out;
  const auto n = static_cast<size_t>(n_embd_);
  if (pooled_) {
    const float* v = llama_get_embeddings_seq(ctx_, 0);
    if (v == nullptr) throw EngineError("llama.cpp returned no pooled embedding");
    std::vector<float>& e = out.emplace_back(n);
    common_embd_normalize(v, e.data(), n_embd_, normalize);
    return out;
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    const float* v = llama_get_embeddings_ith(ctx_, static_cast<int32_t>(i));
    if (v == nullptr) throw EngineError("llama.cpp returned no embedding for token " + std::to_string(i));
    out.emplace_back(v, v + n);
  }
  return out;
}

}  // namespace sfcl::engine
