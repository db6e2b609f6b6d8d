// Table-driven lexer cases: every normalisation example of the anchor issue and many more,
// English and Chinese, positive ("type", "norm") and negative ("!type": no anchor of that type).
#include <gtest/gtest.h>

#include "anchor/anchor.h"

namespace sfcl::anchor {
namespace {

struct Case {
  const char* text;
  const char* type;  // "amount", or "!date" for "no date anchor" (with a norm: none with that norm)
  const char* norm;
};

const Case kCases[] = {
    // numbers
    {"It was 1,000.50 in total", "number", "1000.5"},
    {"about 1.2 million units", "number", "1200000"},
    {"共120万件", "number", "1200000"},
    {"三千五百", "number", "3500"},
    {"1.000,50 net", "number", "1000.5"},
    {"version 2.0 shipped", "number", "2"},
    {"version 2.0 shipped", "!date", ""},
    {"we sold 42 units", "number", "42"},
    {"a 0.50 share", "number", "0.5"},
    {"007 agents", "number", "7"},
    {"1,234,567 people", "number", "1234567"},
    {"3.14159 is pi", "number", "3.14159"},
    {"grew 2.5 billion", "number", "2500000000"},
    {"12 thousand", "number", "12000"},
    {"10k followers", "number", "10000"},
    {"the 3rd item", "number", "3"},
    {"the 21st item", "number", "21"},
    {"12,5 kg", "number", "12.5"},
    {"1.000.000 Einwohner", "number", "1000000"},
    {"一百二十万", "number", "1200000"},
    {"两千零五", "number", "2005"},
    {"一亿二千万", "number", "120000000"},
    {"page 7.", "number", "7"},
    {"items: 5, 6", "number", "6"},
    {"plain words only", "!number", ""},
    {"统一安排", "!number", ""},
    // amounts
    {"Total $12,500.00 due", "amount", "12500 USD"},
    {"US$5 each", "amount", "5 USD"},
    {"HK$5 each", "amount", "5 HKD"},
    {"€3.5m budget", "amount", "3500000 EUR"},
    {"£20 fee", "amount", "20 GBP"},
    {"RMB 5,000 deposit", "amount", "5000 CNY"},
    {"人民币5000元", "amount", "5000 CNY"},
    {"5千元", "amount", "5000 CNY"},
    {"伍万元整", "amount", "50000 CNY"},
    {"¥3,000 paid", "amount", "3000 CNY"},
    {"¥3,000 yen", "amount", "3000 JPY"},
    {"5万元", "amount", "50000 CNY"},
    {"人民币五千元", "amount", "5000 CNY"},
    {"USD 12500 wired", "amount", "12500 USD"},
    {"12,500 USD wired", "amount", "12500 USD"},
    {"EUR 99.90", "amount", "99.9 EUR"},
    {"GBP 1,250", "amount", "1250 GBP"},
    {"cost 300 dollars", "amount", "300 USD"},
    {"cost 40 euros", "amount", "40 EUR"},
    {"A$100 rebate", "amount", "100 AUD"},
    {"S$2,000", "amount", "2000 SGD"},
    {"$1.2 million grant", "amount", "1200000 USD"},
    {"$3bn deal", "amount", "3000000000 USD"},
    {"$0.99 app", "amount", "0.99 USD"},
    {"3000円", "amount", "3000 JPY"},
    {"100 yuan", "amount", "100 CNY"},
    {"支付8000元", "amount", "8000 CNY"},
    {"$ alone", "!amount", ""},
    {"USDA approved", "!amount", ""},
    // percents
    {"12.5 % rate", "percent", "12.5%"},
    {"12.5% rate", "percent", "12.5%"},
    {"百分之十", "percent", "10%"},
    {"12.5 percent", "percent", "12.5%"},
    {"3 per cent", "percent", "3%"},
    {"百分之二十五", "percent", "25%"},
    {"5％折扣", "percent", "5%"},
    {"ten percent", "percent", "10%"},
    {"百分之5", "percent", "5%"},
    {"100% sure", "percent", "100%"},
    {"percent alone", "!percent", ""},
    // dates
    {"June 15, 2024", "date", "2024-06-15"},
    {"15 June 2024", "date", "2024-06-15"},
    {"2024-06-15", "date", "2024-06-15"},
    {"2024/6/15", "date", "2024-06-15"},
    {"2024年6月15日", "date", "2024-06-15"},
    {"June 2024", "date", "2024-06"},
    {"Q3 2024", "date", "2024-Q3"},
    {"2024年第三季度", "date", "2024-Q3"},
    {"03/04/2024", "date", "2024-03-04"},
    {"15/06/2024", "date", "2024-06-15"},
    {"06/15/2024", "date", "2024-06-15"},
    {"Jun. 15, 2024", "date", "2024-06-15"},
    {"Sept 1, 2023", "date", "2023-09-01"},
    {"December 31 2025", "date", "2025-12-31"},
    {"1st March 2022", "date", "2022-03-01"},
    {"March 3rd, 2022", "date", "2022-03-03"},
    {"2024年6月", "date", "2024-06"},
    {"6月15日", "date", "--06-15"},
    {"on June 15", "date", "--06-15"},
    {"2023年", "date", "2023"},
    {"2024.06.15", "date", "2024-06-15"},
    {"Q1, 2025", "date", "2025-Q1"},
    {"2024年第1季度", "date", "2024-Q1"},
    {"2024年6月15号", "date", "2024-06-15"},
    {"may 2024 plans", "!date", ""},
    {"2024-13-45", "!date", ""},
    {"Q5 2024", "!date", ""},
    {"June is warm", "!date", ""},
    // durations
    {"within 30 days", "duration", "30 day"},
    {"within thirty days", "duration", "30 day"},
    {"30日内", "duration", "30 day"},
    {"三十天", "duration", "30 day"},
    {"a 30-day window", "duration", "30 day"},
    {"12 months", "duration", "12 month"},
    {"2 weeks", "duration", "2 week"},
    {"3 years", "duration", "3 year"},
    {"1 year", "duration", "1 year"},
    {"10 business days", "duration", "10 day"},
    {"thirty (30) days", "duration", "30 day"},
    {"6个月", "duration", "6 month"},
    {"2周", "duration", "2 week"},
    {"3年", "duration", "3 year"},
    {"15个工作日", "duration", "15 day"},
    {"两年", "duration", "2 year"},
    {"ninety days", "duration", "90 day"},
    {"days ago", "!duration", ""},
    // clauses
    {"Section 7.2", "clause", "7.2"},
    {"Sec. 7.2", "clause", "7.2"},
    {"Art. 7.2", "clause", "7.2"},
    {"§7.2", "clause", "7.2"},
    {"clause 7.2", "clause", "7.2"},
    {"第7条", "clause", "7"},
    {"第七条", "clause", "7"},
    {"第三款", "clause", "3"},
    {"Article 12", "clause", "12"},
    {"Clause 4", "clause", "4"},
    {"§ 3", "clause", "3"},
    {"Section 10.1.3", "clause", "10.1.3"},
    {"第十二条", "clause", "12"},
    {"第2章", "clause", "2"},
    {"Paragraph 5", "clause", "5"},
    {"Section alone", "!clause", ""},
    {"Section", "!clause", ""},
    {"第一名", "!clause", ""},
    // identifiers
    {"invoice INV-2024-0042", "identifier", "INV-2024-0042"},
    {"mail John.Doe@Example.com", "identifier", "john.doe@example.com"},
    {"see https://example.com/a?b=1.", "identifier", "https://example.com/a?b=1"},
    {"order PO-7781 shipped", "identifier", "PO-7781"},
    {"call 555-010-2233", "identifier", "555-010-2233"},
    {"ticket A12B", "identifier", "A12B"},
    {"COVID-19 rules", "identifier", "COVID-19"},
    {"v1.2.3 release", "!identifier", ""},
    {"well-known fact", "!identifier", ""},
    // names
    {"Acme Robotics Ltd. signed", "name", "acme robotics ltd"},
    {"John Smith agreed", "name", "john smith"},
    {"Harbor Logistics LLC", "name", "harbor logistics llc"},
    {"Bank of China", "name", "bank of china"},
    {"Dr. Wang", "name", "dr. wang"},
    {"上海华东科技有限公司", "name", "上海华东科技有限公司"},
    {"北京协和医院", "name", "北京协和医院"},
    {"招商银行", "name", "招商银行"},
    {"Ａｃｍｅ Ｃｏｒｐ", "!name", ""},
    {"The Buyer pays", "!name", ""},
    {"Hello there", "!name", ""},
    {"Acme Corp", "name", "acme corp"},
    {"Mary Ann Lee", "name", "mary ann lee"},
    // "and" joins a one-word name to the next ("Johnson and Johnson"), never two full names.
    {"Johnson and Johnson", "name", "johnson and johnson"},
    {"Procter & Gamble", "name", "procter & gamble"},
    {"Grace Hughes and Henry Foster", "name", "grace hughes"},
    {"Grace Hughes and Henry Foster", "name", "henry foster"},
    {"Grace Hughes and Henry Foster", "!name", "grace hughes and henry foster"},
    {"Royal Bank of Canada", "name", "royal bank of canada"},
    // A capitalised word that prefixes an identifier belongs to the identifier, not the name.
    {"Dr. Chloe Turner MRN-534782.", "name", "dr. chloe turner"},
    {"Dr. Chloe Turner MRN-534782.", "!name", "dr. chloe turner mrn"},
    {"Dr. Chloe Turner MRN-534782.", "identifier", "MRN-534782"},
    {"Jean-Luc Picard", "name", "jean-luc picard"},
    // code, json, xml
    {"def total(x):", "code_signature", "def total"},
    {"class Invoice:", "code_signature", "class Invoice"},
    {"fn parse(s: &str)", "code_signature", "fn parse"},
    {"function render() {}", "code_signature", "function render"},
    {"a class of shares", "!code_signature", ""},
    {"{\"amount\": 5}", "json", "{"},
    {"{\"amount\": 5}", "json", "key:amount"},
    {"[{\"a\":1}]", "json", "["},
    {"<invoice id=\"1\">", "xml", "<invoice>"},
    {"</invoice>", "xml", "</invoice>"},
    {"a < b", "!xml", ""},
    // logic
    {"if paid", "logic", "if"},
    {"else return", "logic", "else"},
    {"otherwise void", "logic", "else"},
    {"unless agreed", "logic", "unless"},
    {"therefore due", "logic", "therefore"},
    {"thus due", "logic", "therefore"},
    {"hence due", "logic", "therefore"},
    {"如果付款", "logic", "if"},
    {"否则无效", "logic", "else"},
    {"因此到期", "logic", "therefore"},
    {"所以到期", "logic", "therefore"},
    {"The Supplier shall not assign", "logic", "must_not"},
    {"must not disclose", "logic", "must_not"},
    {"不得转让", "logic", "must_not"},
    {"The Buyer shall pay", "logic", "must"},
    {"乙方应当支付", "logic", "must"},
    {"x = 5", "logic", "equals"},
    {"Buyer agrees", "logic", "commit"},
    {"ifs and buts", "!logic", ""},
    {"IF ONLY", "!logic", ""},
    // Keywords and numerals inside a long run of plain Han characters (the scan skips plain
    // characters after a failed organisation-name scan, never a keyword or numeral).
    {"客户表示非常满意应当付款。", "logic", "must"},
    {"客户表示非常满意三千五百元。", "amount", "3500 CNY"},
    {"客户表示非常满意见第七条。", "clause", "7"},
    {"客户表示非常满意支付人民币5000元。", "amount", "5000 CNY"},
    {"客户表示非常满意百分之十。", "percent", "10%"},
    {"客户表示非常满意华东科技有限公司", "name", "客户表示非常满意华东科技有限公司"},
    // Words that only begin like a keyword (the keyword matchers run for exact leading words).
    {"thirtyish days", "!duration", ""},
    {"Sections 7 and 8", "!clause", ""},
    {"shallow water", "!logic", ""},
    {"Thirty days", "duration", "30 day"},
    {"Sec. 4.2 applies", "clause", "4.2"},
};

class LexerTable : public ::testing::TestWithParam<Case> {};

TEST_P(LexerTable, FindsTypedNorm) {
  const Case& c = GetParam();
  const auto anchors = extract(c.text);
  std::string type = c.type;
  const bool negative = type[0] == '!';
  if (negative) type = type.substr(1);
  Type t{};
  ASSERT_TRUE(parse_type(type, t)) << type;
  bool found = false;
  std::string seen;
  for (const auto& a : anchors) {
    seen += std::string(type_name(a.type)) + ":" + a.norm + " ";
    // A negative case with a norm rules out only that norm; without one, the whole type.
    if (a.type == t && ((negative && c.norm[0] == '\0') || a.norm == c.norm)) found = true;
  }
  if (negative) {
    EXPECT_FALSE(found) << c.text << " -> " << seen;
  } else {
    EXPECT_TRUE(found) << c.text << " expected " << type << ":" << c.norm << " got " << seen;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, LexerTable, ::testing::ValuesIn(kCases));

TEST(Lexer, AmbiguousDateIsMarkedAndFollowsLocale) {
  auto a = extract("03/04/2024");
  ASSERT_EQ(a.size(), 1U);
  EXPECT_TRUE(a[0].ambiguous);
  EXPECT_EQ(a[0].norm, "2024-03-04");
  EXPECT_EQ(a[0].alt_norm, "2024-04-03");
  LexerOptions day_first;
  day_first.date_order = DateOrder::day_first;
  a = extract("03/04/2024", day_first);
  ASSERT_EQ(a.size(), 1U);
  EXPECT_EQ(a[0].norm, "2024-04-03");
  EXPECT_FALSE(extract("15/06/2024")[0].ambiguous);
}

TEST(Lexer, SpansAreInputByteOffsets) {
  const std::string text = "付款人民币5000元 by June 15, 2024";
  const auto a = extract(text);
  ASSERT_EQ(a.size(), 2U);
  EXPECT_EQ(text.substr(a[0].start, a[0].end - a[0].start), "人民币5000元");
  EXPECT_EQ(text.substr(a[1].start, a[1].end - a[1].start), "June 15, 2024");
}

TEST(Lexer, InvalidUtf8NeverCrashesAndKeepsOffsets) {
  const std::string text = "\xff\xfe pay $5 \xe4\xb8 then \xc3";
  const auto a = extract(text);
  ASSERT_EQ(a.size(), 1U);
  EXPECT_EQ(a[0].norm, "5 USD");
  EXPECT_EQ(text.substr(a[0].start, a[0].end - a[0].start), "$5");
}

TEST(Lexer, KindsAreReported) {
  EXPECT_EQ(kind_of(Type::amount), Kind::entity);
  EXPECT_EQ(kind_of(Type::json), Kind::structural);
  EXPECT_EQ(kind_of(Type::logic), Kind::logic);
}

}  // namespace
}  // namespace sfcl::anchor
