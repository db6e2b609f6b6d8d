// POST /infill on the real `sfcl serve` (127.0.0.1): on a vocabulary with fill-in-the-middle tokens
// (DeepSeek-Coder's) the prompt is llama-server's FIM pattern and the answer /completion's shape,
// plain and streamed; a model without FIM tokens gets llama-server's 501; a malformed input_extra
// or input_prefix is a 400 naming the field. tests/gateway/infill_parity_test.cpp compares the
// prompt and text with llama-server's own /infill.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "server/server_process.h"
#include "support/bundle.h"
#include "support/test_model.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

size_t tokens_of(httplib::Client& c, const std::string& text, bool add_special = false) {
  const json r = post_json(c, "/tokenize", {{"content", text}, {"add_special", add_special}});
  return r.at("tokens").size();
}

const json kBody = {{"input_prefix", "def total(items):\n    return "},
                    {"input_suffix", "\n\nprint(total([1, 2]))\n"},
                    {"input_extra", {{{"filename", "util.py"}, {"text", "def add(a, b):\n    return a + b\n"}}}},
                    {"prompt", "sum("},
                    {"n_predict", 4},
                    {"temperature", 0},
                    {"ignore_eos", true}};

TEST(ServerInfill, ThePromptIsLlamaServersFimPatternAndTheAnswerCompletionsShape) {
  const auto model = vocab_model_path("deepseek-coder");
  SFCL_NEEDS_BUNDLE(model.empty(), "the llama.cpp bundle has no models/ggml-vocab-deepseek-coder.gguf");
  ServerProcess s({"--model", model.string(), "--parallel", "1", "--ctx", "1024"}, true, {}, true, false);
  auto c = s.client();
  const json r = post_json(c, "/infill", kBody);
  ASSERT_EQ(r["_status"], 200) << r.dump();
  EXPECT_TRUE(r["content"].is_string());
  EXPECT_EQ(r["stop"], true);
  EXPECT_EQ(r["tokens_predicted"], 4);
  // DeepSeek-Coder has FIM begin/hole/end but no repo or file separator: each extra file follows
  // llama-server's snippet line; then BOS, FIM_PRE prefix prompt, FIM_SUF suffix, FIM_MID.
  const size_t bos = tokens_of(c, "x", true) - tokens_of(c, "x");
  const size_t expected = tokens_of(c, "\n\n--- snippet ---\n\n") + tokens_of(c, kBody["input_extra"][0]["text"]) +
                          bos + 1 + tokens_of(c, kBody["input_prefix"]) + tokens_of(c, kBody["prompt"]) + 1 +
                          tokens_of(c, kBody["input_suffix"]) + 1;
  EXPECT_EQ(r["tokens_evaluated"], expected);
  EXPECT_EQ(r["timings"]["prompt_n"], expected);

  json streamed = kBody;
  streamed["stream"] = true;
  auto sr = c.Post("/infill", streamed.dump(), "application/json");
  ASSERT_TRUE(sr);
  ASSERT_EQ(sr->status, 200) << sr->body;
  std::string text;
  json last;
  for (const auto& [event, data] : parse_sse(sr->body)) {
    last = json::parse(data);
    text += last.value("content", "");
  }
  EXPECT_EQ(last["stop"], true);
  EXPECT_EQ(text, r["content"]);  // the same greedy fill, in pieces
}

TEST(ServerInfill, AModelWithoutFimTokensIs501AsLlamaServersAnswer) {
  ServerProcess s({"--parallel", "1"});
  auto c = s.client();
  const json r = post_json(c, "/infill", kBody);
  EXPECT_EQ(r["_status"], 501) << r.dump();
  EXPECT_EQ(r["error"]["type"], "not_supported_error");
  EXPECT_NE(r["error"]["message"].get<std::string>().find("Infill is not supported by this model"),
            std::string::npos)
      << r.dump();
  EXPECT_EQ(post_json(c, "/completion", {{"prompt", "still serving"}, {"n_predict", 1}})["_status"], 200);
}

TEST(ServerInfill, MalformedFieldsAre400NamingThem) {
  ServerProcess s({"--parallel", "1"});
  auto c = s.client();
  struct Case {
    json patch;
    const char* param;
  };
  const Case cases[] = {
      {{{"input_extra", "util.py"}}, "input_extra"},
      {{{"input_extra", {{{"filename", 3}, {"text", "x"}}}}}, "input_extra"},
      {{{"input_extra", {{{"name", "a.py"}, {"text", "x"}}}}}, "input_extra"},
      {{{"input_extra", {"text"}}}, "input_extra"},
      {{{"input_extra", {json::object()}}}, "input_extra"},
      {{{"input_extra", {{{"filename", "ok"}}}}}, "input_extra"},
      {{{"input_prefix", 5}}, "input_prefix"},
      {{{"input_suffix", {"a"}}}, "input_suffix"},
      {{{"prompt", json::object()}}, "prompt"},
      {{{"input_prefx", "typo"}}, "input_prefx"},
  };
  for (const auto& k : cases) {
    json body = kBody;
    body.update(k.patch);
    const json r = post_json(c, "/infill", body);
    EXPECT_EQ(r["_status"], 400) << body.dump() << " -> " << r.dump();
    EXPECT_EQ(r["error"]["param"], k.param) << r.dump();
  }
  // The infill fields belong to /infill only.
  const json r = post_json(c, "/completion", {{"prompt", "x"}, {"input_prefix", "y"}});
  EXPECT_EQ(r["_status"], 400) << r.dump();
}

}  // namespace
}  // namespace sfcl::test
