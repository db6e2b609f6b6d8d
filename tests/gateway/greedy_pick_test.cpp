// The positions the gateway decides without a backend call: a sole candidate, and at temperature 0
// the greedy pick from a backend's raw top tokens, only where the list cannot mislead.
#include "gateway/greedy_pick.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

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

}  // namespace
}  // namespace sfcl::gateway
