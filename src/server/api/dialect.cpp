#include "server/api/dialect.h"

namespace sfcl::server {

const Dialect& dialect_for(Api api) {
  switch (api) {
    case Api::anthropic:
      return anthropic_dialect();
    case Api::openai_chat:
      return openai_chat_dialect();
    case Api::openai_completions:
      return openai_completions_dialect();
    case Api::openai_responses:
      return openai_responses_dialect();
    case Api::llama_completion:
      return llama_completion_dialect();
  }
  return anthropic_dialect();
}

Api api_of_path(const std::string& path) {
  if (path.rfind("/v1/chat/", 0) == 0 || path.rfind("/chat/", 0) == 0) return Api::openai_chat;
  if (path.rfind("/v1/responses", 0) == 0 || path.rfind("/responses", 0) == 0) return Api::openai_responses;
  if (path.rfind("/v1/completions", 0) == 0) return Api::openai_completions;
  if (path == "/completion" || path == "/completions" || path == "/infill") {
    return Api::llama_completion;  // as llama-server routes them
  }
  // llama-server's own endpoints and the model list answer in OpenAI's shape, as llama-server does.
  for (const char* p : {"/embedding", "/v1/embeddings", "/tokenize", "/detokenize", "/apply-template", "/props",
                        "/slots", "/models", "/v1/models"}) {
    if (path.rfind(p, 0) == 0) return Api::openai_chat;
  }
  return Api::anthropic;
}

}  // namespace sfcl::server
