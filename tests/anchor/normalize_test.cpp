#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>

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

// Chinese numerals as they are written (the number row of docs/ANCHORS.md's types): value, or none.
TEST(ChineseNumerals, Values) {
  struct Row {
    const char* text;
    int64_t value;  // -1: not one value
  };
  for (const Row& r : std::initializer_list<Row>{
           {"三千五百", 3500},
           {"伍万", 50000},
           {"十五", 15},
           {"一百零八", 108},
           {"三亿五千万", 350000000},
           {"三千五", 3500},  // said short: the last digit counts in the next unit down
           {"一万五", 15000},
           {"两百五", 250},
           {"三亿五", 350000000},
           {"一千零五", 1005},  // with 零 it is units
           {"一万零五百", 10500},
           {"二〇二四", 2024},  // digit by digit
           {"一九九八", 1998},
           {"二〇", 20},
           {"一一〇", 110},
           {"三五", -1},  // three to five
           {"七八", -1},
           {"三五百", -1},  // three to five hundred
           {"一二十", -1},
           {"你好", -1},
       }) {
    uint64_t v = 0;
    const bool ok = parse_chinese_numeral(r.text, v);
    EXPECT_EQ(ok, r.value >= 0) << r.text;
    if (ok && r.value >= 0) {
      EXPECT_EQ(v, static_cast<uint64_t>(r.value)) << r.text;
    }
  }
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
