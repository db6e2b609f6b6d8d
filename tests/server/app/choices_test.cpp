// OpenAI n > 1 on the real server: n choices, each its own sequence, with their index in the
// response and in the interleaved stream; usage sums the choices.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "server/server_process.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

json chat_body(int n, double temperature) {
  return {{"model", "sfcl"},
          {"max_tokens", 6},
          {"temperature", temperature},
          {"seed", 7},
          {"n", n},
          {"logprobs", true},
          {"messages", json::array({{{"role", "user"}, {"content", "Say something."}}})}};
}

class Choices : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new ServerProcess({"--parallel", "2", "--ctx", "1024"}); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static ServerProcess* server_;
};
ServerProcess* Choices::server_ = nullptr;

TEST_F(Choices, EachChoiceHasItsIndexAndUsageSumsThem) {
  auto c = server_->client();
  // More choices than slots: the rest wait in the queue and still come back.
  const json j = post_json(c, "/v1/chat/completions", chat_body(3, 0.9));
  ASSERT_EQ(j["_status"], 200) << j.dump();
  ASSERT_EQ(j["choices"].size(), 3U) << j.dump();
  size_t tokens = 0;
  for (size_t i = 0; i < 3; ++i) {
    const json& choice = j["choices"][i];
    EXPECT_EQ(choice["index"], i);
    EXPECT_TRUE(choice["message"]["content"].is_string());
    EXPECT_TRUE(choice["finish_reason"].is_string());
    EXPECT_TRUE(choice["sfcl"]["status"].is_string()) << choice.dump();
    tokens += choice["logprobs"]["content"].size();  // one entry per token of the choice
  }
  EXPECT_EQ(j["usage"]["completion_tokens"], tokens);
  EXPECT_EQ(j["usage"]["total_tokens"], j["usage"]["prompt_tokens"].get<size_t>() + tokens);
  EXPECT_TRUE(j["sfcl"]["status"].is_string());
}

TEST_F(Choices, TheStreamInterleavesChoicesByIndexAndEndsOnce) {
  auto c = server_->client();
  const json whole = post_json(c, "/v1/chat/completions", chat_body(3, 0.0));
  ASSERT_EQ(whole["_status"], 200) << whole.dump();
  json body = chat_body(3, 0.0);
  body["stream"] = true;
  body["stream_options"] = {{"include_usage", true}};
  auto r = c.Post("/v1/chat/completions", body.dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  std::map<int, std::string> text;
  std::map<int, int> finishes;
  int done = 0;
  json usage;
  for (const auto& [e, d] : parse_sse(r->body)) {
    if (d == "[DONE]") {
      ++done;
      continue;
    }
    const json chunk = json::parse(d);
    if (chunk.contains("usage") && !chunk["usage"].is_null()) usage = chunk["usage"];
    for (const auto& choice : chunk["choices"]) {
      const int i = choice["index"];
      if (choice["delta"].contains("content")) text[i] += choice["delta"]["content"].get<std::string>();
      if (!choice["finish_reason"].is_null()) ++finishes[i];
    }
  }
  EXPECT_EQ(done, 1);
  ASSERT_EQ(text.size(), 3U) << r->body;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(finishes[i], 1) << i;
    // Greedy: every choice writes what the non-stream choice wrote.
    EXPECT_EQ(text[i], whole["choices"][static_cast<size_t>(i)]["message"]["content"]) << i;
  }
  EXPECT_EQ(usage["completion_tokens"], whole["usage"]["completion_tokens"]) << usage.dump();
}

TEST_F(Choices, CompletionsTooAndNAboveTheCapIsRefusedByName) {
  auto c = server_->client();
  const json j = post_json(c, "/v1/completions",
                           {{"model", "sfcl"}, {"prompt", "Once"}, {"max_tokens", 4}, {"n", 2}, {"temperature", 0.7}});
  ASSERT_EQ(j["_status"], 200) << j.dump();
  ASSERT_EQ(j["choices"].size(), 2U);
  EXPECT_EQ(j["choices"][1]["index"], 1);
  EXPECT_TRUE(j["choices"][1]["text"].is_string());
  // 2 slots x 4 choices per slot.
  const json refused = post_json(c, "/v1/chat/completions", chat_body(9, 0.0));
  EXPECT_EQ(refused["_status"], 400);
  EXPECT_EQ(refused["error"]["param"], "n") << refused.dump();
  EXPECT_NE(refused["error"]["message"].get<std::string>().find("at most 8"), std::string::npos) << refused.dump();
}

}  // namespace
}  // namespace sfcl::test
