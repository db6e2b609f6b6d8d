// Log-probabilities of delivered tokens (Options::logprobs): real values from the logits the loop
// sampled from, and after a backtrack only those of the text actually delivered.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "decode/decode.h"
#include "decode/logprobs.h"
#include "support/loop_run.h"
#include "support/script.h"
#include "support/test_model.h"
#include "util/utf8.h"

namespace sfcl::decode {
namespace {

using engine::Model;

const std::string kSource = "Invoice INV-7 total: $12,500.00 due June 15, 2024.";

class LogprobsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { model_ = Model::load({test::tiny_model_path()}).release(); }
  static void TearDownTestSuite() {
    delete model_;
    model_ = nullptr;
  }

  // What the stream delivered: the event entries in order, with the text they came with.
  struct Streamed {
    Result result;
    std::vector<TokenLogprob> entries;
    std::string text;
  };
  static Streamed run(const Options& opt) {
    anchor::SourceIndex index;
    index.add_source(kSource);
    const auto prompt = model_->tokenize(kSource + "\nAnswer:", true, false);
    engine::Context ctx(*model_, {1024, 128, 1, 1});
    Streamed s;
    s.result = generate(ctx, prompt, opt, index, [&](const Event& e) {
      if (e.kind != Event::Kind::token) return;
      s.text += e.text;
      s.entries.insert(s.entries.end(), e.logprobs.begin(), e.logprobs.end());
    });
    return s;
  }
  // The text the entries spell (the output shows U+FFFD for bytes that are not UTF-8).
  static std::string pieces(const std::vector<TokenLogprob>& entries) {
    std::string out;
    for (const auto& e : entries) out += e.piece;
    return utf8::sanitize(out);
  }
  static void expect_same(const std::vector<TokenLogprob>& a, const std::vector<TokenLogprob>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].token, b[i].token);
      EXPECT_EQ(a[i].logprob, b[i].logprob);
      EXPECT_EQ(a[i].offset, b[i].offset);
      EXPECT_EQ(a[i].top.size(), b[i].top.size());
    }
  }

  static Model* model_;
};
Model* LogprobsTest::model_ = nullptr;

TEST(ComputeLogprob, MatchesALogSoftmaxAndKeepsTheMostLikelyInOrder) {
  const auto model = Model::load({test::tiny_model_path()});
  std::vector<float> row(static_cast<size_t>(model->n_vocab()), -5.0F);
  row[7] = 3.0F;
  row[3] = 2.0F;
  row[11] = 2.5F;
  row[5] = -1.0F;
  TokenLogprob out;
  compute_logprob(*model, row, 3, 3, out);
  double z = 0.0;
  for (const float v : row) z += std::exp(static_cast<double>(v));
  EXPECT_NEAR(out.logprob, 2.0 - std::log(z), 1e-4);
  ASSERT_EQ(out.top.size(), 3U);
  EXPECT_EQ(out.top[0].token, 7);
  EXPECT_EQ(out.top[1].token, 11);
  EXPECT_EQ(out.top[2].token, 3);
  EXPECT_EQ(out.top[2].logprob, out.logprob);
  EXPECT_EQ(out.piece, model->piece(3));
  EXPECT_EQ(out.top[0].piece, model->piece(7));
  // No alternatives asked for: the chosen token alone.
  compute_logprob(*model, row, 7, 0, out);
  EXPECT_TRUE(out.top.empty());
  EXPECT_NEAR(out.logprob, 3.0 - std::log(z), 1e-4);
}

TEST_F(LogprobsTest, ValuesAreRealLogProbabilitiesAndGreedyPicksTheTopEntry) {
  Options o = test::greedy(Mode::off, 24);
  o.logprobs = 5;
  const Streamed s = run(o);
  const auto& entries = s.result.token_logprobs;
  ASSERT_EQ(entries.size(), static_cast<size_t>(s.result.output_tokens));
  ASSERT_FALSE(entries.empty());
  uint32_t offset = 0;  // where each token's text starts in the output text
  for (const auto& e : entries) {
    EXPECT_LE(e.logprob, 0.0F);
    ASSERT_EQ(e.top.size(), 5U);
    for (size_t i = 0; i + 1 < e.top.size(); ++i) EXPECT_GE(e.top[i].logprob, e.top[i + 1].logprob);
    float total = 0.0F;
    for (const auto& alt : e.top) total += std::exp(alt.logprob);
    EXPECT_LE(total, 1.0001F);
    // Temperature 0: the chosen token is the most likely one, with the same value.
    EXPECT_EQ(e.token, e.top[0].token);
    EXPECT_EQ(e.logprob, e.top[0].logprob);
    EXPECT_GE(e.offset, offset);
    EXPECT_LE(e.offset, s.result.text.size());
    offset = e.offset;
  }
  EXPECT_EQ(pieces(entries), s.result.text);
  // The stream delivered the same entries, each with the text that completed it.
  EXPECT_EQ(s.text, s.result.text);
  expect_same(s.entries, entries);
}

TEST_F(LogprobsTest, ABacktrackLeavesNoEntryForTheRemovedText) {
  Options o = test::greedy(Mode::anchor, 40);
  o.logprobs = 2;
  o.logit_hook = test::script(*model_, " The total is $12,600.00 now.");
  const Streamed s = run(o);
  ASSERT_GE(s.result.stats.backtracks, 1);
  EXPECT_EQ(s.result.text.find("12,600"), std::string::npos) << s.result.text;
  const auto& entries = s.result.token_logprobs;
  // One entry per delivered token, spelling exactly the delivered text: the removed "$12,600.00"
  // left nothing behind, and the regenerated tokens have entries of their own.
  EXPECT_EQ(entries.size(), static_cast<size_t>(s.result.output_tokens));
  EXPECT_EQ(pieces(entries), s.result.text);
  EXPECT_EQ(pieces(entries).find("12,600"), std::string::npos);
  for (const auto& e : entries) {
    EXPECT_LE(e.logprob, 0.0F);
    EXPECT_EQ(e.top.size(), 2U);
  }
  expect_same(s.entries, entries);
}

TEST_F(LogprobsTest, AStopSequenceKeepsTheEntriesOfTheTextBeforeIt) {
  Options o = test::greedy(Mode::anchor, 40);
  o.logprobs = 0;
  o.stop = {"END"};
  o.logit_hook = test::script(*model_, " Paid in full. END more");
  const Streamed s = run(o);
  EXPECT_EQ(s.result.text, " Paid in full. ");
  EXPECT_TRUE(pieces(s.result.token_logprobs).starts_with(s.result.text));
  EXPECT_EQ(pieces(s.result.token_logprobs).find("more"), std::string::npos);
  for (const auto& e : s.result.token_logprobs) EXPECT_TRUE(e.top.empty());
  expect_same(s.entries, s.result.token_logprobs);
}

TEST_F(LogprobsTest, OffByDefault) {
  const Streamed s = run(test::greedy(Mode::anchor, 16));
  EXPECT_EQ(s.result.logprobs, -1);
  EXPECT_TRUE(s.result.token_logprobs.empty());
  EXPECT_TRUE(s.entries.empty());
}

}  // namespace
}  // namespace sfcl::decode
