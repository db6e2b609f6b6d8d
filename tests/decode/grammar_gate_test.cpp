// The grammar gate of remote engines on a real 152k-token vocabulary (Qwen2): what goes out after a
// rejection fits a request (an allow-list or ban-list of at most kMaxList tokens), holds only tokens
// the grammar allows (or only tokens it forbids), and never the rejected token as allowed.
#include "decode/grammar_gate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "support/bundle.h"
#include "support/script.h"
#include "support/test_model.h"

namespace sfcl::decode {
namespace {

using engine::Model;
using engine::Sampler;

const std::string kSchema =
    R"({"type":"object","properties":{"total":{"type":"string","maxLength":16},"n":{"type":"integer","maximum":99}},)"
    R"("required":["total","n"]})";
const std::string kAnswer = R"({"total": "$12,500.00", "n": 7})";

class GrammarGateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto path = test::vocab_model_path("qwen2");
    SFCL_NEEDS_BUNDLE(path.empty(), "no ggml-vocab-qwen2.gguf in the llama.cpp bundle");
    model_ = Model::load({path});
    sampler_ = std::make_unique<Sampler>(*model_, engine::SamplingOptions{});
    engine::GrammarSpec g;
    g.gbnf = engine::json_schema_grammar(kSchema);
    sampler_->set_grammar(g);
  }
  // A token the grammar rejects here (the first of the vocabulary's tokens it does not allow).
  Token rejected_token() {
    std::vector<uint8_t> flags;
    sampler_->grammar_allows(flags);
    const auto it = std::find(flags.begin(), flags.end(), 0);
    return static_cast<Token>(it - flags.begin());
  }
  std::unique_ptr<Model> model_;
  std::unique_ptr<Sampler> sampler_;
};

// Along a valid answer: at every position, a rejection leads to a list that fits, and the gate's
// lists agree with the grammar; the sizes are printed (docs/SCALING.md quotes them).
TEST_F(GrammarGateTest, ListsAfterARejectionFitARequestAndFollowTheGrammar) {
  const auto tokens = test::tokens_spelling(*model_, kAnswer);
  std::vector<uint8_t> flags;
  int allow_lists = 0;
  int ban_lists = 0;
  for (Token tok : tokens) {
    const auto t0 = std::chrono::steady_clock::now();
    const size_t n_allows = sampler_->grammar_allows(flags);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    GrammarGate gate;
    const Token bad = rejected_token();
    ASSERT_FALSE(sampler_->accept_forced(bad));
    gate.reject(bad, *sampler_);
    NextToken next;
    gate.narrow(next, *sampler_, true);
    ASSERT_FALSE(next.forced.has_value());
    EXPECT_LE(next.allowed.size(), GrammarGate::kMaxList);
    EXPECT_LE(next.banned.size(), GrammarGate::kMaxList);
    EXPECT_EQ(std::count(next.allowed.begin(), next.allowed.end(), bad), 0);
    if (!next.allowed.empty()) {
      ++allow_lists;
      EXPECT_EQ(next.allowed.size(), n_allows);
      for (Token t : next.allowed) EXPECT_EQ(flags[static_cast<size_t>(t)], 1) << t;
    } else {
      ++ban_lists;
      EXPECT_NE(std::count(next.banned.begin(), next.banned.end(), bad), 0);
      for (Token t : next.banned) EXPECT_EQ(flags[static_cast<size_t>(t)], 0) << t;
    }
    std::printf("at %-8s allowed %6zu (read in %5.1f ms)  sent: %s %zu\n", ("'" + model_->piece(tok) + "'").c_str(),
                n_allows, ms, next.allowed.empty() ? "bans" : "allow-list",
                next.allowed.empty() ? next.banned.size() : next.allowed.size());
    ASSERT_TRUE(sampler_->accept_forced(tok)) << model_->piece(tok);
  }
  EXPECT_GT(allow_lists, 0);  // structure: a few tokens
  EXPECT_GT(ban_lists, 0);    // inside the string: nearly the whole vocabulary
}

// A set too large to list whose complement is too large as well: the rejected tokens are banned one
// by one, and the loop's own bans stay.
TEST_F(GrammarGateTest, NeitherListFitsSoTheRejectedTokensAreBanned) {
  std::vector<uint8_t> flags;
  for (Token tok : test::tokens_spelling(*model_, R"({"total": "$1)")) ASSERT_TRUE(sampler_->accept_forced(tok));
  const size_t n_allows = sampler_->grammar_allows(flags);
  GrammarGate gate;
  const Token bad = rejected_token();
  gate.reject(bad, *sampler_);
  const std::vector<Token> loop_bans = {static_cast<Token>(std::find(flags.begin(), flags.end(), 1) - flags.begin())};
  NextToken next;
  next.banned = loop_bans;
  gate.narrow(next, *sampler_, true);
  if (n_allows <= GrammarGate::kMaxList || flags.size() - n_allows <= GrammarGate::kMaxList) {
    GTEST_SKIP() << "a list fits here: " << n_allows << " allowed";
  }
  EXPECT_TRUE(next.allowed.empty());
  EXPECT_EQ(next.banned.size(), 2U);
  EXPECT_NE(std::count(next.banned.begin(), next.banned.end(), bad), 0);
  EXPECT_NE(std::count(next.banned.begin(), next.banned.end(), loop_bans[0]), 0);
}

}  // namespace
}  // namespace sfcl::decode
