// llama-server's conventions against the real `sfcl serve` on 127.0.0.1: any model name answered,
// GET /v1/models/{id}, parameters refused by name in the API's own error shape, logit_bias,
// stream_options.include_usage, /tokenize, /detokenize, /apply-template, /props,
// context_length_exceeded, and the llama.cpp flag spellings.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "server/server_process.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

json get(httplib::Client& c, const std::string& path) {
  auto r = c.Get(path);
  if (!r) throw std::runtime_error("no response from " + path);
  json j = json::parse(r->body);
  j["_status"] = r->status;
  return j;
}

json chat(const std::string& model, const std::string& user, int max_tokens) {
  return {{"model", model},
          {"max_tokens", max_tokens},
          {"temperature", 0},
          {"messages", json::array({{{"role", "user"}, {"content", user}}})}};
}

class ApiConventions : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new ServerProcess({"--alias", "house-model", "--alias", "backup", "--parallel", "2", "--ctx", "512"});
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static ServerProcess* server_;
};
ServerProcess* ApiConventions::server_ = nullptr;

TEST_F(ApiConventions, AnyModelNameIsAnsweredAndTheResponseNamesTheServedModel) {
  auto c = server_->client();
  const json models = get(c, "/v1/models");
  const std::string id = models["data"][0]["id"];
  EXPECT_EQ(models["data"][0]["aliases"], json({"house-model", "backup"}));
  const json oai = post_json(c, "/v1/chat/completions", chat("gpt-4o", "hi", 3));
  EXPECT_EQ(oai["_status"], 200) << oai.dump();
  EXPECT_EQ(oai["model"], id);
  json anth = chat("claude-3-5-sonnet-20240620", "hi", 3);
  const json a = post_json(c, "/v1/messages", anth);
  EXPECT_EQ(a["_status"], 200) << a.dump();
  EXPECT_EQ(a["model"], id);
  for (const std::string& name : {id, std::string("house-model"), std::string("backup")}) {
    const json m = get(c, "/v1/models/" + name);
    EXPECT_EQ(m["_status"], 200) << name;
    EXPECT_EQ(m["id"], id);
    EXPECT_EQ(m["object"], "model");
  }
  const json missing = get(c, "/v1/models/gpt-4o");
  EXPECT_EQ(missing["_status"], 404);
  EXPECT_EQ(missing["error"]["code"], "model_not_found");
}

TEST_F(ApiConventions, BadParametersAre400NamingThemInEachApisShape) {
  auto c = server_->client();
  struct Case {
    const char* path;
    json patch;
    const char* param;
  };
  const Case cases[] = {
      {"/v1/chat/completions", {{"top_k", 2147483648LL}}, "top_k"},
      {"/v1/chat/completions", {{"seed", 4294967296LL}}, "seed"},
      {"/v1/chat/completions", {{"logprobs", "yes"}}, "logprobs"},
      {"/v1/chat/completions", {{"n", 9}}, "n"},  // 2 slots x 4
      {"/v1/chat/completions", {{"metadata", {{"k", 1}}}}, "metadata.k"},
      {"/v1/completions", {{"echo", true}}, "echo"},
      {"/v1/completions", {{"best_of", 2}}, "best_of"},
      {"/v1/completions", {{"suffix", "x"}}, "suffix"},
      {"/v1/messages", {{"top_k", 2147483648LL}}, "top_k"},
      {"/v1/messages", {{"metadata", {{"session", "s"}}}}, "metadata.session"},
  };
  for (const auto& bc : cases) {
    json body = chat("m", "hi", 3);
    if (std::string(bc.path) == "/v1/completions") {
      body.erase("messages");
      body["prompt"] = "hi";
    }
    for (const auto& [k, v] : bc.patch.items()) body[k] = v;
    const json j = post_json(c, bc.path, body);
    EXPECT_EQ(j["_status"], 400) << bc.patch.dump() << " -> " << j.dump();
    const std::string message = j["error"]["message"];
    EXPECT_NE(message.find(bc.param), std::string::npos) << message;
    if (std::string(bc.path) == "/v1/messages") {
      EXPECT_EQ(j["type"], "error");
      EXPECT_EQ(j["error"]["type"], "invalid_request_error");
    } else {
      EXPECT_EQ(j["error"]["param"], bc.param) << j.dump();
    }
  }
  // Malformed JSON and NUL in text: plain words, the API's shape.
  for (const char* path : {"/v1/messages", "/v1/chat/completions"}) {
    auto r = c.Post(path, "{\"model\": tru", "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400);
    EXPECT_EQ(r->body.find("json.exception"), std::string::npos) << r->body;
    EXPECT_NE(r->body.find("not valid JSON"), std::string::npos) << r->body;
  }
  json nul = chat("m", std::string("visible\0hidden $9,999.00", 24), 3);
  const json n = post_json(c, "/v1/chat/completions", nul);
  EXPECT_EQ(n["_status"], 400);
  EXPECT_EQ(n["error"]["param"], "messages[0].content");
  EXPECT_EQ(get(c, "/health")["_status"], 200);
}

TEST_F(ApiConventions, LogitBiasSteersTheTokensSampled) {
  auto c = server_->client();
  const json tok = post_json(c, "/tokenize", {{"content", "q"}, {"with_pieces", true}});
  ASSERT_EQ(tok["_status"], 200) << tok.dump();
  ASSERT_FALSE(tok["tokens"].empty());
  const json last = tok["tokens"].back();
  const int id = last["id"];
  const std::string piece = last["piece"];
  json body = chat("m", "hello", 5);
  const json plain = post_json(c, "/v1/chat/completions", body);
  body["logit_bias"] = {{std::to_string(id), 100}};
  const json forced = post_json(c, "/v1/chat/completions", body);
  ASSERT_EQ(forced["_status"], 200) << forced.dump();
  std::string five;
  for (int i = 0; i < 5; ++i) five += piece;
  EXPECT_EQ(forced["choices"][0]["message"]["content"], five);
  EXPECT_NE(plain["choices"][0]["message"]["content"], five);
  // llama-server's text keys: the text's tokens get the bias, in both forms.
  for (const json& by_text : {json{{piece, 100}}, json::array({json::array({piece, 100})})}) {
    body["logit_bias"] = by_text;
    const json t = post_json(c, "/v1/chat/completions", body);
    EXPECT_EQ(t["choices"][0]["message"]["content"], five) << by_text.dump() << t.dump();
  }
  // llama-server's array form; false bans the token outright.
  body["logit_bias"] = json::array({json::array({id, false})});
  const json banned = post_json(c, "/v1/chat/completions", body);
  EXPECT_EQ(banned["_status"], 200);
  EXPECT_EQ(banned["choices"][0]["message"]["content"], plain["choices"][0]["message"]["content"]);
}

TEST_F(ApiConventions, StreamUsageOnlyWhenAskedInAFinalChunkWithNoChoices) {
  auto c = server_->client();
  json body = chat("m", "hi", 4);
  body["stream"] = true;
  auto r = c.Post("/v1/chat/completions", body.dump(), "application/json");
  ASSERT_TRUE(r);
  for (const auto& [event, data] : parse_sse(r->body)) {
    if (data != "[DONE]") {
      EXPECT_FALSE(json::parse(data).contains("usage")) << data;
    }
  }
  body["stream_options"] = {{"include_usage", true}};
  r = c.Post("/v1/chat/completions", body.dump(), "application/json");
  ASSERT_TRUE(r);
  const auto events = parse_sse(r->body);
  ASSERT_GE(events.size(), 3U);
  EXPECT_EQ(events.back().second, "[DONE]");
  const json usage_chunk = json::parse(events[events.size() - 2].second);
  EXPECT_EQ(usage_chunk["choices"], json::array());
  EXPECT_EQ(usage_chunk["usage"]["completion_tokens"], 4);
  const json finish = json::parse(events[events.size() - 3].second);
  EXPECT_EQ(finish["choices"][0]["finish_reason"], "length");
  EXPECT_FALSE(finish.contains("usage"));
}

TEST_F(ApiConventions, TokenizeDetokenizeApplyTemplateAndProps) {
  auto c = server_->client();
  const json t = post_json(c, "/tokenize", {{"content", "hello world"}});
  ASSERT_EQ(t["_status"], 200) << t.dump();
  ASSERT_GE(t["tokens"].size(), 2U);
  EXPECT_TRUE(t["tokens"][0].is_number_integer());
  const json d = post_json(c, "/detokenize", {{"tokens", t["tokens"]}});
  ASSERT_EQ(d["_status"], 200) << d.dump();
  const std::string text = d["content"];
  EXPECT_NE(text.find("hello world"), std::string::npos) << text;
  EXPECT_EQ(post_json(c, "/detokenize", {{"tokens", {-1}}})["_status"], 400);
  EXPECT_EQ(post_json(c, "/detokenize", {{"tokens", {99999999}}})["error"]["param"], "tokens[0]");
  EXPECT_EQ(post_json(c, "/tokenize", {{"text", "x"}})["error"]["param"], "text");  // unknown field
  EXPECT_EQ(post_json(c, "/tokenize", {{"content", 5}})["error"]["param"], "content");
  EXPECT_EQ(post_json(c, "/tokenize", {{"content", "x"}, {"model", 5}})["error"]["param"], "model");
  EXPECT_EQ(post_json(c, "/detokenize", {{"tokens", {1}}, {"model", json::array()}})["error"]["param"], "model");
  const json tpl = post_json(c, "/apply-template", {{"messages", {{{"role", "user"}, {"content", "what is up"}}}}});
  ASSERT_EQ(tpl["_status"], 200) << tpl.dump();
  const std::string prompt = tpl["prompt"];
  EXPECT_NE(prompt.find("what is up"), std::string::npos) << prompt;
  EXPECT_NE(prompt.find("<|im_start|>"), std::string::npos) << prompt;
  const json props = get(c, "/props");
  ASSERT_EQ(props["_status"], 200);
  EXPECT_EQ(props["total_slots"], 2);
  EXPECT_EQ(props["default_generation_settings"]["n_ctx"], 512);
  EXPECT_EQ(props["default_generation_settings"]["params"]["top_k"], 40);
  EXPECT_EQ(props["default_generation_settings"]["params"]["n_predict"], -1);
  EXPECT_TRUE(props["chat_template"].is_string());
}

TEST_F(ApiConventions, UnknownFieldsAre400NamingTheFieldInEachApisShape) {
  auto c = server_->client();
  json oai = chat("m", "hi", 3);
  oai["temprature"] = 0.2;
  const json o = post_json(c, "/v1/chat/completions", oai);
  EXPECT_EQ(o["_status"], 400);
  EXPECT_EQ(o["error"]["type"], "invalid_request_error");
  EXPECT_EQ(o["error"]["param"], "temprature");
  EXPECT_EQ(o["error"]["message"], "unknown parameter 'temprature' (did you mean 'temperature'?)");
  // A control character in the name is written escaped, not cut short at a NUL.
  json nul = chat("m", "hi", 3);
  nul[std::string("ab\0cd", 5)] = 1;
  const json n = post_json(c, "/v1/chat/completions", nul);
  EXPECT_EQ(n["_status"], 400);
  EXPECT_EQ(n["error"]["message"], "unknown parameter 'ab\\u0000cd'");
  json anth = chat("m", "hi", 3);
  anth["max_tokenz"] = 3;
  const json a = post_json(c, "/v1/messages", anth);
  EXPECT_EQ(a["_status"], 400);
  EXPECT_EQ(a["type"], "error");
  EXPECT_NE(a["error"]["message"].get<std::string>().find("unknown parameter 'max_tokenz'"), std::string::npos);
  EXPECT_EQ(post_json(c, "/v1/messages/count_tokens", anth)["_status"], 400);
  const json done = post_json(c, "/v1/completions", {{"prompt", "hi"}, {"max_tokens", 2}, {"sfcl", {{"mdoe", "off"}}}});
  EXPECT_EQ(done["_status"], 400);
  EXPECT_EQ(done["error"]["param"], "sfcl.mdoe");
}

TEST_F(ApiConventions, OverlongPromptIsContextLengthExceeded) {
  auto c = server_->client();
  std::string long_text;
  for (int i = 0; i < 400; ++i) long_text += "word ";
  const json j = post_json(c, "/v1/chat/completions", chat("m", long_text, 3));
  EXPECT_EQ(j["_status"], 400);
  EXPECT_EQ(j["error"]["code"], "context_length_exceeded") << j.dump();
  EXPECT_EQ(j["error"]["param"], "messages");
  // The parameter named is the one that is too long.
  const json completion = post_json(c, "/v1/completions", {{"model", "m"}, {"max_tokens", 3}, {"prompt", long_text}});
  EXPECT_EQ(completion["_status"], 400);
  EXPECT_EQ(completion["error"]["code"], "context_length_exceeded") << completion.dump();
  EXPECT_EQ(completion["error"]["param"], "prompt");
  json anth = chat("m", long_text, 3);
  const json messages = post_json(c, "/v1/messages", anth);
  EXPECT_EQ(messages["_status"], 400);
  EXPECT_EQ(messages["type"], "error");
  EXPECT_NE(messages["error"]["message"].get<std::string>().find("too long"), std::string::npos);
  EXPECT_NE(messages["error"]["message"].get<std::string>().find("never shifts the context"), std::string::npos);
}

TEST(ApiConventionFlags, LlamaCppSpellingsSetTheServersDefaultsAndCap) {
  ServerProcess s({"-np",     "3",  "-c",      "256", "-t",      "1",   "-n",     "3", "--temp",  "0",
                   "--top-k", "20", "--top-p", "0.9", "--min-p", "0.1", "--seed", "7", "--alias", "local"});
  auto c = s.client();
  const json props = get(c, "/props");
  EXPECT_EQ(props["total_slots"], 3);
  const json& gen = props["default_generation_settings"];
  EXPECT_EQ(gen["n_ctx"], 256);
  EXPECT_EQ(gen["params"]["n_predict"], 3);
  EXPECT_FLOAT_EQ(gen["params"]["temperature"].get<float>(), 0.0F);
  EXPECT_EQ(gen["params"]["top_k"], 20);
  EXPECT_FLOAT_EQ(gen["params"]["top_p"].get<float>(), 0.9F);
  EXPECT_FLOAT_EQ(gen["params"]["min_p"].get<float>(), 0.1F);
  EXPECT_EQ(gen["params"]["seed"], 7);
  EXPECT_EQ(props["aliases"], json({"local"}));
  // -n caps max_tokens; --temp 0 makes requests that set no temperature greedy.
  json body = {{"max_tokens", 10}, {"messages", {{{"role", "user"}, {"content", "hi"}}}}};
  const json a = post_json(c, "/v1/chat/completions", body);
  EXPECT_EQ(a["usage"]["completion_tokens"], 3) << a.dump();
  body["temperature"] = 0;
  const json greedy = post_json(c, "/v1/chat/completions", body);
  EXPECT_EQ(a["choices"][0]["message"]["content"], greedy["choices"][0]["message"]["content"]);
}

// llama-server's endpoints answer a missing key in OpenAI's error shape, as their other errors do.
TEST(ApiConventionAuth, LlamaServerEndpointsRefuseInOpenAIShape) {
  ServerProcess server({"--api-key", "k1"});
  auto c = server.client();
  for (const char* path : {"/tokenize", "/detokenize", "/apply-template"}) {
    const json r = post_json(c, path, {{"content", "x"}});
    EXPECT_EQ(r["_status"], 401) << path;
    EXPECT_TRUE(r["error"].is_object() && r["error"].contains("message") && !r.contains("type")) << r.dump();
  }
  for (const char* path : {"/props", "/v1/models", "/models/x"}) {
    const json r = get(c, path);
    EXPECT_EQ(r["_status"], 401) << path;
    EXPECT_TRUE(r["error"].is_object() && !r.contains("type")) << r.dump();
  }
}

TEST(ApiConventionFlags, UnknownLlamaCppFlagIsNamedNotMisparsed) {
  const char* bin = std::getenv("SFCL");
  ASSERT_NE(bin, nullptr);
  const std::string cmd = std::string(bin) + " serve -ngx 99 --port 1 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  const int rc = ::pclose(p);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("unknown option -ngx"), std::string::npos) << out;
}

}  // namespace
}  // namespace sfcl::test
