#include <gtest/gtest.h>

#include "verify/verify.h"

namespace sfcl::verify {
namespace {

using anchor::extract;
using anchor::SourceIndex;

CheckResult check_one(const SourceIndex& idx, const std::string& text, const CheckerOptions& opt = {}) {
  Checker c(idx, opt);
  const auto a = extract(text);
  EXPECT_FALSE(a.empty()) << text;
  return a.empty() ? CheckResult{} : c.check(a[0]);
}

class CheckerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    idx.add_source(
        "Acme Robotics Ltd. shall pay $12,500.00 by June 15, 2024 under Section 7.2, within 30 days, "
        "interest 1.5%, invoice INV-2024-0042. 乙方不得转让。");
  }
  SourceIndex idx;
};

TEST_F(CheckerTest, ExactTypedMatchIsOne) {
  const auto r = check_one(idx, "USD 12500");
  EXPECT_EQ(r.verdict, Verdict::confirmed);
  EXPECT_FLOAT_EQ(r.confidence, 1.0F);
  ASSERT_GE(r.support, 0);
  EXPECT_EQ(idx.anchors()[static_cast<size_t>(r.support)].text, "$12,500.00");
}

TEST_F(CheckerTest, NumbersNeverAlmostMatch) {
  const auto r = check_one(idx, "$12,600.00");
  EXPECT_EQ(r.verdict, Verdict::unsupported);
  EXPECT_FLOAT_EQ(r.confidence, 0.0F);
}

TEST_F(CheckerTest, CrossFormatEquivalences) {
  EXPECT_EQ(check_one(idx, "2024年6月15日").verdict, Verdict::confirmed);
  EXPECT_EQ(check_one(idx, "§7.2").verdict, Verdict::confirmed);
  EXPECT_EQ(check_one(idx, "thirty days").verdict, Verdict::confirmed);
  EXPECT_EQ(check_one(idx, "1.5 percent").verdict, Verdict::confirmed);
  EXPECT_EQ(check_one(idx, "12,500 apples").verdict, Verdict::confirmed);  // bare number = amount value
  EXPECT_EQ(check_one(idx, "June 2024").verdict, Verdict::confirmed);      // partial date
  EXPECT_EQ(check_one(idx, "June 16, 2024").verdict, Verdict::unsupported);
  EXPECT_EQ(check_one(idx, "INV-2024-0043").verdict, Verdict::unsupported);
}

TEST_F(CheckerTest, NamesBySimilarity) {
  const auto same = check_one(idx, "ACME Robotics Ltd");
  EXPECT_EQ(same.verdict, Verdict::confirmed);
  const auto other = check_one(idx, "Zenith Partners LLC");
  EXPECT_EQ(other.verdict, Verdict::unsupported);
  EXPECT_LT(other.confidence, 0.87F);
}

// The source names "John Smith of Acme Robotics Ltd." as one name; an answer that names only the
// person or only the company is right, and must not be backtracked.
TEST(Checker, NamePartOfAJoinedSourceNameIsConfirmed) {
  SourceIndex idx;
  idx.add_source("Support ticket TCK-12345 opened by John Smith of Acme Robotics Ltd. on May 3, 2024.");
  EXPECT_EQ(check_one(idx, "John Smith").verdict, Verdict::confirmed);
  EXPECT_EQ(check_one(idx, "Acme Robotics Ltd.").verdict, Verdict::confirmed);
  EXPECT_EQ(check_one(idx, "John Smith of Acme Robotics Ltd.").verdict, Verdict::confirmed);
  EXPECT_EQ(check_one(idx, "Mary Brown").verdict, Verdict::unsupported);
}

// Trigram similarity alone confirmed a source name with a word added ("... Mrn": 0.90).
TEST(Checker, NameWithAWordTheSourceNameLacksIsUnsupported) {
  SourceIndex idx;
  idx.add_source("Dr. Chloe Turner examined the patient. Acme Robotics Ltd. was billed.");
  EXPECT_EQ(check_one(idx, "Dr. Chloe Turner").verdict, Verdict::confirmed);
  // Without the honorific (0.81 by similarity alone): the source name supports it as a part.
  EXPECT_EQ(check_one(idx, "Chloe Turner").verdict, Verdict::confirmed);
  EXPECT_EQ(check_one(idx, "Dr. Chloe Turner Mrn").verdict, Verdict::unsupported);
  EXPECT_EQ(check_one(idx, "Dr. Chloe Turner Smith").verdict, Verdict::unsupported);
  EXPECT_EQ(check_one(idx, "Dr. Chloe Turnr").verdict, Verdict::unsupported);
  // Case and a company form's punctuation may differ.
  EXPECT_EQ(check_one(idx, "ACME Robotics Ltd").verdict, Verdict::confirmed);
  EXPECT_EQ(check_one(idx, "Acme Robotics Ltd.").verdict, Verdict::confirmed);
}

TEST_F(CheckerTest, ObligationPolarity) {
  EXPECT_EQ(check_one(idx, "shall pay").verdict, Verdict::confirmed);
  EXPECT_EQ(check_one(idx, "不得").verdict, Verdict::confirmed);
}

TEST_F(CheckerTest, UnverifiableWithoutThatType) {
  SourceIndex words;
  words.add_source("Nothing but words and $5 here.");
  const auto r = check_one(words, "Acme Corp");
  EXPECT_EQ(r.verdict, Verdict::unverifiable);
  CheckerOptions strict;
  strict.strict = true;
  EXPECT_EQ(check_one(words, "Acme Corp", strict).verdict, Verdict::unsupported);
}

TEST_F(CheckerTest, PerTypeThreshold) {
  CheckerOptions opt;
  opt.type_threshold[static_cast<size_t>(anchor::Type::name)] = 0.99F;
  EXPECT_EQ(check_one(idx, "Acme Robotics Limited", opt).verdict, Verdict::unsupported);
}

TEST_F(CheckerTest, StructuralAnchorsAreNotFactChecked) {
  const auto r = check_one(idx, "def f(x):");
  EXPECT_FALSE(r.checked);
  EXPECT_EQ(r.verdict, Verdict::unverifiable);
}

TEST(Checker, EmptySourceIsInactive) {
  SourceIndex empty;
  Checker c(empty, {});
  const auto a = extract("$5");
  EXPECT_EQ(c.check(a[0]).verdict, Verdict::unverifiable);
}

}  // namespace
}  // namespace sfcl::verify

namespace sfcl::verify {
namespace {

// The output's anchor `value` in `out`, checked with the label of the field it is written in.
CheckResult check_in_field(const anchor::SourceIndex& idx, const std::string& out, const std::string& value) {
  Checker c(idx, {});
  for (const auto& a : anchor::extract(out)) {
    if (out.substr(a.start, a.end - a.start).find(value) != std::string::npos) {
      return c.check(a, anchor::field_label(out, a.start));
    }
  }
  ADD_FAILURE() << value << " not found in " << out;
  return {};
}

class FieldBindingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    idx.add_source(
        "Service request\nAccount: Falcon Systems LLC\nOpened by: Chloe Turner\nOpened on: March 4, 2023\n"
        "Signed on: March 4, 2023\nRefund: $85,064.00\nFee: $1,200.00");
  }
  anchor::SourceIndex idx;
};

TEST_F(FieldBindingTest, ValueUnderItsOwnLabelIsConfirmed) {
  const auto r = check_in_field(idx, "Opened by: Chloe Turner.", "Chloe");
  EXPECT_EQ(r.verdict, Verdict::confirmed);
  EXPECT_FALSE(r.other_field);
  ASSERT_GE(r.support, 0);
  EXPECT_EQ(idx.anchors()[static_cast<size_t>(r.support)].field, "Opened by");
}

TEST_F(FieldBindingTest, SourceValueUnderAnotherLabelIsUnsupported) {
  const auto name = check_in_field(idx, "Opened by: Falcon Systems LLC.", "Falcon");
  EXPECT_EQ(name.verdict, Verdict::unsupported);
  EXPECT_TRUE(name.other_field);
  const auto amount = check_in_field(idx, "Summary: x; Fee: $85,064.00.", "$85,064.00");
  EXPECT_EQ(amount.verdict, Verdict::unsupported);
  EXPECT_TRUE(amount.other_field);
  // Without a field, the same values are confirmed (the per-value check).
  EXPECT_EQ(check_in_field(idx, "The fee is $85,064.00.", "$85,064.00").verdict, Verdict::confirmed);
}

TEST_F(FieldBindingTest, EqualValuesUnderTwoLabelsAndCaseAreFine) {
  // The exact-match index points at "Opened on"; the value is also stated under "Signed on".
  const auto r = check_in_field(idx, "Signed on: March 4, 2023.", "March");
  EXPECT_EQ(r.verdict, Verdict::confirmed);
  EXPECT_EQ(idx.anchors()[static_cast<size_t>(r.support)].field, "Signed on");
  EXPECT_EQ(check_in_field(idx, "REFUND: $85,064.00", "$85,064.00").verdict, Verdict::confirmed);
  // A bare number binds to the numeric values under the label.
  EXPECT_EQ(check_in_field(idx, "Refund: 85064", "85064").verdict, Verdict::confirmed);
  EXPECT_EQ(check_in_field(idx, "Fee: 85064", "85064").verdict, Verdict::unsupported);
}

TEST(FieldBinding, EveryNameOfASourceListSupportsTheListsLabel) {
  anchor::SourceIndex idx;
  idx.add_source("Parties: Acme Ltd., Beta LLC and Gamma Inc.\nAuditor: Delta Corp.");
  for (const std::string name : {"Acme Ltd.", "Beta LLC", "Gamma Inc."}) {
    EXPECT_EQ(check_in_field(idx, "Parties: " + name, name.substr(0, 4)).verdict, Verdict::confirmed) << name;
  }
  EXPECT_TRUE(check_in_field(idx, "Parties: Delta Corp.", "Delta").other_field);
}

TEST_F(FieldBindingTest, LabelTheSourceDoesNotUseFallsBackToTheValueCheck) {
  EXPECT_EQ(check_in_field(idx, "Customer: Falcon Systems LLC.", "Falcon").verdict, Verdict::confirmed);
  // A label the sources use only for values of another type binds nothing.
  EXPECT_EQ(check_in_field(idx, "Refund: Falcon Systems LLC.", "Falcon").verdict, Verdict::confirmed);
}

}  // namespace
}  // namespace sfcl::verify
