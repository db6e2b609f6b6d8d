// `sfcl gateway` on a real vocabulary: Qwen2's byte-level BPE, 151,936 tokens, on a small
// random-weight model. There the raw top tokens cover only 13 positions of a call (2^21 / n_vocab),
// the ban after a value lists over 50,000 tokens, and Chinese characters come as several byte
// tokens; the gateway's answers and events still equal `sfcl serve`'s at temperature 0, and a ban
// list that long is checked in the gateway rather than sent.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gateway/gateway_process.h"
#include "support/bundle.h"
#include "support/test_model.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

json body(const Item& it, const std::string& mode) {
  return {{"model", "m"},
          {"max_tokens", 40},
          {"temperature", 0},
          {"stream", true},
          {"system", it.document},
          {"sfcl", {{"events", true}, {"mode", mode}}},
          {"messages", json::array({{{"role", "user"}, {"content", it.question}}})}};
}

TEST(GatewayRealVocabulary, AnswersAndEventsEqualServeOnQwen2sVocabulary) {
  const std::filesystem::path model = vocab_model_path("qwen2");
  SFCL_NEEDS_BUNDLE(model.empty(), "the llama.cpp bundle has no models/ggml-vocab-qwen2.gguf");
  ServerProcess serve({"--model", model.string(), "--parallel", "2"}, true, {}, true, /*tiny_model=*/false);
  LlamaServer backend(2, model);
  Gateway gw({&backend}, {}, /*tokenizer=*/false);  // the vocabulary from the backend's model file
  auto sc = serve.client();
  auto gc = gw.client();
  // English and Chinese documents: the random weights write digits, capitals and CJK bytes, which
  // the check loop reads as anchors the documents do not hold, so answers backtrack.
  std::vector<Item> picked;
  for (const std::string lang : {"en", "zh"}) {
    int n = 0;
    for (const Item& it : eval_items(600)) {
      if (it.lang == lang && n < 4) {
        picked.push_back(it);
        ++n;
      }
    }
  }
  ASSERT_EQ(picked.size(), 8U);
  int backtracks = 0;
  for (const Item& it : picked) {
    for (const std::string mode : {"off", "anchor"}) {
      const Seen want = stream_messages(sc, body(it, mode));
      ASSERT_TRUE(want.complete);
      const Seen got = stream_messages(gc, body(it, mode));
      EXPECT_TRUE(got.complete) << gw.log_text();
      EXPECT_EQ(got.text, want.text) << it.question << " " << mode;
      EXPECT_EQ(got.events, want.events) << it.question << " " << mode;
      for (const auto& e : want.events) backtracks += e.rfind("backtrack ", 0) == 0 ? 1 : 0;
    }
  }
  EXPECT_GT(backtracks, 0);
  const json b = gw.backends();
  EXPECT_GT(b["rewinds"].get<int>(), 0) << b.dump();
  // Bans were checked in the gateway (among them the 53,961-token ban after a value), and no call
  // carried a word-start ban.
  EXPECT_GT(b["checked_bans"].get<int>(), 0) << b.dump();
  EXPECT_LT(b["bias_entries"].get<int>(), 1000) << b.dump();
}

}  // namespace
}  // namespace sfcl::test
