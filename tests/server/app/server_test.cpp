// Integration tests against the real `sfcl serve` on 127.0.0.1 with a project-made model.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <atomic>
#include <future>
#include <nlohmann/json.hpp>

#include "engine/engine.h"
#include "server/server_process.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

json anthropic(const std::string& user, int max_tokens, bool stream = false) {
  return {{"model", "sfcl"},
          {"max_tokens", max_tokens},
          {"temperature", 0},
          {"stream", stream},
          {"messages", json::array({{{"role", "user"}, {"content", user}}})}};
}

class ServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new ServerProcess({"--parallel", "8", "--ctx", "1024", "--max-body", "65536"});
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static ServerProcess* server_;
};
ServerProcess* ServerTest::server_ = nullptr;

TEST_F(ServerTest, HealthModelsAndCountTokens) {
  auto c = server_->client();
  auto h = c.Get("/health");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->status, 200);
  EXPECT_EQ(json::parse(h->body)["status"], "ok");
  auto m = json::parse(c.Get("/v1/models")->body);
  ASSERT_EQ(m["data"].size(), 1U);
  EXPECT_EQ(m["data"][0]["sfcl"]["mode"], "anchor");
  const std::string id = m["data"][0]["id"];
  auto t = post_json(c, "/v1/messages/count_tokens",
                     {{"model", id}, {"messages", json::array({{{"role", "user"}, {"content", "hello there"}}})}});
  EXPECT_EQ(t["_status"], 200);
  EXPECT_GT(t["input_tokens"].get<int>(), 11);
  // A body that counts is one that would run: its other fields are checked as /v1/messages does,
  // max_tokens aside (optional here).
  const json msgs = json::array({{{"role", "user"}, {"content", "你好"}}});
  for (const json& bad : {json{{"temperature", "hot"}}, json{{"max_tokens", -5}}, json{{"sfcl", {{"mode", "bogus"}}}},
                          json{{"stop_sequences", 5}}, json{{"mcp_servers", json::array()}}}) {
    json body = {{"model", id}, {"messages", msgs}};
    body.update(bad);
    const json r = post_json(c, "/v1/messages/count_tokens", body);
    EXPECT_EQ(r["_status"], 400) << body.dump();
    EXPECT_EQ(r["type"], "error") << r.dump();
  }
  const json counted = post_json(c, "/v1/messages/count_tokens",
                                 {{"model", id}, {"messages", msgs}, {"max_tokens", 16}, {"temperature", 0.2}});
  EXPECT_EQ(counted["_status"], 200) << counted.dump();
}

// llama-server's input_tokens endpoints: the prompt a chat or Responses body would make, counted
// as the request itself counts it (usage.prompt_tokens), with OpenAI's object name; bad bodies 400.
TEST_F(ServerTest, InputTokensOfChatAndResponsesBodiesAreTheirPromptTokens) {
  auto c = server_->client();
  const json chat = {{"max_tokens", 1},
                     {"messages", json::array({{{"role", "system"}, {"content", "Fee $5."}},
                                               {{"role", "user"}, {"content", "What is the fee?"}}})}};
  const int prompt = post_json(c, "/v1/chat/completions", chat)["usage"]["prompt_tokens"];
  for (const char* path : {"/v1/chat/completions/input_tokens", "/chat/completions/input_tokens"}) {
    const json n = post_json(c, path, chat);
    EXPECT_EQ(n["_status"], 200) << path << n.dump();
    EXPECT_EQ(n["input_tokens"], prompt) << path;
    EXPECT_EQ(n["object"], "response.input_tokens");
  }
  const json resp = {{"instructions", "Fee $5."}, {"input", "What is the fee?"}, {"max_output_tokens", 1}};
  const int resp_prompt = post_json(c, "/v1/responses", resp)["usage"]["input_tokens"];
  for (const char* path : {"/v1/responses/input_tokens", "/responses/input_tokens"}) {
    EXPECT_EQ(post_json(c, path, resp)["input_tokens"], resp_prompt) << path;
  }
  const json bad = post_json(c, "/v1/chat/completions/input_tokens", {{"messages", "nope"}});
  EXPECT_EQ(bad["_status"], 400);
  EXPECT_TRUE(bad["error"]["message"].is_string()) << bad.dump();
}

TEST_F(ServerTest, CountTokensCountsTheToolsAsTheRequestWouldRenderThem) {
  auto c = server_->client();
  json body = {{"model", "m"},
               {"max_tokens", 2},
               {"messages", json::array({{{"role", "user"}, {"content", "What is the weather in Paris?"}}})}};
  const int without = post_json(c, "/v1/messages/count_tokens", body)["input_tokens"];
  body["tools"] = json::array({{{"name", "get_weather"},
                                {"description", "The weather in a city"},
                                {"input_schema",
                                 {{"type", "object"},
                                  {"properties", {{"city", {{"type", "string"}}}}},
                                  {"required", json::array({"city"})}}}}});
  const json with = post_json(c, "/v1/messages/count_tokens", body);
  ASSERT_EQ(with["_status"], 200) << with.dump();
  EXPECT_GT(with["input_tokens"].get<int>(), without + 10);
  // The same number the request itself reports as its prompt.
  const json reply = post_json(c, "/v1/messages", body);
  ASSERT_EQ(reply["_status"], 200) << reply.dump();
  EXPECT_EQ(reply["usage"]["input_tokens"].get<int>() + reply["usage"]["cache_read_input_tokens"].get<int>(),
            with["input_tokens"].get<int>());
}

TEST_F(ServerTest, MessagesNonStream) {
  auto c = server_->client();
  json body = anthropic("Pay $12,500.00 by June 15, 2024.", 12);
  body["system"] = "You answer briefly.";
  body["metadata"] = {{"user_id", "u1"}};  // sent by SDKs: accepted and ignored
  auto r = c.Post("/v1/messages", body.dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_TRUE(r->has_header("X-SFCL-Status"));
  EXPECT_EQ(r->get_header_value("X-SFCL-Status").rfind("active; anchor_count=", 0), 0U);
  EXPECT_EQ(r->get_header_value("x-anthropic-layer-status"), "zeroed-v2");
  EXPECT_EQ(r->get_header_value("X-Anthropic-SFCL-Status"), r->get_header_value("X-SFCL-Status"));
  const json j = json::parse(r->body);
  EXPECT_EQ(j["type"], "message");
  EXPECT_EQ(j["role"], "assistant");
  EXPECT_EQ(j["content"][0]["type"], "text");
  EXPECT_EQ(j["stop_reason"], "max_tokens");
  EXPECT_TRUE(j["usage"]["input_tokens"].is_number_integer());
  EXPECT_EQ(j["usage"]["output_tokens"], 12);
  EXPECT_TRUE(j["usage"]["cache_read_input_tokens"].is_number_integer());
  EXPECT_TRUE(j["sfcl"]["anchors"].is_array());
}

TEST_F(ServerTest, MessagesStreamEventOrder) {
  auto c = server_->client();
  auto r = c.Post("/v1/messages", anthropic("hello", 10, true).dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  EXPECT_NE(r->get_header_value("Content-Type").find("text/event-stream"), std::string::npos);
  const auto ev = parse_sse(r->body);
  std::vector<std::string> names;
  for (const auto& [e, d] : ev) {
    if (e != "ping") names.push_back(e);
    EXPECT_EQ(json::parse(d)["type"], e);
  }
  ASSERT_GE(names.size(), 5U);
  EXPECT_EQ(names[0], "message_start");
  EXPECT_EQ(names[1], "content_block_start");
  for (size_t i = 2; i + 3 < names.size(); ++i) EXPECT_EQ(names[i], "content_block_delta");
  EXPECT_EQ(names[names.size() - 3], "content_block_stop");
  EXPECT_EQ(names[names.size() - 2], "message_delta");
  EXPECT_EQ(names[names.size() - 1], "message_stop");
  const json delta = json::parse(ev[ev.size() - 2].second);
  EXPECT_EQ(delta["delta"]["stop_reason"], "max_tokens");
  EXPECT_EQ(delta["usage"]["output_tokens"], 10);
  EXPECT_TRUE(delta["sfcl"]["status"].is_string());
}

TEST_F(ServerTest, OpenAIChatAndCompletions) {
  auto c = server_->client();
  json chat = {{"model", "sfcl"},
               {"max_tokens", 6},
               {"temperature", 0},
               {"messages",
                json::array({{{"role", "system"}, {"content", "Fee $5."}}, {{"role", "user"}, {"content", "fee?"}}})}};
  auto j = post_json(c, "/v1/chat/completions", chat);
  EXPECT_EQ(j["_status"], 200);
  EXPECT_EQ(j["object"], "chat.completion");
  // llama-server's system_fingerprint: the llama.cpp build ("b<number>-<commit>").
  EXPECT_EQ(j["system_fingerprint"], engine::llama_build());
  EXPECT_TRUE(j["system_fingerprint"].get<std::string>().starts_with("b"));
  EXPECT_EQ(j["choices"][0]["message"]["role"], "assistant");
  EXPECT_EQ(j["choices"][0]["finish_reason"], "length");
  EXPECT_EQ(j["usage"]["completion_tokens"], 6);
  chat["stream"] = true;
  auto r = c.Post("/v1/chat/completions", chat.dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->has_header("X-SFCL-Status"));
  const auto ev = parse_sse(r->body);
  ASSERT_GE(ev.size(), 3U);
  EXPECT_EQ(ev.back().second, "[DONE]");
  const json last = json::parse(ev[ev.size() - 2].second);
  EXPECT_EQ(last["choices"][0]["finish_reason"], "length");
  EXPECT_EQ(last["system_fingerprint"], engine::llama_build());
  EXPECT_TRUE(last["sfcl"]["status"].is_string());
  auto comp =
      post_json(c, "/v1/completions", {{"model", "sfcl"}, {"prompt", "Once"}, {"max_tokens", 4}, {"temperature", 0}});
  EXPECT_EQ(comp["_status"], 200);
  EXPECT_EQ(comp["object"], "text_completion");
  EXPECT_TRUE(comp["choices"][0]["text"].is_string());
}

struct BadCase {
  const char* path;
  std::string body;
  int status;
  const char* type;
};

// A Messages request whose one tool's input schema nests `depth` objects.
std::string deep_tool_schema(int depth) {
  std::string schema = "{}";
  for (int i = 0; i < depth; ++i) schema = R"({"type":"object","properties":{"a":)" + schema + "}}";
  return R"({"max_tokens":5,"messages":[{"role":"user","content":"hi"}],"tool_choice":{"type":"any"},)"
         R"("tools":[{"name":"get","input_schema":)" +
         schema + "}]}";
}

TEST_F(ServerTest, BadInputGetsTheApisErrorShapeAndTheServerKeepsServing) {
  const std::string big(70000, 'x');
  const BadCase cases[] = {
      {"/v1/messages", "{bad json", 400, "invalid_request_error"},
      {"/v1/messages", R"({"messages":[{"role":"user","content":"hi"}]})", 400, "invalid_request_error"},
      {"/v1/messages", R"({"max_tokens":5})", 400, "invalid_request_error"},
      {"/v1/messages", R"({"max_tokens":5,"messages":[]})", 400, "invalid_request_error"},
      {"/v1/messages", R"({"max_tokens":"5","messages":[{"role":"user","content":"hi"}]})", 400,
       "invalid_request_error"},
      {"/v1/messages", R"({"max_tokens":0,"messages":[{"role":"user","content":"hi"}]})", 400, "invalid_request_error"},
      {"/v1/messages", R"({"max_tokens":99999999,"messages":[{"role":"user","content":"hi"}]})", 400,
       "invalid_request_error"},
      {"/v1/messages", R"({"max_tokens":5,"messages":[{"role":"assistant","content":"hi"}]})", 400,
       "invalid_request_error"},
      {"/v1/messages", R"({"max_tokens":5,"messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}]})",
       400, "invalid_request_error"},
      {"/v1/messages", R"({"max_tokens":5,"messages":[{"role":"user","content":5}]})", 400, "invalid_request_error"},
      {"/v1/messages", "{\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"\xff\xfe\"}]}", 400,
       "invalid_request_error"},
      {"/v1/messages", R"({"max_tokens":5,"temperature":7,"messages":[{"role":"user","content":"hi"}]})", 400,
       "invalid_request_error"},
      {"/v1/messages", R"({"max_tokens":5,"sfcl":{"mode":"bogus"},"messages":[{"role":"user","content":"hi"}]})", 400,
       "invalid_request_error"},
      {"/v1/messages", "{\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"" + big + "\"}]}", 413,
       "request_too_large"},
      {"/v1/messages",
       "{\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"" + std::string(3000, 'y') + "\"}]}", 400,
       "invalid_request_error"},
      {"/v1/chat/completions", "[1,2]", 400, "invalid_request_error"},
      {"/v1/chat/completions", R"({"messages":[{"role":"wizard","content":"hi"}]})", 400, "invalid_request_error"},
      {"/v1/chat/completions", R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":-1})", 400,
       "invalid_request_error"},
      {"/v1/completions", R"({"prompt":7})", 400, "invalid_request_error"},
      // What would take the process's memory or stack (a grammar repetition that never stops
      // expanding, a schema nested thousands deep) is refused before llama.cpp sees it.
      {"/v1/chat/completions", R"({"messages":[{"role":"user","content":"hi"}],"grammar":"root ::= \"a\"{5,1}"})", 400,
       "invalid_request_error"},
      {"/v1/messages",
       R"({"max_tokens":5,"messages":[{"role":"user","content":"数量"}],)"
       R"("json_schema":{"type":"string","minLength":5,"maxLength":1}})",
       400, "invalid_request_error"},
      {"/v1/messages", deep_tool_schema(70), 400, "invalid_request_error"},
      {"/v1/completions", R"({"prompt":"hi","max_tokens":1e309})", 400, "invalid_request_error"},
  };
  auto c = server_->client();
  for (const auto& bc : cases) {
    auto r = c.Post(bc.path, bc.body, "application/json");
    ASSERT_TRUE(r) << bc.body.substr(0, 80);
    EXPECT_EQ(r->status, bc.status) << bc.body.substr(0, 80) << " -> " << r->body.substr(0, 200);
    const json j = json::parse(r->body);
    if (std::string(bc.path) == "/v1/messages") {
      EXPECT_EQ(j["type"], "error");
      EXPECT_EQ(j["error"]["type"], bc.type) << r->body;
      EXPECT_TRUE(j["error"]["message"].is_string());
    } else {
      EXPECT_TRUE(j["error"]["message"].is_string()) << r->body;
      EXPECT_TRUE(j["error"].contains("param"));
      EXPECT_TRUE(j["error"].contains("code"));
    }
  }
  // The prompt-too-long error names the token counts.
  auto r = c.Post("/v1/messages", cases[14].body, "application/json");
  EXPECT_NE(r->body.find("tokens"), std::string::npos);
  EXPECT_EQ(c.Get("/health")->status, 200);
  auto ok = c.Post("/v1/messages", anthropic("still fine?", 3).dump(), "application/json");
  EXPECT_EQ(ok->status, 200);
  // A tool schema a dozen levels deep is an ordinary one (the body may nest 64).
  auto tool = c.Post("/v1/messages", deep_tool_schema(12), "application/json");
  EXPECT_EQ(tool->status, 200) << tool->body.substr(0, 300);
}

TEST_F(ServerTest, ConcurrentStreamsMatchTheirSoloRuns) {
  auto c = server_->client();
  std::vector<std::string> solo;
  for (int i = 0; i < 8; ++i) {
    auto j = post_json(c, "/v1/messages", anthropic("prompt number " + std::to_string(i) + " asks something", 24));
    solo.push_back(j["content"][0]["text"]);
  }
  std::vector<std::future<std::string>> futs;
  for (int i = 0; i < 8; ++i) {
    futs.push_back(std::async(std::launch::async, [this, i] {
      auto cl = server_->client();
      auto r =
          cl.Post("/v1/messages", anthropic("prompt number " + std::to_string(i) + " asks something", 24, true).dump(),
                  "application/json");
      if (!r) return "<no response: " + httplib::to_string(r.error()) + ">";
      std::string text;
      for (const auto& [e, d] : parse_sse(r->body)) {
        if (e == "content_block_delta") text += json::parse(d)["delta"]["text"].get<std::string>();
      }
      return text;
    }));
  }
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(futs[static_cast<size_t>(i)].get(), solo[static_cast<size_t>(i)]) << "stream " << i;
}

TEST_F(ServerTest, PrefixReuseCountsCachedTokens) {
  auto c = server_->client();
  json body = anthropic("a fairly long shared question about invoices and payment terms", 2);
  body["system"] = std::string(300, 'S');
  post_json(c, "/v1/messages", body);
  const json again = post_json(c, "/v1/messages", body);
  EXPECT_GT(again["usage"]["cache_read_input_tokens"].get<int>(), 300);
}

// One KV cache for every slot (the default) and a KV stream per slot (--no-kv-unified): concurrent
// requests answer alike at temperature 0, and prefix reuse works in both.
TEST(ServerLifecycle, UnifiedKvCacheAnswersAsPerSlotStreams) {
  const json body = {
      {"model", "sfcl"},
      {"max_tokens", 24},
      {"temperature", 0},
      {"messages",
       json::array({{{"role", "user"}, {"content", "Invoice INV-2024-0117 total: $12,500.00. What is the total?"}}})}};
  std::vector<std::string> answers[2];
  for (const bool unified : {false, true}) {
    std::vector<std::string> args = {"--parallel", "2", "--ctx", "512"};
    args.emplace_back(unified ? "--kv-unified" : "--no-kv-unified");
    ServerProcess s(args);
    std::vector<std::future<json>> replies;
    for (int i = 0; i < 4; ++i) {
      replies.push_back(std::async(std::launch::async, [&s, &body] {
        auto c = s.client();
        return post_json(c, "/v1/chat/completions", body);
      }));
    }
    for (auto& r : replies) {
      const json reply = r.get();
      ASSERT_EQ(reply["_status"], 200) << reply.dump();
      answers[unified ? 1 : 0].push_back(reply["choices"][0]["message"]["content"].get<std::string>());
    }
    auto c = s.client();
    const json again = post_json(c, "/v1/chat/completions", body);
    EXPECT_GT(again["usage"]["prompt_tokens_details"]["cached_tokens"].get<int>(), 0) << again.dump();
  }
  for (const auto& a : answers[1]) EXPECT_EQ(a, answers[0].front());
  for (const auto& a : answers[0]) EXPECT_EQ(a, answers[0].front());
}

// --cache-ram: a document whose only slot served another request since is restored from host
// memory; usage reports its tokens as cached and the answer is the uncached one.
TEST(ServerLifecycle, PromptCacheServesARepeatedDocumentAfterItsSlotWasReused) {
  std::string document;
  for (int i = 0; document.size() < 600; ++i)
    document += "Clause " + std::to_string(i) + ": the fee is $" + std::to_string(100 + i) + ". ";
  const auto chat = [](const std::string& system, const std::string& user) {
    return json{
        {"model", "sfcl"},
        {"max_tokens", 8},
        {"temperature", 0},
        {"messages", json::array({{{"role", "system"}, {"content", system}}, {{"role", "user"}, {"content", user}}})}};
  };
  for (const char* cache_ram : {"64", "0"}) {
    ServerProcess s({"--parallel", "1", "--ctx", "1024", "--cache-ram", cache_ram});
    auto c = s.client();
    const json first = post_json(c, "/v1/chat/completions", chat(document, "What is the fee of clause 3?"));
    ASSERT_EQ(first["_status"], 200) << first.dump();
    post_json(c, "/v1/chat/completions", chat("A different short document.", "Anything?"));
    const json again = post_json(c, "/v1/chat/completions", chat(document, "What is the fee of clause 3?"));
    ASSERT_EQ(again["_status"], 200) << again.dump();
    EXPECT_EQ(again["choices"][0]["message"]["content"], first["choices"][0]["message"]["content"]);
    const int cached = again["usage"]["prompt_tokens_details"]["cached_tokens"].get<int>();
    if (std::string(cache_ram) == "0") {
      EXPECT_LT(cached, 40) << "without the cache only the template's opening is shared";
    } else {
      EXPECT_EQ(cached, again["usage"]["prompt_tokens"].get<int>() - 1);
    }
    // /metrics says the same: one restore of that many tokens, or none without the cache.
    const auto m = c.Get("/metrics");
    ASSERT_TRUE(m);
    const bool on = std::string(cache_ram) != "0";
    EXPECT_NE(m->body.find(on ? "sfcl_host_cache_restores_total 1" : "sfcl_host_cache_restores_total 0"),
              std::string::npos)
        << m->body;
    if (on) {
      EXPECT_NE(m->body.find("sfcl_host_cache_restored_tokens_total " + std::to_string(cached)), std::string::npos);
    }
  }
}

// Documents that share only the chat template's opening each keep a slot while slots are free: sent
// again, every one is answered from its own slot's cache (a prompt that shared a few tokens with a
// slot used to take that slot and evict its document). With the host prompt cache off, so only the
// slots can hold them; documents below the cache's save threshold, as short prompts are.
TEST(ServerLifecycle, DistinctDocumentsKeepTheirOwnSlotsWhileSlotsAreFree) {
  ServerProcess s({"--parallel", "6", "--ctx", "512", "--cache-ram", "0"});
  auto c = s.client();
  const auto chat = [](int i) {
    return json{
        {"model", "sfcl"},
        {"max_tokens", 2},
        {"temperature", 0},
        {"messages",
         json::array({{{"role", "system"},
                       {"content", "Document " + std::to_string(i) + ": invoice INV-" + std::to_string(100 + i) +
                                       " is due on day " + std::to_string(i + 3) + "."}},
                      {{"role", "user"}, {"content", "When is it due?"}}})}};
  };
  for (int i = 0; i < 5; ++i) ASSERT_EQ(post_json(c, "/v1/chat/completions", chat(i))["_status"], 200);
  for (int i = 0; i < 5; ++i) {
    const json again = post_json(c, "/v1/chat/completions", chat(i));
    ASSERT_EQ(again["_status"], 200) << again.dump();
    EXPECT_EQ(again["usage"]["prompt_tokens_details"]["cached_tokens"].get<int>(),
              again["usage"]["prompt_tokens"].get<int>() - 1)
        << "document " << i;
  }
}

TEST(ServerLifecycle, DisconnectFreesTheSlotAndQueueLimitAnswers429) {
  // The test script keeps the model writing (a random model may otherwise stop early).
  ServerProcess s({"--parallel", "1", "--queue", "0", "--ctx", "8192", "--test-script", std::string(8500, 'x')});
  {
    // A raw client that reads the start of a long stream, then hangs up.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(s.port()));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    // SFCL off: the random model's text streams at once, so the server's next write finds the
    // client gone (held-back text would delay that write, and with it the detection).
    json long_one = anthropic("go on forever", 8000, true);
    long_one["sfcl"] = {{"mode", "off"}};
    const std::string body = long_one.dump();
    const std::string req =
        "POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body;
    ASSERT_EQ(::send(fd, req.data(), req.size(), 0), static_cast<ssize_t>(req.size()));
    char buf[4096];
    ASSERT_GT(::recv(fd, buf, sizeof buf, 0), 0);
    ::close(fd);
  }
  // The slot is freed long before the 8,000 tokens could have been generated.
  auto c = s.client();
  int busy_slots = -1;
  for (int i = 0; i < 60 && busy_slots != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    busy_slots = json::parse(c.Get("/health")->body)["slots_busy"].get<int>();
  }
  EXPECT_EQ(busy_slots, 0);
  auto r = c.Post("/v1/messages", anthropic("next", 3).dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
  // While one long request holds the only slot and no queue is allowed, the next gets 429.
  auto busy = std::async(std::launch::async, [&] {
    auto cl = s.client();
    return cl.Post("/v1/messages", anthropic("long one", 8000).dump(), "application/json")->status;
  });
  for (int i = 0; i < 100 && busy_slots != 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    busy_slots = json::parse(c.Get("/health")->body)["slots_busy"].get<int>();
  }
  auto r2 = c.Post("/v1/messages", anthropic("rejected", 3).dump(), "application/json");
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->status, 429);
  EXPECT_EQ(json::parse(r2->body)["error"]["type"], "rate_limit_error");
  EXPECT_EQ(busy.get(), 200);
}

// A source value written under another field's label: the stream's backtrack says why
// (other_field), and with the flag fallback the non-stream anchor carries other_field.
TEST(ServerLifecycle, ValueUnderAnotherLabelIsBacktrackedWithReasonOtherField) {
  ServerProcess s({"--test-script", "Fee: $85,064.00."});
  auto c = s.client();
  json body = anthropic("What is the fee?", 40, true);
  body["system"] = "Refund: $85,064.00\nFee: $1,200.00";
  body["sfcl"] = {{"events", true}};
  auto r = c.Post("/v1/messages", body.dump(), "application/json");
  ASSERT_TRUE(r);
  std::string first_reason;
  for (const auto& [e, d] : parse_sse(r->body)) {
    if (e == "backtrack" && first_reason.empty()) first_reason = json::parse(d)["reason"].get<std::string>();
  }
  EXPECT_EQ(first_reason, "other_field") << r->body;
  body["stream"] = false;
  body["sfcl"] = {{"max_backtracks", 0}, {"fallback", "flag"}};
  const json nj = post_json(c, "/v1/messages", body);
  bool other = false;
  for (const auto& a : nj["sfcl"]["anchors"]) {
    if (a["text"] == "$85,064.00") other = a["flagged"] == true && a["other_field"] == true;
  }
  EXPECT_TRUE(other) << nj.dump();
}

TEST(ServerLifecycle, SfclHeadersEventsAndBacktrackEndToEnd) {
  ServerProcess s({"--test-script", " The total is $12,600.00 now."});
  auto c = s.client();
  json body = anthropic("What is the total?", 40, true);
  body["system"] = "Invoice total: $12,500.00.";
  body["sfcl"] = {{"events", true}};
  auto r = c.Post("/v1/messages", body.dump(), "application/json");
  ASSERT_TRUE(r);
  bool backtrack = false;
  std::string text;
  for (const auto& [e, d] : parse_sse(r->body)) {
    if (e == "backtrack" && !backtrack) {  // the first one; the random model may err again later
      backtrack = true;
      const json b = json::parse(d);
      EXPECT_EQ(b["removed"], "$12,600.00");
      EXPECT_EQ(b["reason"], "mismatch");  // the source states amounts, not this one
      EXPECT_EQ(b["attempt"], 1);
      EXPECT_EQ(b["anchor_id"].get<std::string>().rfind("entity_", 0), 0U);
    }
    if (e == "content_block_delta") text += json::parse(d)["delta"]["text"].get<std::string>();
  }
  EXPECT_TRUE(backtrack);
  EXPECT_EQ(text.find("12,600"), std::string::npos) << text;
  // Non-stream: the sfcl object carries the anchors; off mode says so in the headers.
  body["stream"] = false;
  body["sfcl"] = {{"max_backtracks", 0}, {"fallback", "flag"}};
  auto nj = post_json(c, "/v1/messages", body);
  bool flagged = false;
  for (const auto& a : nj["sfcl"]["anchors"]) flagged = flagged || (a["text"] == "$12,600.00" && a["flagged"] == true);
  EXPECT_TRUE(flagged) << nj.dump();
  body["sfcl"] = {{"mode", "off"}};
  auto off = c.Post("/v1/messages", body.dump(), "application/json");
  EXPECT_EQ(off->get_header_value("X-SFCL-Status"), "off");
  EXPECT_EQ(off->get_header_value("x-anthropic-layer-status"), "legacy");
  EXPECT_NE(json::parse(off->body)["content"][0]["text"].get<std::string>().find("$12,600.00"), std::string::npos);
}

TEST(ServerLifecycle, AuthAcceptsBothHeadersAndHealthStaysOpen) {
  ServerProcess s({"--api-key", "k-123", "--api-key", "k-456"});
  auto c = s.client();
  EXPECT_EQ(c.Get("/health")->status, 200);
  auto none = c.Post("/v1/messages", anthropic("hi", 2).dump(), "application/json");
  EXPECT_EQ(none->status, 401);
  EXPECT_EQ(json::parse(none->body)["error"]["type"], "authentication_error");
  auto wrong = c.Post("/v1/messages", {{"x-api-key", "k-999"}}, anthropic("hi", 2).dump(), "application/json");
  EXPECT_EQ(wrong->status, 401);
  auto a = c.Post("/v1/messages", {{"x-api-key", "k-456"}}, anthropic("hi", 2).dump(), "application/json");
  EXPECT_EQ(a->status, 200);
  auto b = c.Post("/v1/chat/completions", {{"Authorization", "Bearer k-123"}},
                  json{{"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}, {"max_tokens", 2}}.dump(),
                  "application/json");
  EXPECT_EQ(b->status, 200);
  // The scheme's name is case-insensitive.
  for (const char* scheme : {"bearer", "BEARER"}) {
    auto lower =
        c.Post("/v1/chat/completions", {{"Authorization", std::string(scheme) + " k-123"}},
               json{{"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}, {"max_tokens", 2}}.dump(),
               "application/json");
    EXPECT_EQ(lower->status, 200) << scheme;
  }
  auto basic =
      c.Post("/v1/chat/completions", {{"Authorization", "Basic k-123"}},
             json{{"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}}.dump(), "application/json");
  EXPECT_EQ(basic->status, 401);
  auto oa = c.Post("/v1/chat/completions",
                   json{{"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}}.dump(), "application/json");
  EXPECT_EQ(oa->status, 401);
  EXPECT_TRUE(json::parse(oa->body)["error"]["message"].is_string());
}

TEST(ServerLifecycle, SigtermFinishesTheStreamInFlightAndExitsZero) {
  // 1500 scripted tokens: the stream runs for a while after its first text.
  ServerProcess s({"--ctx", "4096", "--test-script", std::string(3000, 'x')});
  // The signal goes once the client has its first text, so the stream is surely in flight.
  std::promise<void> first_text;
  std::string raw;
  httplib::Request req;
  req.method = "POST";
  req.path = "/v1/messages";
  req.body = anthropic("long answer please", 1500, true).dump();
  req.set_header("Content-Type", "application/json");
  req.content_receiver = [&](const char* data, size_t len, uint64_t, uint64_t) {
    const bool had = raw.find("content_block_delta") != std::string::npos;
    raw.append(data, len);
    if (!had && raw.find("content_block_delta") != std::string::npos) first_text.set_value();
    return true;
  };
  auto fut = std::async(std::launch::async, [&] {
    auto c = s.client();
    httplib::Response res;
    httplib::Error err = httplib::Error::Success;
    return c.send(req, res, err) && res.status == 200;
  });
  ASSERT_EQ(first_text.get_future().wait_for(std::chrono::seconds(60)), std::future_status::ready);
  const int rc = s.terminate();
  ASSERT_TRUE(fut.get());
  EXPECT_EQ(rc, 0);
  EXPECT_NE(raw.find("event: message_stop"), std::string::npos);
  size_t deltas = 0;
  for (const auto& [e, d] : parse_sse(raw)) deltas += e == "content_block_delta" ? 1 : 0;
  EXPECT_GT(deltas, 100U) << "the stream was finished, not cut, after the signal";
}

}  // namespace
}  // namespace sfcl::test

namespace sfcl::test {
namespace {

// One event schema on both dialects: every anchor of the response has an event carrying the same
// fields as its entry in the non-stream sfcl.anchors; Anthropic events name themselves in "type"
// (the anchor's type is "anchor_type"); OpenAI events ride in ordinary chunks under "sfcl".
TEST(ServerLifecycle, EventsShareOneSchemaAndCoverEveryDeliveredAnchor) {
  ServerProcess s({"--test-script", " The total is $12,500.00, the fee $12,600.00, due 2024-03-01."});
  auto c = s.client();
  json body = anthropic("What is the total?", 60, true);
  body["system"] = "Invoice total: $12,500.00. Fee: $1,200.00.";
  auto r = c.Post("/v1/messages", {{"X-SFCL-Events", "1"}}, body.dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("X-SFCL-Status"), "pending");
  std::map<std::string, json> anchor_events;
  bool backtrack = false;
  json final_sfcl;
  for (const auto& [e, d] : parse_sse(r->body)) {
    const json j = json::parse(d);
    EXPECT_EQ(j["type"], e) << d;
    if (e == "anchor_confirmed" || e == "anchor_checked") {
      EXPECT_EQ(j["event"], e);
      EXPECT_TRUE(j["anchor_type"].is_string()) << d;
      EXPECT_TRUE(j["start"].is_number() && j["end"].is_number()) << d;
      anchor_events[j["anchor_id"].get<std::string>()] = j;
    }
    if (e == "backtrack") {
      backtrack = true;
      EXPECT_TRUE(j["anchor_type"].is_string()) << d;
      EXPECT_EQ(j["verdict"], "unsupported");
      EXPECT_TRUE(j["reason"] == "mismatch" || j["reason"] == "absent") << d;
      EXPECT_EQ(j["attempt"], 1);
    }
    if (e == "message_delta") final_sfcl = j["sfcl"];
  }
  EXPECT_TRUE(backtrack) << r->body;
  ASSERT_TRUE(final_sfcl.is_object()) << r->body;
  EXPECT_EQ(final_sfcl["status"].get<std::string>().rfind("active; anchor_count=", 0), 0U);

  body["stream"] = false;
  const json nj = post_json(c, "/v1/messages", body);
  ASSERT_FALSE(nj["sfcl"]["anchors"].empty()) << nj.dump();
  int64_t checked = 0;
  for (const auto& a : nj["sfcl"]["anchors"]) {
    checked += a["checked"].get<bool>() ? 1 : 0;
    EXPECT_FALSE(a.contains("type")) << a.dump();
    const auto it = anchor_events.find(a["anchor_id"].get<std::string>());
    ASSERT_NE(it, anchor_events.end()) << "no event for " << a.dump() << "\n" << r->body;
    for (const auto& [k, v] : a.items()) EXPECT_EQ(it->second[k], v) << k << " of " << a.dump();
  }
  // anchor_count counts the delivered checked anchors, not the attempts a backtrack removed.
  EXPECT_EQ(nj["sfcl"]["anchor_count"], checked);
  EXPECT_EQ(final_sfcl["anchor_count"], checked);
  int64_t constrained = 0;
  for (const auto& a : nj["sfcl"]["anchors"]) constrained += a["verdict"] == "constrained" ? 1 : 0;
  EXPECT_EQ(nj["sfcl"]["constrained"], constrained);
  EXPECT_EQ(nj["sfcl"]["status"].get<std::string>(),
            "active; anchor_count=" + std::to_string(checked) + "; avg_backtrack=" +
                (checked > 0 ? std::to_string(nj["sfcl"]["backtracks"].get<double>() / checked).substr(0, 4) : "0.00") +
                (constrained > 0 ? "; constrained=" + std::to_string(constrained) : ""));

  // OpenAI: data-only chunks; an event chunk has an empty delta and its event under "sfcl".
  json oa = {{"model", "sfcl"},
             {"max_tokens", 60},
             {"temperature", 0},
             {"stream", true},
             {"messages", json::array({{{"role", "system"}, {"content", body["system"]}},
                                       {{"role", "user"}, {"content", "What is the total?"}}})}};
  auto o = c.Post("/v1/chat/completions", {{"X-SFCL-Events", "1"}}, oa.dump(), "application/json");
  ASSERT_TRUE(o);
  int events = 0;
  for (const auto& [e, d] : parse_sse(o->body)) {
    EXPECT_EQ(e, "") << "OpenAI streams carry no event names";
    if (d == "[DONE]") continue;
    const json j = json::parse(d);
    EXPECT_EQ(j["object"], "chat.completion.chunk");
    ASSERT_EQ(j["choices"].size(), 1U) << d;
    if (j.contains("sfcl") && j["sfcl"].contains("event")) {
      ++events;
      EXPECT_EQ(j["choices"][0]["delta"], json::object());
      EXPECT_TRUE(j["sfcl"]["anchor_type"].is_string()) << d;
    }
  }
  EXPECT_GE(events, static_cast<int>(anchor_events.size()) + 1) << o->body;
}

}  // namespace
}  // namespace sfcl::test
