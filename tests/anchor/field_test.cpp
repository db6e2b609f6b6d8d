#include <gtest/gtest.h>

#include <map>

#include "anchor/anchor.h"

namespace sfcl::anchor {
namespace {

// Label of the field the first occurrence of `value` sits in.
std::string label_of(std::string_view text, std::string_view value) {
  const size_t at = text.find(value);
  EXPECT_NE(at, std::string_view::npos) << value;
  return std::string(field_label(text, at));
}

TEST(FieldLabel, RecordLinesSummariesJsonAndChinese) {
  const std::string doc = "Tax invoice\nIssued by: Acme Labs LLC\nDue date: June 15, 2024\nLate fee: 1.5% per month";
  EXPECT_EQ(label_of(doc, "Acme"), "Issued by");
  EXPECT_EQ(label_of(doc, "June"), "Due date");
  EXPECT_EQ(label_of(doc, "1.5%"), "Late fee");
  EXPECT_EQ(label_of("Payment term: within 30 days in full", "30 days"), "Payment term");
  EXPECT_EQ(label_of("Doctor: Dr. Grace Hughes", "Grace"), "Doctor");
  EXPECT_EQ(label_of("Fee: $5.00; Supplier: Acme Ltd.", "Acme"), "Supplier");
  EXPECT_EQ(label_of("Fee: $5.00; Supplier: Acme Ltd.", "$5.00"), "Fee");
  EXPECT_EQ(label_of("{\"total\": 12500, \"due\":\"2024-06-15\"}", "12500"), "total");
  EXPECT_EQ(label_of("{\"total\": 12500, \"due\":\"2024-06-15\"}", "2024"), "due");
  EXPECT_EQ(label_of("- Amount: $300", "$300"), "Amount");
  EXPECT_EQ(label_of("合同\n付款期限：30日内\n乙方：苏州长青食品有限公司", "30日"), "付款期限");
  EXPECT_EQ(label_of("委托方：广州宏达建设集团；乙方：苏州长青食品有限公司。", "苏州"), "乙方");
  EXPECT_EQ(label_of("The fee is due. Total: $5", "$5"), "Total");
}

TEST(FieldLabel, NotAFieldGivesNoLabel) {
  EXPECT_EQ(label_of("Acme Ltd. pays $5,000 by June 1, 2024.", "$5,000"), "");
  EXPECT_EQ(label_of("The meeting is at 10:30 on June 1, 2024.", "June"), "");  // a time, not a separator
  EXPECT_EQ(label_of("Note: the parties met twice and agreed, after long talks, on $5,000.", "$5,000"), "");
  EXPECT_EQ(label_of("Whereas the parties to this agreement have agreed as follows: $5", "$5"), "");
  EXPECT_EQ(label_of("Due: June 1, 2024 and July 6, 2024", "July"), "");  // past a comma: another clause
  EXPECT_EQ(label_of("$5 up front", "$5"), "");
  // A clause between the separator and the value: the value is not the field's.
  EXPECT_EQ(label_of("Note: the invoice total is $5,000", "$5,000"), "");
  EXPECT_EQ(label_of("Summary: a payment of $500 is due", "$500"), "");
}

TEST(FieldLabel, LineScopeLabelsEveryValueOnTheFieldsLine) {
  const std::string src = "Parties: Acme Ltd., Beta LLC and Gamma Inc.\nNote: the invoice total is $5,000";
  for (const char* v : {"Acme", "Beta", "Gamma"}) {
    EXPECT_EQ(std::string(field_label(src, src.find(v), FieldScope::line)), "Parties") << v;
  }
  EXPECT_EQ(std::string(field_label(src, src.find("$5,000"), FieldScope::line)), "Note");
  EXPECT_EQ(std::string(field_label(src, src.find("Beta"))), "");  // the output's rule: past a comma
  // The nearest separator wins (JSON), and a line break ends the field.
  const std::string json = "{\"a\": 1, \"b\": 2}";
  EXPECT_EQ(std::string(field_label(json, json.find('2'), FieldScope::line)), "b");
  EXPECT_EQ(std::string(field_label("Total: $5\nPaid $7 today", 15, FieldScope::line)), "");
}

TEST(FieldLabel, SameLabelIgnoresAsciiCaseOnly) {
  EXPECT_TRUE(same_label("Total Due", "total due"));
  EXPECT_FALSE(same_label("Total", "Total due"));
  EXPECT_FALSE(same_label("乙方", "甲方"));
}

TEST(SourceIndexField, AnchorsKeepTheLabelTheyAreStatedUnder) {
  SourceIndex idx;
  idx.add_source("Service request\nAccount: Falcon Systems LLC\nOpened by: Chloe Turner\nRefund: $85,064.00");
  std::map<std::string, std::string> field_of;
  for (const auto& s : idx.anchors()) field_of[s.text] = s.field;
  EXPECT_EQ(field_of["Falcon Systems LLC"], "Account");
  EXPECT_EQ(field_of["Chloe Turner"], "Opened by");
  EXPECT_EQ(field_of["$85,064.00"], "Refund");
}

}  // namespace
}  // namespace sfcl::anchor
