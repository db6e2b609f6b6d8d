// The positions the gateway decides without a backend call: a sole candidate, and at temperature 0
// the greedy pick from a backend's raw top tokens, only where the list cannot mislead.
#include "gateway/greedy_pick.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "support/test_model.h"

namespace sfcl::gateway {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

struct Case {
  const char* name;
  std::vector<TopProb> top;
  std::vector<Token> banned;
  std::vector<Token> allowed;
  std::optional<Token> want;
};

TEST(GreedyPick, FromTheRawTopTokens) {
  const std::vector<Case> cases = {
      {"free: the most likely", {{7, -0.1}, {8, -2.0}, {9, -3.0}, {10, -4.0}}, {}, {}, 7},
      {"banned best: the next one", {{7, -0.1}, {8, -2.0}, {9, -3.0}, {10, -4.0}}, {7}, {}, 8},
      {"allow-list: its best listed", {{7, -0.1}, {8, -2.0}, {9, -3.0}, {10, -4.0}}, {}, {10, 9}, 9},
      {"allow-list and a ban", {{7, -0.1}, {8, -2.0}, {9, -3.0}, {10, -4.0}}, {9}, {10, 9, 3}, std::nullopt},
      {"allowed only past the list: unknown", {{7, -0.1}, {8, -2.0}, {9, -3.0}, {10, -4.0}}, {}, {3, 4}, std::nullopt},
      {"tie with an allowed one: unknown", {{7, -0.5}, {8, -0.5}, {9, -3.0}, {10, -4.0}}, {}, {}, std::nullopt},
      {"tie with a banned one: decided", {{7, -0.5}, {8, -0.5}, {9, -3.0}, {10, -4.0}}, {7}, {}, 8},
      {"the last listed may tie the unlisted",
       {{7, -0.1}, {8, -2.0}, {9, -3.0}, {10, -4.0}},
       {7, 8, 9},
       {},
       std::nullopt},
      {"equal to the last listed: unknown", {{7, -0.1}, {8, -2.0}, {9, -2.0}, {10, -2.0}}, {7}, {}, std::nullopt},
      {"nothing left but -inf", {{7, -0.1}, {8, kNegInf}, {9, kNegInf}, {10, kNegInf}}, {7}, {}, std::nullopt},
      {"no top tokens", {}, {}, {}, std::nullopt},
  };
  for (const Case& c : cases) {
    decode::NextToken next;
    next.banned = c.banned;
    next.allowed = c.allowed;
    EXPECT_EQ(greedy_from_top(c.top, next), c.want) << c.name;
  }
}

TEST(GreedyPick, SoleCandidate) {
  const std::vector<Token> one = {5};
  const std::vector<Token> repeated = {5, 5, 5};
  const std::vector<Token> two = {5, 6};
  const std::vector<Token> ban5 = {5};
  decode::NextToken next;
  EXPECT_EQ(sole_candidate(next), std::nullopt);  // free
  next.allowed = one;
  EXPECT_EQ(sole_candidate(next), 5);
  next.allowed = repeated;
  EXPECT_EQ(sole_candidate(next), 5);
  next.banned = ban5;
  EXPECT_EQ(sole_candidate(next), std::nullopt);  // the one candidate is banned: the backend says what then
  next.banned = {};
  next.allowed = two;
  EXPECT_EQ(sole_candidate(next), std::nullopt);
}

// Sampling under a ban, from a backend's raw top tokens: the same token the loop's own sampler
// draws from the whole row with the same seed, whenever the list holds top_k tokens the ban allows.
TEST(GreedyPick, DrawFromTheTopTokensIsTheSamplersDrawFromTheWholeRow) {
  const engine::Model* model = test::loaded_model("byte");
  ASSERT_NE(model, nullptr);
  const auto n = static_cast<size_t>(model->n_vocab());
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0F, 2.0F);
  std::vector<float> logits(n);
  for (float& l : logits) l = normal(rng);
  std::vector<Token> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](Token a, Token b) { return logits[static_cast<size_t>(a)] > logits[static_cast<size_t>(b)]; });
  // The backend reports log-probabilities: the logits less their log-sum-exp.
  double sum = 0.0;
  for (float l : logits) sum += std::exp(static_cast<double>(l));
  const double lse = std::log(sum);
  const auto top_of = [&](size_t k) {
    std::vector<TopProb> top;
    for (size_t i = 0; i < k; ++i) top.push_back({order[i], logits[static_cast<size_t>(order[i])] - lse});
    return top;
  };
  const std::vector<Token> banned = {order[0], order[2], order[5]};  // the likeliest are banned
  engine::SamplingOptions opt;
  opt.temperature = 0.9F;
  decode::NextToken next;
  next.banned = banned;
  next.temperature = opt.temperature;
  DrawScratch scratch(n);
  int same = 0;
  int drawn_banned = 0;
  std::vector<int> seen(n, 0);
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    opt.seed = seed;
    engine::Sampler whole(*model, opt);
    engine::Sampler listed(*model, opt);
    const Token want = whole.sample(logits.data(), banned);
    const std::optional<Token> got = draw_from_top(top_of(opt.top_k + 8), next, opt.top_k, listed, scratch);
    ASSERT_TRUE(got.has_value());
    same += *got == want ? 1 : 0;
    drawn_banned += std::find(banned.begin(), banned.end(), *got) != banned.end() ? 1 : 0;
    ++seen[static_cast<size_t>(*got)];
  }
  // The log-sum-exp shift could move a draw only through float rounding at a boundary: none here.
  EXPECT_EQ(same, 300);
  EXPECT_EQ(drawn_banned, 0);
  EXPECT_GT(std::count_if(seen.begin(), seen.end(), [](int c) { return c > 0; }), 5);  // a draw, not a pick
  EXPECT_TRUE(
      std::all_of(scratch.logits.begin(), scratch.logits.end(), [](float l) { return std::isinf(l) && l < 0; }));
  EXPECT_TRUE(std::all_of(scratch.banned.begin(), scratch.banned.end(), [](uint8_t b) { return b == 0; }));
  // At another temperature than the sampler was made with (dynamic temperature), the whole vocabulary
  // listed (top_k need not be filled then), and -inf entries: still the whole row's draw.
  decode::NextToken hot = next;
  hot.temperature = 1.3F;
  std::vector<TopProb> all = top_of(n);
  all.push_back({order[n - 1], kNegInf});  // a repeated id at -inf: ignored
  for (uint32_t seed = 1; seed <= 50; ++seed) {
    opt.seed = seed;
    engine::Sampler whole(*model, opt);
    engine::Sampler listed(*model, opt);
    whole.set_temperature(hot.temperature);
    const Token want = whole.sample(logits.data(), banned);
    EXPECT_EQ(draw_from_top(top_of(opt.top_k + 8), hot, opt.top_k, listed, scratch), want) << seed;
    engine::Sampler listed_all(*model, opt);
    EXPECT_EQ(draw_from_top(all, hot, opt.top_k, listed_all, scratch), want) << seed;
  }
  // Fewer allowed tokens listed than top_k: the list cannot tell.
  opt.seed = 1;
  engine::Sampler s(*model, opt);
  EXPECT_EQ(draw_from_top(top_of(opt.top_k + 2), next, opt.top_k, s, scratch), std::nullopt);
  // The top_k-th allowed token ties the last listed one: a token past the list may tie it too.
  std::vector<TopProb> tied = top_of(opt.top_k + 3);  // 3 banned among them: the top_k-th is the last
  tied.back().logprob = tied[tied.size() - 2].logprob;
  EXPECT_EQ(draw_from_top(tied, next, opt.top_k, s, scratch), std::nullopt);
  // An allow-list, or top_k off: not this function's to decide.
  const std::vector<Token> allow = {order[1]};
  decode::NextToken listed_next = next;
  listed_next.allowed = allow;
  EXPECT_EQ(draw_from_top(top_of(60), listed_next, opt.top_k, s, scratch), std::nullopt);
  EXPECT_EQ(draw_from_top(top_of(60), next, 0, s, scratch), std::nullopt);
}

}  // namespace
}  // namespace sfcl::gateway
