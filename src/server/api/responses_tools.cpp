// Responses API output items: messages, function calls and reasoning, whole (responses_tool_output)
// or streamed as the checked text is released, through the same walk as the other dialects'
// tool streams (server/api/tool_ops.h): prose as output_text deltas of one message item, each call
// as a function_call item whose arguments grow by function_call_arguments deltas.
#include "server/api/responses.h"
#include "server/api/tool_ops.h"
#include "server/http/http_util.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

json text_part(const std::string& text) {
  return {{"type", "output_text"}, {"text", text}, {"annotations", json::array()}, {"logprobs", json::array()}};
}

json call_item(const ToolStream::Call& c, bool done) {
  return {{"type", "function_call"},
          {"id", responses_item_id("fc_", c.id)},
          {"call_id", c.id},
          {"name", c.name},
          {"arguments", done ? c.arguments : ""},
          {"status", done ? "completed" : "in_progress"}};
}

json reasoning_item(const std::string& id, const std::string& text) {
  return {{"type", "reasoning"},
          {"id", id},
          {"summary", json::array()},
          {"content", json::array({{{"type", "reasoning_text"}, {"text", text}}})}};
}

// Closes the item the stream has open: the message, or a call (its arguments are complete).
void close_open(ToolStream& ts, std::string& out, const std::string& message_id) {
  if (!ts.block_open) return;
  const ToolStream::Block& b = ts.sent.back();
  if (b.type == "message") {
    out += responses_close_message(ts, message_id, b.text);
    return;
  }
  ToolStream::Call& c = ts.calls[b.call];
  const int index = ts.blocks - 1;
  out += responses_event(
      ts, "response.function_call_arguments.done",
      {{"item_id", responses_item_id("fc_", c.id)}, {"output_index", index}, {"arguments", c.arguments}});
  out += responses_event(ts, "response.output_item.done", {{"output_index", index}, {"item", call_item(c, true)}});
  c.stopped = true;
  ts.block_open = false;
}

ToolOps responses_ops(const ResponseInfo& info, ToolStream& ts, std::string& out) {
  const std::string message_id = responses_item_id("msg_", info.id);
  ToolOps ops;
  ops.content = [&ts, &out, message_id](const std::string& text) {
    if (!ts.block_open || ts.sent.back().type != "message") out += responses_open_message(ts, message_id);
    ts.sent.back().text += text;
    out += responses_event(ts, "response.output_text.delta",
                           {{"item_id", message_id},
                            {"output_index", ts.blocks - 1},
                            {"content_index", 0},
                            {"delta", text},
                            {"logprobs", json::array()}});
  };
  ops.start = [&ts, &out, message_id](size_t i, const std::string&, const std::string&) {
    close_open(ts, out, message_id);
    const int index = ts.blocks++;
    ts.block_open = true;
    ts.sent.push_back({"function_call", "", i});
    out += responses_event(ts, "response.output_item.added",
                           {{"output_index", index}, {"item", call_item(ts.calls[i], false)}});
  };
  ops.arguments = [&ts, &out](size_t i, const std::string& delta) {
    out += responses_event(
        ts, "response.function_call_arguments.delta",
        {{"item_id", responses_item_id("fc_", ts.calls[i].id)}, {"output_index", ts.blocks - 1}, {"delta", delta}});
  };
  ops.end = [&ts, &out, message_id](size_t) { close_open(ts, out, message_id); };
  return ops;
}

}  // namespace

std::string responses_event(ToolStream& ts, const char* type, json data) {
  data["type"] = type;
  data["sequence_number"] = ts.sequence++;
  return sse(type, data);
}

std::string responses_item_id(const char* prefix, const std::string& id) {
  const size_t cut = id.find('_');
  return prefix + (cut == std::string::npos ? id : id.substr(cut + 1));
}

json responses_message_item(const std::string& id, const std::string& text, bool done) {
  return {{"type", "message"},
          {"id", id},
          {"status", done ? "completed" : "in_progress"},
          {"role", "assistant"},
          {"content", done ? json::array({text_part(text)}) : json::array()}};
}

std::string responses_open_message(ToolStream& ts, const std::string& id) {
  const int index = ts.blocks++;
  ts.block_open = true;
  ts.sent.push_back({"message"});
  // One statement per event: the sequence numbers follow the order of the stream.
  std::string out = responses_event(ts, "response.output_item.added",
                                    {{"output_index", index}, {"item", responses_message_item(id, "", false)}});
  out += responses_event(ts, "response.content_part.added",
                         {{"item_id", id}, {"output_index", index}, {"content_index", 0}, {"part", text_part("")}});
  return out;
}

std::string responses_close_message(ToolStream& ts, const std::string& id, const std::string& text) {
  const int index = ts.blocks - 1;
  ts.block_open = false;
  std::string out = responses_event(
      ts, "response.output_text.done",
      {{"item_id", id}, {"output_index", index}, {"content_index", 0}, {"text", text}, {"logprobs", json::array()}});
  out += responses_event(ts, "response.content_part.done",
                         {{"item_id", id}, {"output_index", index}, {"content_index", 0}, {"part", text_part(text)}});
  out += responses_event(ts, "response.output_item.done",
                         {{"output_index", index}, {"item", responses_message_item(id, text, true)}});
  return out;
}

json responses_tool_output(const ResponseInfo& info, const decode::Result& r) {
  const engine::ParsedReply p = parsed_reply(info, r);
  json output = json::array();
  if (!p.reasoning.empty()) output.push_back(reasoning_item(responses_item_id("rs_", info.id), p.reasoning));
  if (!p.content.empty() || p.tool_calls.empty()) {
    output.push_back(responses_message_item(responses_item_id("msg_", info.id), p.content, true));
  }
  for (const auto& c : p.tool_calls) {
    output.push_back(call_item({random_id("call_"), c.name, call_arguments(c)}, true));
  }
  return output;
}

std::string responses_tool_stream_text(const ResponseInfo& info, const std::string& text) {
  if (!streams_calls(info)) return {};
  std::string out;
  advance_text(info, text, "call_", responses_ops(info, *info.tool_stream, out));
  return out;
}

void responses_stream_finish(const ResponseInfo& info, const decode::Result& r, ToolStream& ts) {
  if (ts.finished) return;
  ts.finished = true;
  const engine::ParsedReply p = parsed_reply(info, r);
  ts.called = !p.tool_calls.empty();
  std::string& out = ts.tail;
  const std::string message_id = responses_item_id("msg_", info.id);
  advance_final(info, ts, p, r, "call_", responses_ops(info, ts, out));
  close_open(ts, out, message_id);
  if (ts.blocks == 0) {  // neither prose nor calls: the reply is one empty message
    out += responses_open_message(ts, message_id);
    out += responses_close_message(ts, message_id, "");
  }
  if (!p.reasoning.empty()) {  // the reasoning split off the reply: an item of its own, sent whole
    const json item = reasoning_item(responses_item_id("rs_", info.id), p.reasoning);
    const int index = ts.blocks++;
    out += responses_event(ts, "response.output_item.added", {{"output_index", index}, {"item", item}});
    out += responses_event(ts, "response.output_item.done", {{"output_index", index}, {"item", item}});
    ts.sent.push_back({"reasoning", p.reasoning});
    ts.reasoning = p.reasoning;
  }
}

json responses_sent_output(const ResponseInfo& info, const ToolStream& ts) {
  json output = json::array();
  for (const auto& b : ts.sent) {
    if (b.type == "message") {
      output.push_back(responses_message_item(responses_item_id("msg_", info.id), b.text, true));
    } else if (b.type == "function_call") {
      output.push_back(call_item(ts.calls[b.call], true));
    } else {
      output.push_back(reasoning_item(responses_item_id("rs_", info.id), b.text));
    }
  }
  return output;
}

}  // namespace sfcl::server
