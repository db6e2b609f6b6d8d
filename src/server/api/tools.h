// Tools and structured output: the request fields (tools, tool_choice, tool_use / tool_result
// blocks, OpenAI tool_calls and role "tool", response_format, json_schema, grammar) and the reply
// shapes (tool_use blocks, tool_calls). The prompt and grammar come from engine::Model::render_chat.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "server/api/dialect.h"
#include "server/api/tool_stream.h"
#include "server/api/types.h"
#include "server/runtime/job.h"

namespace sfcl::server {

// What a reply to a request with tools (or with reasoning to split off) looks like, kept with the
// job for the response.
struct ReplyShape {
  engine::ChatPrompt prompt;
  const engine::Model* model = nullptr;
  // The stream holds the text back until the turn ends, then sends text and tool calls as blocks.
  [[nodiscard]] bool holds_stream() const {
    return prompt.tool_format != engine::ToolFormat::none || prompt.splits_reasoning();
  }
};

// ---- request side (tools.cpp, structured.cpp)
// tools, tool_choice (both APIs); response_format, json_schema, grammar (OpenAI paths). Throws
// ApiError naming the parameter.
void parse_tools(Api api, const nlohmann::json& body, GenerationRequest& r);
void parse_structured_output(Api api, const nlohmann::json& body, GenerationRequest& r);
// Throws ApiError (400, naming `where` and the part of the schema) for a JSON schema no value
// satisfies: bounds that cross, an empty enum, `not: {}`, types that exclude each other
// (schema_check.cpp).
void check_schema_satisfiable(const nlohmann::json& schema, const std::string& where);
// Anthropic content with tool_use, tool_result or thinking blocks.
bool has_tool_blocks(const nlohmann::json& content);
// The messages one Anthropic message with such blocks stands for (tool results become "tool"
// messages; thinking is dropped); `history` names the calls earlier turns made.
std::vector<engine::ChatMessage> anthropic_tool_messages(const std::string& role, const nlohmann::json& content,
                                                         const std::string& where,
                                                         const std::vector<engine::ChatMessage>& history);
// OpenAI role "tool", or an assistant message with tool_calls.
bool is_openai_tool_message(const nlohmann::json& m);
engine::ChatMessage openai_tool_message(const nlohmann::json& m, const std::string& where,
                                        const std::vector<engine::ChatMessage>& history);

// Renders the request's prompt (and grammar) and sets the job's prompt, grammar, stops and shape.
// Throws ApiError (400) for a template, schema or grammar llama.cpp rejects.
engine::ChatPrompt render_request(const engine::Model& model, const GenerationRequest& req);
void prepare_job(const engine::Model& model, const GenerationRequest& req, Job& job);

// ---- response side (tool_reply.cpp): `info.shape` is set
// Anthropic: text and tool_use blocks, stop_reason "tool_use" when the model called a tool.
nlohmann::json anthropic_tool_response(const ResponseInfo& info, const decode::Result& r, nlohmann::json usage);
// What the stream's blocks still lack (content_block_start/delta/stop), message_delta, message_stop.
std::string anthropic_tool_stream_close(const ResponseInfo& info, const decode::Result& r, nlohmann::json usage,
                                        nlohmann::json sfcl);
// Released text of a stream with tools: the prose and call deltas it adds (JSON-object format;
// empty for native formats, whose reply goes out at the end).
std::string anthropic_tool_stream_text(const ResponseInfo& info, const std::string& text);
std::string openai_tool_stream_text(const ResponseInfo& info, const std::string& text);
// OpenAI chat: message.tool_calls and finish_reason "tool_calls".
nlohmann::json openai_tool_response(const ResponseInfo& info, const decode::Result& r, nlohmann::json usage);
// What the stream's content and tool-call chunks still lack, the final chunk and [DONE].
std::string openai_tool_stream_close(const ResponseInfo& info, const decode::Result& r, nlohmann::json usage,
                                     nlohmann::json sfcl);
// The content blocks a stream with `info.shape` delivers (server/api/signing.h, content_sha256),
// known before its closing event: the reply's last blocks are put out then (ToolStream::tail), so
// the signature in that event covers them. Null for dialects that do not split the reply.
nlohmann::json tool_stream_blocks(const Dialect& dialect, const ResponseInfo& info, const decode::Result& r);

}  // namespace sfcl::server
