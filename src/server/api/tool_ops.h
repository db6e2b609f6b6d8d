// The pieces of a tool reply stream that every dialect shares: the reply's parse, and the walk
// that sends what the released text adds (prose, each call's start, its arguments, its end) through
// a dialect's operations (server/api/tool_reply.cpp, responses_tools.cpp).
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "decode/decode.h"
#include "engine/engine.h"
#include "server/api/dialect.h"
#include "server/api/tool_stream.h"

namespace sfcl::server {

// What a tool reply stream sends, in the dialect's terms.
struct ToolOps {
  std::function<void(const std::string&)> content;
  std::function<void(size_t, const std::string& id, const std::string& name)> start;
  std::function<void(size_t, const std::string&)> arguments;
  std::function<void(size_t)> end;
};

// The reply split by the prompt's parser into reasoning, prose and calls (prose of blanks only is none).
engine::ParsedReply parsed_reply(const ResponseInfo& info, const decode::Result& r);
// OpenAI's arguments string: the parser's, when it is an object (its keys in written order).
std::string call_arguments(const engine::ToolCall& c);
// The stream sends calls as they are written (a tool format; not a reasoning split alone).
bool streams_calls(const ResponseInfo& info);
// Released text of a tool reply: what it adds to the stream.
void advance_text(const ResponseInfo& info, const std::string& text, const char* id_prefix, const ToolOps& ops);
// The end of the turn: the parsed reply completes what the stream sent.
void advance_final(const ResponseInfo& info, ToolStream& ts, const engine::ParsedReply& p, const decode::Result& r,
                   const char* id_prefix, const ToolOps& ops);
// The blocks an OpenAI stream delivered (signing's neutral form): reasoning, prose, calls as sent.
nlohmann::json openai_sent_blocks(const ToolStream& ts);

}  // namespace sfcl::server
