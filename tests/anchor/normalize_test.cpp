#include <gtest/gtest.h>

#include "anchor/anchor.h"

namespace sfcl::anchor {
namespace {

TEST(NormalizeNumber, Separators) {
  std::string out;
  ASSERT_TRUE(normalize_number("1,000.50", out));
  EXPECT_EQ(out, "1000.5");
  ASSERT_TRUE(normalize_number("1.000,50", out));
  EXPECT_EQ(out, "1000.5");
  ASSERT_TRUE(normalize_number("0012.300", out));
  EXPECT_EQ(out, "12.3");
  EXPECT_FALSE(normalize_number("1.2.3", out));
  EXPECT_FALSE(normalize_number("1,23,4", out));
  EXPECT_FALSE(normalize_number("abc", out));
}

TEST(ChineseNumerals, Values) {
  uint64_t v = 0;
  ASSERT_TRUE(parse_chinese_numeral("三千五百", v));
  EXPECT_EQ(v, 3500U);
  ASSERT_TRUE(parse_chinese_numeral("伍万", v));
  EXPECT_EQ(v, 50000U);
  ASSERT_TRUE(parse_chinese_numeral("十五", v));
  EXPECT_EQ(v, 15U);
  ASSERT_TRUE(parse_chinese_numeral("一百零八", v));
  EXPECT_EQ(v, 108U);
  ASSERT_TRUE(parse_chinese_numeral("三亿五千万", v));
  EXPECT_EQ(v, 350000000U);
  EXPECT_FALSE(parse_chinese_numeral("你好", v));
}

TEST(FoldName, CaseWidthAndSpaces) {
  EXPECT_EQ(fold_name("  ACME   Robotics\tLtd. "), "acme robotics ltd");
  EXPECT_EQ(fold_name("Ａｃｍｅ"), "acme");
}

TEST(StripZeroWidth, RemovesAllFive) {
  EXPECT_EQ(strip_zero_width("a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf"), "abcdef");
  EXPECT_EQ(strip_zero_width("plain"), "plain");
}

TEST(DecisionPoints, CountsObligationsAmountsDates) {
  const auto c = count_decision_points("The Buyer shall pay $5 by June 1, 2024 and must not resell. 乙方不得转让。");
  EXPECT_EQ(c.total, 5U);  // shall, $5, date, must not, 不得
  EXPECT_EQ(c.by_type[static_cast<size_t>(Type::amount)], 1U);
}

}  // namespace
}  // namespace sfcl::anchor
