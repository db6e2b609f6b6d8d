// UTF-8 helpers every stage uses on model output, which may stop inside a character: lengths,
// decoding, validity, and the replacement of what is not UTF-8.
#include "util/utf8.h"

#include <gtest/gtest.h>

namespace sfcl::utf8 {
namespace {

TEST(Utf8, SequenceLengthFollowsTheLeadByte) {
  EXPECT_EQ(sequence_length('a'), 1);
  EXPECT_EQ(sequence_length(0xC3), 2);  // é
  EXPECT_EQ(sequence_length(0xE4), 3);  // 中
  EXPECT_EQ(sequence_length(0xF0), 4);  // 😀
}

TEST(Utf8, DecodeAndAppendRoundTrip) {
  for (const char32_t cp : {U'a', U'\u00e9', U'\u4e2d', U'\U0001F600'}) {
    std::string s;
    append(s, cp);
    const Decoded d = decode(s, 0);
    EXPECT_EQ(d.cp, cp);
    EXPECT_EQ(static_cast<size_t>(d.length), s.size());
    EXPECT_TRUE(d.complete);
  }
}

TEST(Utf8, ValidityAndSanitizeOfCutCharacters) {
  const std::string zh = "\xe4\xb8\xad";  // 中
  EXPECT_TRUE(valid("fee " + zh));
  EXPECT_FALSE(valid(zh.substr(0, 2)));  // cut inside the character, as a token boundary may
  EXPECT_FALSE(valid("\xff"));
  const std::string clean = sanitize("a" + zh.substr(0, 2) + "b");
  EXPECT_TRUE(valid(clean));
  EXPECT_EQ(clean.front(), 'a');
  EXPECT_EQ(clean.back(), 'b');
  EXPECT_TRUE(has_han(zh));
  EXPECT_FALSE(has_han("fee"));
}

}  // namespace
}  // namespace sfcl::utf8
