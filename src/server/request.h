// Parsing and validation of Anthropic and OpenAI request bodies into one shape.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "decode/decode.h"
#include "engine/engine.h"
#include "server/server.h"

namespace sfcl::server {

enum class Api : uint8_t { anthropic, openai_chat, openai_completions };

// An error answered in the API's own shape.
struct ApiError : std::runtime_error {
  ApiError(int status, std::string type, const std::string& message, std::string param = {})
      : std::runtime_error(message), status(status), type(std::move(type)), param(std::move(param)) {}
  int status;
  std::string type;
  std::string param;
};

struct GenerationRequest {
  std::vector<engine::ChatMessage> messages;  // system first when present
  std::string prefill;                        // trailing assistant message (Anthropic prefill)
  std::string raw_prompt;                     // /v1/completions
  bool raw = false;
  bool stream = false;
  std::string model;
  decode::Options options;
  bool events = false;
  std::vector<std::string> extra_sources;
  // Tools and structured output (server/tools.h).
  std::vector<engine::ChatTool> tools;
  engine::ToolChoice tool_choice = engine::ToolChoice::automatic;
  std::string json_schema;  // JSON schema text the reply must be valid for
  std::string grammar;      // GBNF the reply must follow
};

GenerationRequest parse_request(Api api, const nlohmann::json& body, const ServerOptions& server);
// Anthropic count_tokens body: messages and system only.
GenerationRequest parse_count_tokens(const nlohmann::json& body, const ServerOptions& server);

}  // namespace sfcl::server
