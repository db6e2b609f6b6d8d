// sfcl serve's /infill beside llama-server's, both on one model with DeepSeek-Coder's vocabulary
// (FIM tokens, random weights) and SFCL off: the same body evaluates the same number of prompt
// tokens and writes the same greedy text, so the FIM prompt is llama-server's, token for token in
// length and in what the model continues.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "gateway/gateway_process.h"
#include "server/server_process.h"
#include "support/bundle.h"
#include "support/test_model.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

TEST(InfillParity, SameBodySamePromptLengthAndTextAsLlamaServer) {
  const auto model = vocab_model_path("deepseek-coder");
  SFCL_NEEDS_BUNDLE(model.empty(), "the llama.cpp bundle has no models/ggml-vocab-deepseek-coder.gguf");
  // Both with one batch size: llama-server takes the FIM prefix, suffix and extra files by it.
  ServerProcess serve({"--model", model.string(), "--parallel", "1", "--ctx", "1024", "-b", "512", "--sfcl", "off"}, true, {},
                      true, false);
  LlamaServer peer(1, model, {"-c", "1024", "-b", "512", "-ub", "512"});
  httplib::Client pc(peer.url());
  pc.set_read_timeout(120, 0);
  auto sc = serve.client();
  std::string long_prefix;  // past 3/4 of the batch: only its last 384 tokens are kept
  for (int i = 0; i < 200; ++i) long_prefix += "x = x + " + std::to_string(i) + "\n";
  const std::pair<std::string, json> cases[] = {
      {"def f(n):\n    if n < 2:\n        return ", json::array()},
      {"def f(n):\n    if n < 2:\n        return ",
       json::array({{{"filename", "a.py"}, {"text", "x = 1\n"}}, {{"text", "y = 2\n"}}})},
      {long_prefix, json::array({{{"filename", "b.py"}, {"text", long_prefix}}})},
  };
  for (const auto& [prefix, extra] : cases) {
    const json body = {{"input_prefix", prefix},
                       {"input_suffix", "\n    return f(n - 1) + f(n - 2)\n"},
                       {"input_extra", extra},
                       {"prompt", ""},
                       {"n_predict", 6},
                       {"temperature", 0},
                       {"top_k", 1},
                       {"ignore_eos", true},
                       {"cache_prompt", false}};
    const json ours = post_json(sc, "/infill", body);
    const json theirs = post_json(pc, "/infill", body);
    ASSERT_EQ(ours["_status"], 200) << ours.dump();
    ASSERT_EQ(theirs["_status"], 200) << theirs.dump();
    EXPECT_EQ(ours["tokens_evaluated"], theirs["tokens_evaluated"]) << extra.dump();
    EXPECT_EQ(ours["content"], theirs["content"]) << extra.dump();
  }
}

}  // namespace
}  // namespace sfcl::test
