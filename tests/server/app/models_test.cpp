// Several models in one `sfcl serve`: the request's model picks one by id or alias, unknown names
// are a 404 model_not_found, each model answers with its own SFCL mode (X-SFCL-Model,
// X-SFCL-Status), the listing and the llama-server routes know every model, and the models serve
// at the same time (each has its own slots).
#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <thread>

#include "server/server_process.h"
#include "support/run_command.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

const std::string kDemo = std::string(SFCL_SOURCE_DIR) + "/demo/sfcl-demo.gguf";

struct Reply {
  int status = 0;
  json body;
  std::string model_header;
  std::string status_header;
};

Reply post(httplib::Client& c, const std::string& path, const json& body) {
  auto r = c.Post(path, body.dump(), "application/json");
  if (!r) throw std::runtime_error("no response from " + path);
  return {r->status, json::parse(r->body, nullptr, false), r->get_header_value("X-SFCL-Model"),
          r->get_header_value("X-SFCL-Status")};
}

json get(httplib::Client& c, const std::string& path) {
  auto r = c.Get(path);
  if (!r) throw std::runtime_error("no response from " + path);
  json j = json::parse(r->body);
  j["_status"] = r->status;
  return j;
}

json chat(const std::string& model, int max_tokens = 3) {
  json body = {{"max_tokens", max_tokens},
               {"temperature", 0},
               {"messages", json::array({{{"role", "user"}, {"content", "The fee is $450. What is the fee?"}}})}};
  if (!model.empty()) body["model"] = model;
  return body;
}

// tiny (aliases fast, quick; SFCL off) and sfcl-demo (alias careful; the server's default mode).
class ServedModels : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new ServerProcess({"--model-id", "tiny", "--alias", "fast", "--sfcl", "off", "--alias", "quick",
                                 "--model", kDemo, "--alias", "careful", "--chat-template", "chatml", "--parallel", "2",
                                 "--ctx", "512"});
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static ServerProcess* server_;
};
ServerProcess* ServedModels::server_ = nullptr;

TEST_F(ServedModels, TheListingAndTheLookupKnowEveryModel) {
  auto c = server_->client();
  const json models = get(c, "/v1/models");
  ASSERT_EQ(models["data"].size(), 2U) << models.dump();
  EXPECT_EQ(models["data"][0]["id"], "tiny");
  EXPECT_EQ(models["data"][0]["aliases"], json({"fast", "quick"}));
  EXPECT_EQ(models["data"][0]["sfcl"]["mode"], "off");
  EXPECT_EQ(models["data"][1]["id"], "sfcl-demo");
  EXPECT_EQ(models["data"][1]["aliases"], json({"careful"}));
  EXPECT_EQ(models["data"][1]["sfcl"]["mode"], "anchor");
  EXPECT_EQ(models["first_id"], "tiny");
  EXPECT_EQ(models["last_id"], "sfcl-demo");
  for (const auto& [name, id] : {std::pair{"fast", "tiny"}, std::pair{"quick", "tiny"}, std::pair{"tiny", "tiny"},
                                 std::pair{"careful", "sfcl-demo"}, std::pair{"sfcl-demo", "sfcl-demo"}}) {
    const json m = get(c, std::string("/v1/models/") + name);
    EXPECT_EQ(m["_status"], 200) << name;
    EXPECT_EQ(m["id"], id) << name;
  }
  const json missing = get(c, "/v1/models/gpt-4o");
  EXPECT_EQ(missing["_status"], 404);
  EXPECT_EQ(missing["error"]["code"], "model_not_found");
}

TEST_F(ServedModels, TheRequestsModelPicksOneByIdOrAliasAndHeadersSayWhichAndInWhatMode) {
  auto c = server_->client();
  for (const auto& [name, id, status] :
       {std::tuple{"fast", "tiny", "off"}, std::tuple{"tiny", "tiny", "off"}, std::tuple{"", "tiny", "off"}}) {
    const Reply r = post(c, "/v1/chat/completions", chat(name));
    ASSERT_EQ(r.status, 200) << name << ": " << r.body.dump();
    EXPECT_EQ(r.body["model"], id) << name;
    EXPECT_EQ(r.model_header, id) << name;
    EXPECT_EQ(r.status_header, status) << name;
    EXPECT_EQ(r.body["sfcl"]["status"], status) << name;
  }
  for (const char* name : {"careful", "sfcl-demo"}) {
    const Reply r = post(c, "/v1/chat/completions", chat(name));
    ASSERT_EQ(r.status, 200) << name << ": " << r.body.dump();
    EXPECT_EQ(r.body["model"], "sfcl-demo") << name;
    EXPECT_EQ(r.model_header, "sfcl-demo") << name;
    EXPECT_NE(r.status_header, "off") << name;
    EXPECT_FALSE(r.status_header.empty()) << name;
  }
  // Anthropic, and a stream (its headers leave before the answer).
  const Reply anth = post(c, "/v1/messages", chat("careful"));
  ASSERT_EQ(anth.status, 200) << anth.body.dump();
  EXPECT_EQ(anth.body["model"], "sfcl-demo");
  EXPECT_EQ(anth.model_header, "sfcl-demo");
  json streamed = chat("quick");
  streamed["stream"] = true;
  auto s = c.Post("/v1/messages", streamed.dump(), "application/json");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->status, 200);
  EXPECT_EQ(s->get_header_value("X-SFCL-Model"), "tiny");
  EXPECT_EQ(s->get_header_value("X-SFCL-Status"), "off");
  EXPECT_NE(s->body.find("\"model\":\"tiny\""), std::string::npos) << s->body;
  // The request's own sfcl.mode still wins over the model's.
  json on = chat("fast");
  on["sfcl"] = {{"mode", "anchor"}};
  EXPECT_NE(post(c, "/v1/chat/completions", on).status_header, "off");
}

TEST_F(ServedModels, UnknownNamesAre404ModelNotFoundInTheApisShape) {
  auto c = server_->client();
  const Reply oai = post(c, "/v1/chat/completions", chat("gpt-4o"));
  EXPECT_EQ(oai.status, 404);
  EXPECT_EQ(oai.body["error"]["code"], "model_not_found") << oai.body.dump();
  EXPECT_EQ(oai.body["error"]["param"], "model");
  EXPECT_EQ(oai.body["error"]["type"], "invalid_request_error");
  EXPECT_NE(oai.body["error"]["message"].get<std::string>().find("gpt-4o"), std::string::npos);
  const Reply anth = post(c, "/v1/messages", chat("claude-3-5-sonnet-20240620"));
  EXPECT_EQ(anth.status, 404);
  EXPECT_EQ(anth.body["type"], "error");
  EXPECT_EQ(anth.body["error"]["type"], "not_found_error") << anth.body.dump();
  const Reply count = post(c, "/v1/messages/count_tokens", chat("nope"));
  EXPECT_EQ(count.status, 404);
  const Reply tok = post(c, "/tokenize", {{"model", "nope"}, {"content", "hi"}});
  EXPECT_EQ(tok.status, 404);
  EXPECT_EQ(tok.body["error"]["code"], "model_not_found");
}

TEST_F(ServedModels, LlamaServerRoutesTakeTheModelFromTheBodyOrQuery) {
  auto c = server_->client();
  EXPECT_EQ(get(c, "/props")["model_alias"], "tiny");  // the first by default
  const json demo = get(c, "/props?model=careful");
  EXPECT_EQ(demo["model_alias"], "sfcl-demo");
  EXPECT_EQ(demo["sfcl"]["mode"], "anchor");
  EXPECT_NE(demo["model_path"].get<std::string>().find("sfcl-demo.gguf"), std::string::npos);
  EXPECT_EQ(get(c, "/props?model=fast")["sfcl"]["mode"], "off");
  EXPECT_EQ(get(c, "/props?model=nope")["_status"], 404);
  for (const char* m : {"fast", "careful"}) {
    const Reply tok = post(c, "/tokenize", {{"model", m}, {"content", "fee"}});
    ASSERT_EQ(tok.status, 200) << tok.body.dump();
    const Reply back = post(c, "/detokenize", {{"model", m}, {"tokens", tok.body["tokens"]}});
    EXPECT_EQ(back.body["content"], "fee") << m;
    const Reply count = post(c, "/v1/messages/count_tokens", chat(m));
    EXPECT_EQ(count.status, 200) << m;
    EXPECT_GT(count.body["input_tokens"].get<int>(), 0) << m;
    const Reply tmpl = post(c, "/apply-template", chat(m));
    EXPECT_EQ(tmpl.status, 200) << m;
    // The demo model has no template of its own: its --chat-template chatml is per model.
    EXPECT_NE(tmpl.body["prompt"].get<std::string>().find("<|im_start|>user\nThe fee is $450. What is the fee?"),
              std::string::npos)
        << tmpl.body.dump();
  }
  const json health = get(c, "/health");
  EXPECT_EQ(health["status"], "ok");
  EXPECT_EQ(health["slots"], 4);  // 2 per model
  ASSERT_EQ(health["models"].size(), 2U) << health.dump();
  EXPECT_EQ(health["models"][1]["id"], "sfcl-demo");
  EXPECT_EQ(health["models"][1]["slots"], 2);
}

TEST_F(ServedModels, BothModelsServeAtTheSameTime) {
  std::atomic<int> ok{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 4; ++i) {
    clients.emplace_back([&, i] {
      auto c = server_->client();
      const std::string name = i % 2 == 0 ? "fast" : "careful";
      json body = chat(name, 24);
      body["stream"] = i >= 2;
      auto r = c.Post(i % 2 == 0 ? "/v1/chat/completions" : "/v1/messages", body.dump(), "application/json");
      if (r && r->status == 200 && r->get_header_value("X-SFCL-Model") == (i % 2 == 0 ? "tiny" : "sfcl-demo")) ++ok;
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(ok.load(), 4);
  // Every slot is free again, in both models' schedulers.
  const json health = [] {
    auto c = server_->client();
    return get(c, "/health");
  }();
  EXPECT_EQ(health["models"][0]["slots_busy"], 0);
  EXPECT_EQ(health["models"][1]["slots_busy"], 0);
}

TEST(ServedModelFlags, PerModelFlagsFollowTheirModel) {
  const std::string bin = std::getenv("SFCL");
  const std::string tiny = tiny_model_path().string();
  int rc = 0;
  const std::string before =
      run(bin + " serve --alias early --model " + tiny + " --model " + kDemo + " --port 0 2>&1", rc);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(before.find("--alias before the first --model"), std::string::npos) << before;
  const std::string twice =
      run(bin + " serve --model " + tiny + " --alias same --model " + kDemo + " --alias same --port 0 2>&1", rc);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(twice.find("the name same is given to two models"), std::string::npos) << twice;
  const std::string help = run(bin + " serve --help 2>&1", rc);
  EXPECT_NE(help.find("Repeat it to serve several"), std::string::npos);
  EXPECT_NE(help.find("--chat-template-file"), std::string::npos);
}

}  // namespace
}  // namespace sfcl::test
