// Tools and structured output through `sfcl gateway`: the gateway keeps the grammar, checks every
// token its llama-server backends sample against it, bans what it rejects and lists what it allows.
// At temperature 0 the answers (OpenAI and Anthropic, streamed and not; tool calls and
// response_format) equal those of `sfcl serve` on the same demo model, parse, and satisfy their
// schemas, although the demo model's free choice is no JSON at all.
#include <gtest/gtest.h>

#include <future>
#include <nlohmann/json.hpp>

#include "gateway/gateway_process.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

const json kWeatherSchema = {
    {"type", "object"}, {"properties", {{"city", {{"type", "string"}, {"maxLength", 12}}}}}, {"required", {"city"}}};
const json kOpenAITools = json::array(
    {{{"type", "function"},
      {"function",
       {{"name", "get_weather"}, {"description", "Current weather in a city"}, {"parameters", kWeatherSchema}}}}});
const json kAnthropicTools = json::array(
    {{{"name", "get_weather"}, {"description", "Current weather in a city"}, {"input_schema", kWeatherSchema}}});
const json kQuestion = {{"role", "user"}, {"content", "What is the weather in Paris?"}};
const std::string kInvoice = "Invoice INV-7 total: $12,500.00 due June 15, 2024.";
const json kTotalSchema = {{"type", "object"},
                           {"properties", {{"total", {{"type", "string"}, {"maxLength", 16}}}}},
                           {"required", {"total"}},
                           {"additionalProperties", false}};

// Characters, as a schema's maxLength counts them (not bytes: the sampled answers write Chinese).
size_t chars(const std::string& s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

json openai(const json& extra) {
  json body = {{"model", "sfcl-demo"}, {"max_tokens", 80}, {"temperature", 0}, {"messages", json::array({kQuestion})}};
  body.update(extra);
  return body;
}

// What a client takes from a non-streamed reply, without the ids each server draws afresh.
json answer_of(const json& reply) {
  json out;
  if (reply.contains("choices")) {
    const json& choice = reply["choices"][0];
    out["finish_reason"] = choice["finish_reason"];
    out["content"] = choice["message"]["content"];
    out["tool_calls"] = json::array();
    for (const auto& call : choice["message"].value("tool_calls", json::array())) {
      out["tool_calls"].push_back(call["function"]);
    }
  } else {
    out["stop_reason"] = reply["stop_reason"];
    out["content"] = reply["content"];
    for (auto& block : out["content"]) block.erase("id");
  }
  out["anchors"] = reply["sfcl"]["anchors"];
  return out;
}

// What a client sees of a streamed reply, in order, without the ids: every delta (text, tool name,
// arguments) and how it ended.
std::vector<std::string> stream_of(httplib::Client& c, const std::string& path, json body) {
  body["stream"] = true;
  auto r = c.Post(path, body.dump(), "application/json");
  std::vector<std::string> seen;
  if (!r || r->status != 200) return {"HTTP " + std::to_string(r ? r->status : 0)};
  for (const auto& [event, data] : parse_sse(r->body)) {
    if (data == "[DONE]") {
      seen.emplace_back("[DONE]");
      continue;
    }
    json j = json::parse(data);
    if (j.contains("choices") && !j["choices"].empty()) {
      json& choice = j["choices"][0];
      if (choice["delta"].contains("tool_calls")) {
        for (auto& call : choice["delta"]["tool_calls"]) call.erase("id");
      }
      seen.push_back(choice["delta"].dump() + " " + choice["finish_reason"].dump());
    } else if (event == "content_block_start") {
      j["content_block"].erase("id");
      seen.push_back(event + " " + j["content_block"].dump());
    } else if (event == "content_block_delta" || event == "content_block_stop") {
      seen.push_back(event + " " + j.dump());
    } else if (event == "message_delta") {
      seen.push_back(event + " " + j["delta"].dump());
    }
  }
  return seen;
}

// The arguments a streamed OpenAI reply's tool call deltas add up to.
std::string streamed_arguments(const std::vector<std::string>& seen) {
  std::string args;
  for (const std::string& s : seen) {
    if (s == "[DONE]") continue;
    const json delta = json::parse(s.substr(0, s.rfind(' ')));
    for (const auto& call : delta.value("tool_calls", json::array())) {
      if (call.contains("function")) args += call["function"].value("arguments", "");
    }
  }
  return args;
}

class GatewayGrammarTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    a_ = new LlamaServer();
    b_ = new LlamaServer();
    serve_ = new ServerProcess({"--model", demo_model().string(), "--parallel", "2"});
    gateway_ = new Gateway({a_, b_}, {});
  }
  static void TearDownTestSuite() {
    delete gateway_;
    delete serve_;
    delete a_;
    delete b_;
    gateway_ = nullptr;
    serve_ = nullptr;
    a_ = b_ = nullptr;
  }
  // The same request to `sfcl serve` and to the gateway; both answer 200.
  static std::pair<json, json> both(const std::string& path, const json& body) {
    auto sc = serve_->client();
    auto gc = gateway_->client();
    json want = post_json(sc, path, body);
    json got = post_json(gc, path, body);
    EXPECT_EQ(want["_status"], 200) << want.dump();
    EXPECT_EQ(got["_status"], 200) << got.dump();
    return {want, got};
  }
  static LlamaServer* a_;
  static LlamaServer* b_;
  static ServerProcess* serve_;
  static Gateway* gateway_;
};
LlamaServer* GatewayGrammarTest::a_ = nullptr;
LlamaServer* GatewayGrammarTest::b_ = nullptr;
ServerProcess* GatewayGrammarTest::serve_ = nullptr;
Gateway* GatewayGrammarTest::gateway_ = nullptr;

TEST_F(GatewayGrammarTest, OpenAIToolCallsEqualServePlainAndStreamed) {
  const json before = gateway_->backends();
  const json body = openai({{"tools", kOpenAITools}, {"tool_choice", "required"}});
  const auto [want, got] = both("/v1/chat/completions", body);
  EXPECT_EQ(answer_of(got), answer_of(want));
  ASSERT_EQ(got["choices"][0]["finish_reason"], "tool_calls") << got.dump();
  const json& call = got["choices"][0]["message"]["tool_calls"][0]["function"];
  EXPECT_EQ(call["name"], "get_weather");
  const json args = json::parse(call["arguments"].get<std::string>());
  ASSERT_TRUE(args["city"].is_string()) << call.dump();
  EXPECT_LE(chars(args["city"].get<std::string>()), 12U);
  // The demo model, asked freely, writes prose: the gateway had to refuse tokens and ask again
  // with the grammar's allowed tokens (one-token calls; there is nothing to backtrack here).
  const json after = gateway_->backends();
  EXPECT_GT(after["constrained_calls"].get<int>(), before["constrained_calls"].get<int>()) << after.dump();
  EXPECT_EQ(after["rewinds"], before["rewinds"]) << after.dump();

  // Streamed, with the tool named: the same deltas as serve's, adding up to the same call.
  const json named = openai(
      {{"tools", kOpenAITools}, {"tool_choice", {{"type", "function"}, {"function", {{"name", "get_weather"}}}}}});
  auto sc = serve_->client();
  auto gc = gateway_->client();
  const auto want_stream = stream_of(sc, "/v1/chat/completions", named);
  const auto got_stream = stream_of(gc, "/v1/chat/completions", named);
  EXPECT_EQ(got_stream, want_stream);
  EXPECT_EQ(streamed_arguments(got_stream), call["arguments"].get<std::string>());

  // Tools the model may or may not call (a lazy grammar that waits for its trigger): as serve.
  const auto [want_auto, got_auto] = both("/v1/chat/completions", openai({{"tools", kOpenAITools}}));
  EXPECT_EQ(answer_of(got_auto), answer_of(want_auto));
}

TEST_F(GatewayGrammarTest, AnthropicToolUseEqualsServePlainAndStreamed) {
  json body = openai({{"tools", kAnthropicTools}, {"tool_choice", {{"type", "any"}}}});
  const auto [want, got] = both("/v1/messages", body);
  EXPECT_EQ(answer_of(got), answer_of(want));
  ASSERT_EQ(got["stop_reason"], "tool_use") << got.dump();
  const json& block = got["content"].back();
  ASSERT_EQ(block["type"], "tool_use") << got.dump();
  EXPECT_EQ(block["name"], "get_weather");
  ASSERT_TRUE(block["input"]["city"].is_string()) << block.dump();
  EXPECT_LE(chars(block["input"]["city"].get<std::string>()), 12U);

  body["tool_choice"] = {{"type", "tool"}, {"name", "get_weather"}};
  auto sc = serve_->client();
  auto gc = gateway_->client();
  const auto want_stream = stream_of(sc, "/v1/messages", body);
  const auto got_stream = stream_of(gc, "/v1/messages", body);
  EXPECT_EQ(got_stream, want_stream);
  int input_deltas = 0;
  for (const auto& s : got_stream) input_deltas += s.find("input_json_delta") != std::string::npos ? 1 : 0;
  EXPECT_GT(input_deltas, 0);
}

TEST_F(GatewayGrammarTest, JsonSchemaAnswerEqualsServeAndSatisfiesTheSchema) {
  const json body =
      openai({{"messages", json::array({{{"role", "system"}, {"content", kInvoice}},
                                        {{"role", "user"}, {"content", "What is the total?"}}})},
              {"response_format",
               {{"type", "json_schema"}, {"json_schema", {{"name", "invoice"}, {"schema", kTotalSchema}}}}}});
  const auto [want, got] = both("/v1/chat/completions", body);
  EXPECT_EQ(answer_of(got), answer_of(want));
  const json j = json::parse(got["choices"][0]["message"]["content"].get<std::string>(), nullptr, false);
  ASSERT_TRUE(j.is_object()) << got.dump();
  EXPECT_EQ(j.size(), 1U) << j.dump();  // additionalProperties: false
  ASSERT_TRUE(j["total"].is_string()) << j.dump();
  EXPECT_LE(chars(j["total"].get<std::string>()), 16U);

  // Streamed: the same chunks as serve's.
  auto sc = serve_->client();
  auto gc = gateway_->client();
  EXPECT_EQ(stream_of(gc, "/v1/chat/completions", body), stream_of(sc, "/v1/chat/completions", body));

  // Any JSON object (json_object), and the same question without a grammar, which the backend
  // answers in prose: it is the grammar that made the answer JSON.
  json any = body;
  any["response_format"] = {{"type", "json_object"}};
  const auto [want_any, got_any] = both("/v1/chat/completions", any);
  EXPECT_EQ(answer_of(got_any), answer_of(want_any));
  EXPECT_TRUE(json::parse(got_any["choices"][0]["message"]["content"].get<std::string>(), nullptr, false).is_object());
  json free = body;
  free.erase("response_format");
  const auto [want_free, got_free] = both("/v1/chat/completions", free);
  EXPECT_TRUE(
      json::parse(got_free["choices"][0]["message"]["content"].get<std::string>(), nullptr, false).is_discarded())
      << got_free.dump();
}

// Sampled (temperature > 0) the backend draws from what the grammar leaves; the answers differ from
// serve's draws but stay valid for their schemas.
TEST_F(GatewayGrammarTest, SampledAnswersStayValid) {
  auto gc = gateway_->client();
  for (int seed = 1; seed <= 3; ++seed) {
    const json sampling = {{"temperature", 0.9}, {"seed", seed}};
    json tools = openai({{"tools", kOpenAITools}, {"tool_choice", "required"}});
    tools.update(sampling);
    const json call = post_json(gc, "/v1/chat/completions", tools);
    ASSERT_EQ(call["_status"], 200) << call.dump();
    const json& fn = call["choices"][0]["message"]["tool_calls"][0]["function"];
    EXPECT_EQ(fn["name"], "get_weather");
    const json args = json::parse(fn["arguments"].get<std::string>(), nullptr, false);
    ASSERT_TRUE(args.is_object() && args["city"].is_string()) << fn.dump();
    EXPECT_LE(chars(args["city"].get<std::string>()), 12U) << fn.dump();

    json structured =
        openai({{"response_format",
                 {{"type", "json_schema"}, {"json_schema", {{"name", "invoice"}, {"schema", kTotalSchema}}}}}});
    structured.update(sampling);
    const json reply = post_json(gc, "/v1/chat/completions", structured);
    ASSERT_EQ(reply["_status"], 200) << reply.dump();
    const json j = json::parse(reply["choices"][0]["message"]["content"].get<std::string>(), nullptr, false);
    ASSERT_TRUE(j.is_object() && j.size() == 1 && j["total"].is_string()) << reply.dump();
    EXPECT_LE(chars(j["total"].get<std::string>()), 16U);
  }
}

// A wrong value written inside the JSON (scripted) is backtracked through the backend, the grammar
// follows the rewind, and the answer is serve's: valid JSON without the wrong value.
TEST_F(GatewayGrammarTest, BacktrackInsideStructuredOutputEqualsServe) {
  const std::string script = R"({"total": "$12,600.00"})";
  ServerProcess serve({"--model", demo_model().string(), "--test-script", script});
  Gateway gw({a_}, {"--test-script", script});
  const json body =
      openai({{"messages", json::array({{{"role", "system"}, {"content", kInvoice}},
                                        {{"role", "user"}, {"content", "What is the total?"}}})},
              {"response_format",
               {{"type", "json_schema"}, {"json_schema", {{"name", "invoice"}, {"schema", kTotalSchema}}}}}});
  auto sc = serve.client();
  auto gc = gw.client();
  const json want = post_json(sc, "/v1/chat/completions", body);
  const json got = post_json(gc, "/v1/chat/completions", body);
  ASSERT_EQ(got["_status"], 200) << got.dump();
  EXPECT_EQ(answer_of(got), answer_of(want));
  EXPECT_GE(got["sfcl"]["backtracks"].get<int>(), 1) << got.dump();
  const std::string content = got["choices"][0]["message"]["content"];
  EXPECT_EQ(content.find("12,600"), std::string::npos) << content;
  const json j = json::parse(content, nullptr, false);
  ASSERT_TRUE(j.is_object()) << content;
  EXPECT_TRUE(j["total"].is_string()) << content;
  EXPECT_GE(gw.backends()["rewinds"].get<int>(), 1);
}

// The grammar's state lives in the gateway: a backend SIGKILLed mid-answer is replaced and the JSON
// goes on from the accepted text, the same as an answer nobody interrupted.
TEST(GatewayGrammarFailover, KilledBackendMidJsonLosesAndRepeatsNothing) {
  LlamaServer a;
  LlamaServer b;
  Gateway gw({&a, &b}, {"--backend-slots", "4"});
  const json schema = {{"type", "object"},
                       {"properties", {{"summary", {{"type", "string"}, {"maxLength", 400}}}}},
                       {"required", {"summary"}}};
  const json body = openai(
      {{"max_tokens", 200},
       {"messages", json::array({{{"role", "system"}, {"content", kInvoice}},
                                 {{"role", "user"}, {"content", "Summarise the invoice."}}})},
       {"response_format", {{"type", "json_schema"}, {"json_schema", {{"name", "summary"}, {"schema", schema}}}}}});
  auto c0 = gw.client();
  const json reference = post_json(c0, "/v1/chat/completions", body);
  ASSERT_EQ(reference["_status"], 200) << reference.dump();
  const std::string want = reference["choices"][0]["message"]["content"];
  ASSERT_GT(want.size(), 40U) << want;

  constexpr int kStreams = 8;
  std::vector<std::future<json>> answers;
  answers.reserve(kStreams);
  for (int i = 0; i < kStreams; ++i) {
    answers.push_back(std::async(std::launch::async, [&] {
      auto c = gw.client();
      return post_json(c, "/v1/chat/completions", body);
    }));
  }
  for (int i = 0; i < 200; ++i) {
    const json st = gw.backends();
    if (st.is_object() && st["backends"][0]["outstanding"].get<int>() > 0 &&
        st["backends"][1]["outstanding"].get<int>() > 0) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  a.kill();
  for (auto& f : answers) {
    const json got = f.get();
    ASSERT_EQ(got["_status"], 200) << got.dump();
    EXPECT_EQ(got["choices"][0]["message"]["content"], want);
  }
  EXPECT_GE(gw.backends()["failovers"].get<int>(), 1);
}

}  // namespace
}  // namespace sfcl::test
