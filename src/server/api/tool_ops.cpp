#include "server/api/tool_ops.h"

#include <string_view>
#include <tuple>
#include <vector>

#include "server/api/signing.h"
#include "server/api/tools.h"
#include "server/http/http_util.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

// Sends what `content` and `calls` (name, arguments, arguments complete) add to what went out.
void advance(ToolStream& ts, const std::string& content,
             const std::vector<std::tuple<std::string, std::string, bool>>& calls, const char* id_prefix,
             const ToolOps& ops) {
  // Prose goes out before the first call only, and only while it extends what was sent (sent text
  // cannot be taken back; a parse that reads it differently later sends no more of it).
  if (ts.calls.empty() && content.size() > ts.content.size() && content.starts_with(ts.content)) {
    ops.content(content.substr(ts.content.size()));
    ts.content = content;
  }
  for (size_t i = 0; i < calls.size(); ++i) {
    const auto& [name, arguments, done] = calls[i];
    if (i >= ts.calls.size()) {
      ts.calls.push_back({random_id(id_prefix), name});
      ops.start(i, ts.calls[i].id, name);
    }
    ToolStream::Call& c = ts.calls[i];
    if (arguments.size() > c.arguments.size() && arguments.starts_with(c.arguments)) {
      ops.arguments(i, arguments.substr(c.arguments.size()));
      c.arguments = arguments;
    }
    if (done && !c.stopped) {
      ops.end(i);
      c.stopped = true;
    }
  }
}

}  // namespace

engine::ParsedReply parsed_reply(const ResponseInfo& info, const decode::Result& r) {
  engine::ParsedReply p = info.shape->model->parse_reply(info.shape->prompt, r.text);
  // Whitespace around a call is the envelope's, not an answer.
  if (p.content.find_first_not_of(" \t\r\n") == std::string::npos) p.content.clear();
  return p;
}

std::string call_arguments(const engine::ToolCall& c) {
  const json input = json::parse(c.arguments, nullptr, false);
  return input.is_object() ? c.arguments : "{}";
}

bool streams_calls(const ResponseInfo& info) {
  return info.tool_stream && info.shape->prompt.tool_format != engine::ToolFormat::none;
}

// Released text of a tool reply: what it adds to the stream. The JSON-object format is scanned
// here (tool_stream.h); a native format is read by llama.cpp's partial parse of the text so far.
void advance_text(const ResponseInfo& info, const std::string& text, const char* id_prefix, const ToolOps& ops) {
  ToolStream& ts = *info.tool_stream;
  ts.text += text;
  std::vector<std::tuple<std::string, std::string, bool>> calls;
  if (info.shape->prompt.tool_format == engine::ToolFormat::json_object) {
    const ScannedReply scan = scan_tool_reply(ts.text, false);
    for (const auto& c : scan.calls) calls.emplace_back(c.name, c.arguments, c.arguments_done);
    advance(ts, ts.text.substr(0, scan.content_end), calls, id_prefix, ops);
    return;
  }
  engine::ParsedReply p = info.shape->model->parse_reply(info.shape->prompt, ts.text, true);
  // Blanks at the end may come before a call (and a reply with one has no prose of blanks).
  while (!p.content.empty() && std::string_view(" \t\r\n").find(p.content.back()) != std::string_view::npos) {
    p.content.pop_back();
  }
  for (const auto& c : p.tool_calls) {
    if (c.name.empty()) break;  // a call whose name is still being written
    calls.emplace_back(c.name, c.arguments, false);
  }
  advance(ts, p.content, calls, id_prefix, ops);
}

// The end of the turn: the parsed reply completes what the stream sent (all of it when nothing
// went out yet).
void advance_final(const ResponseInfo& info, ToolStream& ts, const engine::ParsedReply& p, const decode::Result& r,
                   const char* id_prefix, const ToolOps& ops) {
  const bool streamed = streams_calls(info);
  const bool scanned_format = streamed && info.shape->prompt.tool_format == engine::ToolFormat::json_object;
  const ScannedReply scan = scanned_format ? scan_tool_reply(r.text, true) : ScannedReply{};
  std::vector<std::tuple<std::string, std::string, bool>> calls;
  for (size_t i = 0; i < p.tool_calls.size(); ++i) {
    const bool scanned = i < scan.calls.size() && scan.calls[i].arguments_done;
    calls.emplace_back(p.tool_calls[i].name, scanned ? scan.calls[i].arguments : call_arguments(p.tool_calls[i]), true);
  }
  advance(ts, p.content, calls, id_prefix, ops);
}

json openai_sent_blocks(const ToolStream& ts) {
  json calls = json::array();
  for (const auto& c : ts.calls) {
    calls.push_back({{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", tool_input(c.arguments)}});
  }
  return neutral_blocks(ts.reasoning.empty() ? json(nullptr) : json(ts.reasoning), ts.content, std::move(calls));
}
}  // namespace sfcl::server
