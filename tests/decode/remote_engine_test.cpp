// The check loop driven as a remote backend drives it (the gateway): the engine samples, the
// sequence only says what the next token may be (Sequence::next_token) and takes what came
// (Sequence::on_token). Here the "backend" is a local context sampling greedily under those
// constraints, so at temperature 0 every answer and event must equal the local loop's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "decode/decode.h"
#include "support/loop_run.h"
#include "support/script.h"
#include "support/test_model.h"

namespace sfcl::decode {
namespace {

using engine::Context;
using engine::Model;

// A backend that keeps the accepted prefix in its KV cache and samples greedily with the bans
// and allow-list it is sent (what logit_bias does on llama-server), plus the test's script.
class GreedyBackend final : public Engine {
 public:
  GreedyBackend(const Model& model, Context& ctx) : model_(model), ctx_(ctx) {}
  void rewind(int32_t /*seq*/, int32_t pos) override {
    valid_ = std::min(valid_, static_cast<size_t>(pos));
    ++rewinds_;
  }
  [[nodiscard]] size_t n_ctx() const override { return ctx_.n_ctx(); }

  Token sample(const Sequence& seq, const NextToken& next, const Options& opt) {
    tokens_ = seq.prompt_tokens();
    tokens_.insert(tokens_.end(), seq.output_tokens().begin(), seq.output_tokens().end());
    const size_t from = std::min(valid_, tokens_.size() - 1);
    ctx_.rewind(0, static_cast<int32_t>(from));
    ctx_.decode(std::span<const Token>(tokens_).subspan(from), static_cast<int32_t>(from), 0);
    valid_ = tokens_.size();
    const float* logits = ctx_.logits_last();
    row_.assign(logits, logits + model_.n_vocab());
    if (opt.logit_hook) opt.logit_hook(row_, seq.output_tokens());
    raw_ = row_;  // what a backend reports probabilities of (before bans and allow-list)
    for (Token t : next.banned) row_[static_cast<size_t>(t)] = -std::numeric_limits<float>::infinity();
    if (!next.allowed.empty()) {
      keep_.assign(row_.size(), -std::numeric_limits<float>::infinity());
      for (Token t : next.allowed) keep_[static_cast<size_t>(t)] = row_[static_cast<size_t>(t)];
      row_.swap(keep_);
    }
    return static_cast<Token>(std::max_element(row_.begin(), row_.end()) - row_.begin());
  }
  [[nodiscard]] int rewinds() const { return rewinds_; }

  // The log-softmax of the last sampled row at `tok` and its `n_top` largest entries, as
  // llama-server reports them with n_probs and post_sampling_probs false.
  ReportedLogprob report(Token tok, int32_t n_top) {
    const float max = *std::max_element(raw_.begin(), raw_.end());
    double sum = 0.0;
    for (const float v : raw_) sum += std::exp(static_cast<double>(v - max));
    const auto log_z = static_cast<float>(max + std::log(sum));
    top_.clear();
    for (size_t i = 0; i < raw_.size(); ++i) top_.emplace_back(static_cast<Token>(i), raw_[i] - log_z);
    const auto k = static_cast<size_t>(std::min<int64_t>(n_top, static_cast<int64_t>(top_.size())));
    std::partial_sort(top_.begin(), top_.begin() + static_cast<std::ptrdiff_t>(k), top_.end(),
                      [](const auto& a, const auto& b) { return a.second > b.second; });
    top_.resize(k);
    return {raw_[static_cast<size_t>(tok)] - log_z, top_};
  }

 private:
  const Model& model_;
  Context& ctx_;
  size_t valid_ = 0;
  int rewinds_ = 0;
  std::vector<Token> tokens_;
  std::vector<float> row_;
  std::vector<float> keep_;
  std::vector<float> raw_;
  std::vector<std::pair<Token, float>> top_;
};

struct RemoteRun {
  test::LoopRun run;
  int rewinds = 0;
};

// `prompt`: the tokens to generate from (default: "<source>\nAnswer:", as test::run_loop).
RemoteRun run_remote(const Model& model, const std::string& source, const Options& opt,
                     std::vector<Token> prompt = {}) {
  anchor::SourceIndex index;
  index.add_source(source);
  if (prompt.empty()) prompt = model.tokenize(source + "\nAnswer:", true, false);
  Context ctx(model, {1024, 128, 1, 1});
  GreedyBackend backend(model, ctx);
  RemoteRun r;
  Sequence seq(model, opt, index, [&](const Event& e) {
    if (e.kind == Event::Kind::token) {
      r.run.chunks.emplace_back(e.text);
      r.run.streamed += e.text;
    }
    if (e.kind == Event::Kind::backtrack) {
      ++r.run.backtrack_events;
      r.run.backtrack_reasons.emplace_back(e.reason);
    }
    if (e.kind == Event::Kind::fallback) ++r.run.fallback_events;
  });
  seq.start(prompt, 0, 0);
  while (!seq.done()) {
    const NextToken next = seq.next_token();
    const Token tok = next.forced ? *next.forced : backend.sample(seq, next, opt);
    if (opt.logprobs >= 0 && !next.forced) {
      seq.on_token(tok, backend, backend.report(tok, opt.logprobs));
    } else {
      seq.on_token(tok, backend);
    }
  }
  r.run.result = seq.result();
  r.rewinds = backend.rewinds();
  return r;
}

class RemoteEngineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { model_ = Model::load({test::tiny_model_path()}).release(); }
  static void TearDownTestSuite() {
    delete model_;
    model_ = nullptr;
  }

  // Both drivers on the same request; their answers, events and records must agree.
  static RemoteRun expect_same(const std::string& source, const Options& opt) {
    const test::LoopRun local = test::run_loop(*model_, source, opt);
    RemoteRun remote = run_remote(*model_, source, opt);
    EXPECT_EQ(remote.run.result.text, local.result.text);
    EXPECT_EQ(remote.run.chunks, local.chunks);
    EXPECT_EQ(remote.run.backtrack_events, local.backtrack_events);
    EXPECT_EQ(remote.run.fallback_events, local.fallback_events);
    EXPECT_EQ(remote.run.backtrack_reasons, local.backtrack_reasons);
    EXPECT_EQ(remote.run.result.stats.backtracks, local.result.stats.backtracks);
    EXPECT_EQ(remote.run.result.stats.regenerated_tokens, local.result.stats.regenerated_tokens);
    EXPECT_EQ(remote.run.result.stop_reason, local.result.stop_reason);
    EXPECT_EQ(remote.run.result.anchors.size(), local.result.anchors.size());
    for (size_t i = 0; i < std::min(remote.run.result.anchors.size(), local.result.anchors.size()); ++i) {
      EXPECT_EQ(remote.run.result.anchors[i].text, local.result.anchors[i].text);
      EXPECT_EQ(remote.run.result.anchors[i].verdict, local.result.anchors[i].verdict);
      EXPECT_EQ(remote.run.result.anchors[i].flagged, local.result.anchors[i].flagged);
    }
    return remote;
  }

  static Model* model_;
};
Model* RemoteEngineTest::model_ = nullptr;

const std::string kSource = "Invoice INV-7 total: $12,500.00 due June 15, 2024.";
const std::string kWrong = " The total is $12,600.00 now.";

TEST_F(RemoteEngineTest, PlainAnswerIsTheLocalOne) {
  Options o = test::greedy(Mode::anchor);
  expect_same(kSource, o);
}

TEST_F(RemoteEngineTest, BacktrackRewindsTheBackendAndNeverDeliversTheWrongValue) {
  Options o = test::greedy(Mode::anchor);
  o.fallback = Fallback::flag;
  o.logit_hook = test::script(*model_, kWrong);
  const RemoteRun r = expect_same(kSource, o);
  EXPECT_GE(r.run.result.stats.backtracks, 1);
  EXPECT_GE(r.rewinds, 1);
  EXPECT_EQ(r.run.streamed.find("12,600"), std::string::npos) << r.run.streamed;
}

// Log-probabilities the backend reports for the tokens it samples reach the result as the local
// loop's do: one entry per delivered token, none for a token a backtrack removed, a regenerated
// token's from the call that produced it.
TEST_F(RemoteEngineTest, ReportedLogprobsOfABacktrackedAnswerAreTheLocalOnes) {
  Options o = test::greedy(Mode::anchor);
  o.fallback = Fallback::flag;
  o.logit_hook = test::script(*model_, kWrong);
  o.logprobs = 3;
  const test::LoopRun local = test::run_loop(*model_, kSource, o);
  const RemoteRun r = expect_same(kSource, o);
  ASSERT_GE(r.run.result.stats.backtracks, 1);
  const auto& got = r.run.result.token_logprobs;
  const auto& want = local.result.token_logprobs;
  ASSERT_EQ(got.size(), want.size());
  ASSERT_FALSE(want.empty());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].token, want[i].token) << i;
    EXPECT_EQ(got[i].piece, want[i].piece) << i;
    EXPECT_EQ(got[i].offset, want[i].offset) << i;
    EXPECT_NEAR(got[i].logprob, want[i].logprob, 1e-3) << i;
    ASSERT_EQ(got[i].top.size(), want[i].top.size()) << i;
    for (size_t k = 0; k < want[i].top.size(); ++k) {
      EXPECT_EQ(got[i].top[k].piece, want[i].top[k].piece) << i << " " << k;
      EXPECT_NEAR(got[i].top[k].logprob, want[i].top[k].logprob, 1e-3) << i << " " << k;
    }
  }
  // Taken without a report (plain on_token), a token still has its entry, with no value.
  o.logit_hook = nullptr;
  anchor::SourceIndex index;
  index.add_source(kSource);
  Context ctx(*model_, {1024, 128, 1, 1});
  GreedyBackend backend(*model_, ctx);
  Sequence seq(*model_, o, index, {});
  seq.start(model_->tokenize(kSource + "\nAnswer:", true, false), 0, 0);
  const NextToken next = seq.next_token();
  seq.on_token(backend.sample(seq, next, o), backend);
  seq.cancel();
  ASSERT_EQ(seq.result().token_logprobs.size(), 1U);
  EXPECT_TRUE(std::isnan(seq.result().token_logprobs[0].logprob));
  EXPECT_TRUE(seq.result().token_logprobs[0].top.empty());
}

TEST_F(RemoteEngineTest, FutileRetryFallsBackToTheConstraintAsLocally) {
  Options o = test::greedy(Mode::anchor);
  o.logit_hook = test::script_until(*model_, kWrong, "$12,500.00");
  const RemoteRun r = expect_same(kSource, o);
  EXPECT_NE(r.run.result.text.find("$12,500.00"), std::string::npos) << r.run.result.text;
  EXPECT_EQ(r.run.fallback_events, 1);
}

TEST_F(RemoteEngineTest, ConstrainFallbackWritesASourceValue) {
  Options o = test::greedy(Mode::anchor);
  o.max_backtracks = 0;
  o.logit_hook = test::script_until(*model_, kWrong, "$12,500.00");
  const RemoteRun r = expect_same(kSource, o);
  EXPECT_NE(r.run.result.text.find("$12,500.00"), std::string::npos) << r.run.result.text;
}

TEST_F(RemoteEngineTest, AbstainMarkerIsWrittenWithoutTheBackend) {
  Options o = test::greedy(Mode::anchor);
  o.max_backtracks = 0;
  o.fallback = Fallback::abstain;
  o.logit_hook = test::script(*model_, kWrong);
  const RemoteRun r = expect_same(kSource, o);
  EXPECT_NE(r.run.result.text.find("[not in the sources]"), std::string::npos) << r.run.result.text;
}

TEST_F(RemoteEngineTest, PerTokenModeIsTheLocalOne) {
  Options o = test::greedy(Mode::per_token);
  o.logit_hook = test::script(*model_, kWrong);
  expect_same(kSource, o);
}

// ---- a grammar (tools, structured output): the backend samples without it, the loop checks each
// token against it, bans what it rejects and lists what it allows; the answer is the local one.

const std::string kTotalSchema =
    R"({"type":"object","properties":{"total":{"type":"string","maxLength":16},"n":{"type":"integer","maximum":99}},)"
    R"("required":["total","n"]})";

Options with_grammar(Options o, const std::string& schema) {
  o.grammar.gbnf = engine::json_schema_grammar(schema);
  return o;
}

nlohmann::json parsed(const std::string& text) { return nlohmann::json::parse(text, nullptr, false); }

TEST_F(RemoteEngineTest, JsonSchemaAnswerIsTheLocalOneAndTheGrammarRejectedTheBackendsChoice) {
  const Options o = with_grammar(test::greedy(Mode::anchor, 80), kTotalSchema);
  const RemoteRun r = expect_same(kSource, o);
  const auto j = parsed(r.run.result.text);
  ASSERT_FALSE(j.is_discarded()) << r.run.result.text;
  EXPECT_TRUE(j["total"].is_string()) << r.run.result.text;
  EXPECT_TRUE(j["n"].is_number_integer()) << r.run.result.text;
  // The random model's free choice is no JSON: the loop had to refuse tokens.
  EXPECT_GT(r.run.result.stats.grammar_rejections, 0);
}

TEST_F(RemoteEngineTest, BacktrackInsideTheGrammarIsTheLocalOne) {
  Options o = with_grammar(test::greedy(Mode::anchor, 80), kTotalSchema);
  o.fallback = Fallback::flag;
  o.logit_hook = test::script(*model_, R"({"total": "$12,600.00", "n": 7})");
  const RemoteRun r = expect_same(kSource, o);
  EXPECT_GE(r.run.result.stats.backtracks, 1);
  EXPECT_EQ(r.run.streamed.find("12,600"), std::string::npos) << r.run.streamed;
  EXPECT_FALSE(parsed(r.run.result.text).is_discarded()) << r.run.result.text;
}

TEST_F(RemoteEngineTest, ConstrainFallbackInsideTheGrammarIsTheLocalOne) {
  Options o = with_grammar(test::greedy(Mode::anchor, 80), kTotalSchema);
  o.max_backtracks = 0;
  o.logit_hook = test::script_until(*model_, R"({"total": "$12,600.00", "n": 7})", "$12,500.00");
  const RemoteRun r = expect_same(kSource, o);
  EXPECT_NE(r.run.result.text.find("$12,500.00"), std::string::npos) << r.run.result.text;
}

// Tool calls in free text: a lazy grammar that starts at its trigger. The script names a tool that
// does not exist; the grammar takes over from the trigger on, locally and remotely alike.
TEST_F(RemoteEngineTest, LazyToolGrammarStartsAtItsTriggerAsLocally) {
  engine::ChatInput in;
  in.messages.push_back({"user", "Weather in Paris?"});
  in.tools.push_back(
      {"get_weather", "Current weather",
       R"({"type":"object","properties":{"city":{"type":"string","maxLength":12}},"required":["city"]})"});
  const engine::ChatPrompt p = model_->render_chat(in);
  ASSERT_TRUE(p.grammar.lazy);
  Options o = test::greedy(Mode::anchor, 80);
  o.grammar = p.grammar;
  o.logit_hook = test::script(*model_, R"(Let me look. {"name": "get_time", "arguments": {"city": "Paris"}})");
  const RemoteRun r = expect_same(kSource, o);
  EXPECT_NE(r.run.result.text.find("Let me look. {\"name\": \"get_weather\""), std::string::npos) << r.run.result.text;
  EXPECT_GT(r.run.result.stats.grammar_rejections, 0);
}

}  // namespace
}  // namespace sfcl::decode
