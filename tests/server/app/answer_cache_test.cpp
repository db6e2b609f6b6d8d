// The verified-answer cache: bounded in bytes and age, keyed by endpoint, model, API key and body,
// and in the real server: a deterministic request asked again gets its first answer's bytes, marked
// X-SFCL-Cache: hit, never across API keys, never for a sampled answer.
#include "server/app/answer_cache.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "server/server_process.h"

namespace sfcl::server {
namespace {

using nlohmann::json;
using Clock = AnswerCache::Clock;

struct FakeClock {
  Clock::time_point t{};
  std::function<Clock::time_point()> fn() {
    return [this] { return t; };
  }
};

AnswerCache::Answer answer(size_t bytes) { return {"application/json", std::string(bytes, 'a'), {}}; }

TEST(AnswerCache, FindsWhatWasStoredAndCountsHitsAndMisses) {
  AnswerCache cache(1 << 20, 60);
  cache.store("k", {"application/json", "{\"a\":1}", {{"X-SFCL-Status", "verified"}}});
  const auto hit = cache.find("k");
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->body, "{\"a\":1}");
  EXPECT_EQ(http::header_value(hit->headers, "X-SFCL-Status"), "verified");
  EXPECT_FALSE(cache.find("other"));
  const AnswerCache::Stats s = cache.stats();
  EXPECT_EQ(s.hits, 1);
  EXPECT_EQ(s.misses, 1);
  EXPECT_EQ(s.entries, 1);
}

TEST(AnswerCache, TheLeastRecentlyUsedGoesFirstWhenTheBudgetIsFull) {
  AnswerCache cache(250, 60);
  cache.store("a", answer(100));
  cache.store("b", answer(100));
  ASSERT_TRUE(cache.find("a"));  // a is now the most recently used
  cache.store("c", answer(100));
  EXPECT_TRUE(cache.find("a"));
  EXPECT_FALSE(cache.find("b"));
  EXPECT_TRUE(cache.find("c"));
  EXPECT_LE(cache.stats().bytes, 250U);
  cache.store("huge", answer(1000));  // larger than the whole budget: not kept, nothing evicted
  EXPECT_FALSE(cache.find("huge"));
  EXPECT_TRUE(cache.find("a"));
}

TEST(AnswerCache, AnAnswerOlderThanTheTtlIsGone) {
  FakeClock clock;
  AnswerCache cache(1 << 20, 10, clock.fn());
  cache.store("k", answer(10));
  clock.t += std::chrono::seconds(9);
  EXPECT_TRUE(cache.find("k"));
  clock.t += std::chrono::seconds(1);
  EXPECT_FALSE(cache.find("k"));
  EXPECT_EQ(cache.stats().entries, 0);
}

http::Request request(const std::string& path, const std::string& body, const std::string& key) {
  http::Request r;
  r.method = "POST";
  r.path = path;
  r.body = body;
  if (!key.empty()) r.headers.emplace_back("x-api-key", key);
  return r;
}

TEST(AnswerCache, TheKeyIsTheEndpointModelApiKeyAndBodyOfADeterministicRequest) {
  GenerationRequest greedy;
  greedy.options.sampling.temperature = 0;
  const std::string body = R"({"model":"m","temperature":0,"messages":[{"role":"user","content":"hi"}]})";
  const std::string reordered = R"({ "messages":[{"content":"hi","role":"user"}], "temperature":0, "model":"m" })";
  const std::string k = answer_key(request("/v1/chat/completions", body, "k1"), "demo", greedy);
  ASSERT_FALSE(k.empty());
  EXPECT_EQ(answer_key(request("/v1/chat/completions", reordered, "k1"), "demo", greedy), k);
  EXPECT_NE(answer_key(request("/v1/chat/completions", body, "k2"), "demo", greedy), k);
  EXPECT_NE(answer_key(request("/v1/completions", body, "k1"), "demo", greedy), k);
  EXPECT_NE(answer_key(request("/v1/chat/completions", body, "k1"), "other", greedy), k);
  GenerationRequest sampled;
  sampled.options.sampling.temperature = 0.8F;
  EXPECT_EQ(answer_key(request("/v1/chat/completions", body, "k1"), "demo", sampled), "");
  GenerationRequest seeded = sampled;
  seeded.options.sampling.seed = 42;
  EXPECT_FALSE(answer_key(request("/v1/chat/completions", body, "k1"), "demo", seeded).empty());
  GenerationRequest choices = greedy;
  choices.n = 2;
  EXPECT_EQ(answer_key(request("/v1/chat/completions", body, "k1"), "demo", choices), "");
}

json chat(double temperature, bool stream) {
  return {{"model", "m"},
          {"max_tokens", 24},
          {"temperature", temperature},
          {"stream", stream},
          {"messages", json::array({{{"role", "user"}, {"content", "The fee is $1,200, due 2024-06-15."}}})}};
}

class AnswerCacheServer : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new test::ServerProcess({"--answer-cache-mib", "4", "--api-key", "key-one,key-two"});
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static httplib::Result post(const json& body, const std::string& key) {
    auto c = server_->client();
    return c.Post("/v1/chat/completions", {{"x-api-key", key}}, body.dump(), "application/json");
  }
  static json cache_stats() {
    auto c = server_->client();
    auto h = c.Get("/health");
    return h ? json::parse(h->body).value("answer_cache", json()) : json();
  }
  static test::ServerProcess* server_;
};
test::ServerProcess* AnswerCacheServer::server_ = nullptr;

TEST_F(AnswerCacheServer, TheSameGreedyRequestGetsTheSameBytesMarkedAsAHit) {
  const json body = chat(0, false);
  auto first = post(body, "key-one");
  ASSERT_TRUE(first);
  ASSERT_EQ(first->status, 200) << first->body;
  EXPECT_EQ(first->get_header_value("X-SFCL-Cache"), "miss");
  auto again = post(body, "key-one");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200);
  EXPECT_EQ(again->get_header_value("X-SFCL-Cache"), "hit");
  EXPECT_EQ(again->body, first->body);  // text, id, verdicts: the first answer as it was sent
  EXPECT_EQ(again->get_header_value("X-SFCL-Status"), first->get_header_value("X-SFCL-Status"));
  EXPECT_GE(cache_stats().value("hits", 0), 1);
  // Never across API keys: the other key's first request is generated anew.
  auto other = post(body, "key-two");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->get_header_value("X-SFCL-Cache"), "miss");
  EXPECT_NE(json::parse(other->body)["id"], json::parse(first->body)["id"]);
}

TEST_F(AnswerCacheServer, AStreamIsServedAgainAsItWasSent) {
  const json body = chat(0, true);
  auto first = post(body, "key-one");
  ASSERT_TRUE(first);
  ASSERT_EQ(first->status, 200);
  ASSERT_NE(first->body.find("data: [DONE]"), std::string::npos) << first->body;
  // The stream is stored once its last event is written; a request racing that is a miss, generated anew.
  std::vector<std::string> sent{first->body};
  std::string again;
  std::string type;
  ASSERT_TRUE(test::wait_until([&] {
    auto r = post(body, "key-one");
    if (!r) return false;
    if (r->get_header_value("X-SFCL-Cache") != "hit") {
      sent.push_back(r->body);
      return false;
    }
    again = r->body;
    type = r->get_header_value("Content-Type");
    return true;
  }));
  // The hit is one of the streams sent, event for event (SSE comments such as keep-alive pings aside).
  const auto events = [](const std::string& body) {
    std::string out;
    for (const auto& [e, d] : test::parse_sse(body)) out += e + "|" + d + "\n";
    return out;
  };
  bool replayed = false;
  for (const auto& s : sent) replayed = replayed || events(s) == events(again);
  EXPECT_TRUE(replayed) << "hit:\n" << events(again) << "\nlast sent:\n" << events(sent.back());
  EXPECT_EQ(sent.size(), 1U) << "the first stream was not stored by the time it ended";
  EXPECT_EQ(type.rfind("text/event-stream", 0), 0U) << type;
}

TEST_F(AnswerCacheServer, ASampledAnswerIsNeverCached) {
  const json body = chat(0.8, false);
  const int64_t entries = cache_stats().value("entries", int64_t{-1});
  ASSERT_GE(entries, 0);
  for (int i = 0; i < 2; ++i) {
    auto r = post(body, "key-one");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_FALSE(r->has_header("X-SFCL-Cache"));
  }
  EXPECT_EQ(cache_stats().value("entries", int64_t{-1}), entries);
}

}  // namespace
}  // namespace sfcl::server
