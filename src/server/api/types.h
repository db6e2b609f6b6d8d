// The shared request types of both APIs: which API a request speaks, its errors, and the one
// shape its body is parsed into. Plain data: no scheduler, threads or metrics.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "decode/decode.h"
#include "engine/engine.h"

namespace sfcl::server {

enum class Api : uint8_t { anthropic, openai_chat, openai_completions, openai_responses, llama_completion };

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

// One entry of llama-server's per-request "lora": the adapter's index in GET /lora-adapters and
// its scale for this request.
struct LoraScale {
  int32_t id = 0;
  float scale = 0.0F;
};

// llama-server's /infill: the code before and after the cursor, other files for context, and the
// text the model continues from after the prefix (server/api/infill.h).
struct InfillInput {
  std::string prefix;
  std::string suffix;
  std::string prompt;
  std::vector<std::pair<std::string, std::string>> extra;  // (filename, text)
  // What of prefix and suffix fits: llama-server takes them 3:1 out of one batch, and the extra
  // files out of the context that leaves after twice the server's -n (-1 without one).
  int32_t n_batch = 0;
  int32_t n_ctx = 0;
  int32_t n_predict = -1;
};

struct GenerationRequest {
  std::vector<engine::ChatMessage> messages;  // system first when present
  std::string prefill;                        // trailing assistant message (Anthropic prefill)
  std::string raw_prompt;                     // /v1/completions
  bool raw = false;
  std::optional<InfillInput> infill;  // /infill (raw too)
  bool stream = false;
  std::string model;
  decode::Options options;
  bool events = false;
  std::vector<std::string> extra_sources;
  // OpenAI stream_options.include_usage: usage only then, in a final chunk with "choices": [].
  bool include_usage = false;
  // OpenAI n: independent choices, each its own check-loop sequence (server/app/choices.h).
  int32_t n = 1;
  // llama-server's ignore_eos: every end-of-generation token banned, so the answer runs to
  // max_tokens (benchmark clients send it); the checks run on what is written all the same.
  bool ignore_eos = false;
  // OpenAI/llama-server logit_bias: (token id, bias) pairs; -inf bans the token.
  std::vector<std::pair<engine::Token, float>> logit_bias;
  // llama-server's text keys of logit_bias: each text's tokens get its bias (at admission, where the
  // model tokenises them).
  std::vector<std::pair<std::string, float>> logit_bias_text;
  // llama-server's "lora": the adapters and scales for this request, every adapter not listed at
  // 0; empty = the server's current scales (POST /lora-adapters).
  std::vector<LoraScale> lora;
  // llama-server's return_progress: a stream reports the prompt's processing (prompt_progress).
  bool return_progress = false;
  // llama-server's timings_per_token: a stream's text and progress carry "timings" so far.
  bool timings_per_token = false;
  // llama-server's response_fields (/completion only): the paths the answer keeps.
  std::vector<std::string> response_fields;
  // llama-server's id_slot: the slot (GET /slots) this request waits for and takes; -1 = any.
  int32_t id_slot = -1;
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

}  // namespace sfcl::server
