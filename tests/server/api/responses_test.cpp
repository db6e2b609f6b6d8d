// The OpenAI Responses API: a Responses body is the chat body it stands for (the same request in
// every part a signature covers), what needs stored responses or built-in tools is a 400 naming
// the field, and the stream's events are numbered in the order they are written.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "server/api/dialect.h"
#include "server/api/request.h"
#include "server/api/responses.h"
#include "server/api/verdicts.h"
#include "server/http/http_util.h"

namespace sfcl::server {
namespace {

using nlohmann::json;

const ServerOptions kOptions;  // a named object: GCC 12 misreads a temporary's strings

json digest(Api api, const json& body) { return request_digest_json(parse_request(api, body, kOptions)); }

json user(const std::string& text) { return {{"role", "user"}, {"content", text}}; }

struct Same {
  const char* what;
  json responses;
  json chat;
};

const json kSchema = {{"type", "object"}, {"properties", {{"city", {{"type", "string"}}}}}};

const std::vector<Same> kSame = {
    {"input as a string", {{"input", "hi"}}, {{"messages", json::array({user("hi")})}}},
    {"instructions are the system message",
     {{"instructions", "Total: $5."}, {"input", "hi"}},
     {{"messages", json::array({{{"role", "system"}, {"content", "Total: $5."}}, user("hi")})}}},
    {"message items with input_text parts",
     {{"input", json::array({{{"type", "message"},
                              {"role", "developer"},
                              {"content", json::array({{{"type", "input_text"}, {"text", "Be brief."}}})}},
                             {{"role", "user"},
                              {"content", json::array({{{"type", "input_text"}, {"text", "a"}},
                                                       {{"type", "input_text"}, {"text", "b"}}})}}})}},
     {{"messages", json::array({{{"role", "developer"}, {"content", "Be brief."}}, user("ab")})}}},
    {"max_output_tokens, temperature, top_p and llama-server's own fields",
     {{"input", "hi"}, {"max_output_tokens", 7}, {"temperature", 0.2}, {"top_p", 0.9}, {"top_k", 5}, {"seed", 3}},
     {{"messages", json::array({user("hi")})},
      {"max_tokens", 7},
      {"temperature", 0.2},
      {"top_p", 0.9},
      {"top_k", 5},
      {"seed", 3}}},
    {"sfcl options",
     {{"input", "hi"}, {"sfcl", {{"threshold", 0.95}, {"fallback", "abstain"}}}},
     {{"messages", json::array({user("hi")})}, {"sfcl", {{"threshold", 0.95}, {"fallback", "abstain"}}}}},
    {"function tools and a named tool_choice",
     {{"input", "weather?"},
      {"tools", json::array({{{"type", "function"}, {"name", "get_weather"}, {"parameters", kSchema}}})},
      {"tool_choice", {{"type", "function"}, {"name", "get_weather"}}}},
     {{"messages", json::array({user("weather?")})},
      {"tools",
       json::array({{{"type", "function"}, {"function", {{"name", "get_weather"}, {"parameters", kSchema}}}}})},
      {"tool_choice", {{"type", "function"}, {"function", {{"name", "get_weather"}}}}}}},
    {"a function call and its output are a tool call and a tool message",
     {{"input", json::array({user("weather?"),
                             {{"type", "function_call"},
                              {"call_id", "call_1"},
                              {"name", "get_weather"},
                              {"arguments", "{\"city\":\"Paris\"}"}},
                             {{"type", "function_call_output"}, {"call_id", "call_1"}, {"output", "Sunny"}}})}},
     {{"messages",
       json::array({user("weather?"),
                    {{"role", "assistant"},
                     {"content", nullptr},
                     {"tool_calls",
                      json::array({{{"id", "call_1"},
                                    {"type", "function"},
                                    {"function", {{"name", "get_weather"}, {"arguments", "{\"city\":\"Paris\"}"}}}}})}},
                    {{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "Sunny"}}})}}},
    {"reasoning items are not part of the prompt",
     {{"input", json::array({{{"type", "reasoning"}, {"summary", json::array()}}, user("hi")})}},
     {{"messages", json::array({user("hi")})}}},
    {"text.format json_schema is response_format json_schema",
     {{"input", "hi"}, {"text", {{"format", {{"type", "json_schema"}, {"name", "x"}, {"schema", kSchema}}}}}},
     {{"messages", json::array({user("hi")})},
      {"response_format", {{"type", "json_schema"}, {"json_schema", {{"name", "x"}, {"schema", kSchema}}}}}}},
    {"store, metadata, include and other hints change nothing",
     {{"input", "hi"},
      {"store", true},
      {"metadata", {{"k", "v"}}},
      {"include", json::array({"reasoning.encrypted_content"})},
      {"truncation", "disabled"},
      {"previous_response_id", nullptr}},
     {{"messages", json::array({user("hi")})}}},
};

TEST(Responses, ABodyIsTheChatBodyItStandsFor) {
  for (const Same& c : kSame) {
    SCOPED_TRACE(c.what);
    EXPECT_EQ(digest(Api::openai_responses, c.responses), digest(Api::openai_chat, c.chat));
  }
}

struct Refused {
  json body;
  const char* param;
};

TEST(Responses, WhatNeedsStoredResponsesOrBuiltInToolsIsA400NamingTheField) {
  const std::vector<Refused> cases = {
      {{{"input", "x"}, {"previous_response_id", "resp_1"}}, "previous_response_id"},
      {{{"input", "x"}, {"conversation", "conv_1"}}, "conversation"},
      {{{"input", "x"}, {"background", true}}, "background"},
      {{{"input", "x"}, {"truncation", "auto"}}, "truncation"},
      {{{"input", json::array({{{"type", "item_reference"}, {"id", "msg_1"}}})}}, "input[0]"},
      {{{"input", "x"}, {"tools", json::array({{{"type", "web_search"}}})}}, "tools[0].type"},
      {{{"input", "x"}, {"tools", json::array({{{"type", "function"}}})}}, "tools[0].name"},
      {{{"input", json::array({{{"role", "user"}, {"content", json::array({{{"type", "input_file"}}})}}})}},
       "input[0].content[0].type"},
      {{{"input", json::array({{{"role", "wizard"}, {"content", "x"}}})}}, "input[0].role"},
      {{{"input", json::array({{{"type", "function_call_output"}, {"call_id", "c"}}})}}, "input[0].output"},
      {{{"input", "x"}, {"max_output_tokens", 0}}, "max_output_tokens"},
      {{{"input", "x"}, {"max_output_tokens", 1.5}}, "max_output_tokens"},
      {{{"input", "x"}, {"text", {{"format", {{"type", "xml"}}}}}}, "text.format.type"},
      {{{"input", "x"}, {"text", {{"formats", json::object()}}}}, "formats"},
      {{{"input", "x"}, {"messages", json::array()}}, "messages"},
      {{{"input", "x"}, {"max_tokens", 5}}, "max_tokens"},
      {{{"input", json::array()}}, "input"},
      {{{"instructions", "only"}}, "input"},
      {{{"input", "x"}, {"sfcl", {{"threshhold", 0.9}}}}, "sfcl.threshhold"},
  };
  for (const Refused& c : cases) {
    SCOPED_TRACE(c.body.dump());
    try {
      (void)parse_request(Api::openai_responses, c.body, kOptions);
      ADD_FAILURE() << "parsed";
    } catch (const ApiError& e) {
      EXPECT_EQ(e.status, 400);
      EXPECT_EQ(e.param, c.param) << e.what();
      EXPECT_EQ(dialect_for(Api::openai_responses).error_body(e)["error"]["param"], c.param);
    }
  }
}

// The stream of a reply without tools, piece by piece: every event's sequence_number is the
// count of events before it, and the per-token delta is what responses_event writes for it.
TEST(Responses, StreamEventsAreNumberedInTheOrderTheyAreWritten) {
  const Dialect& d = openai_responses_dialect();
  ResponseInfo info;
  info.id = "resp_0123456789abcdef";
  info.model = "demo \"model\"";
  info.created = 1764633600;
  info.tool_stream = std::make_shared<ToolStream>();
  decode::Result r;
  r.text = "净利润 \"3.2\" \xff";
  r.stop_reason = decode::StopReason::max_tokens;
  std::string all = d.stream_open(info, 10, 0);
  ToolStream copy = *info.tool_stream;
  const std::string delta = d.stream_text(info, r.text);
  EXPECT_EQ(delta, responses_event(copy, "response.output_text.delta",
                                   {{"item_id", "msg_0123456789abcdef"},
                                    {"output_index", 0},
                                    {"content_index", 0},
                                    {"delta", r.text},
                                    {"logprobs", json::array()}}));
  all += delta;  // one statement per piece: the order they are written in
  all += d.stream_event(info, {{"event", "anchor_checked"}});
  all += d.stream_ping();
  all += d.stream_close(info, r, 0, {{"status", "active"}});
  std::vector<std::string> types;
  size_t at = 0;
  while ((at = all.find("data: ", at)) != std::string::npos) {
    const size_t end = all.find("\n\n", at);
    const json e = json::parse(all.substr(at + 6, end - at - 6));
    EXPECT_EQ(e["sequence_number"], types.size()) << e.dump();
    types.push_back(e["type"].get<std::string>());
    at = end;
  }
  const std::vector<std::string> want = {"response.created",           "response.in_progress",
                                         "response.output_item.added", "response.content_part.added",
                                         "response.output_text.delta", "keepalive",
                                         "response.output_text.done",  "response.content_part.done",
                                         "response.output_item.done",  "response.incomplete"};
  EXPECT_EQ(types, want);
  const size_t last = all.rfind("data: ");
  const json done = json::parse(all.substr(last + 6));
  EXPECT_EQ(done["response"]["status"], "incomplete");
  EXPECT_EQ(done["response"]["incomplete_details"]["reason"], "max_output_tokens");
  EXPECT_EQ(done["response"]["sfcl"]["status"], "active");
  EXPECT_EQ(body_blocks(done["response"], 0),
            json::array({{{"type", "text"}, {"text", "净利润 \"3.2\" \xef\xbf\xbd"}}}));
}

}  // namespace
}  // namespace sfcl::server
