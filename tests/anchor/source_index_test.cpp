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

TEST(Knowledge, LoadsJsonlAndReportsBadLines) {
  const auto p = std::filesystem::temp_directory_path() / "sfcl-kb-test.jsonl";
  {
    std::ofstream f(p);
    f << R"({"term":"reasonable efforts","value":"合理努力","type":"name","aliases":["best efforts"]})" << "\n\n";
    f << R"({"term":"late fee","value":"1.5%","type":"percent"})" << "\n";
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
    f << R"({"term":"ok"})" << "\n" << "{not json}\n";
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
