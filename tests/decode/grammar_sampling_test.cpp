// The check loop under a grammar (structured output, tools) with check-first sampling
// (engine::SamplingOptions::grammar_first = false): at temperature 0 every answer, event and
// log-probability equals grammar-first's, backtracks and the constrain fallback inside the JSON
// included; sampled, every output follows the grammar. On the byte vocabulary and Qwen2's.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "decode/decode.h"
#include "support/bundle.h"
#include "support/loop_run.h"
#include "support/script.h"
#include "support/test_model.h"

namespace sfcl::decode {
namespace {

using engine::Model;

const std::string kSource = "Invoice INV-7 total: $12,500.00 due June 15, 2024.";
const std::string kTotalSchema =
    R"({"type":"object","properties":{"total":{"type":"string","maxLength":16},"n":{"type":"integer","maximum":99}},)"
    R"("required":["total","n"]})";

nlohmann::json parsed(const std::string& text) { return nlohmann::json::parse(text, nullptr, false); }

Options with_schema(Options o) {
  o.grammar.gbnf = engine::json_schema_grammar(kTotalSchema);
  o.logprobs = 3;
  return o;
}

class GrammarSamplingTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    model_ = test::loaded_model(GetParam());
    SFCL_NEEDS_BUNDLE(model_ == nullptr, "no ggml-vocab-" << GetParam() << ".gguf in the llama.cpp bundle");
  }

  // F32 KV cache and plain attention: a rewound run sees the logits a fresh one would.
  static inline const engine::ContextOptions kExact{1024, 128, 1, 1, true, true, false};

  test::LoopRun run(Options opt, bool grammar_first) const {
    opt.sampling.grammar_first = grammar_first;
    return test::run_loop(*model_, kSource, opt, kExact);
  }

  // Both samplers on the same request: answers, events, records and log-probabilities agree.
  test::LoopRun expect_same(const Options& opt) const {
    const test::LoopRun first = run(opt, true);
    test::LoopRun check = run(opt, false);
    EXPECT_EQ(check.result.text, first.result.text);
    EXPECT_EQ(check.chunks, first.chunks);
    EXPECT_EQ(check.backtrack_events, first.backtrack_events);
    EXPECT_EQ(check.fallback_events, first.fallback_events);
    EXPECT_EQ(check.backtrack_reasons, first.backtrack_reasons);
    EXPECT_EQ(check.result.stats.backtracks, first.result.stats.backtracks);
    EXPECT_EQ(check.result.stats.regenerated_tokens, first.result.stats.regenerated_tokens);
    EXPECT_EQ(check.result.stop_reason, first.result.stop_reason);
    EXPECT_EQ(check.result.anchors.size(), first.result.anchors.size());
    for (size_t i = 0; i < std::min(check.result.anchors.size(), first.result.anchors.size()); ++i) {
      EXPECT_EQ(check.result.anchors[i].text, first.result.anchors[i].text);
      EXPECT_EQ(check.result.anchors[i].verdict, first.result.anchors[i].verdict);
    }
    // The log-probabilities are those of the row each token was sampled from, whichever sampler.
    EXPECT_EQ(check.result.token_logprobs.size(), first.result.token_logprobs.size());
    for (size_t i = 0; i < std::min(check.result.token_logprobs.size(), first.result.token_logprobs.size()); ++i) {
      const TokenLogprob& a = check.result.token_logprobs[i];
      const TokenLogprob& b = first.result.token_logprobs[i];
      EXPECT_EQ(a.token, b.token) << i;
      EXPECT_EQ(a.logprob, b.logprob) << i;
      EXPECT_EQ(a.top.size(), b.top.size()) << i;
      for (size_t k = 0; k < std::min(a.top.size(), b.top.size()); ++k) {
        EXPECT_EQ(a.top[k].token, b.top[k].token) << i;
        EXPECT_EQ(a.top[k].logprob, b.top[k].logprob) << i;
      }
    }
    return check;
  }

  const Model* model_ = nullptr;
};

TEST_P(GrammarSamplingTest, GreedyJsonAnswerIsGrammarFirsts) {
  const test::LoopRun r = expect_same(with_schema(test::greedy(Mode::anchor, 80)));
  const auto j = parsed(r.result.text);
  ASSERT_FALSE(j.is_discarded()) << r.result.text;
  EXPECT_TRUE(j["total"].is_string()) << r.result.text;
  EXPECT_TRUE(j["n"].is_number_integer()) << r.result.text;
  EXPECT_FALSE(r.result.token_logprobs.empty());
}

// A scripted wrong amount inside the JSON string: the backtrack, its bans and the grammar rebuilt
// from the kept tokens give the same answer under both samplers.
TEST_P(GrammarSamplingTest, BacktrackInsideJsonIsGrammarFirsts) {
  Options o = with_schema(test::greedy(Mode::anchor, 80));
  o.fallback = Fallback::flag;
  o.logit_hook = test::script(*model_, R"({"total": "$12,600.00", "n": 7})");
  const test::LoopRun r = expect_same(o);
  EXPECT_GE(r.result.stats.backtracks, 1);
  EXPECT_EQ(r.streamed.find("12,600"), std::string::npos) << r.streamed;
  EXPECT_FALSE(parsed(r.result.text).is_discarded()) << r.result.text;
}

// No retries left: the constrain fallback's allow-lists inside the JSON string, both samplers.
TEST_P(GrammarSamplingTest, ConstrainFallbackInsideJsonIsGrammarFirsts) {
  Options o = with_schema(test::greedy(Mode::anchor, 80));
  o.max_backtracks = 0;
  o.logit_hook = test::script_until(*model_, R"({"total": "$12,600.00", "n": 7})", "$12,500.00");
  const test::LoopRun r = expect_same(o);
  EXPECT_GE(r.fallback_events, 1);
  EXPECT_EQ(r.streamed.find("12,600"), std::string::npos) << r.streamed;
}

// Tool calls: a required call (the grammar from the first token) and a lazy one that starts at its
// trigger, the script naming a tool that does not exist.
TEST_P(GrammarSamplingTest, ToolCallGrammarsAreGrammarFirsts) {
  for (const auto choice : {engine::ToolChoice::required, engine::ToolChoice::automatic}) {
    engine::ChatInput in;
    in.messages.push_back({"user", "Weather in Paris?"});
    in.tools.push_back(
        {"get_weather", "Current weather",
         R"({"type":"object","properties":{"city":{"type":"string","maxLength":12}},"required":["city"]})"});
    in.tool_choice = choice;
    const engine::ChatPrompt p = model_->render_chat(in);
    if (p.grammar.gbnf.empty()) continue;
    Options o = test::greedy(Mode::anchor, 80);
    o.grammar = p.grammar;
    o.logprobs = 2;
    o.logit_hook = test::script(*model_, R"(Let me look. {"name": "get_time", "arguments": {"city": "Paris"}})");
    const test::LoopRun r = expect_same(o);
    EXPECT_NE(r.result.text.find("get_weather"), std::string::npos) << r.result.text;
  }
}

// Sampled (llama-server's default chain), over many seeds: the output is complete JSON for the
// schema, and an independent grammar accepts every token in it.
TEST_P(GrammarSamplingTest, SampledOutputsFollowTheGrammar) {
  const int seeds = model_->n_vocab() > 10000 ? 4 : 40;
  for (int seed = 0; seed < seeds; ++seed) {
    Options o = with_schema(test::greedy(Mode::off, 80));
    o.logprobs = 0;
    o.sampling = {0.8F, 40, 0.95F, 0.05F, static_cast<uint32_t>(seed)};
    const test::LoopRun r = run(o, false);
    EXPECT_EQ(r.result.stop_reason, StopReason::end_turn) << seed << ": " << r.result.text;
    const auto j = parsed(r.result.text);
    ASSERT_FALSE(j.is_discarded()) << seed << ": " << r.result.text;
    EXPECT_TRUE(j["total"].is_string()) << r.result.text;
    EXPECT_TRUE(j["n"].is_number_integer()) << r.result.text;
    engine::Sampler judge(*model_, engine::SamplingOptions{});
    judge.set_grammar(o.grammar);
    for (const TokenLogprob& t : r.result.token_logprobs) {
      ASSERT_TRUE(judge.accept_forced(t.token)) << seed << ": " << r.result.text;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Vocabularies, GrammarSamplingTest, ::testing::Values("byte", "qwen2"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace sfcl::decode
