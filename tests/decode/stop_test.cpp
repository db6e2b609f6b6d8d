#include <gtest/gtest.h>

#include "decode/decode.h"

namespace sfcl::decode {
namespace {

TEST(FindStop, MatchesEveryNewlineVariant) {
  const std::vector<std::string> stops = {"\n"};
  for (const std::string nl : {"\n", "\r\n", "\r", "\u2028", "\u2029", "\u0085"}) {
    const std::string text = "abc" + nl + "def";
    const auto m = find_stop(text, 0, stops);
    ASSERT_NE(m.start, std::string::npos) << "variant of size " << nl.size();
    EXPECT_EQ(m.start, 3U);
    EXPECT_EQ(m.end, 3 + nl.size());
  }
}

TEST(FindStop, ReportsPartialMatchAtTheEnd) {
  const auto m = find_stop("abcEN", 0, {"END"});
  EXPECT_EQ(m.start, std::string::npos);
  EXPECT_EQ(m.partial, 3U);
  const auto nl = find_stop("abc\xE2\x80", 0, {"\n"});  // first bytes of U+2028
  EXPECT_EQ(nl.partial, 3U);
}

TEST(FindStop, MultiCharacterStopAcrossCrLf) {
  const auto m = find_stop("x\r\n\r\ny", 0, {"\n\n"});
  EXPECT_EQ(m.start, 1U);
  EXPECT_EQ(m.end, 5U);
}


}  // namespace
}  // namespace sfcl::decode
