// OpenAI logprobs end to end on the real server: chat (content entries, also in stream chunks)
// and completions (tokens, token_logprobs, top_logprobs, text_offset), and after a backtrack
// only entries of the delivered text.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "server/server_process.h"
#include "util/utf8.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

json chat_body(int top, bool stream) {
  return {{"model", "sfcl"},           {"max_tokens", 12},
          {"temperature", 0},          {"stream", stream},
          {"logprobs", true},          {"top_logprobs", top},
          {"sfcl", {{"mode", "off"}}}, {"messages", json::array({{{"role", "user"}, {"content", "Say something."}}})}};
}

// The chat stream's content and logprob entries, chunk by chunk.
struct Streamed {
  std::string text;
  json entries = json::array();
};
Streamed read_stream(const std::string& body) {
  Streamed s;
  for (const auto& [e, d] : parse_sse(body)) {
    if (d == "[DONE]") continue;
    const json j = json::parse(d);
    if (!j.contains("choices") || j["choices"].empty()) continue;
    const json& choice = j["choices"][0];
    if (choice["delta"].contains("content")) s.text += choice["delta"]["content"].get<std::string>();
    if (choice["logprobs"].is_object()) {
      for (const auto& entry : choice["logprobs"]["content"]) s.entries.push_back(entry);
    }
  }
  return s;
}

// Text the entries' bytes spell (U+FFFD where they are not UTF-8, as in the content).
std::string spelled_by(const json& content) {
  std::string bytes;
  for (const auto& e : content) {
    for (const auto& b : e["bytes"]) bytes.push_back(static_cast<char>(b.get<int>()));
  }
  return utf8::sanitize(bytes);
}

// A prompt read from the slot's cache (a different batch shape) may round logits differently.
constexpr double kSameValue = 1e-3;

void expect_same(const json& a, const json& b) {
  ASSERT_EQ(a.size(), b.size()) << a.dump() << "\n" << b.dump();
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i]["token"], b[i]["token"]);
    EXPECT_EQ(a[i]["bytes"], b[i]["bytes"]);
    const double want = b[i]["logprob"].get<double>();
    EXPECT_NEAR(a[i]["logprob"].get<double>(), want, kSameValue * std::max(1.0, std::abs(want)));
    EXPECT_EQ(a[i]["top_logprobs"].size(), b[i]["top_logprobs"].size());
  }
}

void expect_real_logprobs(const json& content, size_t top) {
  for (const auto& e : content) {
    ASSERT_TRUE(e["token"].is_string()) << e.dump();
    ASSERT_TRUE(e["bytes"].is_array()) << e.dump();
    EXPECT_LE(e["logprob"].get<double>(), 0.0);
    const json& alts = e["top_logprobs"];
    ASSERT_EQ(alts.size(), top) << e.dump();
    for (size_t i = 0; i + 1 < alts.size(); ++i) EXPECT_GE(alts[i]["logprob"], alts[i + 1]["logprob"]);
    // Temperature 0: the chosen token is the most likely one.
    if (top > 0) {
      EXPECT_EQ(e["logprob"], alts[0]["logprob"]) << e.dump();
      EXPECT_EQ(e["bytes"], alts[0]["bytes"]) << e.dump();
    }
  }
}

TEST(Logprobs, ChatEntriesAreRealAndTheStreamAgrees) {
  ServerProcess s({"--parallel", "2", "--ctx", "1024"});
  auto c = s.client();
  const json j = post_json(c, "/v1/chat/completions", chat_body(3, false));
  ASSERT_EQ(j["_status"], 200) << j.dump();
  const json& lp = j["choices"][0]["logprobs"];
  ASSERT_TRUE(lp.is_object()) << j.dump();
  EXPECT_TRUE(lp["refusal"].is_null());
  const json& content = lp["content"];
  EXPECT_EQ(content.size(), j["usage"]["completion_tokens"].get<size_t>());
  expect_real_logprobs(content, 3);

  auto r = c.Post("/v1/chat/completions", chat_body(3, true).dump(), "application/json");
  ASSERT_TRUE(r);
  const Streamed st = read_stream(r->body);
  EXPECT_EQ(st.text, j["choices"][0]["message"]["content"]);
  expect_same(st.entries, content);

  // Not asked for: null, as OpenAI sends it.
  json plain = chat_body(0, false);
  plain.erase("logprobs");
  plain.erase("top_logprobs");
  EXPECT_TRUE(post_json(c, "/v1/chat/completions", plain)["choices"][0]["logprobs"].is_null());
  // logprobs alone: each entry with an empty top list.
  json alone = chat_body(0, false);
  alone.erase("top_logprobs");
  const json a = post_json(c, "/v1/chat/completions", alone);
  ASSERT_FALSE(a["choices"][0]["logprobs"]["content"].empty()) << a.dump();
  expect_real_logprobs(a["choices"][0]["logprobs"]["content"], 0);
}

TEST(Logprobs, CompletionsHaveTheLegacyShape) {
  ServerProcess s({"--parallel", "1", "--ctx", "1024"});
  auto c = s.client();
  const json body = {{"model", "sfcl"},  {"prompt", "Once upon"},     {"max_tokens", 8},
                     {"temperature", 0}, {"sfcl", {{"mode", "off"}}}, {"logprobs", 2}};
  const json j = post_json(c, "/v1/completions", body);
  ASSERT_EQ(j["_status"], 200) << j.dump();
  const json& lp = j["choices"][0]["logprobs"];
  const size_t n = j["usage"]["completion_tokens"].get<size_t>();
  ASSERT_EQ(lp["tokens"].size(), n) << j.dump();
  ASSERT_EQ(lp["token_logprobs"].size(), n);
  ASSERT_EQ(lp["top_logprobs"].size(), n);
  ASSERT_EQ(lp["text_offset"].size(), n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_LE(lp["token_logprobs"][i].get<double>(), 0.0);
    EXPECT_LE(lp["top_logprobs"][i].size(), 2U);
    EXPECT_GE(lp["top_logprobs"][i].size(), 1U);
    if (i > 0) {
      EXPECT_GE(lp["text_offset"][i], lp["text_offset"][i - 1]);
    }
  }
  // The stream's chunks carry the same lists, a piece each.
  json sb = body;
  sb["stream"] = true;
  auto r = c.Post("/v1/completions", sb.dump(), "application/json");
  ASSERT_TRUE(r);
  json tokens = json::array();
  json values = json::array();
  for (const auto& [e, d] : parse_sse(r->body)) {
    if (d == "[DONE]") continue;
    const json chunk = json::parse(d);
    if (chunk["choices"].empty() || !chunk["choices"][0]["logprobs"].is_object()) continue;
    for (const auto& t : chunk["choices"][0]["logprobs"]["tokens"]) tokens.push_back(t);
    for (const auto& v : chunk["choices"][0]["logprobs"]["token_logprobs"]) values.push_back(v);
  }
  EXPECT_EQ(tokens, lp["tokens"]);
  ASSERT_EQ(values.size(), lp["token_logprobs"].size());
  for (size_t i = 0; i < values.size(); ++i) EXPECT_NEAR(values[i], lp["token_logprobs"][i], kSameValue);
}

TEST(Logprobs, ABacktrackLeavesNoEntryForTheRemovedValue) {
  ServerProcess s({"--parallel", "1", "--test-script", " The total is $12,600.00 now."});
  auto c = s.client();
  json body = chat_body(2, false);
  body.erase("sfcl");
  body["max_tokens"] = 40;
  body["messages"] = json::array({{{"role", "system"}, {"content", "Invoice total: $12,500.00."}},
                                  {{"role", "user"}, {"content", "What is the total?"}}});
  const json j = post_json(c, "/v1/chat/completions", body);
  ASSERT_EQ(j["_status"], 200) << j.dump();
  const std::string text = j["choices"][0]["message"]["content"];
  EXPECT_EQ(text.find("12,600"), std::string::npos) << text;
  ASSERT_NE(text.find("The total is $"), std::string::npos) << text;
  const std::string spelled = spelled_by(j["choices"][0]["logprobs"]["content"]);
  EXPECT_EQ(spelled.find("12,600"), std::string::npos) << spelled;
  EXPECT_EQ(spelled, text);
  EXPECT_GE(j["sfcl"]["backtracks"].get<int>(), 1) << j["sfcl"].dump();

  body["stream"] = true;
  auto r = c.Post("/v1/chat/completions", body.dump(), "application/json");
  ASSERT_TRUE(r);
  const Streamed st = read_stream(r->body);
  EXPECT_EQ(st.text, text);
  expect_same(st.entries, j["choices"][0]["logprobs"]["content"]);
}

}  // namespace
}  // namespace sfcl::test
