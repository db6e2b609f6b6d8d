// Parsing and validation of Anthropic and OpenAI request bodies into one shape.
#pragma once
#include <map>
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
  ApiError(int status, std::string type, const std::string& message, std::string param = {}, std::string code = {})
      : std::runtime_error(message),
        status(status),
        type(std::move(type)),
        param(std::move(param)),
        code(std::move(code)) {}
  int status;
  std::string type;
  std::string param;
  std::string code;  // OpenAI's machine-readable "code" (e.g. "context_length_exceeded"); empty = null
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
  // OpenAI stream_options.include_usage: usage only then, in a final chunk with "choices": [].
  bool include_usage = false;
  // OpenAI n: independent choices, each its own check-loop sequence (server/app/choices.h).
  int32_t n = 1;
  // OpenAI/llama-server logit_bias: (token id, bias) pairs; -inf bans the token.
  std::vector<std::pair<engine::Token, float>> logit_bias;
  // Tools and structured output (server/api/tools.h).
  std::vector<engine::ChatTool> tools;
  engine::ToolChoice tool_choice = engine::ToolChoice::automatic;
  bool parallel_tool_calls = false;  // OpenAI parallel_tool_calls (off unless asked for, as in llama-server)
  std::string json_schema;           // JSON schema text the reply must be valid for
  std::string grammar;               // GBNF the reply must follow
  // Chat template options (llama-server's): chat_template_kwargs (name -> JSON text),
  // enable_thinking, reasoning_format; server defaults from --chat-template-kwargs, --reasoning-format.
  std::map<std::string, std::string> template_kwargs;
  bool enable_thinking = true;
  std::string reasoning_format = "none";
};

// The JSON of a request body, or a 400 that says in plain words what is wrong with it.
nlohmann::json parse_body_json(const std::string& body);

// `model` is the served model that answers (its id names the response, its mode is the default).
GenerationRequest parse_request(Api api, const nlohmann::json& body, const ServerOptions& server,
                                const ModelSpec& model = {});
// Anthropic count_tokens body: messages, system, tools and tool_choice.
GenerationRequest parse_count_tokens(const nlohmann::json& body, const ServerOptions& server,
                                     const ModelSpec& model = {});
// The body's "model" when it is a string, else "" (what pick_model is given).
std::string requested_model(const nlohmann::json& body);

}  // namespace sfcl::server
