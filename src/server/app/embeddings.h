// Embeddings: OpenAI's POST /v1/embeddings and llama-server's /embedding (/embeddings), from the
// first served model's weights or an embedding GGUF of their own (--embeddings, --embedding-model,
// --pooling). docs/API.md, "Embeddings".
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "engine/engine.h"
#include "server/http/message.h"

namespace sfcl::server {

struct State;

struct EmbeddingService {
  std::string model_id;                  // what responses name
  std::unique_ptr<engine::Model> own;    // --embedding-model: its weights
  const engine::Model* model = nullptr;  // the weights embedded with (own, or the first served model's)
  std::unique_ptr<engine::Embedder> embedder;
  std::mutex mu;                    // one input at a time through the embedder's context
  std::atomic<int32_t> waiting{0};  // requests holding or waiting for `mu` (bounded by --queue)
};

// Creates st.embeddings when they are asked for (after the models loaded); nothing otherwise.
void load_embeddings(State& st);
// One embeddings request: `openai` selects /v1/embeddings' request and response shapes, else
// llama-server's native /embedding. Throws ApiError in OpenAI's terms.
void handle_embeddings(State& st, const http::Request& http, http::Response& res, bool openai);

}  // namespace sfcl::server
