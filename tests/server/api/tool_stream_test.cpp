// The JSON-object tool reply scanner behind streamed tool calls: every prefix of a reply yields
// prose and arguments that the longer text only extends.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "engine/engine.h"
#include "server/api/tool_stream.h"
#include "server/server_process.h"
#include "support/bundle.h"
#include "support/test_model.h"

namespace sfcl::server {
namespace {

TEST(ToolStreamScan, EveryPrefixOnlyExtendsWhatWasSeen) {
  const std::string reply =
      "Let me look. {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris \\\"Nord\\\"\", \"days\": [1, 2]}}\n"
      "{\"name\": \"get_time\", \"arguments\": {}}";
  const ScannedReply whole = scan_tool_reply(reply, true);
  ASSERT_EQ(whole.calls.size(), 2U);
  EXPECT_EQ(reply.substr(0, whole.content_end), "Let me look. ");
  EXPECT_EQ(whole.calls[0].name, "get_weather");
  EXPECT_EQ(whole.calls[0].arguments, R"({"city":"Paris \"Nord\"","days":[1,2]})");
  EXPECT_EQ(nlohmann::json::parse(whole.calls[0].arguments)["city"], "Paris \"Nord\"");
  EXPECT_TRUE(whole.calls[1].arguments_done);
  EXPECT_EQ(whole.calls[1].arguments, "{}");
  size_t content = 0;
  std::vector<std::string> args(2);
  int growths = 0;
  for (size_t n = 0; n <= reply.size(); ++n) {
    const ScannedReply part = scan_tool_reply(std::string_view(reply).substr(0, n), false);
    EXPECT_GE(part.content_end, content) << n;
    EXPECT_LE(part.content_end, whole.content_end) << n;
    content = part.content_end;
    for (size_t i = 0; i < part.calls.size(); ++i) {
      EXPECT_EQ(part.calls[i].name, whole.calls[i].name) << n;
      EXPECT_TRUE(whole.calls[i].arguments.starts_with(part.calls[i].arguments))
          << n << ": " << part.calls[i].arguments;
      EXPECT_TRUE(part.calls[i].arguments.starts_with(args[i])) << n;
      growths += part.calls[i].arguments.size() > args[i].size() ? 1 : 0;
      args[i] = part.calls[i].arguments;
    }
  }
  EXPECT_GT(growths, 10);
}

TEST(ToolStreamScan, APossibleCallStartIsHeldBackAndProseIsNot) {
  // "{" then the beginning of "name": may be a call, so the prose stops before it.
  EXPECT_EQ(scan_tool_reply("Sure {\"na", false).content_end, 4U);
  // Any other brace is prose.
  EXPECT_EQ(scan_tool_reply("a {b} c", false).content_end, 7U);
  EXPECT_TRUE(scan_tool_reply("a {\"x\": 1}", false).calls.empty());
  // Blanks at the end wait for what follows them, unless the reply is over.
  EXPECT_EQ(scan_tool_reply("Fine.\n", false).content_end, 5U);
  EXPECT_EQ(scan_tool_reply("Fine.\n", true).content_end, 6U);
}

// Qwen2.5's own template, as bundled with llama.cpp: a native tool-call format.
std::filesystem::path qwen_template() {
  return std::filesystem::path(SFCL_SOURCE_DIR) / ".deps/llama.cpp/models/templates/Qwen-Qwen2.5-7B-Instruct.jinja";
}
const std::string kNativeCall =
    "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris Nord\"}}\n</tool_call>";

TEST(ToolStreamNative, APartialParseOnlyExtendsTheArguments) {
  SFCL_NEEDS_BUNDLE(!std::filesystem::exists(qwen_template()), "no llama.cpp source bundle in .deps");
  const auto m = engine::Model::load({test::tiny_model_path(), 0, qwen_template().string()});
  engine::ChatInput in;
  in.messages.push_back({"user", "Weather in Paris?"});
  in.tools.push_back({"get_weather", "Current weather",
                      R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})"});
  in.tool_choice = engine::ToolChoice::required;
  const engine::ChatPrompt p = m->render_chat(in);
  ASSERT_EQ(p.tool_format, engine::ToolFormat::native);
  const engine::ParsedReply whole = m->parse_reply(p, kNativeCall);
  ASSERT_EQ(whole.tool_calls.size(), 1U);
  std::string seen;
  int growths = 0;
  for (size_t n = 0; n <= kNativeCall.size(); ++n) {
    const engine::ParsedReply part = m->parse_reply(p, kNativeCall.substr(0, n), true);
    if (part.tool_calls.empty() || part.tool_calls[0].name.empty()) continue;
    EXPECT_EQ(part.tool_calls[0].name, "get_weather") << n;
    const std::string& args = part.tool_calls[0].arguments;
    EXPECT_TRUE(whole.tool_calls[0].arguments.starts_with(args)) << n << ": " << args;
    growths += args.size() > seen.size() ? 1 : 0;
    seen = args;
  }
  EXPECT_GT(growths, 3);
}

// parallel_tool_calls reaches llama.cpp's chat code: the rendered grammar changes with it, and a
// reply with two calls parses as two.
TEST(ToolStreamNative, ParallelToolCallsReachTheGrammar) {
  SFCL_NEEDS_BUNDLE(!std::filesystem::exists(qwen_template()), "no llama.cpp source bundle in .deps");
  const auto m = engine::Model::load({test::tiny_model_path(), 0, qwen_template().string()});
  const std::string two = kNativeCall + "\n" + kNativeCall;
  std::string grammar[2];
  for (const bool parallel : {false, true}) {
    engine::ChatInput in;
    in.messages.push_back({"user", "Weather in Paris and Rome?"});
    in.tools.push_back({"get_weather", "Current weather",
                        R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})"});
    in.tool_choice = engine::ToolChoice::required;
    in.parallel_tool_calls = parallel;
    const engine::ChatPrompt p = m->render_chat(in);
    grammar[parallel ? 1 : 0] = p.grammar.gbnf;
    if (parallel) {
      EXPECT_EQ(m->parse_reply(p, two).tool_calls.size(), 2U);
    }
  }
  EXPECT_NE(grammar[0], grammar[1]);
}

// A native-format call (the template's <tool_call> markup, which the script starts and the grammar
// completes): the OpenAI stream sends its arguments in several deltas that add up to the
// non-stream arguments.
TEST(ToolStreamNative, OpenAIStreamSendsTheArgumentsInPieces) {
  SFCL_NEEDS_BUNDLE(!std::filesystem::exists(qwen_template()), "no llama.cpp source bundle in .deps");
  test::ServerProcess s({"--chat-template", qwen_template().string(), "--test-script", kNativeCall});
  auto c = s.client();
  nlohmann::json body = {
      {"model", "m"},
      {"max_tokens", 200},
      {"temperature", 0},
      {"tool_choice", "required"},
      {"tools",
       nlohmann::json::array(
           {{{"type", "function"},
             {"function",
              {{"name", "get_weather"},
               {"parameters",
                {{"type", "object"}, {"properties", {{"city", {{"type", "string"}}}}}, {"required", {"city"}}}}}}}})},
      {"messages", nlohmann::json::array({{{"role", "user"}, {"content", "Weather in Paris?"}}})}};
  auto whole = c.Post("/v1/chat/completions", body.dump(), "application/json");
  ASSERT_TRUE(whole);
  const nlohmann::json w = nlohmann::json::parse(whole->body);
  ASSERT_EQ(w["choices"][0]["finish_reason"], "tool_calls") << whole->body;
  const std::string arguments = w["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"];
  body["stream"] = true;
  auto r = c.Post("/v1/chat/completions", body.dump(), "application/json");
  ASSERT_TRUE(r);
  std::string streamed;
  int deltas = 0;
  for (const auto& [e, d] : test::parse_sse(r->body)) {
    if (d == "[DONE]") continue;
    const auto chunk = nlohmann::json::parse(d);
    if (chunk["choices"].empty() || !chunk["choices"][0]["delta"].contains("tool_calls")) continue;
    const auto& call = chunk["choices"][0]["delta"]["tool_calls"][0];
    if (call["index"] != 0) continue;  // the grammar lets the model write more calls
    const auto& fn = call["function"];
    if (!fn.contains("arguments") || fn["arguments"] == "") continue;
    streamed += fn["arguments"].get<std::string>();
    ++deltas;
  }
  EXPECT_GT(deltas, 1) << r->body;
  EXPECT_EQ(streamed, arguments) << r->body;
  // The random model writes its own value under the grammar; the sum of the deltas parses.
  EXPECT_TRUE(nlohmann::json::parse(streamed)["city"].is_string()) << streamed;
}

}  // namespace
}  // namespace sfcl::server
