// llama-server's native /completion against the real `sfcl serve` on 127.0.0.1: its response
// fields (content, stop, stop_type, tokens_predicted / tokens_evaluated, timings with the prompt
// cache's cache_n), its stream of partial objects ending in one with "stop": true and no [DONE],
// the length without n_predict, and errors in OpenAI's shape.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "server/server_process.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

class NativeCompletion : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new ServerProcess({"--parallel", "1", "--ctx", "1024"}); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static ServerProcess* server_;
};
ServerProcess* NativeCompletion::server_ = nullptr;

json body(int n_predict) {
  return {{"prompt", "The quick brown fox jumps over the lazy dog"},
          {"n_predict", n_predict},
          {"temperature", 0},
          {"ignore_eos", true}};
}

TEST_F(NativeCompletion, ResponseHasLlamaServersFieldsAndTimings) {
  auto c = server_->client();
  const json r = post_json(c, "/completion", body(6));
  ASSERT_EQ(r["_status"], 200) << r.dump();
  EXPECT_TRUE(r["content"].is_string());
  EXPECT_EQ(r["stop"], true);
  EXPECT_EQ(r["stop_type"], "limit");
  EXPECT_EQ(r["tokens_predicted"], 6);
  EXPECT_GT(r["tokens_evaluated"].get<int>(), 5);
  EXPECT_EQ(r["timings"]["predicted_n"], 6);
  EXPECT_GT(r["timings"]["predicted_ms"].get<double>(), 0.0);
  EXPECT_GE(r["timings"]["prompt_ms"].get<double>(), 0.0);
  EXPECT_EQ(r["timings"]["prompt_n"].get<int>() + r["timings"]["cache_n"].get<int>(), r["tokens_evaluated"]);
  EXPECT_TRUE(r["sfcl"]["status"].is_string());
  // The same prompt again: its prefix comes from the slot's cache.
  const json again = post_json(c, "/completion", body(6));
  EXPECT_GT(again["timings"]["cache_n"].get<int>(), 0) << again.dump();
  EXPECT_EQ(again["content"], r["content"]);
}

// As llama-server counts: the first output token comes from the prompt's logits, so the generation
// rate is over the steps after it (none for one token), and no timing is negative or missing.
TEST_F(NativeCompletion, GenerationSettingsSayWhatTheRequestRanUnder) {
  auto c = server_->client();
  json b = body(5);
  b["top_k"] = 7;
  b["stop"] = {"\n\n"};
  b["seed"] = 42;
  const json r = post_json(c, "/completion", b);
  ASSERT_EQ(r["_status"], 200) << r.dump();
  const json& g = r["generation_settings"];
  EXPECT_EQ(g["n_predict"], 5);
  EXPECT_EQ(g["max_tokens"], 5);
  EXPECT_EQ(g["top_k"], 7);
  EXPECT_EQ(g["seed"], 42);
  EXPECT_EQ(g["temperature"], 0.0);
  EXPECT_EQ(g["stop"], json::array({"\n\n"}));
  EXPECT_EQ(g["ignore_eos"], true);
  EXPECT_EQ(g["stream"], false);
  // ignore_eos bans every end-of-generation token: llama-server lists them with a null (-inf) bias.
  ASSERT_FALSE(g["logit_bias"].empty()) << g.dump();
  for (const json& e : g["logit_bias"]) {
    EXPECT_TRUE(e["bias"].is_null()) << e.dump();
    EXPECT_TRUE(e["token"].is_number_integer()) << e.dump();
  }
  b["ignore_eos"] = false;
  b["logit_bias"] = {{"5", 1.5}};
  const json plain = post_json(c, "/completion", b);
  ASSERT_EQ(plain["_status"], 200) << plain.dump();
  EXPECT_EQ(plain["generation_settings"]["logit_bias"], json::parse(R"([{"bias": 1.5, "token": 5}])"));
  // The stream's last object carries them too.
  b["stream"] = true;
  auto sr = c.Post("/completion", b.dump(), "application/json");
  ASSERT_TRUE(sr);
  const auto events = parse_sse(sr->body);
  ASSERT_FALSE(events.empty());
  const json last = json::parse(events.back().second);
  EXPECT_EQ(last["generation_settings"]["stream"], true);
  EXPECT_EQ(last["generation_settings"]["n_predict"], 5);
}

TEST_F(NativeCompletion, GenerationRateLeavesOutTheFirstToken) {
  auto c = server_->client();
  const json one = post_json(c, "/completion", body(1))["timings"];
  EXPECT_EQ(one["predicted_n"], 1);
  EXPECT_EQ(one["predicted_per_second"], 0.0);
  EXPECT_EQ(one["predicted_per_token_ms"], 0.0);
  EXPECT_GT(one["prompt_ms"].get<double>(), 0.0);
  const json many = post_json(c, "/completion", body(16))["timings"];
  ASSERT_EQ(many["predicted_n"], 16);
  const double ms = many["predicted_ms"].get<double>();
  ASSERT_GT(ms, 0.0);
  EXPECT_DOUBLE_EQ(many["predicted_per_second"].get<double>(), 1e3 / ms * 15);
  EXPECT_DOUBLE_EQ(many["predicted_per_token_ms"].get<double>(), ms / 15);
  for (const auto& [key, value] : many.items()) EXPECT_GE(value.get<double>(), 0.0) << key;
}

// llama-server's GET /slots: each slot idle once its request ended, with its context and the task
// that took it last; ?fail_on_no_slot=1 is answered 200 while a slot is free.
TEST_F(NativeCompletion, SlotsAreIdleAfterACompletion) {
  auto c = server_->client();
  ASSERT_EQ(post_json(c, "/completion", body(4))["_status"], 200);
  auto r = c.Get("/slots?fail_on_no_slot=1");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const json slots = json::parse(r->body);
  ASSERT_EQ(slots.size(), 1U) << r->body;  // --parallel 1
  EXPECT_EQ(slots[0]["id"], 0);
  EXPECT_EQ(slots[0]["n_ctx"], 1024);
  EXPECT_EQ(slots[0]["is_processing"], false);
  EXPECT_GE(slots[0]["id_task"].get<int>(), 1);
  EXPECT_GT(slots[0]["n_cached"].get<int>(), 0);  // the prompt stays for prefix reuse
  EXPECT_EQ(slots[0]["params"]["top_k"], 40);
}

// As llama-server's: a slot no request has taken yet has no task fields (id_task, params).
TEST(NativeCompletionRoutes, SlotsListTaskFieldsOnlyOnceARequestTookTheSlot) {
  ServerProcess s({"--parallel", "2"});
  auto c = s.client();
  const json fresh = json::parse(c.Get("/slots")->body);
  ASSERT_EQ(fresh.size(), 2U) << fresh.dump();
  for (const json& slot : fresh) {
    EXPECT_FALSE(slot.contains("params")) << slot.dump();
    EXPECT_FALSE(slot.contains("id_task")) << slot.dump();
  }
  ASSERT_EQ(post_json(c, "/completion", body(2))["_status"], 200);
  int with_task = 0;
  for (const json& slot : json::parse(c.Get("/slots")->body)) with_task += slot.contains("params") ? 1 : 0;
  EXPECT_EQ(with_task, 1);
}

// Without /v1, /completions is the native endpoint, as llama-server routes it; a wrong key there
// is llama-server's authentication_error.
TEST(NativeCompletionRoutes, CompletionsWithoutV1IsNativeAndAWrongKeyIsAnAuthenticationError) {
  ServerProcess s({"--api-key", "right-key"});
  auto c = s.client();
  const httplib::Headers key = {{"Authorization", "Bearer right-key"}};
  auto r = c.Post("/completions", key, body(3).dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const json native = json::parse(r->body);
  EXPECT_TRUE(native["content"].is_string()) << r->body;
  EXPECT_EQ(native["tokens_predicted"], 3);
  auto v1 = c.Post("/v1/completions", key, json{{"prompt", "hi"}, {"max_tokens", 2}}.dump(), "application/json");
  ASSERT_TRUE(v1);
  EXPECT_TRUE(json::parse(v1->body)["choices"].is_array()) << v1->body;  // OpenAI's shape stays on /v1
  for (const char* path : {"/completion", "/completions"}) {
    auto wrong = c.Post(path, {{"Authorization", "Bearer wrong"}}, body(3).dump(), "application/json");
    ASSERT_TRUE(wrong);
    EXPECT_EQ(wrong->status, 401) << path;
    EXPECT_EQ(json::parse(wrong->body)["error"]["type"], "authentication_error") << wrong->body;
  }
}

TEST_F(NativeCompletion, StreamIsPartialObjectsEndingInStopTrueWithoutDone) {
  auto c = server_->client();
  const json whole = post_json(c, "/completion", body(8));
  json b = body(8);
  b["stream"] = true;
  auto r = c.Post("/completion", b.dump(), "application/json");
  ASSERT_TRUE(r);
  const auto events = parse_sse(r->body);
  ASSERT_GE(events.size(), 2U);
  std::string text;
  for (size_t i = 0; i + 1 < events.size(); ++i) {
    const json p = json::parse(events[i].second);
    EXPECT_EQ(p["stop"], false) << events[i].second;
    text += p["content"].get<std::string>();
  }
  const json last = json::parse(events.back().second);
  EXPECT_EQ(last["stop"], true);
  EXPECT_EQ(last["tokens_predicted"], 8);
  EXPECT_EQ(last["timings"]["predicted_n"], 8);
  EXPECT_EQ(text, whole["content"]);
  EXPECT_EQ(r->body.find("[DONE]"), std::string::npos);
}

TEST_F(NativeCompletion, WithoutNPredictItRunsToTheServersDefaultLengthNotOpenAIs16) {
  auto c = server_->client();
  json b = body(0);
  b.erase("n_predict");
  const json r = post_json(c, "/completion", b);
  ASSERT_EQ(r["_status"], 200) << r.dump();
  EXPECT_EQ(r["tokens_predicted"], 256);  // ServerOptions::default_max_tokens
  b["n_predict"] = -1;                    // llama-server's "no limit"
  EXPECT_EQ(post_json(c, "/completion", b)["tokens_predicted"], 256);
}

TEST_F(NativeCompletion, ErrorsAreOpenAIShapedNamingTheField) {
  auto c = server_->client();
  json b = body(4);
  b["n_predictt"] = 3;
  const json typo = post_json(c, "/completion", b);
  EXPECT_EQ(typo["_status"], 400);
  EXPECT_EQ(typo["error"]["param"], "n_predictt");
  const json missing = post_json(c, "/completion", {{"n_predict", 3}});
  EXPECT_EQ(missing["_status"], 400);
  EXPECT_EQ(missing["error"]["param"], "prompt");
}

// llama-server's response_fields: the answer is only the paths asked for, nested ones under
// their "a/b" key; a path that is not there is left out; the status header still tells the check.
TEST_F(NativeCompletion, ResponseFieldsKeepOnlyThePathsAskedFor) {
  auto c = server_->client();
  json b = body(4);
  const json full = post_json(c, "/completion", b);
  b["response_fields"] = {"content", "generation_settings/n_predict", "timings/nope", "sfcl/status"};
  auto r = c.Post("/completion", b.dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const json j = json::parse(r->body);
  EXPECT_EQ(j.size(), 3U) << j.dump();
  EXPECT_EQ(j["content"], full["content"]);
  EXPECT_EQ(j["generation_settings/n_predict"], 4);
  EXPECT_EQ(j["sfcl/status"], full["sfcl"]["status"]);
  EXPECT_FALSE(j.contains("timings/nope"));
  EXPECT_TRUE(r->has_header("X-SFCL-Status"));
  b["response_fields"] = "content";
  EXPECT_EQ(post_json(c, "/completion", b)["error"]["param"], "response_fields");
  // Chat answers have OpenAI's shape: the field is refused there, naming where it applies.
  const json chat = post_json(
      c, "/v1/chat/completions",
      {{"messages", {{{"role", "user"}, {"content", "hi"}}}}, {"max_tokens", 2}, {"response_fields", {"content"}}});
  EXPECT_EQ(chat["_status"], 400);
  EXPECT_NE(chat["error"]["message"].get<std::string>().find("/completion"), std::string::npos) << chat.dump();
}

}  // namespace
}  // namespace sfcl::test
