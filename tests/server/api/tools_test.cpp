// Tools and structured output in requests: what each field becomes, and errors naming the parameter.
#include <gtest/gtest.h>

#include "server/api/request.h"
#include "server/api/tools.h"

namespace sfcl::server {
namespace {

using nlohmann::json;

ServerOptions options() {
  ServerOptions o;
  return o;
}

const json kSchema = {{"type", "object"}, {"properties", {{"city", {{"type", "string"}}}}}};

json anthropic(json messages, json extra = json::object()) {
  json body = {{"model", "tiny"}, {"max_tokens", 8}, {"messages", std::move(messages)}};
  body.update(extra);
  return body;
}

json openai(json messages, json extra = json::object()) {
  json body = {{"model", "tiny"}, {"messages", std::move(messages)}};
  body.update(extra);
  return body;
}

const json kUser = {{"role", "user"}, {"content", "weather in Paris?"}};
const json kAnthropicTools = json::array({{{"name", "get_weather"}, {"input_schema", kSchema}}});
const json kOpenAITools =
    json::array({{{"type", "function"}, {"function", {{"name", "get_weather"}, {"parameters", kSchema}}}}});

std::string param_of(Api api, const json& body) {
  try {
    (void)parse_request(api, body, options());
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status, 400) << e.what();
    return e.param;
  }
  ADD_FAILURE() << "parsed: " << body.dump();
  return {};
}

TEST(ServerTools, AnthropicToolsAndToolChoice) {
  GenerationRequest r = parse_request(
      Api::anthropic, anthropic({kUser}, {{"tools", kAnthropicTools}, {"tool_choice", {{"type", "any"}}}}), options());
  ASSERT_EQ(r.tools.size(), 1U);
  EXPECT_EQ(r.tools[0].name, "get_weather");
  EXPECT_EQ(json::parse(r.tools[0].parameters), kSchema);
  EXPECT_EQ(r.tool_choice, engine::ToolChoice::required);
  r = parse_request(Api::anthropic,
                    anthropic({kUser}, {{"tools", kAnthropicTools}, {"tool_choice", {{"type", "none"}}}}), options());
  EXPECT_EQ(r.tool_choice, engine::ToolChoice::none);
  EXPECT_EQ(param_of(Api::anthropic, anthropic({kUser}, {{"tools", kAnthropicTools},
                                                         {"tool_choice", {{"type", "tool"}, {"name", "nope"}}}})),
            "tool_choice.name");
  EXPECT_EQ(param_of(Api::anthropic, anthropic({kUser}, {{"tools", json::array({{{"name", "x"}}})}})),
            "tools.0.input_schema");
  EXPECT_EQ(param_of(Api::anthropic,
                     anthropic({kUser}, {{"tools", json::array({{{"type", "web_search_20250305"}, {"name", "w"}}})}})),
            "tools.0.type");
}

TEST(ServerTools, AnthropicHistoryWithToolUseResultAndThinking) {
  const json history = json::array(
      {kUser,
       {{"role", "assistant"},
        {"content",
         json::array(
             {{{"type", "thinking"}, {"thinking", "hm"}, {"signature", "s"}},
              {{"type", "text"}, {"text", "Let me look."}},
              {{"type", "tool_use"}, {"id", "toolu_1"}, {"name", "get_weather"}, {"input", {{"city", "Paris"}}}}})}},
       {{"role", "user"},
        {"content", json::array({{{"type", "tool_result"},
                                  {"tool_use_id", "toolu_1"},
                                  {"is_error", true},
                                  {"content", json::array({{{"type", "text"}, {"text", "timeout"}}})}}})}}});
  const GenerationRequest r =
      parse_request(Api::anthropic, anthropic(history, {{"tools", kAnthropicTools}}), options());
  ASSERT_EQ(r.messages.size(), 3U);
  EXPECT_EQ(r.messages[1].role, "assistant");
  EXPECT_EQ(r.messages[1].content, "Let me look.");  // thinking dropped
  ASSERT_EQ(r.messages[1].tool_calls.size(), 1U);
  EXPECT_EQ(json::parse(r.messages[1].tool_calls[0].arguments), json({{"city", "Paris"}}));
  EXPECT_EQ(r.messages[2].role, "tool");
  EXPECT_EQ(r.messages[2].tool_name, "get_weather");
  EXPECT_EQ(r.messages[2].content, "Error: timeout");
  EXPECT_TRUE(r.prefill.empty());
  // Every tool_use is answered in the next message, and every tool_result answers a tool_use.
  json unanswered = history;
  unanswered[2]["content"][0]["tool_use_id"] = "toolu_9";
  EXPECT_EQ(param_of(Api::anthropic, anthropic(unanswered, {{"tools", kAnthropicTools}})), "messages.2.content");
  json orphan = history;
  orphan[2]["content"].push_back({{"type", "tool_result"}, {"tool_use_id", "toolu_9"}, {"content", "晴"}});
  EXPECT_EQ(param_of(Api::anthropic, anthropic(orphan, {{"tools", kAnthropicTools}})),
            "messages.2.content.1.tool_use_id");
  // A NUL character is refused in tool content as in any text (the model and the checker must
  // read the same bytes), in English or Chinese, string or blocks.
  json nul = history;
  nul[2]["content"][0]["content"] = std::string("超时\0了", 7);
  EXPECT_EQ(param_of(Api::anthropic, anthropic(nul, {{"tools", kAnthropicTools}})), "messages.2.content.0.content");
  nul = history;
  nul[2]["content"][0]["content"][0]["text"] = std::string("time\0out", 8);
  EXPECT_EQ(param_of(Api::anthropic, anthropic(nul, {{"tools", kAnthropicTools}})), "messages.2.content.0.content");
  nul = history;
  nul[1]["content"][1]["text"] = std::string("Let\0me", 6);
  EXPECT_EQ(param_of(Api::anthropic, anthropic(nul, {{"tools", kAnthropicTools}})), "messages.1.content.1.text");
}

TEST(ServerTools, OpenAIToolCallsAndToolRole) {
  const json history =
      json::array({kUser,
                   {{"role", "assistant"},
                    {"content", nullptr},
                    {"tool_calls",
                     json::array({{{"id", "call_1"},
                                   {"type", "function"},
                                   {"function", {{"name", "get_weather"}, {"arguments", "{\"city\":\"Paris\"}"}}}}})}},
                   {{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "Sunny"}}});
  const GenerationRequest r = parse_request(
      Api::openai_chat, openai(history, {{"tools", kOpenAITools}, {"tool_choice", "required"}}), options());
  ASSERT_EQ(r.messages.size(), 3U);
  EXPECT_EQ(r.messages[1].tool_calls.at(0).name, "get_weather");
  EXPECT_EQ(r.messages[2].role, "tool");
  EXPECT_EQ(r.messages[2].tool_name, "get_weather");
  EXPECT_EQ(r.messages[2].content, "Sunny");
  EXPECT_EQ(r.tool_choice, engine::ToolChoice::required);
  json bad_args = history;
  bad_args[1]["tool_calls"][0]["function"]["arguments"] = "{nope";
  EXPECT_EQ(param_of(Api::openai_chat, openai(bad_args)), "messages[1].tool_calls[0].function.arguments");
  EXPECT_EQ(param_of(Api::openai_chat, openai({kUser}, {{"tool_choice", "sometimes"}})), "tool_choice");
  json args = history;
  args[1]["tool_calls"][0]["function"]["arguments"] = "[1]";  // JSON, not an object
  EXPECT_EQ(param_of(Api::openai_chat, openai(args)), "messages[1].tool_calls[0].function.arguments");
  json typed = history;
  typed[1]["tool_calls"][0]["type"] = "bogus";
  EXPECT_EQ(param_of(Api::openai_chat, openai(typed)), "messages[1].tool_calls[0]");
  json named = history;
  named[0]["name"] = 5;
  EXPECT_EQ(param_of(Api::openai_chat, openai(named)), "messages[0].name");
  // Each tool call is answered by a tool message before the conversation goes on.
  json skipped = history;
  skipped[2] = {{"role", "user"}, {"content", "天气如何?"}};
  EXPECT_EQ(param_of(Api::openai_chat, openai(skipped)), "messages[2]");
  // A tool message must answer a call of an earlier message.
  json orphan = history;
  orphan[2]["tool_call_id"] = "call_9";
  EXPECT_EQ(param_of(Api::openai_chat, openai(orphan)), "messages[2].tool_call_id");
  EXPECT_EQ(
      param_of(Api::openai_chat, openai({kUser, {{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "晴"}}})),
      "messages[1].tool_call_id");
  json nul = history;
  nul[2]["content"] = std::string("晴\0天", 7);
  EXPECT_EQ(param_of(Api::openai_chat, openai(nul)), "messages[2].content");
  nul = history;
  nul[1]["content"] = std::string("a\0b", 3);
  EXPECT_EQ(param_of(Api::openai_chat, openai(nul)), "messages[1].content");
  EXPECT_EQ(param_of(Api::openai_completions, json{{"prompt", "x"}, {"tools", kOpenAITools}}), "tools");
}

TEST(ServerTools, StructuredOutputFields) {
  GenerationRequest r = parse_request(
      Api::openai_chat,
      openai({kUser},
             {{"response_format", {{"type", "json_schema"}, {"json_schema", {{"name", "w"}, {"schema", kSchema}}}}}}),
      options());
  EXPECT_EQ(json::parse(r.json_schema), kSchema);
  r = parse_request(Api::openai_chat, openai({kUser}, {{"response_format", {{"type", "json_object"}}}}), options());
  EXPECT_EQ(json::parse(r.json_schema), json({{"type", "object"}}));
  r = parse_request(Api::openai_chat, openai({kUser}, {{"grammar", "root ::= \"yes\" | \"no\""}}), options());
  EXPECT_EQ(r.grammar, "root ::= \"yes\" | \"no\"");
  r = parse_request(Api::anthropic, anthropic({kUser}, {{"json_schema", kSchema}}), options());
  EXPECT_EQ(json::parse(r.json_schema), kSchema);
  EXPECT_EQ(param_of(Api::openai_chat, openai({kUser}, {{"response_format", {{"type", "xml"}}}})),
            "response_format.type");
  EXPECT_EQ(param_of(Api::openai_chat, openai({kUser}, {{"json_schema", kSchema}, {"grammar", "root ::= \"a\""}})),
            "grammar");
  EXPECT_EQ(param_of(Api::openai_chat,
                     openai({kUser}, {{"tools", kOpenAITools}, {"response_format", {{"type", "json_object"}}}})),
            "tools");
  EXPECT_EQ(param_of(Api::anthropic, anthropic({kUser}, {{"response_format", {{"type", "json_object"}}}})),
            "response_format");
}

// A schema no value satisfies is the request's error, naming the part that cannot be met; a schema
// some value satisfies passes, however unusual.
TEST(ServerTools, SchemasNoValueSatisfiesAre400) {
  struct Row {
    const char* schema;
    const char* error;  // "" = accepted
  };
  const Row rows[] = {
      {R"({"type":"integer","minimum":10,"maximum":5})", "lower bound 10 is not below its upper bound 5"},
      {R"({"type":"number","exclusiveMinimum":3,"maximum":3})", "lower bound 3 is not below"},
      {R"({"type":"integer","minimum":1.2,"maximum":1.8})", "no integer lies within its bounds"},
      {R"({"type":"integer","exclusiveMinimum":1,"exclusiveMaximum":2})", "no integer lies within its bounds"},
      {R"({"type":"string","minLength":5,"maxLength":2})", "minLength 5 is above maxLength 2"},
      {R"({"type":"array","minItems":3,"maxItems":1})", "minItems 3 is above maxItems 1"},
      {R"({"enum":[]})", "enum is empty"},
      {R"({"type":[]})", "type is empty"},
      {R"({"type":"integer","enum":["a","b"]})", "no value of its enum has its type"},
      {R"({"const":"x","enum":["a"]})", "const is not in its enum"},
      {R"({"type":"string","const":3})", "const does not have its type"},
      {R"({"not":{}})", "not matches every value"},
      {R"({"allOf":[{"type":"string"},{"type":"integer"}]})", "allOf asks for types"},
      {R"({"anyOf":[{"enum":[]},{"type":"integer","minimum":2,"maximum":1}]})", "anyOf[0].enum is empty"},
      {R"({"type":"object","properties":{"a":{}},"required":["a","b"],"additionalProperties":false})",
       "requires \"b\", which additionalProperties: false forbids"},
      {R"({"type":"object","properties":{"a":{}},"additionalProperties":false,"minProperties":2})",
       "minProperties 2 is more than the 1 properties"},
      {R"({"type":"object","required":["a","b"],"maxProperties":1})", "requires more properties than maxProperties"},
      {R"({"type":"object","properties":{"age":{"type":"integer","minimum":18,"maximum":0}},"required":["age"]})",
       ".properties.age: its lower bound 18"},
      {R"({"type":"array","items":{"enum":[]},"minItems":1})", ".items.enum is empty"},
      {R"({"type":"array","prefixItems":[{"type":"string"},false],"minItems":2})", ".prefixItems[1] is false"},
      {"false", " is false"},
      // Satisfiable, however unusual.
      {R"({"type":"integer","minimum":5,"maximum":5})", ""},
      {R"({"type":"number","minimum":1.2,"maximum":1.8})", ""},
      {R"({"type":["integer","string"],"enum":["a"]})", ""},
      {R"({"type":"number","enum":[3]})", ""},
      {R"({"type":"integer","enum":[3.0]})", ""},
      {R"({"type":"object","properties":{"a":false}})", ""},  // an optional property that can only be left out
      {R"({"type":"array","items":{"enum":[]}})", ""},        // the empty array
      {R"({"anyOf":[{"enum":[]},{"type":"string"}]})", ""},
      {R"({"not":{"type":"string"}})", ""},
      {R"({"type":"object","required":["a"]})", ""},
      {R"({"allOf":[{"type":["string","null"]},{"type":"null"}]})", ""},
      {"true", ""},
      // A keyword bounds only values of its type; a closed tuple; names matched by a pattern; whole
      // numbers past 2^53.
      {R"({"type":"array","prefixItems":[{"type":"string"},false]})", ""},
      {R"({"minimum":5,"maximum":1})", ""},
      {R"({"type":["string","null"],"minimum":5,"maximum":1})", ""},
      {R"({"type":["object","null"],"properties":{"a":{"enum":[]}},"required":["a"]})", ""},
      {R"({"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"items":false,"minItems":2})", ""},
      {R"({"type":"object","patternProperties":{"^S_":{}},"additionalProperties":false,"required":["S_name"]})", ""},
      {R"({"type":"integer","exclusiveMinimum":9007199254740992,"maximum":9007199254740993})", ""},
      {R"({"type":"integer","exclusiveMinimum":9007199254740992,"exclusiveMaximum":9007199254740993})",
       "no integer lies within its bounds"},
  };
  for (const Row& row : rows) {
    const json schema = json::parse(row.schema);
    try {
      check_schema_satisfiable(schema, "response_format.json_schema.schema");
      EXPECT_STREQ(row.error, "") << row.schema << " was accepted";
    } catch (const ApiError& e) {
      EXPECT_NE(std::string(row.error), "") << row.schema << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(row.error), std::string::npos) << row.schema << ": " << e.what();
      EXPECT_EQ(e.status, 400);
      EXPECT_EQ(e.param, "response_format.json_schema.schema");
    }
  }
  // A required name repeated at every level is one property: the check stays linear, not 40^6.
  json nested = {{"type", "integer"}};
  for (int level = 0; level < 6; ++level) {
    json names = json::array();
    for (int k = 0; k < 40; ++k) names.push_back("a");
    nested = {{"type", "object"}, {"properties", {{"a", nested}}}, {"required", names}};
  }
  EXPECT_NO_THROW(check_schema_satisfiable(nested, "json_schema"));
  // Bounds built in code (signed) and parsed (unsigned) compare by value.
  EXPECT_THROW(check_schema_satisfiable({{"type", "integer"}, {"minimum", 3}, {"maximum", json(1U)}}, "json_schema"),
               ApiError);
  EXPECT_NO_THROW(
      check_schema_satisfiable({{"type", "integer"}, {"minimum", 1}, {"maximum", json(3U)}}, "json_schema"));
  // Through a request, for a reply's schema and a tool's parameters.
  EXPECT_EQ(param_of(Api::openai_chat, openai({kUser}, {{"json_schema", {{"enum", json::array()}}}})), "json_schema");
  json tools = kOpenAITools;
  tools[0]["function"]["parameters"] = {{"type", "integer"}, {"minimum", 3}, {"maximum", 1}};
  EXPECT_EQ(param_of(Api::openai_chat, openai({kUser}, {{"tools", tools}})), "tools[0].function.parameters");
}

}  // namespace
}  // namespace sfcl::server
