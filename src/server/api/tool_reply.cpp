// Response side of tools: the reply text split by the prompt's parser into prose and tool calls,
// shaped as Anthropic content blocks or OpenAI tool_calls, whole or as stream events.
#include <functional>
#include <tuple>
#include <utility>

#include "engine/engine.h"
#include "server/api/logprobs.h"
#include "server/api/responses.h"
#include "server/api/signing.h"
#include "server/api/tool_ops.h"
#include "server/api/tool_stream.h"
#include "server/api/tools.h"
#include "server/http/http_util.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

json input_of(const engine::ToolCall& c) {
  json input = json::parse(c.arguments, nullptr, false);
  return input.is_object() ? input : json::object();
}

json stop_sequence_of(const decode::Result& r) {
  return r.stop_sequence.empty() ? json(nullptr) : json(r.stop_sequence);
}

std::string anthropic_stop(bool called, const decode::Result& r) {
  return called ? "tool_use" : std::string(decode::stop_reason_name(r.stop_reason));
}
std::string anthropic_stop(const engine::ParsedReply& p, const decode::Result& r) {
  return anthropic_stop(!p.tool_calls.empty(), r);
}

const char* openai_finish(bool called, const decode::Result& r) {
  if (called) return "tool_calls";
  return r.stop_reason == decode::StopReason::max_tokens ? "length" : "stop";
}
const char* openai_finish(const engine::ParsedReply& p, const decode::Result& r) {
  return openai_finish(!p.tool_calls.empty(), r);
}

json openai_chunk(const ResponseInfo& info, json delta, const json& finish) {
  return {
      {"id", info.id},
      {"object", "chat.completion.chunk"},
      {"created", info.created},
      {"model", info.model},
      {"system_fingerprint", engine::llama_build()},
      {"choices",
       json::array(
           {{{"index", info.choice}, {"delta", std::move(delta)}, {"logprobs", nullptr}, {"finish_reason", finish}}})}};
}

// Anthropic: prose in a text block, each call in a tool_use block whose input grows by
// input_json_delta.
ToolOps anthropic_ops(ToolStream& ts, std::string& out) {
  const auto stop_open = [&ts, &out] {
    if (!ts.block_open) return;
    out += sse("content_block_stop", {{"type", "content_block_stop"}, {"index", ts.blocks - 1}});
    ts.block_open = false;
  };
  ToolOps ops;
  ops.content = [&ts, &out](const std::string& text) {
    if (!ts.block_open) {
      out += sse(
          "content_block_start",
          {{"type", "content_block_start"}, {"index", ts.blocks}, {"content_block", {{"type", "text"}, {"text", ""}}}});
      ++ts.blocks;
      ts.block_open = true;
      ts.sent.push_back({"text"});
    }
    ts.sent.back().text += text;
    out += sse("content_block_delta", {{"type", "content_block_delta"},
                                       {"index", ts.blocks - 1},
                                       {"delta", {{"type", "text_delta"}, {"text", text}}}});
  };
  ops.start = [&ts, &out, stop_open](size_t i, const std::string& id, const std::string& name) {
    stop_open();
    ts.sent.push_back({"tool_use", "", i});
    out += sse("content_block_start",
               {{"type", "content_block_start"},
                {"index", ts.blocks},
                {"content_block", {{"type", "tool_use"}, {"id", id}, {"name", name}, {"input", json::object()}}}});
    ++ts.blocks;
    ts.block_open = true;
  };
  ops.arguments = [&ts, &out](size_t, const std::string& delta) {
    out += sse("content_block_delta", {{"type", "content_block_delta"},
                                       {"index", ts.blocks - 1},
                                       {"delta", {{"type", "input_json_delta"}, {"partial_json", delta}}}});
  };
  ops.end = [stop_open](size_t) { stop_open(); };
  return ops;
}

// OpenAI: content deltas, then per call a chunk with its id and name and chunks of arguments.
ToolOps openai_ops(const ResponseInfo& info, std::string& out) {
  ToolOps ops;
  ops.content = [&info, &out](const std::string& text) {
    out += sse_data(openai_chunk(info, {{"content", text}}, nullptr));
  };
  ops.start = [&info, &out](size_t i, const std::string& id, const std::string& name) {
    out += sse_data(openai_chunk(
        info,
        {{"tool_calls",
          json::array(
              {{{"index", i}, {"id", id}, {"type", "function"}, {"function", {{"name", name}, {"arguments", ""}}}}})}},
        nullptr));
  };
  ops.arguments = [&info, &out](size_t i, const std::string& delta) {
    out += sse_data(openai_chunk(
        info, {{"tool_calls", json::array({{{"index", i}, {"function", {{"arguments", delta}}}}})}}, nullptr));
  };
  ops.end = [](size_t) {};
  return ops;
}

}  // namespace

json anthropic_tool_response(const ResponseInfo& info, const decode::Result& r, json usage) {
  const engine::ParsedReply p = parsed_reply(info, r);
  json content = json::array();
  if (!p.reasoning.empty()) content.push_back({{"type", "thinking"}, {"thinking", p.reasoning}, {"signature", ""}});
  if (!p.content.empty() || p.tool_calls.empty()) content.push_back({{"type", "text"}, {"text", p.content}});
  for (const auto& c : p.tool_calls) {
    content.push_back({{"type", "tool_use"}, {"id", random_id("toolu_")}, {"name", c.name}, {"input", input_of(c)}});
  }
  return {{"id", info.id},
          {"type", "message"},
          {"role", "assistant"},
          {"model", info.model},
          {"content", std::move(content)},
          {"stop_reason", anthropic_stop(p, r)},
          {"stop_sequence", stop_sequence_of(r)},
          {"usage", std::move(usage)}};
}

namespace {
json logprobs_of_reply(const decode::Result& r) {
  return r.logprobs < 0 ? json(nullptr) : chat_logprobs(r.token_logprobs);
}
}  // namespace

json openai_tool_response(const ResponseInfo& info, const decode::Result& r, json usage) {
  const engine::ParsedReply p = parsed_reply(info, r);
  json message = {{"role", "assistant"},
                  {"content", p.content.empty() && !p.tool_calls.empty() ? json(nullptr) : json(p.content)},
                  {"refusal", nullptr}};
  if (!p.reasoning.empty()) message["reasoning_content"] = p.reasoning;
  if (!p.tool_calls.empty()) {
    json calls = json::array();
    for (const auto& c : p.tool_calls) {
      calls.push_back({{"id", random_id("call_")},
                       {"type", "function"},
                       {"function", {{"name", c.name}, {"arguments", call_arguments(c)}}}});
    }
    message["tool_calls"] = std::move(calls);
  }
  return {{"id", info.id},
          {"object", "chat.completion"},
          {"created", info.created},
          {"model", info.model},
          {"system_fingerprint", engine::llama_build()},
          {"choices", json::array({{{"index", info.choice},
                                    {"message", std::move(message)},
                                    {"logprobs", logprobs_of_reply(r)},
                                    {"finish_reason", openai_finish(p, r)}}})},
          {"usage", std::move(usage)}};
}

std::string anthropic_tool_stream_text(const ResponseInfo& info, const std::string& text) {
  if (!streams_calls(info)) return {};
  std::string out;
  advance_text(info, text, "toolu_", anthropic_ops(*info.tool_stream, out));
  return out;
}

namespace {

// The end of an Anthropic tool reply stream up to its closing event, written into ts.tail once.
void anthropic_stream_finish(const ResponseInfo& info, const decode::Result& r, ToolStream& ts) {
  if (ts.finished) return;
  ts.finished = true;
  const engine::ParsedReply p = parsed_reply(info, r);
  ts.called = !p.tool_calls.empty();
  std::string& out = ts.tail;
  const ToolOps ops = anthropic_ops(ts, out);
  if (!p.reasoning.empty()) {  // the reasoning split off the reply: a thinking block (sent whole)
    if (ts.block_open) {
      out += sse("content_block_stop", {{"type", "content_block_stop"}, {"index", ts.blocks - 1}});
      ts.block_open = false;
    }
    out += sse("content_block_start", {{"type", "content_block_start"},
                                       {"index", ts.blocks},
                                       {"content_block", {{"type", "thinking"}, {"thinking", ""}, {"signature", ""}}}});
    out += sse("content_block_delta", {{"type", "content_block_delta"},
                                       {"index", ts.blocks},
                                       {"delta", {{"type", "thinking_delta"}, {"thinking", p.reasoning}}}});
    out += sse("content_block_stop", {{"type", "content_block_stop"}, {"index", ts.blocks}});
    ++ts.blocks;
    ts.sent.push_back({"thinking", p.reasoning});
    ts.reasoning = p.reasoning;
  }
  advance_final(info, ts, p, r, "toolu_", ops);
  if (ts.blocks == 0) {  // a reply with neither prose nor calls still has its (empty) text block
    out += sse("content_block_start",
               {{"type", "content_block_start"}, {"index", 0}, {"content_block", {{"type", "text"}, {"text", ""}}}});
    ts.blocks = 1;
    ts.block_open = true;
    ts.sent.push_back({"text"});
  }
  if (ts.block_open) out += sse("content_block_stop", {{"type", "content_block_stop"}, {"index", ts.blocks - 1}});
  ts.block_open = false;
}

// The blocks an Anthropic stream delivered, by index, as a client assembles them: a tool_use
// block's input is its streamed JSON (the start's empty object when none was streamed).
json anthropic_sent_blocks(const ToolStream& ts) {
  json blocks = json::array();
  for (const auto& b : ts.sent) {
    if (b.type == "tool_use") {
      const ToolStream::Call& c = ts.calls[b.call];
      blocks.push_back({{"type", "tool_use"},
                        {"id", c.id},
                        {"name", c.name},
                        {"input", c.arguments.empty() ? json::object() : tool_input(c.arguments)}});
    } else if (b.type == "thinking") {
      blocks.push_back({{"type", "thinking"}, {"thinking", b.text}});
    } else {
      blocks.push_back({{"type", "text"}, {"text", b.text}});
    }
  }
  return blocks;
}

}  // namespace

std::string anthropic_tool_stream_close(const ResponseInfo& info, const decode::Result& r, json usage, json sfcl) {
  ToolStream local;
  ToolStream& ts = info.tool_stream ? *info.tool_stream : local;
  anthropic_stream_finish(info, r, ts);
  return std::exchange(ts.tail, {}) +
         sse("message_delta",
             {{"type", "message_delta"},
              {"delta", {{"stop_reason", anthropic_stop(ts.called, r)}, {"stop_sequence", stop_sequence_of(r)}}},
              {"usage", std::move(usage)},
              {"sfcl", std::move(sfcl)}}) +
         sse("message_stop", {{"type", "message_stop"}});
}

std::string openai_tool_stream_text(const ResponseInfo& info, const std::string& text) {
  if (!streams_calls(info)) return {};
  std::string out;
  advance_text(info, text, "call_", openai_ops(info, out));
  return out;
}

namespace {

// The end of an OpenAI tool reply stream up to its finish chunk, written into ts.tail once.
void openai_stream_finish(const ResponseInfo& info, const decode::Result& r, ToolStream& ts) {
  if (ts.finished) return;
  ts.finished = true;
  const engine::ParsedReply p = parsed_reply(info, r);
  ts.called = !p.tool_calls.empty();
  if (!p.reasoning.empty()) {
    ts.tail += sse_data(openai_chunk(info, {{"reasoning_content", p.reasoning}}, nullptr));
    ts.reasoning = p.reasoning;
  }
  advance_final(info, ts, p, r, "call_", openai_ops(info, ts.tail));
}

}  // namespace

std::string openai_tool_stream_close(const ResponseInfo& info, const decode::Result& r, json usage, json sfcl) {
  ToolStream local;
  ToolStream& ts = info.tool_stream ? *info.tool_stream : local;
  openai_stream_finish(info, r, ts);
  std::string out = std::exchange(ts.tail, {});
  json last = openai_chunk(info, json::object(), openai_finish(ts.called, r));
  // The tokens' log-probabilities come with the blocks they were parsed into, at the end.
  last["choices"][0]["logprobs"] = logprobs_of_reply(r);
  if (info.more_choices) {  // n > 1: usage of all choices and the terminator come at the very end
    last["sfcl"] = std::move(sfcl);
    return out + sse_data(last);
  }
  last["usage"] = std::move(usage);
  last["sfcl"] = std::move(sfcl);
  return out + sse_data(last) + "data: [DONE]\n\n";
}

json tool_stream_blocks(const Dialect& dialect, const ResponseInfo& info, const decode::Result& r) {
  if (!info.shape || !info.tool_stream) return nullptr;
  if (&dialect == &anthropic_dialect()) {
    anthropic_stream_finish(info, r, *info.tool_stream);
    return anthropic_sent_blocks(*info.tool_stream);
  }
  if (&dialect == &openai_chat_dialect()) {
    openai_stream_finish(info, r, *info.tool_stream);
    return openai_sent_blocks(*info.tool_stream);
  }
  if (&dialect == &openai_responses_dialect()) {
    responses_stream_finish(info, r, *info.tool_stream);
    return openai_sent_blocks(*info.tool_stream);  // the same neutral blocks: reasoning, prose, calls
  }
  return nullptr;  // completions: no tool split, the reply text is the one block
}

}  // namespace sfcl::server
