// The token list of a slot file in llama-server's packed form (server/runtime/slot_file.h): what
// pack writes, and what unpack takes or refuses, with the reason.
#include "server/runtime/slot_file.h"

#include <gtest/gtest.h>

#include <vector>

namespace sfcl::server {
namespace {

using Tokens = std::vector<engine::Token>;

TEST(SlotFileTokens, PackWritesLlamaServersPackedForm) {
  // LLAMA_TOKEN_NULL, version 1, the count, the tokens, no media chunks.
  EXPECT_EQ(pack_slot_tokens(Tokens{5, 6, 7}), (Tokens{-1, 1, 3, 5, 6, 7, 0}));
  EXPECT_EQ(pack_slot_tokens(Tokens{}), (Tokens{-1, 1, 0, 0}));
}

TEST(SlotFileTokens, UnpackReadsThePackedFormAndAPlainList) {
  struct Case {
    Tokens packed;
    Tokens tokens;
  };
  const Case cases[] = {
      {{-1, 1, 3, 5, 6, 7, 0}, {5, 6, 7}},
      {{5, 6, 7}, {5, 6, 7}},  // a plain token list, as older llama-server versions wrote
      {{-1, 1, 0, 0}, {}},
  };
  for (const auto& c : cases) {
    Tokens out;
    std::string why;
    EXPECT_TRUE(unpack_slot_tokens(c.packed, 100, out, why)) << why;
    EXPECT_EQ(out, c.tokens);
  }
}

TEST(SlotFileTokens, UnpackRefusesWhatIsNotAValidList) {
  struct Case {
    Tokens packed;
    const char* why;
  };
  const Case cases[] = {
      {{-1, 2, 1, 5, 0}, "another version"},
      {{-1, 1, 5, 1, 2}, "cut short"},
      {{-1, 1, 1, 5, 1}, "images or audio"},
      {{-1, 1, 1, 5, 0, 9}, "after its end"},
      {{-1, 1, 1, 100, 0}, "not in this model's vocabulary"},
      {{5, 100}, "not in this model's vocabulary"},
      {{5, -7}, "not in this model's vocabulary"},
  };
  for (const auto& c : cases) {
    Tokens out = {1};
    std::string why;
    EXPECT_FALSE(unpack_slot_tokens(c.packed, 100, out, why));
    EXPECT_NE(why.find(c.why), std::string::npos) << why;
    EXPECT_TRUE(out.empty());
  }
}

}  // namespace
}  // namespace sfcl::server
