// Check-first grammar sampling (SamplingOptions::grammar_first = false, llama.cpp's common
// sampler): the chain picks from the unconstrained candidates, the grammar checks that one token,
// and only a rejected token makes the sampler apply the grammar to every candidate and pick again.
// Greedy, every token must be the one grammar-first picks; sampled, every token must keep the output
// valid, and without truncation the draw must follow the grammar-restricted distribution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/engine.h"
#include "support/bundle.h"
#include "support/test_model.h"

namespace sfcl::engine {
namespace {

const std::string kSchema =
    R"({"type":"object","properties":{"total":{"type":"string","maxLength":16},"n":{"type":"integer","maximum":99}},)"
    R"("required":["total","n"]})";

struct NamedGrammar {
  std::string name;
  GrammarSpec spec;
};

// A JSON schema, a required tool call and a tool call in free text (lazy), as the server builds them.
std::vector<NamedGrammar> grammars(const Model& model) {
  std::vector<NamedGrammar> out;
  GrammarSpec json;
  json.gbnf = json_schema_grammar(kSchema);
  out.push_back({"json_schema", json});
  for (const ToolChoice choice : {ToolChoice::required, ToolChoice::automatic}) {
    ChatInput in;
    in.messages.push_back({"user", "Weather in Paris?"});
    in.tools.push_back(
        {"get_weather", "Current weather",
         R"({"type":"object","properties":{"city":{"type":"string","maxLength":12}},"required":["city"]})"});
    in.tool_choice = choice;
    const ChatPrompt p = model.render_chat(in);
    if (!p.grammar.gbnf.empty()) out.push_back({p.grammar.lazy ? "tool_lazy" : "tool_required", p.grammar});
  }
  return out;
}

SamplingOptions greedy(bool grammar_first) {
  SamplingOptions o{0.0F, 40, 0.95F, 0.05F, 1};
  o.grammar_first = grammar_first;
  return o;
}

class SamplerGrammarTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    model_ = test::loaded_model(GetParam());
    SFCL_NEEDS_BUNDLE(model_ == nullptr, "no ggml-vocab-" << GetParam() << ".gguf in the llama.cpp bundle");
  }
  // Fewer runs on a large vocabulary: grammar-first reads all of it at every token.
  [[nodiscard]] int runs(int small) const { return model_->n_vocab() > 10000 ? 2 : small; }
  const Model* model_ = nullptr;
};

// Random rows with one token pushed to the top (accepted when the grammar allows it, else the
// sampler falls back to the full grammar pass), bans, allow-lists, and a rewind mid-way: greedy
// check-first and grammar-first pick the same token every time.
TEST_P(SamplerGrammarTest, GreedyPicksWhatGrammarFirstPicks) {
  const auto n_vocab = static_cast<size_t>(model_->n_vocab());
  int accepted_top = 0;
  int rejected_top = 0;
  for (const NamedGrammar& g : grammars(*model_)) {
    for (int run = 0; run < runs(12); ++run) {
      Sampler first(*model_, greedy(true));
      Sampler check(*model_, greedy(false));
      first.set_grammar(g.spec);
      check.set_grammar(g.spec);
      std::mt19937 rng(static_cast<uint32_t>(run));
      std::normal_distribution<float> noise(0.0F, 2.0F);
      std::uniform_int_distribution<Token> any(0, model_->n_vocab() - 1);
      std::vector<float> row(n_vocab);
      std::vector<Token> out;
      std::vector<Token> banned;
      std::vector<Token> allowed;
      for (int step = 0; step < 48; ++step) {
        for (float& x : row) x = noise(rng);
        const Token top = any(rng);
        row[static_cast<size_t>(top)] += 30.0F;
        banned.clear();
        allowed.clear();
        if (step % 4 == 3) banned = {any(rng), any(rng)};
        if (step % 8 == 5) {
          for (int i = 0; i < 64; ++i) allowed.push_back(any(rng));
          allowed.push_back(top);
        }
        const Token a = first.sample(row.data(), banned, allowed);
        const Token b = check.sample(row.data(), banned, allowed);
        ASSERT_EQ(a, b) << g.name << " run " << run << " step " << step;
        if (std::find(banned.begin(), banned.end(), top) == banned.end()) (a == top ? accepted_top : rejected_top)++;
        if (a < 0 || model_->is_eog(a)) break;
        out.push_back(a);
        if (step == 16) {
          out.resize(out.size() / 2);  // what a backtrack does
          first.reset_grammar(out);
          check.reset_grammar(out);
        }
      }
    }
  }
  // Both paths ran: the pushed token taken as checked, and refused then replaced.
  EXPECT_GT(accepted_top, 0);
  EXPECT_GT(rejected_top, 0);
}

// Sampled (llama-server's default chain), over many seeds: an independent grammar accepts every
// token check-first sampling writes, the end of generation included.
TEST_P(SamplerGrammarTest, SampledTokensAlwaysFollowTheGrammar) {
  const auto n_vocab = static_cast<size_t>(model_->n_vocab());
  for (const NamedGrammar& g : grammars(*model_)) {
    int ended = 0;
    for (int seed = 0; seed < (model_->n_vocab() > 10000 ? 3 : 300); ++seed) {
      Sampler sampler(*model_, SamplingOptions{0.8F, 40, 0.95F, 0.05F, static_cast<uint32_t>(seed)});
      Sampler judge(*model_, greedy(true));
      sampler.set_grammar(g.spec);
      judge.set_grammar(g.spec);
      std::mt19937 rng(static_cast<uint32_t>(seed) + 1000U);
      std::normal_distribution<float> noise(0.0F, 2.0F);
      std::vector<float> row(n_vocab);
      for (int step = 0; step < 120; ++step) {
        for (float& x : row) x = noise(rng);
        // The end of generation is likely, so that it is tried where the grammar is not complete.
        row[static_cast<size_t>(model_->eos())] += 3.0F;
        const Token t = sampler.sample(row.data());
        ASSERT_GE(t, 0) << g.name << " seed " << seed;
        ASSERT_TRUE(judge.accept_forced(t))
            << g.name << " seed " << seed << " step " << step << ": " << model_->piece(t);
        if (model_->is_eog(t)) {
          ++ended;
          break;
        }
      }
    }
    if (!g.spec.lazy) {
      EXPECT_GT(ended, 0) << g.name;  // complete outputs were reached, not just prefixes
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Vocabularies, SamplerGrammarTest, ::testing::Values("byte", "qwen2"),
                         [](const auto& info) { return info.param; });

// Without truncation (temperature 1, no top-k/top-p/min-p) rejecting and drawing again from the
// allowed set is a draw from the grammar-restricted distribution: q(t) + (1 - q(G)) q(t)/q(G) =
// q(t)/q(G). Here the two disallowed tokens hold most of the mass, so most draws are redrawn.
TEST(SamplerGrammar, RedrawFollowsTheGrammarRestrictedDistribution) {
  const auto model = Model::load({test::tiny_model_path()});
  const std::string letters = "abcdxy";
  std::vector<Token> tok;
  for (char c : letters) tok.push_back(model->tokenize(std::string(1, c), false, false).back());
  std::vector<float> row(static_cast<size_t>(model->n_vocab()), -30.0F);
  const std::vector<float> logit = {1.0F, 0.5F, 0.0F, -1.0F, 2.5F, 2.0F};
  for (size_t i = 0; i < tok.size(); ++i) row[static_cast<size_t>(tok[i])] = logit[i];
  double z = 0.0;
  for (size_t i = 0; i < 4; ++i) z += std::exp(logit[i]);
  GrammarSpec g;
  g.gbnf = R"(root ::= [a-d])";
  constexpr int kDraws = 4000;
  std::vector<int> counts(tok.size(), 0);
  for (int i = 0; i < kDraws; ++i) {
    Sampler s(*model, SamplingOptions{1.0F, 0, 1.0F, 0.0F, static_cast<uint32_t>(i)});
    s.set_grammar(g);
    const Token t = s.sample(row.data());
    const auto at = std::find(tok.begin(), tok.end(), t);
    ASSERT_NE(at, tok.end()) << t;
    ++counts[static_cast<size_t>(at - tok.begin())];
  }
  EXPECT_EQ(counts[4] + counts[5], 0);  // x, y: never written
  for (size_t i = 0; i < 4; ++i) {
    const double p = std::exp(logit[i]) / z;
    const double sd = std::sqrt(kDraws * p * (1 - p));
    EXPECT_NEAR(counts[i], kDraws * p, 5 * sd) << letters[i];
  }
}

// Grammars llama.cpp would spend the process's memory or stack on are refused before it sees them:
// a repetition whose minimum is above its maximum (it never stops expanding), bounds above
// kMaxGrammarRepeat, groups nested deeper than kMaxGrammarNesting. Braces inside a string literal
// (Chinese or not), a character class or a comment are text, not repetitions.
TEST(SamplerGrammar, BoundsThatWouldExhaustTheProcessAreRefused) {
  const auto refused = [](const std::string& g) {
    try {
      check_grammar_bounds(g);
    } catch (const EngineError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refused(R"(root ::= "a"{5,1})").find("minimum is above the maximum"), std::string::npos);
  EXPECT_NE(refused(R"(root ::= [0-9]{ 3 , 2 } "x")").find("minimum"), std::string::npos);
  EXPECT_NE(refused(R"(root ::= "a"{0,100000})").find("above 10000"), std::string::npos);
  EXPECT_NE(refused(R"(root ::= "a"{10001})").find("above 10000"), std::string::npos);
  EXPECT_NE(refused(R"(root ::= "a"{99999999999999999999,})").find("above 10000"), std::string::npos);
  EXPECT_NE(refused("root ::= " + std::string(129, '(') + "\"a\"" + std::string(129, ')')).find("nests"),
            std::string::npos);
  for (const std::string& ok :
       std::vector<std::string>{R"(root ::= "a"{2,5} "b"{3} "c"{1,} [a-z]{0,10000})",
                                R"(root ::= "{5,1}" [{] "\"{9,1}" # a comment {5,1}
x ::= "数量{5,1}件" | "金额 {0,999999}")",
                                "root ::= " + std::string(128, '(') + "\"a\"" + std::string(128, ')'),
                                R"(root ::= "a" {)", R"(root ::= x{y})"}) {
    EXPECT_EQ(refused(ok), "") << ok;
  }
  // Alternatives are parse stacks matched against every candidate token at every token: a JSON
  // schema enum of 5,000 strings is refused, one of kMaxGrammarAlternatives is not; '|' inside a
  // literal or a class is text.
  std::string big_enum;
  for (int i = 0; i < 5000; ++i) big_enum += std::string(i == 0 ? "" : ",") + "\"v" + std::to_string(i) + "\"";
  EXPECT_NE(refused(json_schema_grammar("{\"enum\":[" + big_enum + "]}")).find("alternatives"), std::string::npos);
  std::string fits = "root ::= \"v0\"";
  for (size_t i = 1; i <= kMaxGrammarAlternatives; ++i) fits += " | \"v" + std::to_string(i) + "\"";
  EXPECT_EQ(refused(fits), "");
  EXPECT_NE(refused(fits + " | \"x\"").find("alternatives"), std::string::npos);
  EXPECT_EQ(refused("root ::= \"" + std::string(2000, '|') + "\" [|]"), "");
  EXPECT_NE(refused("root ::= \"" + std::string(kMaxGrammarBytes, 'a') + "\"").find("bytes"), std::string::npos);
  // The sampler refuses them too, before llama.cpp's parser runs.
  const auto model = Model::load({test::tiny_model_path()});
  Sampler s(*model, SamplingOptions{});
  GrammarSpec g;
  g.gbnf = R"(root ::= "a"{5,1})";
  EXPECT_THROW(s.set_grammar(g), EngineError);
}

}  // namespace
}  // namespace sfcl::engine
