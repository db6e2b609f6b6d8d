// LoRA adapters in the real `sfcl serve` on 127.0.0.1, with an adapter the test writes itself
// (random weights): GET /lora-adapters lists it, a request's "lora" and POST /lora-adapters set
// its scale, scale 0 answers as the base model, requests under other scales running at once each
// get what they get alone, and malformed entries are 400s naming them.
#include <gtest/gtest.h>

#include <unistd.h>

#include <future>
#include <nlohmann/json.hpp>

#include "engine/engine.h"
#include "server/server_process.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

class Lora : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    adapter_ = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                         ("sfcl-test-lora-" + std::to_string(::getpid()) + ".gguf"));
    engine::write_random_lora(*adapter_, tiny_model_path(), 8, 7, 0.3F);
    // Loaded at scale 0: requests that name no adapter answer as the base model until a POST.
    server_ = new ServerProcess({"--parallel", "2", "--ctx", "512", "--lora-scaled", adapter_->string() + ":0"});
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
    std::error_code ec;
    std::filesystem::remove(*adapter_, ec);
    delete adapter_;
  }
  static ServerProcess* server_;
  static std::filesystem::path* adapter_;
};
ServerProcess* Lora::server_ = nullptr;
std::filesystem::path* Lora::adapter_ = nullptr;

json completion(const std::optional<float>& scale) {
  json b = {{"prompt", "Once upon a time"},
            {"n_predict", 12},
            {"temperature", 0},
            {"ignore_eos", true},
            {"sfcl", {{"mode", "off"}}}};
  if (scale) b["lora"] = {{{"id", 0}, {"scale", *scale}}};
  return b;
}

std::string content(httplib::Client& c, const std::optional<float>& scale) {
  const json r = post_json(c, "/completion", completion(scale));
  EXPECT_EQ(r["_status"], 200) << r.dump();
  return r.value("content", "");
}

json get(httplib::Client& c, const std::string& path) {
  auto r = c.Get(path);
  if (!r) throw std::runtime_error("no response from " + path);
  json j = json::parse(r->body);
  if (j.is_object()) j["_status"] = r->status;
  return j;
}

TEST_F(Lora, AdaptersAreListedAsLlamaServerListsThem) {
  auto c = server_->client();
  const json list = get(c, "/lora-adapters");
  ASSERT_TRUE(list.is_array()) << list.dump();
  ASSERT_EQ(list.size(), 1U);
  EXPECT_EQ(list[0]["id"], 0);
  EXPECT_EQ(list[0]["path"], adapter_->string());
  EXPECT_EQ(list[0]["scale"], 0.0);
  EXPECT_EQ(list[0]["task_name"], "random");
}

TEST_F(Lora, ScaleZeroIsTheBaseModelAndAScaleChangesTheAnswer) {
  auto c = server_->client();
  const std::string base = content(c, std::nullopt);
  EXPECT_EQ(content(c, 0.0F), base);
  const std::string adapted = content(c, 1.0F);
  EXPECT_NE(adapted, base);
  // Again, after the base run filled the slots' caches with the same prompt: cells computed under
  // other scales are never reused.
  EXPECT_EQ(content(c, 1.0F), adapted);
  EXPECT_EQ(content(c, 0.0F), base);
  // Two requests under different scales at once: each as alone (one scale per decode step).
  auto other = server_->client();
  auto a = std::async(std::launch::async, [&] { return content(c, 1.0F); });
  auto b = std::async(std::launch::async, [&] { return content(other, 0.0F); });
  EXPECT_EQ(a.get(), adapted);
  EXPECT_EQ(b.get(), base);
}

TEST_F(Lora, PostSetsTheScalesOfRequestsThatNameNone) {
  auto c = server_->client();
  const std::string base = content(c, 0.0F);
  const std::string adapted = content(c, 1.0F);
  EXPECT_EQ(post_json(c, "/lora-adapters", json::array({{{"id", 0}, {"scale", 1}}}))["success"], true);
  EXPECT_EQ(get(c, "/lora-adapters")[0]["scale"], 1.0);
  EXPECT_EQ(content(c, std::nullopt), adapted);
  // Adapters the body does not list go to 0, as in llama-server.
  EXPECT_EQ(post_json(c, "/lora-adapters", json::array())["success"], true);
  EXPECT_EQ(get(c, "/lora-adapters")[0]["scale"], 0.0);
  EXPECT_EQ(content(c, std::nullopt), base);
}

TEST_F(Lora, MalformedEntriesAre400sNamingThem) {
  auto c = server_->client();
  json b = completion(std::nullopt);
  b["lora"] = {{{"id", 3}, {"scale", 1}}};
  json r = post_json(c, "/completion", b);
  EXPECT_EQ(r["_status"], 400) << r.dump();
  EXPECT_EQ(r["error"]["param"], "lora[0].id") << r.dump();
  b["lora"] = {{{"id", 0}}};
  EXPECT_EQ(post_json(c, "/v1/completions", b)["_status"], 400);
  r = post_json(c, "/lora-adapters", json::array({{{"id", 0}, {"scale", 1}}, {{"id", 9}, {"scale", 1}}}));
  EXPECT_EQ(r["_status"], 400) << r.dump();
  EXPECT_EQ(get(c, "/lora-adapters")[0]["scale"], 0.0);                                  // unchanged
  EXPECT_EQ(post_json(c, "/lora-adapters", {{"id", 0}, {"scale", 1}})["_status"], 400);  // not an array
  EXPECT_EQ(get(c, "/health")["_status"], 200);
}

}  // namespace
}  // namespace sfcl::test
