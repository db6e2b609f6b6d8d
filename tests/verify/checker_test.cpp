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

TEST_F(CheckerTest, ExactTypedMatchWithNoRoleReadIsConfirmedBelowOne) {
  const auto r = check_one(idx, "USD 12500");
  EXPECT_EQ(r.verdict, Verdict::confirmed);
  EXPECT_FALSE(r.role_matched);
  EXPECT_FLOAT_EQ(r.confidence, kRoleUnread);
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

// With any source text, a value of a type the sources never state is unsupported (absent): "The dose
// was reduced by 5.9%." against a note with no percentage at all.
TEST_F(CheckerTest, ValueOfATypeTheSourcesLackIsAbsent) {
  SourceIndex words;
  words.add_source("Nothing but words and $5 here.");
  const auto r = check_one(words, "Acme Corp");
  EXPECT_EQ(r.verdict, Verdict::unsupported);
  EXPECT_EQ(r.reason, Reason::absent);
  SourceIndex note;
  note.add_source("Clinic note: the patient reported less pain; the dose was lowered.");
  EXPECT_EQ(check_one(note, "The dose was reduced by 5.9%.").reason, Reason::absent);
  SourceIndex zh;
  zh.add_source("患者自述疼痛减轻，已下调剂量。");
  const auto z = check_one(zh, "剂量下调了5.9%。");
  EXPECT_EQ(z.verdict, Verdict::unsupported);
  EXPECT_EQ(z.reason, Reason::absent);
}

TEST_F(CheckerTest, ValueOfATypeTheSourcesStateButNotThisOneIsAMismatch) {
  const auto r = check_one(idx, "$12,600.00");
  EXPECT_EQ(r.verdict, Verdict::unsupported);
  EXPECT_EQ(r.reason, Reason::mismatch);
}

// Only a request with no source text at all leaves anchors unverifiable (strict: unsupported).
TEST(Checker, NoSourceTextIsUnverifiable) {
  SourceIndex none;
  const auto r = check_one(none, "Acme Corp paid $5.");
  EXPECT_EQ(r.verdict, Verdict::unverifiable);
  CheckerOptions strict;
  strict.strict = true;
  const auto s = check_one(none, "Acme Corp", strict);
  EXPECT_EQ(s.verdict, Verdict::unsupported);
  EXPECT_EQ(s.reason, Reason::absent);
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

// ---- the checker on the text as written (verbatim rule) and derived values ----

CheckResult check_written(const SourceIndex& idx, const std::string& answer, const std::string& value,
                          const CheckerOptions& opt = {}) {
  Checker c(idx, opt);
  const auto anchors = extract(answer);
  const size_t at = answer.find(value);
  EXPECT_NE(at, std::string::npos) << value;
  for (const auto& a : anchors) {
    if (a.start <= at && a.end >= at + value.size()) {
      // As a finished text is checked: with its sentence around the anchor (derivation cues).
      return c.check(a, anchor::field_label(answer, a.start), std::string_view(answer).substr(a.start, a.end - a.start),
                     std::string_view(answer).substr(0, a.start), std::string_view(answer).substr(a.end));
    }
  }
  ADD_FAILURE() << "no anchor covers '" << value << "' in: " << answer;
  return {};
}

struct ProseCase {
  const char* source;
  const char* answer;
  const char* value;  // the anchor of the answer under test
  Verdict verdict;
};

// The case as CTest names it: the answer, the value under test and the verdict it must get.
void PrintTo(const ProseCase& c, std::ostream* os) {
  *os << c.answer << " | " << c.value << " | " << verdict_name(c.verdict);
}

class ProseTable : public ::testing::TestWithParam<ProseCase> {};

TEST_P(ProseTable, Verdict) {
  const auto& c = GetParam();
  SourceIndex idx;
  idx.add_source(c.source);
  const auto r = check_written(idx, c.answer, c.value);
  EXPECT_EQ(r.verdict, c.verdict) << c.answer << " | value: " << c.value << " | confidence " << r.confidence;
}

// The families of false flags on real prose, and the wrong values next to them that must stay caught.
INSTANTIATE_TEST_SUITE_P(
    Families, ProseTable,
    ::testing::Values(
        // a year against a full date, and a year written alone
        ProseCase{"Harriet Cole (born 14 March 1976) is a painter.", "She was born in 1976.", "1976",
                  Verdict::confirmed},
        ProseCase{"Harriet Cole (born 14 March 1976) is a painter.", "She was born in 1975.", "1975",
                  Verdict::unsupported},
        ProseCase{"Established in 1931 it serves the whole county.", "It was founded in 1931.", "1931",
                  Verdict::confirmed},
        ProseCase{"张伟（1976年3月14日出生）是一位画家。", "张伟生于1976年。", "1976", Verdict::confirmed},
        ProseCase{"张伟（1976年3月14日出生）是一位画家。", "张伟生于1978年。", "1978", Verdict::unsupported},
        // possessives
        ProseCase{"The park was named after Governor Maria Lopez's daughter.",
                  "It was named after the daughter of Governor Maria Lopez.", "Governor Maria Lopez",
                  Verdict::confirmed},
        ProseCase{"The park was named after Governor Maria Lopez's daughter.",
                  "It was named after the daughter of Governor Maria Lopes.", "Governor Maria Lopes",
                  Verdict::unsupported},
        // a capitalised sentence-initial word glued onto a name
        ProseCase{"Featuring Emma Stone and Ryan Gosling, the film opened in 2016.", "It stars Emma Stone.",
                  "Emma Stone", Verdict::confirmed},
        ProseCase{"Featuring Emma Stone and Ryan Gosling, the film opened in 2016.", "It stars Emma Stowe.",
                  "Emma Stowe", Verdict::unsupported},
        // a person's name inside an organisation's name
        ProseCase{"Classes are held at the Lena Park Dance Studio on Fridays.", "The studio belongs to Lena Park.",
                  "Lena Park", Verdict::confirmed},
        ProseCase{"合同金额为人民币98,700元，见第7条。", "金额是98,700元。", "98,700元", Verdict::confirmed},
        ProseCase{"合同金额为人民币98,700元，见第7条。", "金额是97,800元。", "97,800元", Verdict::unsupported},
        // capitalised headings are text like any other
        ProseCase{"SERVICE ORDER\nCustomer: Beta Foods LLC\nTotal: $4,200.00", "This is a SERVICE ORDER.",
                  "SERVICE ORDER", Verdict::confirmed},
        // full-width and case folding
        ProseCase{"Ｏｒｄｅｒ ＩＮＶ－２０２４－００４２ was paid.", "The invoice is INV-2024-0042.", "INV-2024-0042",
                  Verdict::confirmed},
        // a count hyphenated to its noun, written in words or with the noun apart in the sources
        ProseCase{"A two-bedroom flat near the station.", "It is a 2-bedroom flat.", "2", Verdict::confirmed},
        ProseCase{"A two-bedroom flat near the station.", "It is a 3-bedroom flat.", "3", Verdict::unsupported},
        ProseCase{"The flat has 2 bedrooms.", "It is a 2-bedroom flat.", "2", Verdict::confirmed},
        ProseCase{"The flat has 2 bathrooms and 3 bedrooms.", "It is a 2-bedroom flat.", "2", Verdict::unsupported},
        // a measure is its number and its unit: the same measure in another unit is the sources'
        ProseCase{"Dosage: 500 mg twice daily.", "Take 0.5 g twice a day.", "0.5 g", Verdict::confirmed},
        ProseCase{"Dosage: 500 mg twice daily.", "Take 500 g twice a day.", "500 g", Verdict::unsupported},
        ProseCase{"Dosage: 500 mg twice daily.", "Take 5 g twice a day.", "5 g", Verdict::unsupported},
        ProseCase{"每次服用500毫克。", "每次服用0.5克。", "0.5克", Verdict::confirmed},
        ProseCase{"每次服用500毫克。", "每次服用500克。", "500克", Verdict::unsupported},
        ProseCase{"The course lasts 2 weeks.", "The course lasts 14 days.", "14 days", Verdict::confirmed},
        ProseCase{"The course lasts 2 weeks.", "The course lasts 10 days.", "10 days", Verdict::unsupported},
        ProseCase{"课程为期两周。", "课程为期14天。", "14天", Verdict::confirmed},
        ProseCase{"The flight takes 90 minutes.", "The flight takes 1.5 hours.", "1.5 hours", Verdict::confirmed},
        ProseCase{"保修期为半年。", "保修期为6个月。", "6个月", Verdict::confirmed},
        ProseCase{"The test takes half an hour.", "The test takes 30 minutes.", "30 minutes", Verdict::confirmed},
        ProseCase{"The test takes half an hour.", "The test takes 45 minutes.", "45 minutes", Verdict::unsupported},
        ProseCase{"考试时间为半小时。", "The test takes half an hour.", "half an hour", Verdict::confirmed},
        ProseCase{"保修期为半年。", "保修期为3个月。", "3个月", Verdict::unsupported},
        ProseCase{"Her temperature was 37°C.", "Her temperature was 98.6°F.", "98.6°F", Verdict::confirmed},
        ProseCase{"Her temperature was 37°C.", "Her temperature was 99.6°F.", "99.6°F", Verdict::unsupported},
        ProseCase{"The bag weighs 1 kg.", "The bag weighs 2.2 lb.", "2.2 lb", Verdict::confirmed},
        ProseCase{"The bag weighs 1 kg.", "The bag weighs 2 lb.", "2 lb", Verdict::unsupported},
        // dozens, quarters, noon and an age, written in words or in the other language
        ProseCase{"The order contains a dozen eggs.", "It has 12 eggs.", "12", Verdict::confirmed},
        ProseCase{"The order contains a dozen eggs.", "It has 13 eggs.", "13", Verdict::unsupported},
        ProseCase{"The order contains half a dozen eggs.", "It has 12 eggs.", "12", Verdict::unsupported},
        ProseCase{"Profits rose in the third quarter of 2024.", "Profits rose in Q3 2024.", "Q3 2024",
                  Verdict::confirmed},
        ProseCase{"Profits rose in the third quarter of 2024.", "Profits rose in Q2 2024.", "Q2 2024",
                  Verdict::unsupported},
        ProseCase{"The meeting is at noon.", "It starts at 12:00 pm.", "12:00 pm", Verdict::confirmed},
        ProseCase{"会议于正午开始。", "It starts at 2:00 pm.", "2:00 pm", Verdict::unsupported},
        ProseCase{"他今年45岁。", "He is 45 years old.", "45 years", Verdict::confirmed},
        ProseCase{"他今年45岁。", "He is 54 years old.", "54 years", Verdict::unsupported},
        ProseCase{"他今年45岁。", "He is 45 years older.", "45 years", Verdict::unsupported},
        // currencies named in Chinese
        ProseCase{"费用为150万日元。", "The fee is 1.5 million yen.", "1.5 million yen", Verdict::confirmed},
        ProseCase{"费用为150万日元。", "The fee is 15 million yen.", "15 million yen", Verdict::unsupported},
        ProseCase{"The company invested $300 million.", "公司投资三亿美元。", "三亿美元", Verdict::confirmed},
        ProseCase{"The company invested $300 million.", "公司投资三亿欧元。", "三亿欧元", Verdict::unsupported},
        // below zero, rounded between systems, and a dose no bare number makes
        ProseCase{"Store frozen at -18°C.", "Keep it at -0.4°F.", "0.4°F", Verdict::confirmed},
        ProseCase{"Store frozen at -18°C.", "Keep it at 64°F.", "64°F", Verdict::unsupported},
        ProseCase{"Preheat your oven to 400°F.", "Preheat it to 205°C.", "205°C", Verdict::confirmed},
        ProseCase{"Preheat your oven to 400°F.", "Preheat it to 210°C.", "210°C", Verdict::unsupported},
        ProseCase{"It weighs 1,250 mg.", "It weighs 1 g.", "1 g", Verdict::unsupported},
        ProseCase{"Patient, 40, was given 20 mg.", "The dose was 40 mg.", "40 mg", Verdict::unsupported},
        ProseCase{"Patient, 40, was given 20 mg.", "The dose was 20 mg.", "20 mg", Verdict::confirmed},
        ProseCase{"Delivery takes 10 business days.", "Delivery takes 2 weeks.", "2 weeks", Verdict::unsupported},
        // a fraction is one value; the sources may write it in words
        ProseCase{"Use 1/2 lb of butter.", "Use 2 lb of butter.", "2 lb", Verdict::unsupported},
        ProseCase{"巴西在四分之一决赛中被淘汰。", "巴西在1/4决赛中被淘汰。", "1/4", Verdict::confirmed},
        ProseCase{"巴西在四分之一决赛中被淘汰。", "巴西在1/8决赛中被淘汰。", "1/8", Verdict::unsupported},
        ProseCase{"Critics rated it 4 out of 5.", "Critics rated it 4/5.", "4/5", Verdict::confirmed},
        // where the sources use the answer's unit, a value in it is one of theirs or wrong
        ProseCase{"The site covers 8.2 hectares; the floor area is 200,000 square metres.",
                  "The site covers 20 hectares.", "20 hectares", Verdict::unsupported},
        ProseCase{"项目占地面积8.2公顷，总建筑面积20万平方米。", "项目占地面积20公顷。", "20公顷",
                  Verdict::unsupported},
        // the number alone still stands for the measure
        ProseCase{"dose_mg: 500", "The dose is 500 mg.", "500 mg", Verdict::confirmed},
        // tenths (成) and the percentage they are
        ProseCase{"营收同比增长三成。", "营收同比增长30%。", "30%", Verdict::confirmed},
        ProseCase{"营收同比增长三成。", "营收同比增长40%。", "40%", Verdict::unsupported},
        ProseCase{"Revenue rose 30% on the year.", "营收同比增长三成。", "三成", Verdict::confirmed},
        ProseCase{"Revenue rose 30% on the year.", "营收同比增长两成。", "两成", Verdict::unsupported},
        // a number inside another must not count as written there
        ProseCase{"The dose was raised by 5.9% and then to 15 mg.", "It was 5 mg.", "5", Verdict::unsupported}));

// Quantities, ordinals, scores, titles, Japanese names and affiliations: each compared as one value,
// in both languages, the right value confirmed and the wrong one caught.
INSTANTIATE_TEST_SUITE_P(
    Units, ProseTable,
    ::testing::Values(
        // a count with its unit: another number of the text does not support it
        ProseCase{"The order covers 4 units, delivered within 6 weeks.", "The order covers 6 units.", "6 units",
                  Verdict::unsupported},
        ProseCase{"The order covers 4 units, delivered within 6 weeks.", "It covers 4 units.", "4 units",
                  Verdict::confirmed},
        ProseCase{"订单订购了4台交换机，税率为6%。", "订单订购了6台交换机。", "6台", Verdict::unsupported},
        ProseCase{"订单订购了4台交换机，税率为6%。", "订购了4台。", "4台", Verdict::confirmed},
        // ... but the same number written alone does, unless the text gives it another unit
        ProseCase{"The crowd numbered 25,849 on the day.", "There were 25,849 spectators.", "25,849 spectators",
                  Verdict::confirmed},
        ProseCase{"当天观众人数为14862。", "现场观众14862人。", "14862人", Verdict::confirmed},
        ProseCase{"共有240家门店，240是编号。", "共有240台设备。", "240台", Verdict::unsupported},
        ProseCase{"The firm runs 240 stores; 240 is also its code.", "It owns 240 cars.", "240 cars",
                  Verdict::unsupported},
        // a side of a score supports the number alone
        ProseCase{"Leicester beat Saracens 27-24.", "Leicester scored 27 points.", "27 points", Verdict::confirmed},
        ProseCase{"广东队以108比97获胜。", "广东队得到108分。", "108分", Verdict::confirmed},
        // ordinals need an ordinal
        ProseCase{"He rose from 47th to 21st; the final was 21-12 and 12 fans came.", "He rose to 12th.", "12th",
                  Verdict::unsupported},
        ProseCase{"He rose from 47th to 21st; the final was 21-12 and 12 fans came.", "He rose to 21st.", "21st",
                  Verdict::confirmed},
        ProseCase{"世界排名从第47位升至第21位，决赛比分为21–12、21–18。", "排名升至第12位。", "第12位",
                  Verdict::unsupported},
        ProseCase{"世界排名从第47位升至第21位，决赛比分为21–12、21–18。", "排名升至第21名。", "第21名",
                  Verdict::confirmed},
        // scores
        ProseCase{"Leicester beat Saracens 27-24.", "Leicester won 27-21.", "27-21", Verdict::unsupported},
        ProseCase{"Leicester beat Saracens 27-24.", "Leicester won 27–24.", "27–24", Verdict::confirmed},
        ProseCase{"中国队以3比1战胜日本队。", "中国队以3比2战胜日本队。", "3比2", Verdict::unsupported},
        ProseCase{"中国队以3比1战胜日本队。", "中国队3比1获胜。", "3比1", Verdict::confirmed},
        ProseCase{"鲁源队战绩为17胜5负，积分39分。", "战绩为17胜6负。", "17胜6负", Verdict::unsupported},
        // titles
        ProseCase{"依据《中华人民共和国行政强制法》作出决定。", "依据《中华人民共和国行政诉讼法》。",
                  "《中华人民共和国行政诉讼法》", Verdict::unsupported},
        ProseCase{"依据《中华人民共和国行政强制法》作出决定。", "依据《行政强制法》。", "《行政强制法》",
                  Verdict::confirmed},
        ProseCase{"Flights follow 《Civil Aviation Regulations》 in full.", "They follow 《Civil Aviation Rules》.",
                  "《Civil Aviation Rules》", Verdict::unsupported},
        // Japanese names
        ProseCase{"女单冠军由山口遥获得。", "冠军是山口茜。", "山口茜", Verdict::unsupported},
        ProseCase{"女单冠军由山口遥获得。", "冠军是山口遥。", "山口遥", Verdict::confirmed},
        ProseCase{"The title went to Haruka Yamaguchi.", "The winner was Akane Yamaguchi.", "Akane Yamaguchi",
                  Verdict::unsupported},
        // a person and the organisation written next to them, joined with "of"
        ProseCase{"The work, led by Professor Yun-Seo Hwang of the Korea Advanced Institute of Science and "
                  "Technology (KAIST) with collaborators at Uppsala University, was published.",
                  "It was led by Professor Yun-Seo Hwang of KAIST.", "Professor Yun-Seo Hwang of KAIST",
                  Verdict::confirmed},
        ProseCase{"The work, led by Professor Yun-Seo Hwang of the Korea Advanced Institute of Science and "
                  "Technology (KAIST) with collaborators at Uppsala University, was published.",
                  "It was led by Professor Yun-Seo Hwang of Uppsala University.",
                  "Professor Yun-Seo Hwang of Uppsala University", Verdict::unsupported},
        ProseCase{"该研究由韩国科学技术院的黄允书教授领导。", "研究由黄允书教授领导。", "黄允书", Verdict::confirmed},
        // dates in Chinese numerals and "the Nth of Month"
        ProseCase{"会议定于2024年3月15日举行。", "会议定于二〇二四年三月十五日举行。", "二〇二四年三月十五日",
                  Verdict::confirmed},
        ProseCase{"会议定于2024年3月15日举行。", "会议定于二〇二四年三月十六日举行。", "二〇二四年三月十六日",
                  Verdict::unsupported},
        ProseCase{"The deal closed on 15 March 2024.", "It closed on the 15th of March 2024.", "15th of March 2024",
                  Verdict::confirmed},
        ProseCase{"The deal closed on 15 March 2024.", "It closed on the 16th of March 2024.", "16th of March 2024",
                  Verdict::unsupported},
        // decades against the sources' years
        ProseCase{"The company was founded in 1995.", "It was founded in the mid-1990s.", "mid-1990s",
                  Verdict::confirmed},
        ProseCase{"The company was founded in 1995.", "It was founded in the early-1990s.", "early-1990s",
                  Verdict::unsupported},
        ProseCase{"The company was founded in 1995.", "It was founded in the 1980s.", "1980s", Verdict::unsupported},
        // early, mid and late written apart, the decade in two digits, and 初/中期/末 after 年代
        ProseCase{"The firm was founded in 1992.", "It was founded in the early 1990s.", "1990s", Verdict::confirmed},
        ProseCase{"The firm was founded in 1992.", "It was founded in the late 1990s.", "1990s", Verdict::unsupported},
        ProseCase{"The firm was founded in 1992.", "It was founded in the early '90s.", "90s", Verdict::confirmed},
        ProseCase{"The firm was founded in 1992.", "It was founded in the late '90s.", "90s", Verdict::unsupported},
        ProseCase{"The firm was founded in 1992.", "It was founded in the mid-90s.", "mid-90s", Verdict::unsupported},
        ProseCase{"该公司成立于1992年。", "它成立于九十年代初。", "九十年代初", Verdict::confirmed},
        ProseCase{"该公司成立于1992年。", "它成立于九十年代末。", "九十年代末", Verdict::unsupported},
        ProseCase{"公司成立于1995年。", "公司成立于上世纪九十年代。", "九十年代", Verdict::confirmed},
        ProseCase{"公司成立于1995年。", "公司成立于上世纪八十年代。", "八十年代", Verdict::unsupported},
        // spans of a range the sources write: hours between two times, days between two dates (apart
        // or with both ends), exact to the minute; two dates that are no range give no count
        ProseCase{"The store is open from 9:00 to 21:00.", "It is open 12 hours a day.", "12 hours", Verdict::derived},
        ProseCase{"The store is open from 9:00 to 21:00.", "It is open 11 hours a day.", "11 hours",
                  Verdict::unsupported},
        ProseCase{"营业时间为9:00至21:00。", "每天营业12小时。", "12小时", Verdict::derived},
        ProseCase{"The meeting ran from 2 pm to 4:30 pm.", "It lasted two and a half hours.", "two and a half hours",
                  Verdict::derived},
        ProseCase{"The meeting ran from 2 pm to 4:30 pm.", "It lasted three hours.", "three hours",
                  Verdict::unsupported},
        ProseCase{"The fair runs from Monday, June 3 to Friday, June 7.", "The fair lasts five days.", "five days",
                  Verdict::derived},
        ProseCase{"The fair runs from June 3 to June 7.", "The fair lasts 4 days.", "4 days", Verdict::derived},
        ProseCase{"The fair runs from June 3 to June 7.", "The fair lasts 6 days.", "6 days", Verdict::unsupported},
        ProseCase{"展会于6月3日至6月7日举行。", "展会为期5天。", "5天", Verdict::derived},
        ProseCase{"The meeting was on June 3 and the report on June 7.", "The fair lasts five days.", "five days",
                  Verdict::unsupported},
        // a change in percent between two source amounts
        ProseCase{"The price rose from $10 to $15.", "The price rose 50%.", "50%", Verdict::derived},
        ProseCase{"The price rose from $10 to $15.", "The price rose 60%.", "60%", Verdict::unsupported},
        // the change from the value written first, never the other way round
        ProseCase{"The price went from $15 in 2022 to $10 in 2023.", "The price fell 33.3%.", "33.3%",
                  Verdict::derived},
        ProseCase{"The price went from $15 in 2022 to $10 in 2023.", "The price fell 50%.", "50%",
                  Verdict::unsupported},
        ProseCase{"价格从10元涨到15元。", "价格上涨了50%。", "50%", Verdict::derived},
        ProseCase{"价格从10元涨到15元。", "价格上涨了60%。", "60%", Verdict::unsupported},
        // hyphenated number words; Chinese numerals said short; a range of money no source states
        ProseCase{"Revenue rose 25%.", "Revenue rose twenty-five percent.", "twenty-five percent", Verdict::confirmed},
        ProseCase{"Revenue rose 25%.", "Revenue rose thirty-five percent.", "thirty-five percent",
                  Verdict::unsupported},
        ProseCase{"月薪15000元。", "月薪一万五千元。", "一万五千元", Verdict::confirmed},
        ProseCase{"月薪15000元。", "月薪一万五元。", "一万五元", Verdict::confirmed},
        ProseCase{"月薪15000元。", "月薪一万六元。", "一万六元", Verdict::unsupported},
        ProseCase{"藏獒售价为15万元。", "现在一两万元的藏獒都很难出手。", "一两万元", Verdict::unsupported},
        // basis points and percentage points
        ProseCase{"The rate was cut by 25 basis points.", "The rate was cut by 0.25 percentage points.",
                  "0.25 percentage points", Verdict::confirmed},
        ProseCase{"The rate was cut by 25 basis points.", "The rate was cut by 0.5 percentage points.",
                  "0.5 percentage points", Verdict::unsupported},
        ProseCase{"利率下调25个基点。", "利率下调0.25个百分点。", "0.25个百分点", Verdict::confirmed},
        ProseCase{"利率下调25个基点。", "利率下调0.5个百分点。", "0.5个百分点", Verdict::unsupported},
        // a term from its first to its last day
        ProseCase{"The lease starts on 1 January 2025 and ends on 31 December 2027.", "The lease runs for three years.",
                  "three years", Verdict::derived},
        ProseCase{"The lease starts on 1 January 2025 and ends on 31 December 2027.", "The lease runs for two years.",
                  "two years", Verdict::unsupported},
        ProseCase{"租期自2025年1月1日起至2027年12月31日止。", "租期为三年。", "三年", Verdict::derived},
        ProseCase{"租期自2025年1月1日起至2027年12月31日止。", "租期为四年。", "四年", Verdict::unsupported},
        // phone numbers with and without separators
        ProseCase{"客服电话：400-820-1234", "客服电话是4008201234。", "4008201234", Verdict::confirmed},
        ProseCase{"客服电话：400-820-1234", "客服电话是4008201243。", "4008201243", Verdict::unsupported},
        ProseCase{"Call 415-555-0132.", "Call 4155550132.", "4155550132", Verdict::confirmed},
        ProseCase{"Call 415-555-0132.", "Call 4155550123.", "4155550123", Verdict::unsupported},
        // ... but not dotted values: an IP address or a decimal is no phone number
        ProseCase{"The server is at 192.168.1.10.", "It is at 192.168.11.0.", "192.168.11.0", Verdict::unsupported},
        ProseCase{"The value was 1234.567 overall.", "The value was 1234567 overall.", "1234567", Verdict::unsupported},
        // a duration written in two units
        ProseCase{"The flight takes 2 hours 45 minutes.", "The flight takes 165 minutes.", "165 minutes",
                  Verdict::confirmed},
        ProseCase{"The flight takes 2 hours 45 minutes.", "The flight takes 3 hours.", "3 hours", Verdict::unsupported},
        ProseCase{"By car it takes 2 hours or 45 minutes by train.", "It takes 165 minutes.", "165 minutes",
                  Verdict::unsupported},
        ProseCase{"航程2小时45分钟。", "航程165分钟。", "165分钟", Verdict::confirmed},
        ProseCase{"航程2小时45分钟。", "航程175分钟。", "175分钟", Verdict::unsupported},
        // a share the sources give as a fraction
        ProseCase{"About 3 in 10 adults smoke.", "About 30% of adults smoke.", "30%", Verdict::confirmed},
        ProseCase{"About 3 in 10 adults smoke.", "About 40% of adults smoke.", "40%", Verdict::unsupported},
        // a rate in time is no share: "3 in 10 minutes" states no 30%
        ProseCase{"Buses leave 3 in 10 minutes.", "30% of buses leave.", "30%", Verdict::unsupported},
        ProseCase{"It floods one in five years.", "It floods 20% of the time.", "20%", Verdict::unsupported},
        ProseCase{"Three in ten adults smoke.", "30% of adults smoke.", "30%", Verdict::confirmed},
        ProseCase{"One in three voters backed it.", "33% of voters backed it.", "33%", Verdict::confirmed},
        ProseCase{"See page 1/2 of the form.", "Approval was 50%.", "50%", Verdict::unsupported},
        ProseCase{"约十分之三的成年人吸烟。", "约30%的成年人吸烟。", "30%", Verdict::confirmed},
        ProseCase{"约十分之三的成年人吸烟。", "约40%的成年人吸烟。", "40%", Verdict::unsupported},
        // an article's paragraphs in either language, an article by its paragraph, fiscal years
        ProseCase{"Under Article 12(3) the seller must refund.", "根据第十二条第三款，卖方必须退款。", "第十二条第三款",
                  Verdict::confirmed},
        ProseCase{"Under Article 12(3) the seller must refund.", "根据第十二条第四款，卖方必须退款。", "第十二条第四款",
                  Verdict::unsupported},
        ProseCase{"Under Article 12(3) the seller must refund.", "Article 12 requires a refund.", "Article 12",
                  Verdict::confirmed},
        ProseCase{"Under Article 12(3) the seller must refund.", "Article 13 requires a refund.", "Article 13",
                  Verdict::unsupported},
        ProseCase{
            "第十三条 违约责任 第一款 乙方逾期交付。第二款 逾期超过30日的，甲方有权解除合同。第十四条 争议 第一款 "
            "协商。第二款 仲裁。第三款 诉讼。",
            "第十三条第二款规定了解除。", "第十三条第二款", Verdict::confirmed},
        ProseCase{
            "第十三条 违约责任 第一款 乙方逾期交付。第二款 逾期超过30日的，甲方有权解除合同。第十四条 争议 第一款 "
            "协商。第二款 仲裁。第三款 诉讼。",
            "第十三条第三款规定了解除。", "第十三条第三款", Verdict::unsupported},
        ProseCase{"Article 9. Termination. Paragraph 1: notice. Paragraph 2: cure period. Article 10. Fees.",
                  "Article 9(2) sets the cure period.", "Article 9(2)", Verdict::confirmed},
        ProseCase{"Article 9. Termination. Paragraph 1: notice. Paragraph 2: cure period. Article 10. Fees.",
                  "Article 9(3) sets the cure period.", "Article 9(3)", Verdict::unsupported},
        ProseCase{"Article 12 governs notice. Paragraph 3 of Article 15 governs fees.", "Article 12(3) governs fees.",
                  "Article 12(3)", Verdict::unsupported},
        ProseCase{"Revenue for FY2024 was $3.1 billion.", "Fiscal 2024 revenue was $3.1 billion.", "2024",
                  Verdict::confirmed},
        ProseCase{"Revenue for FY2024 was $3.1 billion.", "Fiscal 2023 revenue was $3.1 billion.", "2023",
                  Verdict::unsupported},
        // a date a source span of time from a source date
        ProseCase{"The invoice is dated 2024-03-15 and due 30 days later.", "It is due on 14 April 2024.",
                  "14 April 2024", Verdict::derived},
        ProseCase{"The invoice is dated 2024-03-15 and due 30 days later.", "It is due on 15 April 2024.",
                  "15 April 2024", Verdict::unsupported},
        ProseCase{"Invoice dated 1 February 2024. Payment is due 30 days after the invoice date.",
                  "Payment is due by 2 January 2024.", "2 January 2024", Verdict::unsupported},  // 30 days before
        ProseCase{"Invoice dated 1 February 2024. Payment is due 30 days after the invoice date.",
                  "Payment is due on 31 February 2024.", "31 February 2024", Verdict::unsupported},
        ProseCase{"Invoice date: 18 October 2024. Due date: 17 November 2024. Payment terms: 30 days.",
                  "Payment is due on 17 December 2024.", "17 December 2024", Verdict::unsupported},
        ProseCase{"合同于2024年3月1日签订，期限6个月。", "合同于2024年9月1日到期。", "2024年9月1日", Verdict::derived},
        ProseCase{"合同于2024年3月1日签订，期限6个月。", "合同于2024年10月1日到期。", "2024年10月1日",
                  Verdict::unsupported},
        // differences of counts and of numbers with a magnitude
        ProseCase{"The population grew from 1.2 million to 1.5 million.", "The population grew by 300,000.", "300,000",
                  Verdict::derived},
        ProseCase{"The population grew from 1.2 million to 1.5 million.", "The population grew by 350,000.", "350,000",
                  Verdict::unsupported},
        ProseCase{"人口从120万增长到150万。", "人口增长了30万。", "30万", Verdict::derived},
        ProseCase{"人口从120万增长到150万。", "人口增长了35万。", "35万", Verdict::unsupported},
        // a population at two times has no total
        ProseCase{"The city had a population of 52,000 in 2010 and 61,000 in 2020.", "The total population is 113,000.",
                  "113,000", Verdict::unsupported}));

// The families of false flags and misses on real model output (RAGTruth, FaithBench, UHGEval): each
// row is one kind, with the wrong value next to it that must stay caught.
INSTANTIATE_TEST_SUITE_P(
    RealOutputFamilies, ProseTable,
    ::testing::Values(
        // names around an organisation and a title, an affiliation in a source without capitals, a
        // hyphenated description, an age after a noun for a person
        ProseCase{"The governor of the Bank of England, Mark Carney, stayed. Mr Carney spoke.",
                  "Bank of England Governor Mark Carney stayed.", "Bank of England Governor Mark Carney",
                  Verdict::confirmed},
        ProseCase{"Professor Hwang of Uppsala University spoke. The Bank of England Governor replied.",
                  "Bank of England Governor Hwang spoke.", "Bank of England Governor Hwang", Verdict::unsupported},
        ProseCase{"but alex newall , from hanover private office , had a warning",
                  "Alex Newall of Hanover Private Office warned.", "Alex Newall of Hanover Private Office",
                  Verdict::confirmed},
        ProseCase{"but alex newall , from hanover private office , had a warning", "Alex Newall of Savills warned.",
                  "Alex Newall of Savills", Verdict::unsupported},
        ProseCase{"Veeram is a 2014 Indian Tamil action film.", "It is an Indian Tamil-language film.", "Indian Tamil",
                  Verdict::confirmed},
        ProseCase{"The former Manchester City man, 30, won 61 caps.", "The 30-year-old retired.", "30-year",
                  Verdict::confirmed},
        ProseCase{"The former Manchester City man, 30, won 61 caps.", "The 31-year-old retired.", "31-year",
                  Verdict::unsupported},
        // a letter with a diacritic precomposed (NFC) against a letter and a combining mark (NFD)
        ProseCase{"In 2016, she appeared in Cafe\u0301 Society , and more.", "Lee starred in Caf\u00e9 Society.",
                  "Caf\u00e9 Society", Verdict::confirmed},
        ProseCase{"Hans-Peter L\u00fcscher won.", "Hans-Peter Luscher won.", "Hans-Peter Luscher", Verdict::confirmed},
        // a compound's head noun counts the same thing; a small count in words the sources give only
        // for other nouns is the answer's own count
        ProseCase{"Last May, two earthquakes in the area left 20 people dead.", "Last May, two quakes hit the area.",
                  "two", Verdict::confirmed},
        ProseCase{"The plane went down about 2 miles east. Ward and Leetch died.", "Officials mourned the two men.",
                  "two", Verdict::unverifiable},
        // roles and countries around names; numbers the sources name in words; a score from the
        // loser's side
        ProseCase{"Our server Jamie was awesome. Our server Matthew was great.", "Servers Jamie and Matthew were kind.",
                  "Servers Jamie", Verdict::confirmed},
        ProseCase{"During the Bosnian war rape was a weapon. In Darfur militias did the same.",
                  "Rape was a weapon in Bosnia and Darfur.", "Bosnia and Darfur", Verdict::confirmed},
        ProseCase{"In Darfur militias did the same.", "Rape was a weapon in Bosnia and Darfur.", "Bosnia and Darfur",
                  Verdict::unsupported},
        ProseCase{"Striker Keating, 21, joined. \"Ruairi is young,\" he said.", "Ruairi Keating joined.",
                  "Ruairi Keating", Verdict::confirmed},
        ProseCase{"Striker Keating, 21, joined. \"Ruairi is young,\" he said.", "Sean Keating joined.", "Sean Keating",
                  Verdict::unsupported},
        ProseCase{"and the world number one has revealed", "World No. 1 McIlroy spoke.", "1", Verdict::confirmed},
        ProseCase{"and the world number one has revealed", "World No. 2 McIlroy spoke.", "2", Verdict::unsupported},
        ProseCase{"cut by as much as a factor of a hundred.", "cut by a factor of 100.", "100", Verdict::confirmed},
        ProseCase{"The race dates back to 1981 and 1982.", "the first race since 1981-82.", "82", Verdict::confirmed},
        ProseCase{"The race dates back to 1981 and 1983.", "the first race since 1981-82.", "82", Verdict::unsupported},
        ProseCase{"who spent more than a decade with Jackson", "He spent over ten years with Jackson.", "ten years",
                  Verdict::confirmed},
        ProseCase{"who spent more than a decade with Jackson", "He spent over 20 years with Jackson.", "20 years",
                  Verdict::unsupported},
        ProseCase{"当时贝尔迪赫以3：0完胜西班牙人。", "纳达尔报了0：3失利的一箭之仇。", "0：3", Verdict::confirmed},
        ProseCase{"当时贝尔迪赫以3：0完胜西班牙人。", "纳达尔报了1：3失利的一箭之仇。", "1：3", Verdict::unsupported},
        ProseCase{"恒大以1:0战胜绿城。", "恒大以1比0小胜绿城。", "1比0", Verdict::confirmed},
        ProseCase{"新疆队最终以109:87客场取得大胜。", "新疆109：87大胜浙江。", "109：87", Verdict::confirmed},
        ProseCase{"北京奥运会冠军庞伟以一块铜牌、一个第8结束了比赛。", "他以一铜和一个第八名结束比赛。", "第八名",
                  Verdict::confirmed},
        // Chinese news: a day of the month is of its dateline's month; a month alone and its parts;
        // 个 counts what 件 counts
        ProseCase{"新华社武汉11月11日专电 这起案件10日在法院一审宣判。", "法院11月10日一审宣判。", "11月10日",
                  Verdict::confirmed},
        ProseCase{"新华社武汉11月11日专电 这起案件10日在法院一审宣判。", "法院11月9日一审宣判。", "11月9日",
                  Verdict::unsupported},
        ProseCase{"新华社拉萨9月25日专电 金秋九月是民族团结月。", "9月是民族团结月。", "9月", Verdict::confirmed},
        ProseCase{"2015年9月25日举行。", "10月举行。", "10月", Verdict::unsupported},
        ProseCase{"行动将于2月15日启动。", "从2月中旬开始。", "2月中旬", Verdict::confirmed},
        ProseCase{"新华社北京2月4日电 行动启动。", "从2月中旬开始。", "2月中旬", Verdict::unsupported},
        ProseCase{"行动将于2月中旬启动。", "行动2月启动。", "2月", Verdict::confirmed},
        ProseCase{"会议于3月11日举行。", "会议在11月举行。", "11月", Verdict::unsupported},  // not the day 11
        ProseCase{"行动于2024年2月中旬启动。", "行动2月中旬启动。", "2月中旬", Verdict::confirmed},
        ProseCase{"行动于11月2日启动。", "行动2月上旬启动。", "2月上旬", Verdict::unsupported},
        ProseCase{"The fair runs from December 28 to January 3, 2025.", "It lasts 7 days.", "7 days", Verdict::derived},
        ProseCase{"展台上15个非物质文化遗产实物。", "15件非遗实物同场展出。", "15件", Verdict::confirmed},
        ProseCase{"共有15个国家参加。", "15件实物展出。", "15件", Verdict::unsupported},
        ProseCase{"结果以65：76告负。", "中国队以65比76不敌对手。", "65比76", Verdict::confirmed},
        ProseCase{"音乐节20日起一连三日在红磡体育馆举办。", "音乐节一连举办三天。", "三天", Verdict::confirmed},
        // counts in words: the same count in digits, another count of the same noun, and a count the
        // answer made of what the sources list (unverifiable, not unsupported)
        ProseCase{"McManus scored 3 goals.", "McManus scored three goals.", "three goals", Verdict::confirmed},
        ProseCase{"Three women were arrested.", "3 women were arrested.", "3", Verdict::confirmed},
        ProseCase{"The building has 12 floors.", "The building has eleven floors.", "eleven", Verdict::unsupported},
        ProseCase{"The flight carried 84 passengers.", "Thirty-one passengers were seen.", "Thirty-one passengers",
                  Verdict::unsupported},
        ProseCase{"Veeram (2014 film). Veeram (2016 film).", "It lists two different films.", "two",
                  Verdict::unverifiable},
        ProseCase{"The city has 2 million people.", "The city has two million people.", "two million people",
                  Verdict::confirmed},
        ProseCase{"She raped the teenager while two others were asleep.", "She attacked her while two friends slept.",
                  "two", Verdict::confirmed},
        ProseCase{"He married Cressida Connolly in 1983 and Amber Rudd in 1991.", "He was married twice.", "twice",
                  Verdict::unverifiable},
        ProseCase{"The plant employs 2,400 people.", "It employs two thousand four hundred people.",
                  "two thousand four hundred people", Verdict::confirmed},
        // how often: "twice daily", "three times a day", 每天两次 are one kind of value
        ProseCase{"Dosage: 500 mg twice daily.", "Take 500 mg three times a day.", "three times", Verdict::unsupported},
        ProseCase{"Dosage: 500 mg twice daily.", "Take 500 mg two times a day.", "two times", Verdict::confirmed},
        ProseCase{"用法：每日两次，每次500毫克。", "每天服用三次。", "三次", Verdict::unsupported},
        ProseCase{"用法：每日两次，每次500毫克。", "Take it twice a day.", "twice", Verdict::confirmed},
        // times of day against 24-hour records, and a wrong hour
        ProseCase{"'hours': {'Friday': '11:30-20:0'}", "It is open until 8:00 PM on Friday.", "8:00 PM",
                  Verdict::confirmed},
        ProseCase{"'hours': {'Friday': '11:30-20:0'}", "It is open until 9:00 PM on Friday.", "9:00 PM",
                  Verdict::unsupported},
        ProseCase{"Opening hours: 11:30 to 2:00.", "It opens at 11:30 am and closes at 2:00 pm.", "2:00 pm",
                  Verdict::confirmed},
        ProseCase{"The office opens at 9:00.", "It opens at 9:30 am.", "9:30 am", Verdict::unsupported},
        // a time's digits are not numbers any 9 or 0 confirms
        ProseCase{"Nine people and 0 cars; 9 staff.", "Open from 9:00 am.", "9:00 am", Verdict::unsupported},
        // coordinated names: each side is in the sources, or the whole is unsupported
        ProseCase{"'categories': 'Burgers, Restaurants'", "It is one of the Burgers and Restaurants.",
                  "Burgers and Restaurants", Verdict::confirmed},
        ProseCase{"Goals came from Forbes and from Johnstone.", "Forbes and Johnstone scored.", "Forbes and Johnstone",
                  Verdict::confirmed},
        ProseCase{"Goals came from Forbes.", "Forbes and Johnstone scored.", "Forbes and Johnstone",
                  Verdict::unsupported},
        // a title or a sentence's first word before a source name
        ProseCase{"Indiana Gov. Mike Pence signed the order.", "Indiana Governor Mike Pence signed it.",
                  "Indiana Governor Mike Pence", Verdict::confirmed},
        ProseCase{"The U.S. Senate passed it. Senate leaders agreed.", "The US Senate passed it.", "US Senate",
                  Verdict::confirmed},
        ProseCase{"Free African-Americans had no rights.", "It ruled that free African Americans had none.",
                  "African Americans", Verdict::confirmed},
        ProseCase{"He met Jean Paul Gaultier.", "He met Jean-Paul Gaultier.", "Jean-Paul Gaultier", Verdict::confirmed},
        ProseCase{"Free African-Americans had no rights.", "It ruled that free Asian Americans had none.",
                  "Asian Americans", Verdict::unsupported},
        ProseCase{"The U.K. Parliament voted.", "The UK Parliament voted.", "UK Parliament", Verdict::confirmed},
        ProseCase{"The U.S. Senate passed it.", "The UK Senate passed it.", "UK Senate", Verdict::unsupported},
        // a country's abbreviation before a source name, a father's Sr. and a club's form after one
        ProseCase{"The bill passed the Senate on Tuesday.", "The US Senate passed the bill.", "US Senate",
                  Verdict::confirmed},
        ProseCase{"The National Park Service waived fees.", "The US National Park Service waived fees.",
                  "US National Park Service", Verdict::confirmed},
        ProseCase{"Christopher Eubank, known as Chris Eubank, fought. Chris Eubank Jr. is his son.",
                  "Chris Eubank Sr. competed.", "Chris Eubank Sr", Verdict::confirmed},
        ProseCase{"His son Chris Eubank Jr. is a boxer.", "Chris Eubank Sr. competed.", "Chris Eubank Sr",
                  Verdict::unsupported},  // the source names only the son
        ProseCase{"The visitors, Queens Park Rangers, won.", "Queens Park Rangers FC won.", "Queens Park Rangers FC",
                  Verdict::confirmed},
        ProseCase{"The match saw Dundee United win.", "Dundee FC won.", "Dundee FC", Verdict::unsupported},
        // a title the sources use elsewhere makes no name of a source word ("Aaron Judge" is a person)
        ProseCase{"Aaron Rodgers threw twice. A federal judge ruled on it.", "Aaron Judge hit it.", "Aaron Judge",
                  Verdict::unsupported},
        ProseCase{"Stephen Colbert interviewed King Charles.", "Stephen King wrote it.", "Stephen King",
                  Verdict::unsupported},
        ProseCase{"The match saw Dundee United win.", "Dundee United Sr won.", "Dundee United Sr", Verdict::confirmed},
        ProseCase{"The match saw Dundee United win.", "Dundee United Jr won.", "Dundee United Jr",
                  Verdict::unsupported},
        ProseCase{"Gloucester's Josh Hohneck was sent off.", "After Gloucester's Josh Hohneck was sent off, they won.",
                  "After Gloucester's Josh Hohneck", Verdict::confirmed},
        ProseCase{"The president praised it. Mr. Obama said the bill passed.", "President Obama signed the bill.",
                  "President Obama", Verdict::confirmed},
        // ... but not another name before it, nor an affiliation after it
        ProseCase{"Sheryl Lee Ralph and Laura Palmer starred.", "Sheryl Ralph starred.", "Sheryl Ralph",
                  Verdict::unsupported},
        ProseCase{"Keonna Thomas was charged. Philadelphia police said so.",
                  "Keonna Thomas of Philadelphia was charged.", "Keonna Thomas of Philadelphia", Verdict::unsupported},
        // a person the sources name by surname and by given name, each on its own
        ProseCase{"Former midfielder Sheerin, 39, replaces Neil Cooper. Paul's desire was to come back.",
                  "Paul Sheerin, 39, was appointed.", "Paul Sheerin", Verdict::confirmed},
        ProseCase{"Former midfielder Sheerin, 39, replaces Paul Smith. Paul said so.", "Paul Sheerin was appointed.",
                  "Paul Sheerin", Verdict::unsupported},  // the sources' Paul is someone else
        ProseCase{"Midfielder Sheerin replaces him. The paul was cut.", "Paul Sheerin was appointed.", "Paul Sheerin",
                  Verdict::unsupported},  // "paul" is no name there
        ProseCase{"Smith said he will appeal.", "Will Smith appealed.", "Will Smith", Verdict::unsupported},
        // an owner in the possessive before a place the sources name; a club's form after a name the
        // sources write on its own
        ProseCase{"He replaces Neil Cooper at Pittodrie. Aberdeen chief executive Duncan Fraser agreed.",
                  "He replaced Cooper at Aberdeen's Pittodrie.", "Aberdeen's Pittodrie", Verdict::confirmed},
        ProseCase{"He replaces Neil Cooper at Pittodrie.", "He replaced Cooper at Celtic's Pittodrie.",
                  "Celtic's Pittodrie", Verdict::unsupported},
        ProseCase{"Gloucester were a man down. Gloucester's win came late.", "Gloucester Rugby won.",
                  "Gloucester Rugby", Verdict::confirmed},
        // a common word the answer capitalised: a sentence's first word, a headline's words
        ProseCase{"He averaged 25 points, earning Class 6A Player of the Year.", "- Earned Class 6A Player of the Year",
                  "Earned Class", Verdict::confirmed},
        ProseCase{"He testified that survivors of the Boston Marathon bombing were hurt.",
                  "Boston Marathon Bombing Survivor Testifies", "Boston Marathon Bombing Survivor Testifies",
                  Verdict::confirmed},
        ProseCase{"west ham are discussing a deal . he left montego bay united .", "He impressed West Ham United.",
                  "West Ham United", Verdict::unsupported},  // a lower-cased corpus tells no common word
        ProseCase{"Survivors of the Boston Marathon bombing spoke.", "Boston Marathon Bombing Survivor Testifies",
                  "Boston Marathon Bombing Survivor Testifies", Verdict::unsupported},  // no one testified
        // a small count in digits where the sources write it in words, with the noun it counts
        ProseCase{"Police arrested two men in the raid.", "Police arrested 2 men.", "2", Verdict::confirmed},
        ProseCase{"Police arrested two men in the raid.", "Police arrested 3 men.", "3", Verdict::unsupported},
        ProseCase{"Police arrested two men in the raid.", "Police seized 2 cars.", "2", Verdict::unsupported},
        ProseCase{"Twelve people were hurt.", "12 people were hurt.", "12 people", Verdict::confirmed},
        ProseCase{"Twelve people were hurt.", "11 people were hurt.", "11 people", Verdict::unsupported},
        ProseCase{"The hotel is rated four stars.", "It is a 4-star hotel.", "4-star", Verdict::confirmed},
        ProseCase{"It is a five-star hotel.", "It is a 5-star hotel.", "5-star", Verdict::confirmed},
        ProseCase{"It is a five-star hotel.", "It is a 4-star hotel.", "4-star", Verdict::unsupported},
        // a company's suffix written out
        ProseCase{"Acme Corp. hired Jane Smith.", "Jane Smith joined Acme Corporation.", "Acme Corporation",
                  Verdict::confirmed},
        ProseCase{"Initech Limited was fined.", "Initrode Ltd was fined.", "Initrode Ltd", Verdict::unsupported},
        // a Chinese time of day is the same time in English and the other way round
        ProseCase{"会议于下午3点半开始。", "The meeting starts at 3:30 pm.", "3:30 pm", Verdict::confirmed},
        ProseCase{"会议于下午3点半开始。", "The meeting starts at 4:30 pm.", "4:30 pm", Verdict::unsupported},
        ProseCase{"The flight departs at 7:35 pm.", "航班于19时35分起飞。", "19时35分", Verdict::confirmed},
        ProseCase{"The flight departs at 7:35 pm.", "航班晚上7点45分起飞。", "7点45分", Verdict::unsupported},
        // a phone number with its area code in parentheses, against one written with dashes
        ProseCase{"Call 555-010-2233 for help.", "Call (555) 010-2233.", "(555) 010-2233", Verdict::confirmed},
        ProseCase{"Call 555-010-2233 for help.", "Call (555) 010-2234.", "(555) 010-2234", Verdict::unsupported},
        // a day of the month written as an ordinal, against 3日 or a full date
        ProseCase{"他于3日抵达北京。", "He arrived in Beijing on the 3rd.", "3rd", Verdict::confirmed},
        ProseCase{"他于3日抵达北京。", "He arrived in Beijing on the 4th.", "4th", Verdict::unsupported},
        ProseCase{"He arrived in Beijing on the 3rd.", "他于3日抵达北京。", "3日", Verdict::confirmed},
        ProseCase{"The payment is due on May 15, 2024.", "Pay by the 15th.", "15th", Verdict::confirmed},
        // a year as a number and as a date: either language's year confirms the other's
        ProseCase{"公司成立于1998年。", "The company was founded in 1998.", "1998", Verdict::confirmed},
        ProseCase{"公司成立于1998年3月12日。", "The company was founded in 1998.", "1998", Verdict::confirmed},
        ProseCase{"公司成立于1998年。", "The company was founded in 1999.", "1999", Verdict::unsupported},
        ProseCase{"The company was founded in 1998 in Shenzhen.", "该公司于1998年在深圳成立。", "1998年",
                  Verdict::confirmed},
        ProseCase{"The company was founded in 1998 in Shenzhen.", "该公司于1997年在深圳成立。", "1997年",
                  Verdict::unsupported},
        // a Chinese decimal is the value its digits are
        ProseCase{"营收为3.5亿元。", "营收三点五亿元。", "三点五亿元", Verdict::confirmed},
        ProseCase{"营收为3.5亿元。", "营收四点五亿元。", "四点五亿元", Verdict::unsupported},
        ProseCase{"Growth was 3.5%.", "增速为百分之三点五。", "百分之三点五", Verdict::confirmed},
        ProseCase{"Growth was 3.5%.", "增速为百分之四点五。", "百分之四点五", Verdict::unsupported},
        // a decade in either language
        ProseCase{"The band formed in the 1990s.", "乐队成立于90年代。", "90年代", Verdict::confirmed},
        ProseCase{"The band formed in the 1990s.", "乐队成立于80年代。", "80年代", Verdict::unsupported},
        // a people's name for a country the sources name in the same run
        ProseCase{"Officials in American Samoa said 12 people were hurt.", "American Samoan officials said so.",
                  "American Samoan", Verdict::confirmed},
        ProseCase{"Officials in Western Samoa said so.", "American Samoan officials said so.", "American Samoan",
                  Verdict::unsupported},
        ProseCase{"The team from North Korea won.", "The South Korean team won.", "South Korean", Verdict::unsupported},
        ProseCase{"He fled Northern Ireland in 1990.", "The Northern Irish man fled.", "Northern Irish",
                  Verdict::confirmed},
        // an organisation's words in another order
        ProseCase{"In 18 months the Justice Department's National Security Division prosecuted 30 cases.",
                  "The Department of Justice prosecuted 30 cases.", "Department of Justice", Verdict::confirmed},
        // a tokenised source and a written-out escape
        ProseCase{"It premiered on ABC on November 28 , 1972 .", "It premiered on November 28, 1972.",
                  "November 28, 1972", Verdict::confirmed},
        ProseCase{"It premiered on ABC on November 28 , 1972 .", "It premiered on November 29, 1972.",
                  "November 29, 1972", Verdict::unsupported},
        ProseCase{"He met Jane Smith.\\nThe deal closed.", "He met Jane Smith.", "Jane Smith", Verdict::confirmed},
        // a rating written as a compound, and an age written as news writes it
        ProseCase{"'business_stars': 4.0", "It has a 4-star rating.", "4-star", Verdict::confirmed},
        ProseCase{"'business_stars': 4.0", "It has a 3-star rating.", "3-star", Verdict::unsupported},
        // a derived value needs its clause to name the computation
        ProseCase{"The deposit was $1,250 and the balance $2,300.", "The total is $3,550.", "$3,550", Verdict::derived},
        ProseCase{"The deposit was $1,250 and the balance $2,300.", "$3,550 was paid in all.", "$3,550",
                  Verdict::derived},
        ProseCase{"The deposit was $1,250 and the balance $2,300.", "The fee is $3,550.", "$3,550",
                  Verdict::unsupported},
        ProseCase{"首付120万元，贷款230万元。", "两项合计350万元。", "350万元", Verdict::derived},
        ProseCase{"首付120万元，贷款230万元。", "押金为350万元。", "350万元", Verdict::unsupported},
        // a share the source states of its value ("half of the 40 staff") derives that share
        ProseCase{"Half of the 40 staff left in May.", "20 staff left in May.", "20 staff", Verdict::derived},
        ProseCase{"Half of the 40 staff left in May.", "25 staff left in May.", "25 staff", Verdict::unsupported},
        ProseCase{"More than half of the 40 staff left.", "20 staff left.", "20 staff", Verdict::unsupported},
        ProseCase{"At least half of the 40 staff left.", "20 staff left.", "20 staff", Verdict::unsupported},
        ProseCase{"40名员工中一半以上离职。", "20名员工离职。", "20名", Verdict::unsupported},
        ProseCase{"The deposit is a third of the $900 fee.", "The deposit is $300.", "$300", Verdict::derived},
        ProseCase{"40名员工中有一半离职。", "20名员工离职。", "20名", Verdict::derived},
        ProseCase{"40名员工中有一半离职。", "25名员工离职。", "25名", Verdict::unsupported},
        ProseCase{"押金为900元的三分之一。", "押金为300元。", "300元", Verdict::derived},
        // Chinese day of the month and compound magnitudes
        ProseCase{"2015年3月25日，智利外交部发表声明。", "智利外交部25日发表声明。", "25日", Verdict::confirmed},
        ProseCase{"2015年3月25日，智利外交部发表声明。", "智利外交部26日发表声明。", "26日", Verdict::unsupported},
        ProseCase{"涉案金额约3000亿元。", "涉案金额约3千亿元。", "3千亿元", Verdict::confirmed},
        ProseCase{"涉案金额约3000亿元。", "涉案金额约4千亿元。", "4千亿元", Verdict::unsupported}));

// Faithful answers' kinds (docs/FIDELITY.md, "Faithful answers, fifth round"): a title the sources
// give a person written before the name, an affiliation after a description, a full-width score
// that is no label, a count's noun before "和", 次 for 个, a total and a count of what the answer
// listed; each with the wrong value that stays caught.
INSTANTIATE_TEST_SUITE_P(
    FaithfulFifthRound, ProseTable,
    ::testing::Values(
        ProseCase{"The taco buffet was great.  Dina, the Events Coordinator, was incredibly helpful.",
                  "They praised Events Coordinator Dina.", "Events Coordinator Dina", Verdict::confirmed},
        ProseCase{"Cameron Hardin, the Head of Household, targeted Felicia Cannon for eviction.",
                  "Head of Household Cameron Hardin nominated her.", "Head of Household Cameron Hardin",
                  Verdict::confirmed},
        ProseCase{"Cameron Hardin, the Head of Household, targeted Felicia Cannon for eviction.",
                  "Head of Household Felicia Cannon nominated her.", "Head of Household Felicia Cannon",
                  Verdict::unsupported},
        // a description a sentence away, or across a clause, is no appositive
        ProseCase{"His rival Felicia was nominated. But his third week as the Head of Household ended.",
                  "Head of Household Felicia was nominated.", "Head of Household Felicia", Verdict::unsupported},
        ProseCase{"Yesterday the Events Coordinator thanked Dina.", "They praised Events Coordinator Dina.",
                  "Events Coordinator Dina", Verdict::unsupported},
        ProseCase{"The police took John Smith into custody.", "Custodian John Smith spoke.", "Custodian John Smith",
                  Verdict::unsupported},
        ProseCase{"They made up half of it, according to Arezo Malakooti, the director. Altai Consulting disagreed.",
                  "According to Arezo Malakooti of Altai Consulting, they made up half.",
                  "Arezo Malakooti of Altai Consulting", Verdict::unsupported},
        ProseCase{"纳达尔战胜赛会6号种子贝尔迪赫，与2号种子默里会师。纳达尔以7：6（3）、6：1的比分淘汰贝尔迪赫。",
                  "纳达尔以7：6（3）、6：1淘汰6号种子贝尔迪赫。", "6", Verdict::confirmed},
        ProseCase{"纳达尔战胜赛会6号种子贝尔迪赫，与2号种子默里会师。纳达尔以7：6（3）、6：1的比分淘汰贝尔迪赫。",
                  "纳达尔以7：6（3）、6：1淘汰5号种子贝尔迪赫。", "5", Verdict::unsupported},
        ProseCase{"工程中共完成千手观音造像830只手与227件法器的修复。", "工程共完成830只手和227件法器的修复。", "830只",
                  Verdict::confirmed},
        ProseCase{"工程中共完成千手观音造像830只手与227件法器的修复。", "工程共完成830只眼和227件法器的修复。", "830只",
                  Verdict::unsupported},
        ProseCase{"外援帕戈得到全场最高的27分和9个助攻，获得3个国家的支持。", "帕戈砍下27分和9次助攻。", "9次",
                  Verdict::confirmed},
        ProseCase{"外援帕戈得到全场最高的27分和9个助攻，获得3个国家的支持。", "他曾获得3次冠军。", "3次",
                  Verdict::unsupported},
        ProseCase{"帕戈得到9个篮板和5个助攻。", "帕戈送出9次助攻。", "9次", Verdict::unsupported},
        ProseCase{"共有3个国家的选手获得冠军。", "他曾获得3次冠军。", "3次", Verdict::unsupported},
        ProseCase{"委员会由6名法官、3名国民议会议员、3名参议员和一名技术专家组成。",
                  "成员包括6名法官、3名国民议会议员、3名参议员和一名技术专家，共13人。", "13人", Verdict::derived},
        ProseCase{"委员会由6名法官、3名国民议会议员、3名参议员和一名技术专家组成。",
                  "成员包括6名法官、3名国民议会议员、3名参议员和一名技术专家，共14人。", "14人", Verdict::unsupported},
        ProseCase{"名单已公布。", "获得第一名的有3人，第二名的有5人，共9人。", "9人", Verdict::unsupported},
        ProseCase{"名单已公布。", "委员会有6名委员，其中2名女性，共8人。", "8人", Verdict::unsupported},
        ProseCase{"伍助前、游水姣夫妇在新化县长期非法集资。", "伍助前、游水姣夫妇在新化县长期非法集资。二人均被判刑。",
                  "二人", Verdict::derived},
        ProseCase{"伍助前、游水姣夫妇在新化县长期非法集资。", "伍助前、游水姣夫妇在新化县长期非法集资。三人均被判刑。",
                  "三人", Verdict::unsupported},
        ProseCase{"张三、李四、王五被起诉，赵六和钱七获释。", "张三、李四、王五被起诉，赵六和钱七获释，两人当天回家。",
                  "两人", Verdict::derived},
        ProseCase{"张三、李四、王五被起诉，赵六和钱七获释。", "张三、李四、王五被起诉，赵六和钱七获释，三人当天回家。",
                  "三人", Verdict::unsupported},
        ProseCase{"张三和李四被起诉。", "张三和李四被起诉。法院开庭。天气很好。二人均未出庭。", "二人",
                  Verdict::unsupported},
        ProseCase{"《绣之雅蕴》和《美丽乡村》在阿什哈巴德落幕。",
                  "《绣之雅蕴》和《美丽乡村》在阿什哈巴德落幕。两项展览均为期两天。", "两项", Verdict::derived},
        ProseCase{"《绣之雅蕴》和《美丽乡村》在阿什哈巴德落幕。",
                  "《绣之雅蕴》和《美丽乡村》在阿什哈巴德落幕。三项展览均为期两天。", "三项", Verdict::unsupported},
        // a compound written as one word, a people's name before a person, a role in lower case right
        // before coordinated names, a day after the dateline
        ProseCase{"Clarkson will perform on New Year's Eve and Superbowl weekend.",
                  "She performs on Super Bowl weekend.", "Super Bowl", Verdict::confirmed},
        ProseCase{"Clarkson will perform on New Year's Eve and Superbowl weekend.",
                  "She performs on Super Cup weekend.", "Super Cup", Verdict::unsupported},
        ProseCase{"Rand Paul, a senator from Kentucky, announced his candidacy.", "Texan Rand Paul announced it.",
                  "Texan Rand Paul", Verdict::unsupported},
        ProseCase{"I spoke to rude workers (Nestor and Michael who claimed to be the owners).",
                  "Workers Nestor and Michael refused.", "Workers Nestor", Verdict::confirmed},
        ProseCase{"I spoke to rude workers (Nestor and Michael who claimed to be the owners).",
                  "Workers Dave and Michael refused.", "Workers Dave", Verdict::unsupported},
        ProseCase{"新华社福州2月25日专电（记者董建国）24日，福州举行今年首场土地拍卖。",
                  "2月24日，福州举行首场土地拍卖。", "2月24日", Verdict::confirmed},
        ProseCase{"新华社福州2月25日专电（记者董建国）24日，福州举行今年首场土地拍卖。",
                  "2月23日，福州举行首场土地拍卖。", "2月23日", Verdict::unsupported},
        // an age counts nothing
        ProseCase{"莫雷诺15岁时打破玻利维亚联赛最年轻球员的进球纪录。", "莫雷诺15岁时打破纪录。", "15",
                  Verdict::confirmed},
        ProseCase{"莫雷诺15岁时打破玻利维亚联赛最年轻球员的进球纪录。", "莫雷诺已打入15个进球。", "15个",
                  Verdict::unsupported}));

// Faithful answers' kinds (docs/FIDELITY.md, "Faithful answers, sixth round"): a time whose days a
// later clause names, a source written in lower case, a unit glued to its number, a day of the month
// before a verb, hours of the morning and the night in words, a title's abbreviation before a name,
// plain measure words, ranks without 第, a list that shares its last item's unit, an anniversary, a
// count of listed titles or of a list before 的 or 这, and a total of medals; each with the wrong
// value that stays caught.
INSTANTIATE_TEST_SUITE_P(
    FaithfulSixthRound, ProseTable,
    ::testing::Values(
        ProseCase{"'hours': {'Tuesday': '12:0-21:0', 'Wednesday': '12:0-21:0', 'Thursday': '12:0-21:0', "
                  "'Friday': '12:0-22:0'}",
                  "From Tuesday to Thursday it is open from noon until 9 pm, on Friday from 12:00 to 22:00.", "9 pm",
                  Verdict::confirmed},
        ProseCase{"'hours': {'Tuesday': '12:0-21:0', 'Wednesday': '12:0-21:0', 'Thursday': '12:0-21:0', "
                  "'Friday': '12:0-22:0'}",
                  "From Tuesday to Thursday it is open from noon until 10 pm, on Friday from 12:00 to 22:00.", "10 pm",
                  Verdict::unsupported},
        ProseCase{"come the rematch in new orleans on november 25 , 1980 , controversy was replaced .",
                  "The rematch came on 25 November 1980.", "25 November 1980", Verdict::confirmed},
        ProseCase{"come the rematch in new orleans on november 25 , 1980 , controversy was replaced .",
                  "The rematch came on 26 November 1980.", "26 November 1980", Verdict::unsupported},
        ProseCase{"The quake struck at a depth of 15.5km (9.6 miles) 35km north of Lucca.",
                  "It struck 35 km north of Lucca.", "35 km", Verdict::confirmed},
        ProseCase{"The quake struck at a depth of 15.5km (9.6 miles) 35km north of Lucca.",
                  "It struck 36 km north of Lucca.", "36 km", Verdict::unsupported},
        ProseCase{"All reviews are from January 2022: 'review_date': '2022-01-17', 'review_text': 'Perfect.'",
                  "A reviewer on the 17th called it perfect.", "17th", Verdict::confirmed},
        ProseCase{"All reviews are from January 2022: 'review_date': '2022-01-17', 'review_text': 'Perfect.'",
                  "A reviewer on the 18th called it perfect.", "18th", Verdict::unsupported},
        ProseCase{"'hours': {'Monday': '8:0-2:0', 'Tuesday': '8:0-2:0'}",
                  "It is open from 8 in the morning until 2 at night.", "2 at night", Verdict::confirmed},
        ProseCase{"'hours': {'Monday': '8:0-2:0', 'Tuesday': '8:0-2:0'}",
                  "It is open from 9 in the morning until 2 at night.", "9 in the morning", Verdict::unsupported},
        ProseCase{"Rep. Anthony D'Esposito filed the motion.", "Republican Rep. Anthony D'Esposito filed it.",
                  "Anthony D'Esposito", Verdict::confirmed},
        ProseCase{"Rep. Anthony D'Esposito filed the motion.", "Republican Rep. Anthony Santos filed it.",
                  "Anthony Santos", Verdict::unsupported},
        ProseCase{"共有11家医院参与。", "共有11所医院参与。", "11所", Verdict::confirmed},
        ProseCase{"共有11家医院参与。", "共有12所医院参与。", "12所", Verdict::unsupported},
        // 次 says how often: no thing's own measure word stands for it
        ProseCase{"朝鲜今年已发射了5次导弹。", "朝鲜今年已发射了5枚导弹。", "5枚", Verdict::unsupported},
        ProseCase{"她一共去过4次银行。", "她一共去过4家银行。", "4家", Verdict::unsupported},
        ProseCase{"西贝柳斯一生创作了7首交响曲。", "西贝柳斯一生写下7部交响曲。", "7部", Verdict::confirmed},
        ProseCase{"西贝柳斯一生创作了7首交响曲和9首歌曲。", "西贝柳斯一生写下9部交响曲。", "9部", Verdict::unsupported},
        ProseCase{"不丹队目前世界排名159位。", "不丹队世界排名第159位。", "第159位", Verdict::confirmed},
        ProseCase{"不丹队目前世界排名159位。", "不丹队世界排名第160位。", "第160位", Verdict::unsupported},
        ProseCase{"当时黄雪辰和刘鸥组合排名第三。", "黄雪辰和刘鸥获得第三名。", "第三名", Verdict::confirmed},
        ProseCase{"当时黄雪辰和刘鸥组合排名第三。", "黄雪辰和刘鸥获得第四名。", "第四名", Verdict::unsupported},
        ProseCase{"苏亚雷斯在第21分钟破门，又在第48分钟破门，第85分钟再进一球。",
                  "苏亚雷斯在第21、48和85分钟连入三球。", "21", Verdict::confirmed},
        ProseCase{"苏亚雷斯在第21分钟破门，又在第48分钟破门，第85分钟再进一球。",
                  "苏亚雷斯在第22、48和85分钟连入三球。", "22", Verdict::unsupported},
        ProseCase{"约翰逊曾在西贝柳斯诞辰100周年之际发表讲话。", "约翰逊在其诞辰一百周年时发表讲话。", "一百周年",
                  Verdict::confirmed},
        ProseCase{"约翰逊曾在西贝柳斯诞辰100周年之际发表讲话。", "约翰逊在其诞辰150周年时发表讲话。", "150周年",
                  Verdict::unsupported},
        ProseCase{"研究发表在多本期刊上。", "研究发表在《植物学杂志》《实验植物学杂志》及《科技报告》三份期刊。",
                  "三份", Verdict::derived},
        ProseCase{"研究发表在多本期刊上。", "研究发表在《植物学杂志》《实验植物学杂志》及《科技报告》两份期刊。",
                  "两份", Verdict::unsupported},
        ProseCase{"文章提到决策程序。",
                  "将公众参与、专家论证、风险评估、合法性审查、集体讨论决定这五项确定为法定程序。", "五项",
                  Verdict::derived},
        ProseCase{"文章提到决策程序。",
                  "将公众参与、专家论证、风险评估、合法性审查、集体讨论决定这四项确定为法定程序。", "四项",
                  Verdict::unsupported},
        // after 的 the count is of what the list's items own
        ProseCase{"来自美国、英国和法国的6名记者参加了会议。", "美国、英国和法国的3名记者参加了会议。", "3名",
                  Verdict::unsupported},
        ProseCase{"科考站由两国建设。", "这是中国与巴西在南极地区共同建设的第二个科考站。", "第二个",
                  Verdict::unsupported},
        ProseCase{"中国队获得15金13银13铜。", "中国队以15金13银13铜、共41枚奖牌的成绩高居首位。", "41枚",
                  Verdict::derived},
        ProseCase{"中国队获得15金13银13铜。", "中国队以15金13银13铜、共42枚奖牌的成绩高居首位。", "42枚",
                  Verdict::unsupported},
        // a medal table without a colour, or against the total the sources state, is no total
        ProseCase{"中国队获得15金13银13铜，共41枚奖牌。", "中国队以15金13银、共28枚奖牌的成绩居首。", "28枚",
                  Verdict::unsupported},
        // ranks: not a count behind 之后 or 以外, and the items of a list after 第
        ProseCase{"他在决赛中获得第3名。", "他在决赛中排在3名选手之后。", "3名", Verdict::unsupported},
        ProseCase{"三人分别获得第1、第2和第3名。", "三人分别获得第1、2和3名。", "2", Verdict::confirmed},
        // a title's abbreviation only before a name: "Sen" is a surname too
        ProseCase{"Cambodia is led by Hun Manet.", "Cambodia is led by Hun Sen.", "Hun Sen", Verdict::unsupported},
        // a count before a time word, a compound unit and an ordinal before a noun stay what they are
        ProseCase{"The temperature fell to 3 degrees at night.", "The temperature fell to 3 at night.", "3",
                  Verdict::confirmed},
        ProseCase{"On one charge it covers 60km.", "It goes 60km/h.", "60km/h", Verdict::unsupported},
        ProseCase{"He quit after the third failed attempt.", "He quit after the 3rd failed attempt.", "3rd",
                  Verdict::confirmed},
        ProseCase{"患者被送往洛阳市中心医院救治。", "患者被送往郑州市中心医院救治。", "郑州市中心医院",
                  Verdict::unsupported},
        // a middle initial added or dropped; another surname stays caught
        ProseCase{"Last month, Utah Gov. Gary R. Herbert signed a law.", "Utah Governor Gary Herbert signed a law.",
                  "Utah Governor Gary Herbert", Verdict::confirmed},
        ProseCase{"Last month, Utah Gov. Gary R. Herbert signed a law.", "Gary Hebert signed a law.", "Gary Hebert",
                  Verdict::unsupported},
        // "30+ years" says at least 30
        ProseCase{"I've lived in Cito for 30+ years.", "The reviewer has lived there for more than 30 years.",
                  "30 years", Verdict::confirmed},
        ProseCase{"I've lived in Cito for 30+ years.", "The reviewer has lived there for 40 years.", "40 years",
                  Verdict::unsupported},
        // a record's number under a field that names the unit
        ProseCase{"{'review_stars': 2.0, 'review_text': \"I've been in here twice during the past 2 weeks.\"}",
                  "The critical review (2 stars) said it was dead.", "2 stars", Verdict::confirmed},
        ProseCase{"{'review_stars': 2.0, 'review_text': \"I've been in here twice during the past 2 weeks.\"}",
                  "The critical review (3 stars) said it was dead.", "3 stars", Verdict::unsupported},
        // a sentence's first word in -ing before an owner; a heading's capitalised common words
        ProseCase{"While doing press for FOX's Special Forces show, she spoke.", "Promoting FOX's show, she spoke.",
                  "Promoting FOX's", Verdict::confirmed},
        ProseCase{"While doing press for FOX's Special Forces show, she spoke.", "Promoting NBC's show, she spoke.",
                  "Promoting NBC's", Verdict::unsupported},
        ProseCase{"a whale was found washed up . the omura 's whale is a rare species .",
                  "**Rare Omura's Whale Washes Up**\n\nA whale was found.", "Rare Omura's Whale Washes Up",
                  Verdict::confirmed},
        ProseCase{"a whale was found washed up . the omura 's whale is a rare species .",
                  "**Rare Bryde's Whale Washes Up**\n\nA whale was found.", "Rare Bryde's Whale Washes Up",
                  Verdict::unsupported},
        // the review's counterexamples to the second set of rules
        ProseCase{"John F. Kennedy was elected.", "John Q. Kennedy was elected.", "John Q. Kennedy",
                  Verdict::unsupported},
        ProseCase{"John Kennedy was elected.", "John F. Kennedy was elected.", "John F. Kennedy", Verdict::confirmed},
        ProseCase{"Seth Curry scored 20 points for Dallas. Klay Thompson added 15 for Golden State.",
                  "**Klay Curry**\n\nHe scored.", "Klay Curry", Verdict::unsupported},
        ProseCase{"Seth Curry's team won the game.", "Sterling Curry's team won the game.", "Sterling Curry's",
                  Verdict::unsupported},
        ProseCase{"共有15位选手参赛，他世界排名第40位。", "他世界排名15位。", "15位", Verdict::unsupported},
        ProseCase{"该国今年共发生了3次地震。", "该国今年共有3个地震带。", "3个", Verdict::unsupported},
        ProseCase{"{'player': 'Kane', 'goals_conceded_by_team': 2, 'summary': 'Kane had 2 assists.'}",
                  "Kane scored 2 goals.", "2 goals", Verdict::unsupported},
        ProseCase{"The flight leaves at 6 a.m. on Monday.", "The flight leaves at 6 in the morning.",
                  "6 in the morning", Verdict::confirmed},
        ProseCase{"日本队获得5金3银。", "日本队以5金3银、共8枚奖牌位列第二。", "8枚", Verdict::derived},
        ProseCase{"这篇文章共有1500字。", "这篇文章共有1500个字。", "1500个", Verdict::confirmed},
        ProseCase{"卫冕冠军拜仁队保持连胜纪录，第10轮6日展开6场角逐。", "已经以6连胜开局的拜仁本轮作客。", "6连胜",
                  Verdict::unsupported},
        ProseCase{"拜仁队已取得6连胜。", "已经以6连胜开局的拜仁本轮作客。", "6连胜", Verdict::confirmed}));

// Faithful answers, seventh round: a rank in digits after a word of ranking without 第 (位列27), and
// given names joined before one surname; each with the wrong value that stays caught.
INSTANTIATE_TEST_SUITE_P(
    FaithfulSeventhRound, ProseTable,
    ::testing::Values(ProseCase{"速度赛中位列第17，攀石赛中位列27，以均衡的表现蝉联亚军。", "攀石赛第27名。", "第27名",
                                Verdict::confirmed},
                      ProseCase{"速度赛中位列第17，攀石赛中位列27，以均衡的表现蝉联亚军。", "攀石赛第28名。", "第28名",
                                Verdict::unsupported},
                      ProseCase{"Like the Busby family, Sharon and Korey Rademacher were hoping for a second child.",
                                "Sharon Rademacher gave birth to twins.", "Sharon Rademacher", Verdict::confirmed},
                      ProseCase{"Like the Busby family, Sharon and Korey Rademacher were hoping for a second child.",
                                "Sharon Busby gave birth to twins.", "Sharon Busby", Verdict::unsupported}));

// The eighth round of faithful answers: a first said with 首, a company in another legal form, and
// counts of lists the answer gives in their own clause; each beside the wrong value it must not pass.
INSTANTIATE_TEST_SUITE_P(
    FaithfulEighthRound, ProseTable,
    ::testing::Values(
        ProseCase{"迎来了瑞士天王费德勒的首场比赛。", "这是费德勒的第一场比赛。", "第一场", Verdict::confirmed},
        ProseCase{"迎来了瑞士天王费德勒的首场比赛。", "这也是他今年的第一场失利。", "第一场", Verdict::unsupported},
        ProseCase{"他在2015年首度访华。", "他在2015年第一次访华。", "第一次", Verdict::confirmed},
        ProseCase{"首轮投票中甲候选人领先，第二轮投票中乙候选人胜出。", "乙候选人在第一轮投票中胜出。", "第一轮",
                  Verdict::unsupported},
        // withheld where a source also writes a later one of the same words: which one is the claim
        ProseCase{"首轮投票中甲候选人领先，第二轮投票中乙候选人胜出。", "第一轮投票中甲候选人领先。", "第一轮",
                  Verdict::unsupported},
        ProseCase{"首轮投票中甲候选人领先，乙候选人最终胜出。", "第一轮投票中甲候选人领先。", "第一轮",
                  Verdict::confirmed},
        ProseCase{"他头一次访华是在2015年。", "他第一次访华是在2015年。", "第一次", Verdict::confirmed},
        ProseCase{"公司首次进入亚洲市场；欧洲市场早已进入。", "公司第一次进入欧洲市场。", "第一次",
                  Verdict::unsupported},
        ProseCase{"城市经济总量位居全国首位。", "城市人口排名全国第一位。", "第一位", Verdict::unsupported},
        ProseCase{"国家电网福建省电力公司提前启动春节保电工作。", "福建省电力有限公司春节期间坚守岗位。",
                  "福建省电力有限公司", Verdict::confirmed},
        ProseCase{"宁波甬能新材料股份有限公司发布公告。", "宁波甬能新材料有限公司发布公告。", "宁波甬能新材料有限公司",
                  Verdict::confirmed},
        ProseCase{"宁波甬能新材料股份有限公司发布公告。", "宁波甬能新能源有限公司发布公告。", "宁波甬能新能源有限公司",
                  Verdict::unsupported},
        ProseCase{"华能国际电力股份有限公司发布公告。", "大唐国际电力有限公司发布公告。", "大唐国际电力有限公司",
                  Verdict::unsupported},
        ProseCase{"史万成参加冬运会。", "史万成参加了三届冬运会，前两届分别获得亚军和季军。", "两届", Verdict::derived},
        ProseCase{"史万成参加冬运会。", "史万成参加了三届冬运会，前两届分别获得冠军、亚军和季军。", "两届",
                  Verdict::unsupported},
        ProseCase{"她是获奖的第四位中国女科学家。", "前三位是李方华（2003年）、叶玉如（2004年）和任咏华（2011年）。",
                  "三位", Verdict::derived},
        ProseCase{"刘添荣表示，此次行动实现了多个首次。",
                  "此次行动实现了三个“首次”：首次开展联合巡航，首次开展联合搜救演练，首次开展执法交流。", "三个",
                  Verdict::derived},
        ProseCase{"本次任务实现了两个“首次”：首次在月球背面着陆，首次实现中继通信。",
                  "本次任务实现了三个“首次”：首次在月球背面着陆，首次实现中继通信，首次采集月壤样本。", "三个",
                  Verdict::unsupported},
        ProseCase{"该队在四场比赛中取胜。", "该队在三场比赛中：比赛开始就领先，比赛中段扩大优势，比赛最后锁定胜局。",
                  "三场", Verdict::unsupported},
        ProseCase{"The film stars Holly Hunter, Anne Bancroft and Claire Danes.",
                  "It stars Holly Hunter, Anne Bancroft and Claire Danes, three names in all.", "three",
                  Verdict::derived},
        ProseCase{"The prize was shared by Ann Lee, Bob Hart, Cy Young and Dee Snow, four laureates.",
                  "The prize went to Ann Lee, Bob Hart and Dee Snow, three laureates all told.", "three",
                  Verdict::unsupported},
        ProseCase{"Smith scored.", "Smith, Jones and Brown, 3 goals each.", "3 goals", Verdict::unsupported},
        // a multiple in English, operands shown with their magnitude word, a range's first end with its
        // own magnitude, a noun that opens with 中
        ProseCase{"The winner gets $60,000 and the runner-up $20,000.",
                  "The winner's prize is 3 times the runner-up's.", "3 times", Verdict::derived},
        ProseCase{"The winner gets $60,000 and the runner-up $20,000.",
                  "The winner's prize is 4 times the runner-up's.", "4 times", Verdict::unsupported},
        ProseCase{"冠、亚军奖金分别为6万元和2万元。上届曾获得5万元的特别奖。",
                  "冠军奖金6万元、亚军2万元，冠军奖金是亚军的三倍。", "三倍", Verdict::derived},
        ProseCase{"冠、亚军奖金分别为6万元和2万元。上届曾获得5万元的特别奖。",
                  "冠军奖金6万元、亚军2万元，冠军奖金是亚军的四倍。", "四倍", Verdict::unsupported},
        ProseCase{"运营费用约为4000至5000美元（约合2.6万至3.2万元人民币）。", "约合人民币2.6万至3.2万元。",
                  "人民币2.6万", Verdict::confirmed},
        ProseCase{"运营费用约为4000至5000美元（约合2.6万至3.2万元人民币）。", "约合人民币2.8万至3.2万元。",
                  "人民币2.8万", Verdict::unsupported},
        ProseCase{"Plant A employs 900 workers; Plant B employs 300 workers.",
                  "Plant A has 3 times as many workers as Plant B.", "3 times", Verdict::derived},
        ProseCase{"He was elected mayor 3 times. The city has 300,000 residents, up from 100,000.",
                  "He was elected 3 times as mayor.", "3 times", Verdict::confirmed},
        ProseCase{"The new hall is twice the size of the old one.", "The new hall is 2 times as large as the old one.",
                  "2 times", Verdict::confirmed},
        ProseCase{"约有1.2万至1.5万家企业参展。", "约1.2万至1.5万家企业参展。", "1.2万", Verdict::confirmed},
        // a Chinese list whose last item is a Latin name; a margin of points
        ProseCase{"石化类商品中，PTA、橡胶、玻璃、PVC上涨。", "石化类商品中，PTA、橡胶、玻璃、PVC四个品种上涨。",
                  "四个", Verdict::derived},
        ProseCase{"石化类商品中，PTA、橡胶、玻璃、PVC上涨。", "石化类商品中，PTA、橡胶、玻璃、PVC五个品种上涨。",
                  "五个", Verdict::unsupported},
        ProseCase{"勇士队以112：109险胜猛龙队。", "勇士队以112：109仅以3分之差险胜猛龙队。", "3分", Verdict::derived},
        ProseCase{"勇士队以112：109险胜猛龙队，库里投中5个3分球。", "勇士队以112：109仅以4分之差险胜猛龙队。", "4分",
                  Verdict::unsupported},
        // rings scored
        ProseCase{"韩国男团最后一局发挥失准，以6环之差负于日本队。", "韩国队以六环之差不敌日本。", "六环",
                  Verdict::confirmed},
        ProseCase{"韩国男团最后一局发挥失准，以6环之差负于日本队。", "韩国队以五环之差不敌日本。", "五环",
                  Verdict::unsupported}));

constexpr const char* kWeekOfReviews =
    "{'hours': {'Monday': '17:30-23:0', 'Tuesday': '17:0-21:0', 'Wednesday': '17:0-21:0', 'Thursday': '17:0-21:0', "
    "'Friday': '17:0-21:0', 'Saturday': '17:0-21:0', 'Sunday': '9:0-14:0'}, 'review_info': [{'review_date': "
    "'2021-12-24 05:45:27'}, {'review_date': '2021-12-21 03:21:40'}]}";

// The ninth round of faithful answers (values re-expressed as writers do): points as a count of them,
// goals as times scored, ages the sources give bare, a day of the month as an ordinal, counts of the
// lists the answer names; each beside the wrong values it must not pass.
INSTANTIATE_TEST_SUITE_P(
    FaithfulNinthRound, ProseTable,
    ::testing::Values(
        ProseCase{"这也是32岁的她首次包揽双冠。25岁的意大利姑娘祖布拉辛获得亚军。", "32岁的佩契奇首次包揽双冠。", "32",
                  Verdict::confirmed},
        ProseCase{"这也是32岁的她首次包揽双冠。25岁的意大利姑娘祖布拉辛获得亚军。", "27岁的佩契奇首次包揽双冠。", "27",
                  Verdict::unsupported},
        ProseCase{"张国伟以7个积分在赛季总排名中位列次席。", "赛前张国伟积7分排名第二。", "7分", Verdict::confirmed},
        ProseCase{"张国伟以7个积分在赛季总排名中位列次席。", "赛前张国伟积8分排名第二。", "8分", Verdict::unsupported},
        ProseCase{"The defendant, now 34 and called Davina, denied the charge.", "A 34-year-old denied the charge.",
                  "34-year", Verdict::confirmed},
        ProseCase{"The defendant, now 34 and called Davina, denied the charge.", "A 35-year-old denied the charge.",
                  "35-year", Verdict::unsupported},
        ProseCase{"Smith made his debut in 2012 and has scored four times in 89 appearances.",
                  "Smith has scored four goals in 89 appearances.", "four goals", Verdict::confirmed},
        // (a small count in words that nothing supports is unverifiable: digits here)
        ProseCase{"Smith made his debut in 2012 and has played four times in 89 appearances.",
                  "Smith has scored 4 goals in 89 appearances.", "4 goals", Verdict::unsupported},
        ProseCase{"He has five goals this season.", "He has found the net five times this season.", "five times",
                  Verdict::confirmed},
        ProseCase{"He has five goals this season.", "He has found the net 6 times this season.", "6 times",
                  Verdict::unsupported},
        ProseCase{"review_date: 2020-11-22 20:11:13", "A five-star review on the 22nd praised the staff.", "22nd",
                  Verdict::confirmed},
        ProseCase{"review_date: 2020-11-22 20:11:13", "A five-star review on the 23rd praised the staff.", "23rd",
                  Verdict::unsupported},
        ProseCase{"review_date: 2020-11-22 20:11:13", "The office on the 22nd floor was closed.", "22nd",
                  Verdict::unsupported},
        ProseCase{"Feeder vessel to Bergen, ETA 22 August 2025.", "It reaches Bergen around the 22nd.", "22nd",
                  Verdict::confirmed},
        ProseCase{"Feeder vessel to Bergen, ETA 22 August 2025.", "It reaches Bergen around the 23rd.", "23rd",
                  Verdict::unsupported},
        ProseCase{"Feeder vessel to Bergen, ETA 22 August 2025.", "It moves up to the 22nd place.", "22nd",
                  Verdict::unsupported},
        // a race time as a clock and as a span
        ProseCase{"基普图以2小时08分14秒夺冠。", "基普图以2:08:14夺冠。", "2:08:14", Verdict::confirmed},
        ProseCase{"基普图以2小时08分14秒夺冠。", "基普图以2:08:41夺冠。", "2:08:41", Verdict::unsupported},
        ProseCase{"Kiprop won in 2:04:37.", "基普图以2小时04分37秒夺冠。", "2小时04分37秒", Verdict::confirmed},
        // a date written without its year, in a source that writes one year only
        ProseCase{"The 2025 Riverside Folk Festival ends on Sunday 20 July.", "It ends on 20 July 2025.",
                  "20 July 2025", Verdict::confirmed},
        ProseCase{"The 2025 Riverside Folk Festival ends on Sunday 20 July.", "It ends on 20 July 2024.",
                  "20 July 2024", Verdict::unsupported},
        ProseCase{"The 2025 festival ends on Sunday 20 July. In 2024 it ended in June.", "It ends on 20 July 2025.",
                  "20 July 2025", Verdict::unsupported},
        ProseCase{"她生于1950年，3月3日在巴黎去世。", "她于1950年3月3日去世。", "1950年3月3日", Verdict::unsupported},
        ProseCase{"2025西湖音乐节定于4月19日开幕。", "音乐节于2025年4月19日开幕。", "2025年4月19日",
                  Verdict::confirmed},
        ProseCase{"'hours': {'Sunday': '11:0-21:0', 'Monday': '11:0-21:0'}",
                  "Hours are given for just two days, Sunday and Monday.", "two days", Verdict::derived},
        ProseCase{"'hours': {'Sunday': '11:0-21:0', 'Monday': '11:0-21:0'}",
                  "Hours are given for just three days, Sunday and Monday.", "three days", Verdict::unsupported},
        ProseCase{"中国队以65：76不敌澳大利亚队。", "中国队以65：76不敌澳大利亚队，落后十一分。", "十一分",
                  Verdict::derived},
        ProseCase{"中国队以65：76不敌澳大利亚队。", "中国队以65：76不敌澳大利亚队，落后十二分。", "十二分",
                  Verdict::unsupported},
        ProseCase{"行星中只有水星和金星能发生凌日。", "行星中只有水星和金星两颗能发生凌日。", "两颗", Verdict::derived},
        ProseCase{"行星中只有水星和金星能发生凌日。", "行星中只有水星和金星三颗能发生凌日。", "三颗",
                  Verdict::unsupported},
        ProseCase{"论坛由亚太日报和良将天下（香港）文化传媒有限公司共同主办。",
                  "论坛由亚太日报和良将天下（香港）文化传媒有限公司两家机构共同主办。", "两家", Verdict::derived},
        ProseCase{"双方将加强政治、经济、安全、人文以及国际和地区事务等领域的合作。",
                  "双方将加强政治、经济、安全、人文以及国际和地区事务五个方面的合作。", "五个", Verdict::derived},
        ProseCase{"双方将加强政治、经济、安全、人文以及国际和地区事务等领域的合作。",
                  "双方将加强政治、经济、安全、人文以及国际和地区事务四个方面的合作。", "四个", Verdict::unsupported},
        // 和 before 以及: which joins split items is not known
        ProseCase{"会议讨论了多个领域的合作。", "会议涉及政治、经济和安全以及人文三个方面。", "三个",
                  Verdict::unsupported},
        ProseCase{"比赛中乙队以7分之差落败。", "甲队获得7个积分。", "7个", Verdict::unsupported},
        ProseCase{"Jones has 3 goals this season.", "Smith scored once and was booked 3 times.", "3 times",
                  Verdict::unsupported},
        ProseCase{"The team has scored first four times this season; Smith has two goals.",
                  "Smith has 4 goals this season.", "4 goals", Verdict::unsupported},
        ProseCase{"The team conceded 4 goals in the final, and Smith scored once.",
                  "Smith scored 4 times in the final.", "4 times", Verdict::unsupported},
        ProseCase{"review_date: 2020-11-03 10:00:00", "He quit after the 3rd failed attempt.", "3rd",
                  Verdict::unsupported},
        ProseCase{"review_date: 2020-11-03 10:00:00", "The case went before the 3rd Circuit.", "3rd",
                  Verdict::unsupported},
        ProseCase{"The death toll is now 34, officials said.", "A 34-year-old victim died.", "34-year",
                  Verdict::unsupported},
        ProseCase{"Entry is open to those under the age of 35.", "The winner is 35 years old.", "35 years",
                  Verdict::unsupported},
        ProseCase{"Smith and Jones praised the club, which has won five league titles.",
                  "The club has won 2 trophies, Smith and Jones said.", "2", Verdict::unsupported},
        ProseCase{"The shop opens three days a week: Sunday, Monday and Friday.",
                  "The shop opens just two days, Sunday and Monday.", "two days", Verdict::unsupported},
        ProseCase{"The tour visits London and Paris.", "The tour lasts just two days, London and Paris.", "two days",
                  Verdict::unsupported},
        // a record's whole week ("seven days") crowds no other value's density window
        ProseCase{kWeekOfReviews,
                  "A December 24th, 2021 reviewer liked it. Three days earlier, another hailed the brunch.",
                  "Three days", Verdict::derived},
        ProseCase{kWeekOfReviews,
                  "A December 24th, 2021 reviewer liked it. Four days earlier, another hailed the brunch.", "Four days",
                  Verdict::unsupported}));

// A value the answer rounds and says so, against the more precise source value; a round value of
// its own, a rounding two source values could give, and a year stay apart.
INSTANTIATE_TEST_SUITE_P(
    Rounded, ProseTable,
    ::testing::Values(
        ProseCase{"报告称，全行业营业收入19967.1亿元。", "全行业营业收入近2万亿元。", "2万亿元", Verdict::confirmed},
        ProseCase{"报告称，全行业营业收入19967.1亿元。", "全行业营业收入约2万亿元。", "2万亿元", Verdict::confirmed},
        ProseCase{"报告称，全行业营业收入19967.1亿元。", "全行业营业收入近3万亿元。", "3万亿元", Verdict::unsupported},
        ProseCase{"报告称，全行业营业收入19967.1亿元。", "全行业营业收入2万亿元。", "2万亿元", Verdict::unsupported},
        ProseCase{"Revenue was $1.97 million.", "Revenue was nearly $2 million.", "$2 million", Verdict::confirmed},
        ProseCase{"Revenue was $2.03 million.", "Revenue was nearly $2 million.", "$2 million", Verdict::unsupported},
        ProseCase{"In all 1,532 people came.", "Over 1,500 people came.", "1,500 people", Verdict::confirmed},
        ProseCase{"In all 1,532 people came.", "About 1,600 people came.", "1,600 people", Verdict::unsupported},
        ProseCase{"当天共有2317人参加。", "当天有2000多人参加。", "2000多人", Verdict::confirmed},
        ProseCase{"当天共有1917人参加。", "当天有2000多人参加。", "2000多人", Verdict::unsupported},
        ProseCase{"2015年共有80人参加。", "当天有2000多人参加。", "2000多人", Verdict::unsupported},
        // a bound the other way is no rounding
        ProseCase{"当天共有1532人参加。", "当天参加人数不超过1500人。", "1500人", Verdict::unsupported},
        ProseCase{"In all 1,532 people came.", "No more than 1,500 people came.", "1,500 people", Verdict::unsupported},
        // two source values near the rounded one: which one it rounds is not known
        ProseCase{"铝期货涨幅2.27%，锌期货涨幅2.47%。", "铝期货涨超2%。", "2%", Verdict::unsupported},
        ProseCase{"铝期货涨幅2.27%，锌期货涨幅0.47%。", "铝期货涨超2%。", "2%", Verdict::confirmed}));

// Computations of games and counts, and any computation whose operands the answer writes before it.
INSTANTIATE_TEST_SUITE_P(
    GamesAndCounts, ProseTable,
    ::testing::Values(
        ProseCase{"辽宁队以103：88战胜广东队，哈德森得到31分，郭艾伦得到23分，韩德君得到12分。",
                  "辽宁以103比88大胜广东15分。", "15分", Verdict::derived},
        ProseCase{"辽宁队以103：88战胜广东队，哈德森得到31分，郭艾伦得到23分，韩德君得到12分。",
                  "辽宁以103比88大胜广东16分。", "16分", Verdict::unsupported},
        ProseCase{"The Hawks beat the Suns 96-69 on Tuesday.", "The Hawks won by 27 points.", "27 points",
                  Verdict::derived},
        ProseCase{"保护率由原来的43%提高到61%，提高了近两成。", "保护率从43%提高到61%，提升了18个百分点。",
                  "18个百分点", Verdict::derived},
        ProseCase{"保护率由原来的43%提高到61%，提高了近两成。", "保护率提升了16个百分点。", "16个百分点",
                  Verdict::unsupported},
        ProseCase{"抽检552批次样品，其中合格526批次。", "552批次样品中合格526批次，合格率约为95.3%。", "95.3%",
                  Verdict::derived},
        ProseCase{"抽检552批次样品，其中合格526批次。", "合格率约为96.3%。", "96.3%", Verdict::unsupported},
        ProseCase{"旅游目的入境缴纳手续费500泰铢，其他目的入境缴纳2000泰铢。", "其他目的的手续费是旅游目的的4倍。",
                  "4倍", Verdict::derived},
        ProseCase{"旅游目的入境缴纳手续费500泰铢，其他目的入境缴纳2000泰铢。", "其他目的的手续费是旅游目的的5倍。",
                  "5倍", Verdict::unsupported},
        ProseCase{"投票结果是438票赞成，86票反对，42票弃权。", "赞成票比反对票多出352票。", "352票", Verdict::derived},
        ProseCase{"投票结果是438票赞成，86票反对，42票弃权。", "赞成票比反对票多出362票。", "362票",
                  Verdict::unsupported},
        // a place's leading word abbreviated, either way
        ProseCase{"The climbers reached Mt. Everest in May.", "They reached Mount Everest.", "Mount Everest",
                  Verdict::confirmed},
        ProseCase{"The climbers reached Mt. Everest in May.", "They reached Mount Kenya.", "Mount Kenya",
                  Verdict::unsupported},
        ProseCase{"The team plays in St. Louis.", "The team plays in Saint Louis.", "Saint Louis", Verdict::confirmed},
        // an anniversary's ordinal is the years since
        ProseCase{"Francis spoke to commemorate a century since the slaughter.",
                  "It was the 100th anniversary of the killings.", "100th", Verdict::confirmed},
        ProseCase{"The war ended 50 years ago.", "It was the 50th anniversary of the war's end.", "50th",
                  Verdict::confirmed},
        ProseCase{"The war ended 50 years ago.", "It was the 60th anniversary of the war's end.", "60th",
                  Verdict::unsupported},
        // 个 counts people and households too; two specific measure words count different things
        ProseCase{"会议共有15人参加。", "会议共有15个人参加。", "15个", Verdict::confirmed},
        ProseCase{"会议共有15人参加。", "会议共有15台设备。", "15台", Verdict::unsupported},
        // "seven days a week" counts the days a record lists
        ProseCase{"{'hours': {'Monday': '8:0-23:0', 'Tuesday': '8:0-23:0', 'Wednesday': '8:0-23:0', 'Thursday': "
                  "'8:0-23:0', 'Friday': '8:0-23:0', 'Saturday': '8:0-23:0', 'Sunday': '8:0-23:0'}}",
                  "It is open seven days a week.", "seven days", Verdict::derived},
        ProseCase{"{'hours': {'Monday': '8:0-23:0', 'Tuesday': '8:0-23:0', 'Friday': '8:0-23:0'}}",
                  "It is open seven days a week.", "seven days", Verdict::unsupported},
        // a country's possessive before a name the sources give with its people's name
        ProseCase{"colombian camilo villegas aced the fourth hole.", "It was Colombia's Camilo Villegas.",
                  "Colombia's Camilo Villegas", Verdict::confirmed},
        ProseCase{"The German newspaper Bild reported it.", "Germany's Bild reported it.", "Germany's Bild",
                  Verdict::confirmed},
        ProseCase{"The German newspaper Bild reported it.", "France's Bild reported it.", "France's Bild",
                  Verdict::unsupported},
        // an age after a name in a source stored in lower case
        ProseCase{"mr hardy , 89 , is a keen military historian .", "Mr Hardy, the 89-year-old actor.", "89-year",
                  Verdict::confirmed},
        ProseCase{"mr hardy , 89 , is a keen military historian .", "Mr Hardy, the 88-year-old actor.", "88-year",
                  Verdict::unsupported},
        // slang money, a glued unit, race marks
        ProseCase{"to spend 65 bucks on breakfast", "They spent $65 on breakfast.", "$65", Verdict::confirmed},
        ProseCase{"waiting here over 30minutes for food", "They waited over 30 minutes.", "30 minutes",
                  Verdict::confirmed},
        ProseCase{"张文秀以76米33获得银牌。", "张文秀掷出76.33米。", "76.33米", Verdict::confirmed},
        ProseCase{"张文秀以76米33获得银牌。", "张文秀掷出76.03米。", "76.03米", Verdict::unsupported},
        // a count of the items the answer lists beside it
        ProseCase{"广东队易建联、朱芳雨、周鹏合计得到34分。", "易建联、朱芳雨、周鹏三名首发合计34分。", "三名",
                  Verdict::derived},
        ProseCase{"广东队易建联、朱芳雨、周鹏合计得到34分。", "易建联、朱芳雨、周鹏四名首发合计34分。", "四名",
                  Verdict::unsupported},
        ProseCase{"收涨的品种是普麦期货和棉花期货。", "收涨的品种仅有两个：普麦期货；棉花期货。", "两个",
                  Verdict::derived},
        ProseCase{"His daughters Ann and Bea came.", "He has two daughters: Ann and Bea.", "two", Verdict::derived},
        ProseCase{"His daughters Ann and Bea came.", "He has 3 daughters: Ann and Bea.", "3", Verdict::unsupported},
        ProseCase{"张三、李四和王五分别获得了2枚金牌。", "张三、李四和王五分别获得了3枚金牌。", "3枚",
                  Verdict::unsupported},
        // an amount or count per head or per game
        ProseCase{"他们一家五口吃了一顿海鲜大餐，一共花了970元。", "一家五口共花费970元，人均194元。", "194元",
                  Verdict::derived},
        ProseCase{"他们一家五口吃了一顿海鲜大餐，一共花了970元。", "一家五口共花费970元，人均184元。", "184元",
                  Verdict::unsupported},
        ProseCase{"The five of us paid $970 for dinner, 5 people in all.", "That is $194 per person.", "$194",
                  Verdict::derived},
        ProseCase{"The five of us paid $970 for dinner, 5 people in all.", "That is $184 per person.", "$184",
                  Verdict::unsupported},
        // a running total reached, rounded "约合"
        ProseCase{"新补刻的名单包括中国烈士586名。附碑上镌刻了中国烈士882名。", "补刻后，碑上中国烈士已达1468名。",
                  "1468名", Verdict::derived},
        ProseCase{"新补刻的名单包括中国烈士586名。附碑上镌刻了中国烈士882名。", "补刻后，碑上中国烈士已达1478名。",
                  "1478名", Verdict::unsupported},
        ProseCase{"共计非法集资29592.6168万元。", "非法集资共计约合2.96亿元。", "2.96亿元", Verdict::confirmed},
        ProseCase{"共计非法集资29592.6168万元。", "非法集资共计约合2.86亿元。", "2.86亿元", Verdict::unsupported},
        ProseCase{"付出超过亿元人民币的转会费。", "付出超过1亿元人民币的转会费。", "1亿元", Verdict::confirmed},
        ProseCase{"付出超过亿元人民币的转会费。", "付出超过2亿元人民币的转会费。", "2亿元", Verdict::unsupported},
        // a day of the month in the one month the sources' dates give
        ProseCase{"新华社北京9月29日电 维和部队于23日至29日完成轮换。", "维和部队于9月23日至29日完成轮换。", "9月23日",
                  Verdict::confirmed},
        ProseCase{"新华社北京9月29日电 维和部队于23日至29日完成轮换。", "维和部队于8月23日至29日完成轮换。", "8月23日",
                  Verdict::unsupported},
        ProseCase{"新华社北京9月29日电 10月5日将返回。维和部队于23日出发。", "维和部队于9月23日出发。", "9月23日",
                  Verdict::unsupported},
        // a span between two dates or times the answer writes in its sentence
        ProseCase{"新华社北京2月24日电 2月18日至24日，全国零售和餐饮企业实现销售额约6780亿元。",
                  "2月18日至24日的7天黄金周里，销售额约6780亿元。", "7天", Verdict::derived},
        ProseCase{"新华社北京2月24日电 2月18日至24日，全国零售和餐饮企业实现销售额约6780亿元。",
                  "2月18日至24日的9天黄金周里，销售额约6780亿元。", "9天", Verdict::unsupported},
        ProseCase{"餐厅每天从中午12点营业到晚上22时。", "餐厅每天从中午12点营业到晚上22时，共10个小时。", "10个小时",
                  Verdict::derived},
        ProseCase{"餐厅每天从中午12点营业到晚上22时。", "餐厅每天从中午12点营业到晚上22时，共11个小时。", "11个小时",
                  Verdict::unsupported},
        ProseCase{"The museum opened on March 3, 2015 and closed on March 17, 2015.",
                  "It opened on March 3, 2015 and closed two weeks later, on March 17, 2015.", "two weeks",
                  Verdict::derived},
        ProseCase{"The museum opened on March 3, 2015 and closed on March 17, 2015.",
                  "It opened on March 3, 2015 and closed three weeks later, on March 17, 2015.", "three weeks",
                  Verdict::unsupported},
        // the rest of a whole; a side of a difference the answer states
        ProseCase{"已建立企业年金计划的仅占33.5%。", "仅33.5%建立了企业年金，66.5%的职工没有企业年金。", "66.5%",
                  Verdict::derived},
        ProseCase{"已建立企业年金计划的仅占33.5%。", "仅33.5%建立了企业年金，56.5%的职工没有企业年金。", "56.5%",
                  Verdict::unsupported},
        ProseCase{"白银期货主力合约收于每公斤3312元，下跌99元。", "收于每公斤3312元，比前结算价3411元下跌99元。",
                  "3411元", Verdict::derived},
        ProseCase{"白银期货主力合约收于每公斤3312元，下跌99元。", "收于每公斤3312元，比前结算价3421元下跌99元。",
                  "3421元", Verdict::unsupported},
        // the rest of a whole needs the words of a rest, not of any change; whole years between dates
        ProseCase{"该公司的市场份额为40%。", "该公司未来的市场份额为60%。", "60%", Verdict::unsupported},
        ProseCase{"Its market share was 40%.", "Its market share rose to 60% in other regions.", "60%",
                  Verdict::unsupported},
        ProseCase{"他在公司工作过。", "他于2019年12月30日入职，2020年1月2日离职，工作了1年。", "1年",
                  Verdict::unsupported},
        ProseCase{"他在公司工作过。", "他于2019年3月1日入职，2020年3月1日离职，工作了1年。", "1年", Verdict::derived},
        ProseCase{"The file was opened.", "Ref 0001/02 was filed.", "02", Verdict::unsupported},
        // a surname and a title for a full name the sources give with that title
        ProseCase{"国务委员、公安部部长郭声琨25日在河内举行会谈。", "郭部长提出，双方应继续深化合作。", "郭部长",
                  Verdict::confirmed},
        ProseCase{"国务委员、公安部部长郭声琨25日在河内举行会谈。", "李部长提出，双方应继续深化合作。", "李部长",
                  Verdict::unsupported},
        // a race time written with 小时 or 时; a fiscal year's short second year
        ProseCase{"库鲁伊摘得男子全马桂冠，成绩为2时27分05秒。", "库鲁伊跑出2小时27分05秒。", "2小时27分05秒",
                  Verdict::confirmed},
        ProseCase{"库鲁伊摘得男子全马桂冠，成绩为2时27分05秒。", "库鲁伊跑出2小时37分05秒。", "2小时37分05秒",
                  Verdict::unsupported},
        ProseCase{"曾俊华发表2015/2016财政年度财政预算案。", "他发表了2015/16财政年度预算案。", "16",
                  Verdict::confirmed},
        ProseCase{"曾俊华发表2015/2016财政年度财政预算案。", "他发表了2015/17财政年度预算案。", "17",
                  Verdict::unsupported},
        // a span from a date in the sentence before
        ProseCase{"3月9日，叶美芳连做了2台手术。3月21日，照片在网上发布。",
                  "3月9日，叶美芳连做了两台手术。12天后的3月21日，照片发布。", "12天", Verdict::derived},
        ProseCase{"3月9日，叶美芳连做了2台手术。3月21日，照片在网上发布。",
                  "3月9日，叶美芳连做了两台手术。10天后的3月21日，照片发布。", "10天", Verdict::unsupported},
        // a count of the answer's own list where the sources count something else with that number
        ProseCase{"抚恤金由国家褒扬金、市筹措资金、港口补贴和社会捐助组成，共有4部电话。",
                  "抚恤金由国家褒扬金、市筹措资金、港口补贴和社会捐助四部分组成。", "四部", Verdict::derived},
        ProseCase{"抚恤金由国家褒扬金、市筹措资金、港口补贴和社会捐助组成，共有4部电话。",
                  "抚恤金由国家褒扬金、市筹措资金和港口补贴四部分组成。", "四部", Verdict::unsupported},
        // a large number without its noun, computed from counts of one unit
        ProseCase{"马年、羊年出生人口分别为1647万人、1599万人。", "羊年出生人口比马年少48万。", "48万",
                  Verdict::derived},
        ProseCase{"马年、羊年出生人口分别为1647万人、1599万人。", "羊年出生人口比马年少58万。", "58万",
                  Verdict::unsupported},
        // a year inside a cited title
        ProseCase{"双方签署了《关于开展2017年联合追逃行动的谅解备忘录》。", "双方将开展2017年联合追逃行动。", "2017年",
                  Verdict::confirmed},
        ProseCase{"双方签署了《关于开展2017年联合追逃行动的谅解备忘录》。", "双方将开展2018年联合追逃行动。", "2018年",
                  Verdict::unsupported},
        // the people of a place in general, in other words
        ProseCase{"日军屠杀了全村3000多名男女老少。", "日军屠杀3000多名村民。", "3000多名", Verdict::confirmed},
        ProseCase{"The troops killed 3,000 people and 40 soldiers.", "They killed 40 villagers.", "40",
                  Verdict::unsupported},
        // a span that ends at the date written next starts at any date the answer wrote before
        ProseCase{
            "3月9日，叶美芳连做了2台手术。3月21日，照片在网上发布。",
            "3月9日，叶美芳连做了两台手术。她太累了。护士拍下了照片。第二天照片被删除。12天后的3月21日，照片发布。",
            "12天", Verdict::derived},
        ProseCase{
            "3月9日，叶美芳连做了2台手术。3月21日，照片在网上发布。",
            "3月9日，叶美芳连做了两台手术。她太累了。护士拍下了照片。第二天照片被删除。11天后的3月21日，照片发布。",
            "11天", Verdict::unsupported},
        ProseCase{"The museum opened on March 3, 2015. It was busy. It closed on March 17, 2015.",
                  "It opened on March 3, 2015. Crowds came. Staff were hired. It closed two weeks later, on March 17, "
                  "2015.",
                  "two weeks", Verdict::derived},
        ProseCase{"The museum opened on March 3, 2015. It was busy. It closed on March 17, 2015.",
                  "It opened on March 3, 2015. Crowds came. Staff were hired. It closed three weeks later, on March "
                  "17, 2015.",
                  "three weeks", Verdict::unsupported},
        // days of a month the answer never names; years written bare
        ProseCase{"韩方4日发生爆炸，10日重启广播。", "本月4日发生爆炸；6天后的10日，韩方重启广播。", "6天",
                  Verdict::derived},
        ProseCase{"韩方4日发生爆炸，10日重启广播。", "本月4日发生爆炸；5天后的10日，韩方重启广播。", "5天",
                  Verdict::unsupported},
        ProseCase{"Eubank fought from 1985 to 1998.", "He fought from 1985 to 1998, a career of 13 years.", "13 years",
                  Verdict::derived},
        ProseCase{"Eubank fought from 1985 to 1998.", "He fought from 1985 to 1998, a career of 15 years.", "15 years",
                  Verdict::unsupported},
        // a date a day before or after one the answer writes beside it
        ProseCase{"4月11日，婚礼在丹巴县举行。记者随车队从成都出发。",
                  "4月11日，婚礼举行。前一天，即10日，记者从成都出发。", "10日", Verdict::derived},
        ProseCase{"4月11日，婚礼在丹巴县举行。记者随车队从成都出发。",
                  "4月11日，婚礼举行。前一天，即9日，记者从成都出发。", "9日", Verdict::unsupported},
        ProseCase{"The wedding was held on April 11. Reporters left Chengdu.",
                  "The wedding was held on April 11. The day before, April 10, reporters left Chengdu.", "April 10",
                  Verdict::derived},
        ProseCase{"The wedding was held on April 11. Reporters left Chengdu.",
                  "The wedding was held on April 11. The day before, April 9, reporters left Chengdu.", "April 9",
                  Verdict::unsupported},
        // a side of a difference whose other side and amount the answer writes after it
        ProseCase{"金价报收于每克255.05元，较前一交易日结算价上涨1.75元。最高255.85元，最低252.15元，开盘255.4元。",
                  "最终收于255.05元，较前一交易日结算价253.3元上涨1.75元。", "253.3元", Verdict::derived},
        ProseCase{"金价报收于每克255.05元，较前一交易日结算价上涨1.75元。最高255.85元，最低252.15元，开盘255.4元。",
                  "最终收于255.05元，较前一交易日结算价253.8元上涨1.75元。", "253.8元", Verdict::unsupported},
        // the first end of a range read with the magnitude or unit of the second
        ProseCase{"A lease extension is likely to cost between £ 3.35 and £ 4.5 million.",
                  "It would likely cost £3.35 million to £4.5 million.", "£3.35 million", Verdict::confirmed},
        ProseCase{"A lease extension is likely to cost between £ 3.35 and £ 4.5 million.",
                  "It would likely cost £3.35 to £4.5 million.", "£3.35", Verdict::confirmed},
        ProseCase{"A lease extension is likely to cost between £ 3.35 and £ 4.5 million.",
                  "It would likely cost £3,350 to £4.5 million.", "£3,350", Verdict::unsupported},
        ProseCase{"损失约为3亿元至4亿元。", "损失约3至4亿元。", "3", Verdict::confirmed},
        ProseCase{"损失约为3亿元至4亿元。", "损失约为3亿元。", "3亿元", Verdict::confirmed},
        ProseCase{"损失约为2亿元至4亿元。", "损失约3至4亿元。", "3", Verdict::unsupported},
        // a span that ends at the date written next is the exact difference, from the last date before
        ProseCase{"代表团4日出发，10日抵达北京。", "代表团于4日出发，7天后的10日，抵达北京。", "7天",
                  Verdict::unsupported},
        ProseCase{"The ship left on March 9, 2023 and arrived on March 21, 2023.",
                  "It left on March 9, 2023. It crossed three rivers. 13 days later, on March 21, it arrived.",
                  "13 days", Verdict::unsupported},
        ProseCase{"The vote was held on April 14, 2025; campaigning ended on April 11.",
                  "The vote was held on Monday, April 14, 2025. The Friday before, April 13, campaigning ended.",
                  "April 13", Verdict::unsupported},
        ProseCase{"双方于2023年3月30日签订合同。买方应在合同签订后15日内付款。",
                  "买方应在合同签订后的30日，付清全部款项。", "30日", Verdict::unsupported},
        ProseCase{"Lows were around -5°C and highs reached 10°C.", "Temperatures ranged from -5 to 10°C.", "10°C",
                  Verdict::confirmed},
        // a large bare number rounds a count of any unit; a possessive inside a name; a time with a zone
        ProseCase{"As of 22 February 2020, 77,984 cases have been confirmed.",
                  "77,984 cases had been confirmed, or nearly 78,000.", "78,000", Verdict::confirmed},
        ProseCase{"As of 22 February 2020, 77,984 cases have been confirmed.",
                  "77,984 cases had been confirmed, or nearly 79,000.", "79,000", Verdict::unsupported},
        ProseCase{"the study by the Institute for Health Metrics and Evaluation at the University of Washington",
                  "A study by the University of Washington's Institute for Health Metrics and Evaluation finds.",
                  "University of Washington's Institute", Verdict::confirmed},
        ProseCase{"the study by the Institute for Health Metrics and Evaluation at the University of Washington",
                  "A study by the University of Oregon's Institute for Health Metrics and Evaluation finds.",
                  "University of Oregon's Institute", Verdict::unsupported},
        ProseCase{"It will be on the BBC News Channel from 2130 BST.", "Coverage starts at 9:30 PM BST.", "9:30 PM",
                  Verdict::confirmed},
        ProseCase{"It will be on the BBC News Channel from 2130 BST.", "Coverage starts at 9:00 PM BST.", "9:00 PM",
                  Verdict::unsupported},
        // an outlet by the web address a source cites it with
        ProseCase{"Source: https://www.cbsnews.com/news/dollar-general-fires-worker", "The report comes from CBS News.",
                  "CBS News", Verdict::confirmed},
        ProseCase{"Source: https://nypost.com/2023/09/29/scientists", "The report comes from the New York Post.",
                  "New York Post", Verdict::confirmed},
        ProseCase{"Source: https://www.cbsnews.com/news/dollar-general-fires-worker", "The report comes from NBC News.",
                  "NBC News", Verdict::unsupported},
        // the precise value the answer writes beside a round one says which source value it rounds
        ProseCase{"贵州国民体质达标率为80.1%，女性80.4%，男性79.8%。", "贵州省国民体质达标率首次超过80%，达到80.1%。",
                  "80%", Verdict::confirmed},
        ProseCase{"贵州国民体质达标率为80.1%，女性80.4%，男性79.8%。", "贵州省国民体质达标率超过80%。", "80%",
                  Verdict::unsupported},
        // an age between two dates the answer writes; months between a month and a full date
        ProseCase{"Geraldine Ferraro lived from August 26, 1935, to March 26, 2011.",
                  "She lived from August 26, 1935, to March 26, 2011, dying at 75.", "75", Verdict::derived},
        ProseCase{"Geraldine Ferraro lived from August 26, 1935, to March 26, 2011.",
                  "She lived from August 26, 1935, to March 26, 2011, dying at 76.", "76", Verdict::unsupported},
        ProseCase{"CBS announced the cancellation on November 14, 2014. The series aired until July 18, 2015.",
                  "CBS cancelled it on November 14, 2014. It aired until July 2015, about eight months after the "
                  "announcement.",
                  "eight months", Verdict::derived},
        ProseCase{"CBS announced the cancellation on November 14, 2014. The series aired until July 18, 2015.",
                  "CBS cancelled it on November 14, 2014. It aired until July 2015, about ten months after the "
                  "announcement.",
                  "ten months", Verdict::unsupported},
        // what they earn is what they are paid
        ProseCase{"Most technicians are paid $20.50 per hour. In aerospace, techs earn about $32 per hour.",
                  "Those in aerospace are paid about $32 an hour.", "$32", Verdict::confirmed},
        ProseCase{"Most technicians are paid $20.50 per hour. In aerospace, techs earn about $32 per hour.",
                  "Those in aerospace are paid about $34 an hour.", "$34", Verdict::unsupported},
        // a difference or sum, with its word, of two values the answer writes in the sentence
        ProseCase{"库鲁伊成绩为2时27分05秒。塔费拉成绩为2时48分11秒。",
                  "库鲁伊跑出2小时27分05秒，塔费拉的成绩为2小时48分11秒，两人相差21分06秒。", "21分06秒",
                  Verdict::derived},
        ProseCase{"库鲁伊成绩为2时27分05秒。塔费拉成绩为2时48分11秒。",
                  "库鲁伊跑出2小时27分05秒，塔费拉的成绩为2小时48分11秒，两人相差21分16秒。", "21分16秒",
                  Verdict::unsupported},
        // ... not a side of a change the answer states itself, nor with a word of a change elsewhere
        ProseCase{"Revenue rose from $120 million to $200 million.",
                  "Revenue rose from $100 million to $200 million, an increase of $100 million.", "$100 million",
                  Verdict::unsupported},
        ProseCase{"营收从120亿元增至200亿元。", "营收从100亿元增至200亿元，增加了100亿元。", "100亿元",
                  Verdict::unsupported},
        ProseCase{"张三持股30%，李四持股20%，王五持股40%。", "总经理张三持股30%，李四持股20%，王五持股50%。", "50%",
                  Verdict::unsupported},
        ProseCase{"王蔷世界排名第107位。本届比赛共有64人参赛。",
                  "王蔷世界排名第107位，本届比赛共有64人参赛，比上届多43人。", "43人", Verdict::unsupported},
        ProseCase{"born October 1, 1935, died April 1, 1981", "She was born in 1935 and died in 1981, aged 46.", "46",
                  Verdict::unsupported},
        ProseCase{"In July 2015, the board met. On July 1, 2015 it voted.",
                  "In July 2015, the board met. The day before, on June 30, 2015, it voted.", "June 30, 2015",
                  Verdict::unsupported},
        ProseCase{"男性达标率79.8%，女性80.4%。", "男性达标率超过80%，而女性为80.4%。", "80%", Verdict::unsupported},
        ProseCase{"Players averaged $20. Rookies earned $45.", "Players averaged $45.", "$45", Verdict::unsupported},
        // a holiday on a fixed day against its date
        ProseCase{"review_date: 2022-01-01 02:41:58, review_text: It's hard to go out.",
                  "On New Year's Day 2022, a one-star reviewer dined there.", "New Year's Day 2022",
                  Verdict::confirmed},
        ProseCase{"review_date: 2022-01-02 02:41:58, review_text: It's hard to go out.",
                  "On New Year's Day 2022, a one-star reviewer dined there.", "New Year's Day 2022",
                  Verdict::unsupported},
        ProseCase{"The flight departs at 23:45 on 31 December.", "The flight departs at 11:45 pm on New Year's Eve.",
                  "New Year's Eve", Verdict::confirmed},
        ProseCase{"The flight departs at 23:45 on 30 December.", "The flight departs at 11:45 pm on New Year's Eve.",
                  "New Year's Eve", Verdict::unsupported}));

// Derived values cite their operands and are not hallucinations; values that are not one step away
// stay unsupported.
TEST(Checker, DerivedValues) {
  SourceIndex idx;
  idx.add_source(
      "The deposit was $1,000 and the balance $2,000; a discount of 10% applies to the $3,500 fee. "
      "Alice Wu was born on 2 May 1980 and her brother Sam Wu on 2 May 1982. The parties are Acme Ltd., "
      "Beta LLC and Gamma Inc. Work began on March 1, 2024 and ended on March 31, 2024.");
  auto derived = [&](const std::string& answer, const std::string& value) { return check_written(idx, answer, value); };
  const auto sum = derived("$3,000 was paid in total.", "$3,000");
  EXPECT_EQ(sum.verdict, Verdict::derived);
  EXPECT_EQ(sum.derivation, Derivation::sum);
  EXPECT_GE(sum.operands[0], 0);
  EXPECT_GE(sum.operands[1], 0);
  EXPECT_EQ(derived("The balance exceeds the deposit by $1,000.", "$1,000").verdict, Verdict::confirmed);
  const auto pct = derived("The discount is $350.", "$350");
  EXPECT_EQ(pct.verdict, Verdict::derived);
  EXPECT_EQ(pct.derivation, Derivation::percent_of);
  const auto age = derived("Sam is two years younger than Alice.", "two years");
  EXPECT_EQ(age.verdict, Verdict::derived);
  EXPECT_EQ(age.derivation, Derivation::date_difference);
  EXPECT_EQ(derived("The work took 30 days.", "30 days").verdict, Verdict::derived);
  EXPECT_EQ(derived("There are 3 parties.", "3").derivation, Derivation::list_count);
  // not one step away
  EXPECT_EQ(derived("$3,100 was paid in total.", "$3,100").verdict, Verdict::unsupported);
  EXPECT_EQ(derived("Sam is three years younger than Alice.", "three years").verdict, Verdict::unsupported);
  EXPECT_EQ(derived("The discount is $360.", "$360").verdict, Verdict::unsupported);
  // A sum with two significant digits that is no miscopy of an operand is still derived.
  SourceIndex more;
  more.add_source("The deposit was $1,250 and the balance $2,300. 首付120万元，贷款230万元。");
  EXPECT_EQ(check_written(more, "$3,550 in all.", "$3,550").verdict, Verdict::derived);
  EXPECT_EQ(check_written(more, "共350万元。", "350万元").verdict, Verdict::derived);
  CheckerOptions off;
  off.derived = false;
  EXPECT_EQ(check_written(idx, "$3,000 was paid in total.", "$3,000", off).verdict, Verdict::unsupported);
}

// Coincidences the derivation must not excuse: a miscopy of a source value (two digits swapped, one
// changed) that happens to equal a sum or difference, and a value stated twice counted as two.
TEST(Checker, DerivationIsNoExcuseForAMiscopy) {
  SourceIndex idx;
  idx.add_source(
      "Income was £4.72 million and costs £450,000. The deposit is $400 plus a $20 fee. "
      "The term is 120 months after a 60 months grace period. 押金400元，手续费20元。"
      "治疗周期为26周，随访26周。The course lasts 26 weeks with 26 weeks of follow-up.");
  EXPECT_EQ(check_written(idx, "Income was £4.27 million.", "£4.27 million").verdict, Verdict::unsupported);
  EXPECT_EQ(check_written(idx, "The deposit is $420.", "$420").verdict, Verdict::unsupported);
  EXPECT_EQ(check_written(idx, "The term is 180 months.", "180 months").verdict, Verdict::unsupported);
  EXPECT_EQ(check_written(idx, "押金420元。", "420元").verdict, Verdict::unsupported);
  EXPECT_EQ(check_written(idx, "治疗周期为52周。", "52周").verdict, Verdict::unsupported);
  EXPECT_EQ(check_written(idx, "The course lasts 52 weeks.", "52 weeks").verdict, Verdict::unsupported);
  // The values themselves stay confirmed.
  EXPECT_EQ(check_written(idx, "The deposit is $400.", "$400").verdict, Verdict::confirmed);
  EXPECT_EQ(check_written(idx, "治疗周期为26周。", "26周").verdict, Verdict::confirmed);
}

}  // namespace
}  // namespace sfcl::verify
