#include <gtest/gtest.h>

#include <fstream>

#include "anchor/anchor.h"

namespace sfcl::anchor {
namespace {

TEST(SourceIndex, IndexesByTypeAndNorm) {
  SourceIndex idx;
  EXPECT_EQ(idx.add_source("Pay $12,500.00 by June 15, 2024."), 0);
  EXPECT_EQ(idx.add_source("See Section 7.2."), 1);
  EXPECT_EQ(idx.of_type(Type::amount).size(), 1U);
  const int64_t hit = idx.find_exact(Type::amount, "12500 USD");
  ASSERT_GE(hit, 0);
  EXPECT_EQ(idx.anchors()[static_cast<size_t>(hit)].text, "$12,500.00");
  EXPECT_EQ(idx.find_exact(Type::amount, "12600 USD"), -1);
  EXPECT_GE(idx.find_exact(Type::clause, "7.2"), 0);
  EXPECT_EQ(idx.anchors()[static_cast<size_t>(idx.find_exact(Type::clause, "7.2"))].source, 1);
}

// "X of Y" is one name to the lexer; an answer that names only X or only Y is still grounded.
// A blank source has no text: a later source's words are cited as that source's, not the blank one's.
TEST(SourceIndex, TextAfterABlankSourceKeepsItsSourceId) {
  SourceIndex idx;
  idx.add_source("   \n");
  idx.add_source("Classes are held at the Lena Park Dance Studio. It opened in 2015.");
  TextSpan hit;
  ASSERT_TRUE(idx.find_verbatim("lena park", hit));
  EXPECT_EQ(hit.source, 1);
  // The sentence of a value is read in its own source: "opened" is in 2015's sentence.
  const auto years = idx.of_type(Type::number);
  ASSERT_EQ(years.size(), 1U);
  const std::string_view opened[] = {"opened"};
  const std::string_view closed[] = {"closed"};
  EXPECT_TRUE(idx.sentence_writes(years[0], opened));
  EXPECT_FALSE(idx.sentence_writes(years[0], closed));
}

// Sentences end as clause words end them: not at an abbreviation's full stop, and at a line break.
TEST(SourceIndex, SentenceOfAValue) {
  SourceIndex idx;
  idx.add_source("Ms. Byrne was discharged by Dr. Patel on 6 April 2025.\nEcho on 5 April 2025 was normal.");
  const auto dates = idx.of_type(Type::date);
  ASSERT_EQ(dates.size(), 2U);
  const std::string_view discharged[] = {"discharged"};
  EXPECT_TRUE(idx.sentence_writes(dates[0], discharged));
  EXPECT_FALSE(idx.sentence_writes(dates[1], discharged));
  const std::string_view han[] = {"出院"};
  EXPECT_FALSE(idx.sentence_writes(dates[0], han));
}

TEST(SourceIndex, JoinedNameAlsoSupportsItsParts) {
  SourceIndex idx;
  const std::string src = "Support ticket TCK-12345 opened by John Smith of Acme Robotics Ltd. on May 3, 2024.";
  idx.add_source(src);
  EXPECT_GE(idx.find_exact(Type::name, "john smith of acme robotics ltd"), 0);
  for (const char* part : {"john smith", "acme robotics ltd"}) {
    const int64_t hit = idx.find_exact(Type::name, part);
    ASSERT_GE(hit, 0) << part;
    const auto& a = idx.anchors()[static_cast<size_t>(hit)];
    EXPECT_EQ(src.substr(a.anchor.start, a.anchor.end - a.anchor.start), a.text) << part;
  }
  // Parts that are not names by themselves add nothing.
  SourceIndex bank;
  bank.add_source("Paid to Bank of China.");
  EXPECT_EQ(bank.of_type(Type::name).size(), 1U);
}

// The server indexes the knowledge base once; each request's index starts from it.
TEST(SourceIndex, RequestIndexOnASharedKnowledgeBase) {
  auto kb = std::make_shared<SourceIndex>();
  kb->add_knowledge(
      {{"late fee", "1.5%", "percent", {}}, {"reasonable efforts", "合理努力", "name", {"best efforts"}}});
  const size_t kb_size = kb->size();
  ASSERT_GT(kb_size, 0U);
  SourceIndex a(kb);
  SourceIndex b(kb);
  EXPECT_EQ(a.add_source("Late fee: 1.5% per month, due June 15, 2024."), 0);
  // The base is shared, not modified: b sees only the knowledge base.
  EXPECT_EQ(kb->size(), kb_size);
  EXPECT_EQ(b.size(), kb_size);
  EXPECT_EQ(a.size(), kb_size + 3);  // 1.5%, the date, and the date's year as a number
  EXPECT_GE(a.find_exact(Type::number, "2024"), 0);
  EXPECT_EQ(b.find_exact(Type::date, "2024-06-15"), -1);
  // Knowledge anchors are found through the request's index ...
  const int64_t term = a.find_exact(Type::name, "best efforts");
  ASSERT_GE(term, 0);
  EXPECT_EQ(a.anchors()[static_cast<size_t>(term)].source, -1);
  // ... but a value that the request's source also states is cited from the source.
  const int64_t fee = a.find_exact(Type::percent, "1.5%");
  ASSERT_GE(fee, 0);
  EXPECT_EQ(a.anchors()[static_cast<size_t>(fee)].source, 0);
  EXPECT_EQ(a.anchors()[static_cast<size_t>(fee)].field, "Late fee");
  // of_type spans both, and every index it gives is valid.
  size_t percents = 0;
  for (uint32_t i : a.of_type(Type::percent)) {
    ASSERT_LT(i, a.size());
    EXPECT_EQ(a.anchors()[i].anchor.type, Type::percent);
    ++percents;
  }
  EXPECT_EQ(percents, 2U);
  size_t seen = 0;
  for (const auto& s : a.anchors()) seen += s.text.empty() ? 0 : 1;
  EXPECT_EQ(seen, a.size());
}

TEST(Knowledge, LoadsJsonlAndReportsBadLines) {
  const auto p = std::filesystem::temp_directory_path() / "sfcl-kb-test.jsonl";
  {
    std::ofstream f(p);
    f << R"({"term":"reasonable efforts","value":"合理努力","type":"name","aliases":["best efforts"]})"
      << "\n\n";
    f << R"({"term":"late fee","value":"1.5%","type":"percent"})"
      << "\n";
  }
  const auto kb = load_knowledge(p);
  ASSERT_EQ(kb.size(), 2U);
  SourceIndex idx;
  idx.add_knowledge(kb);
  EXPECT_GE(idx.find_exact(Type::name, "合理努力"), 0);
  EXPECT_GE(idx.find_exact(Type::name, "best efforts"), 0);
  EXPECT_GE(idx.find_exact(Type::percent, "1.5%"), 0);
  {
    std::ofstream f(p);
    f << R"({"term":"ok"})"
      << "\n"
      << "{not json}\n";
  }
  try {
    load_knowledge(p);
    FAIL() << "bad line accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(":2:"), std::string::npos) << e.what();
  }
  std::filesystem::remove(p);
}

}  // namespace
}  // namespace sfcl::anchor
