// Verdict names and the anchor facts the checker and the check loop share.
#include <gtest/gtest.h>

#include "verify/verify.h"

namespace sfcl::verify {
namespace {

TEST(VerdictNames, OneNamePerVerdictInEnumOrder) {
  const auto names = verdict_names();
  ASSERT_EQ(names.size(), kVerdictCount);
  EXPECT_EQ(names[0], verdict_name(Verdict::confirmed));
  EXPECT_EQ(verdict_name(Verdict::derived), "derived");
  EXPECT_EQ(reason_name(Reason::absent), "absent");
  EXPECT_EQ(reason_name(Reason::mismatch), "mismatch");
  EXPECT_EQ(reason_name(Reason::other_field), "other_field");
  EXPECT_EQ(verdict_name(Verdict::confirmed), "confirmed");
  EXPECT_EQ(verdict_name(Verdict::unsupported), "unsupported");
  EXPECT_EQ(verdict_name(Verdict::unverifiable), "unverifiable");
}

TEST(AnchorFacts, NumericTypes) {
  using anchor::Type;
  for (Type t : {Type::number, Type::amount, Type::percent, Type::duration}) EXPECT_TRUE(anchor::is_numeric(t));
  for (Type t : {Type::date, Type::identifier, Type::clause, Type::name, Type::json, Type::logic}) {
    EXPECT_FALSE(anchor::is_numeric(t)) << anchor::type_name(t);
  }
}

TEST(AnchorFacts, ObligationsAreCheckable) {
  anchor::Anchor a;
  a.type = anchor::Type::logic;
  for (const char* norm : {"must", "must_not"}) {
    a.norm = norm;
    EXPECT_TRUE(anchor::is_obligation(a)) << norm;
    EXPECT_TRUE(is_checkable(a)) << norm;
  }
  a.norm = "may";
  EXPECT_FALSE(anchor::is_obligation(a));
  EXPECT_FALSE(is_checkable(a));
  a.type = anchor::Type::name;
  a.norm = "must";
  EXPECT_FALSE(anchor::is_obligation(a));
}

}  // namespace
}  // namespace sfcl::verify
