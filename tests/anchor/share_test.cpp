// stated_share: the share of a value its text states next to it, in both languages, and the
// vague ones that state no value.
#include <gtest/gtest.h>

#include <string>

#include "anchor/anchor.h"

namespace sfcl::anchor {
namespace {

// The share stated for the anchor whose text is `value` in `text`.
float share_of(const std::string& text, const std::string& value) {
  for (const Anchor& a : extract(text)) {
    if (text.substr(a.start, a.end - a.start) == value) return stated_share(text, a);
  }
  ADD_FAILURE() << "no anchor '" << value << "' in: " << text;
  return -1;
}

TEST(StatedShare, ExactSharesBeforeOrAfterTheValue) {
  EXPECT_FLOAT_EQ(share_of("Half of the 40 staff left.", "40 staff"), 0.5F);
  EXPECT_FLOAT_EQ(share_of("They kept half the $900 deposit.", "$900"), 0.5F);
  EXPECT_FLOAT_EQ(share_of("The deposit is a third of the $900 fee.", "$900"), 1.0F / 3);
  EXPECT_FLOAT_EQ(share_of("Two-thirds of its 60 members voted.", "60 members"), 2.0F / 3);
  EXPECT_FLOAT_EQ(share_of("40名员工中有一半离职。", "40名"), 0.5F);
  EXPECT_FLOAT_EQ(share_of("押金为900元的三分之一。", "900元"), 1.0F / 3);
  EXPECT_FLOAT_EQ(share_of("60名成员中有三分之二投票。", "60名"), 2.0F / 3);
}

TEST(StatedShare, NoneWhereTheShareIsVagueOrAbsent) {
  EXPECT_EQ(share_of("More than half of the 40 staff left.", "40 staff"), 0.0F);
  EXPECT_EQ(share_of("At least half of the 40 staff left.", "40 staff"), 0.0F);
  EXPECT_EQ(share_of("Up to half of the 40 staff left.", "40 staff"), 0.0F);
  EXPECT_EQ(share_of("In the second half 40 staff left.", "40 staff"), 0.0F);
  EXPECT_EQ(share_of("40名员工中一半以上离职。", "40名"), 0.0F);
  EXPECT_EQ(share_of("押金为900元的三分之一左右。", "900元"), 0.0F);
  EXPECT_EQ(share_of("Nearly a third of the $900 fee.", "$900"), 0.0F);
  EXPECT_EQ(share_of("He spoke on behalf of the 40 staff.", "40 staff"), 0.0F);
  EXPECT_EQ(share_of("The 40 staff left.", "40 staff"), 0.0F);
  EXPECT_EQ(share_of("40名员工中超过一半离职。", "40名"), 0.0F);
  EXPECT_EQ(share_of("押金为900元。", "900元"), 0.0F);
}

}  // namespace
}  // namespace sfcl::anchor
