#include "server/api/dialect.h"

#include <set>

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

std::string metrics_path(const std::string& path) {
  static const std::set<std::string> known = {"/v1/messages",
                                              "/v1/messages/count_tokens",
                                              "/v1/chat/completions/input_tokens",
                                              "/v1/responses/input_tokens",
                                              "/v1/chat/completions",
                                              "/v1/completions",
                                              "/v1/responses",
                                              "/v1/embeddings",
                                              "/completion",
                                              "/infill",
                                              "/v1/models",
                                              "/health",
                                              "/metrics",
                                              "/v1/sfcl/public-key"};
  if (known.count(path) != 0) return path;
  if (path == "/completions") return "/completion";  // llama-server's native endpoint, as routed
  if (known.count("/v1" + path) != 0) return "/v1" + path;
  return "other";
}

}  // namespace sfcl::server
