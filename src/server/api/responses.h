// The OpenAI Responses API (POST /v1/responses): the request read into the chat completions body
// it stands for (responses_request.cpp), and the reply as output items, whole or as typed stream
// events with sequence numbers (responses.cpp, responses_tools.cpp). docs/API.md, "Responses API".
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "decode/decode.h"
#include "server/api/dialect.h"
#include "server/api/options.h"
#include "server/api/tool_stream.h"

namespace sfcl::server {

// ---- request side
// The chat completions body a Responses body stands for; a 400 naming the Responses field that is
// unknown, malformed or needs stored responses.
nlohmann::json responses_to_chat(const nlohmann::json& body, const ServerOptions& server);
// llama-server's and sfcl's own request fields: read on /v1/responses as on chat (fields.cpp).
bool responses_passes_through(std::string_view key);

// ---- response side
// An event of a Responses stream: `type` is its SSE name and its data's "type", and the data
// carries the stream's next sequence_number.
std::string responses_event(ToolStream& ts, const char* type, nlohmann::json data);
// "msg_…", "fc_…": an item id made from another id's random part.
std::string responses_item_id(const char* prefix, const std::string& id);
// A message item (status "completed" with its one output_text part, or "in_progress" and empty).
nlohmann::json responses_message_item(const std::string& id, const std::string& text, bool done);
// A message item's opening (output_item.added, content_part.added) and closing events
// (output_text.done, content_part.done, output_item.done); they count it in ts.blocks / ts.sent.
std::string responses_open_message(ToolStream& ts, const std::string& id);
std::string responses_close_message(ToolStream& ts, const std::string& id, const std::string& text);

// Replies with tools or a reasoning split (info.shape): the output items of the whole reply.
nlohmann::json responses_tool_output(const ResponseInfo& info, const decode::Result& r);
// Released text of such a stream: the events its prose and calls add.
std::string responses_tool_stream_text(const ResponseInfo& info, const std::string& text);
// The stream's last item events, written into ts.tail once (so that the signature in the closing
// event covers what they deliver).
void responses_stream_finish(const ResponseInfo& info, const decode::Result& r, ToolStream& ts);
// The output items the stream delivered, as response.completed lists them.
nlohmann::json responses_sent_output(const ResponseInfo& info, const ToolStream& ts);

}  // namespace sfcl::server
