// Response side of tools: the reply text split by the prompt's parser into prose and tool calls,
// shaped as Anthropic content blocks or OpenAI tool_calls, whole or as stream events.
#include "server/http_util.h"
#include "server/logprobs.h"
#include "server/tools.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

engine::ParsedReply parsed(const ResponseInfo& info, const decode::Result& r) {
  engine::ParsedReply p = info.shape->model->parse_reply(info.shape->prompt, r.text);
  // Whitespace around a call is the envelope's, not an answer.
  if (p.content.find_first_not_of(" \t\r\n") == std::string::npos) p.content.clear();
  return p;
}

json input_of(const engine::ToolCall& c) {
  json input = json::parse(c.arguments, nullptr, false);
  return input.is_object() ? input : json::object();
}

json stop_sequence_of(const decode::Result& r) {
  return r.stop_sequence.empty() ? json(nullptr) : json(r.stop_sequence);
}

std::string anthropic_stop(const engine::ParsedReply& p, const decode::Result& r) {
  return p.tool_calls.empty() ? std::string(decode::stop_reason_name(r.stop_reason)) : "tool_use";
}

const char* openai_finish(const engine::ParsedReply& p, const decode::Result& r) {
  if (!p.tool_calls.empty()) return "tool_calls";
  return r.stop_reason == decode::StopReason::max_tokens ? "length" : "stop";
}

json openai_chunk(const ResponseInfo& info, json delta, const json& finish) {
  return {
      {"id", info.id},
      {"object", "chat.completion.chunk"},
      {"created", info.created},
      {"model", info.model},
      {"choices",
       json::array(
           {{{"index", info.choice}, {"delta", std::move(delta)}, {"logprobs", nullptr}, {"finish_reason", finish}}})}};
}

}  // namespace

json anthropic_tool_response(const ResponseInfo& info, const decode::Result& r, json usage) {
  const engine::ParsedReply p = parsed(info, r);
  json content = json::array();
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

std::string anthropic_tool_stream_close(const ResponseInfo& info, const decode::Result& r, json usage, json sfcl) {
  const engine::ParsedReply p = parsed(info, r);
  std::string out;
  int index = 0;
  const auto block = [&](const json& start, const json& delta) {
    out += sse("content_block_start", {{"type", "content_block_start"}, {"index", index}, {"content_block", start}});
    if (!delta.is_null()) {
      out += sse("content_block_delta", {{"type", "content_block_delta"}, {"index", index}, {"delta", delta}});
    }
    out += sse("content_block_stop", {{"type", "content_block_stop"}, {"index", index}});
    ++index;
  };
  if (!p.content.empty() || p.tool_calls.empty()) {
    block({{"type", "text"}, {"text", ""}},
          p.content.empty() ? json(nullptr) : json{{"type", "text_delta"}, {"text", p.content}});
  }
  for (const auto& c : p.tool_calls) {
    block({{"type", "tool_use"}, {"id", random_id("toolu_")}, {"name", c.name}, {"input", json::object()}},
          {{"type", "input_json_delta"}, {"partial_json", input_of(c).dump()}});
  }
  return out +
         sse("message_delta",
             {{"type", "message_delta"},
              {"delta", {{"stop_reason", anthropic_stop(p, r)}, {"stop_sequence", stop_sequence_of(r)}}},
              {"usage", std::move(usage)},
              {"sfcl", std::move(sfcl)}}) +
         sse("message_stop", {{"type", "message_stop"}});
}

namespace {
json logprobs_of_reply(const decode::Result& r) {
  return r.logprobs < 0 ? json(nullptr) : chat_logprobs(r.token_logprobs);
}
}  // namespace

json openai_tool_response(const ResponseInfo& info, const decode::Result& r, json usage) {
  const engine::ParsedReply p = parsed(info, r);
  json message = {{"role", "assistant"},
                  {"content", p.content.empty() && !p.tool_calls.empty() ? json(nullptr) : json(p.content)},
                  {"refusal", nullptr}};
  if (!p.tool_calls.empty()) {
    json calls = json::array();
    for (const auto& c : p.tool_calls) {
      calls.push_back({{"id", random_id("call_")},
                       {"type", "function"},
                       {"function", {{"name", c.name}, {"arguments", input_of(c).dump()}}}});
    }
    message["tool_calls"] = std::move(calls);
  }
  return {{"id", info.id},
          {"object", "chat.completion"},
          {"created", info.created},
          {"model", info.model},
          {"choices", json::array({{{"index", info.choice},
                                    {"message", std::move(message)},
                                    {"logprobs", logprobs_of_reply(r)},
                                    {"finish_reason", openai_finish(p, r)}}})},
          {"usage", std::move(usage)}};
}

std::string openai_tool_stream_close(const ResponseInfo& info, const decode::Result& r, json usage, json sfcl) {
  const engine::ParsedReply p = parsed(info, r);
  std::string out;
  if (!p.content.empty()) out += sse_data(openai_chunk(info, {{"content", p.content}}, nullptr));
  for (size_t i = 0; i < p.tool_calls.size(); ++i) {
    const auto& c = p.tool_calls[i];
    out += sse_data(openai_chunk(info,
                                 {{"tool_calls", json::array({{{"index", i},
                                                               {"id", random_id("call_")},
                                                               {"type", "function"},
                                                               {"function", {{"name", c.name}, {"arguments", ""}}}}})}},
                                 nullptr));
    out += sse_data(openai_chunk(
        info, {{"tool_calls", json::array({{{"index", i}, {"function", {{"arguments", input_of(c).dump()}}}}})}},
        nullptr));
  }
  json last = openai_chunk(info, json::object(), openai_finish(p, r));
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

}  // namespace sfcl::server
