// Clause words (docs/ANCHORS.md, "Clause words"): the content words of a value's clause on each side.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "anchor/anchor.h"

namespace sfcl::anchor {
namespace {

struct BeforeRow {
  const char* before;  // the text right before the value
  std::vector<const char*> has;
  std::vector<const char*> lacks;
  bool joined;
};

TEST(ClauseWordsBefore, ReadsTheClauseBackToItsStartOrTheValueBefore) {
  const BeforeRow rows[] = {
      // Function words left out; words compare by their stems ("dividends" = "dividend").
      {"The final dividend will be paid on ", {"final", "dividends", "paid"}, {"will", "the", "on"}, false},
      // A sentence's end stops it; a decimal point does not.
      {"Revenue was up 17.4% last year. Recurring subscription revenue rose ",
       {"recurring", "subscription", "revenue", "rose"},
       {"year", "last"},
       false},
      // A value joined by a connector shares the words before it.
      {"The centre's staff expanded from 22 to ", {"centre", "staff", "expanded"}, {}, true},
      {"Dorothy Richards (1933-", {"dorothy", "richards"}, {}, true},
      // A value with words between stops it.
      {"paid on 1 August 2025 to shareholders on the register on ", {"shareholders", "register"}, {"paid"}, false},
      // A comma ends the clause; so do a record's structure and a table's cells.
      {"In March, the council estimated its immediate costs at ", {"council", "immediate", "costs"}, {"march"}, false},
      {"{'name': 'Live Oak Cafe', 'address': '", {"address"}, {"cafe", "name"}, false},
      // A comma right before the value, with nothing read yet, encloses words of its clause.
      {"Benefits, chiefly reduced fraud in records, are estimated at ", {"fraud", "records"}, {"benefits"}, false},
      // An abbreviation's full stop is no sentence's end.
      {"a company limited by guarantee (No. ", {"company", "limited", "guarantee"}, {}, false},
      {"| Total due | ", {"total"}, {}, false},
  };
  for (const auto& row : rows) {
    const ClauseWords w = clause_words_before(row.before);
    for (const char* word : row.has) EXPECT_TRUE(w.has_word(word)) << row.before << " | " << word;
    for (const char* word : row.lacks) EXPECT_FALSE(w.has_word(word)) << row.before << " | " << word;
    EXPECT_EQ(w.joined, row.joined) << row.before;
    EXPECT_FALSE(w.han) << row.before;
  }
}

TEST(ClauseWordsBefore, HanTextAsPairsOfCharacters) {
  const ClauseWords w = clause_words_before("白皮书显示，全省关键工序数控化率达到");
  EXPECT_TRUE(w.han);
  EXPECT_TRUE(w.has_word("工序"));
  EXPECT_TRUE(w.has_word("达到"));
  EXPECT_FALSE(w.has_word("显示"));  // behind the comma
  // A value's own character after digits is the value's: 2018年上市 leaves 上市 to the clause.
  const ClauseWords after = clause_words_after("上市，此后");
  EXPECT_TRUE(after.has_word("上市"));
  const ClauseWords joined = clause_words_before("该项目工期自3月1日至");
  EXPECT_TRUE(joined.joined);
  EXPECT_TRUE(joined.has_word("工期"));
}

TEST(ClauseWordsBefore, AnEnumerationItemSharesItsListsWordsInSourcesOnly) {
  const char* item = "政策范围内费用报销比例为85%；二级为";
  EXPECT_TRUE(clause_words_before(item, true).has_word("报销"));
  EXPECT_FALSE(clause_words_before(item, false).has_word("报销"));
  // An item with more than one word of its own keeps to them.
  EXPECT_FALSE(clause_words_before("the fee is $5; the deposit for a long stay is ", true).has_word("fee"));
  EXPECT_FALSE(clause_words_before("报销比例为85%；三级医院为", true).has_word("报销"));
}

TEST(ClauseWordsAfter, ReadsToTheClauseEndOrTheNextValue) {
  const ClauseWords w = clause_words_after(" to shareholders on the register on 27 June 2025.");
  EXPECT_TRUE(w.has_word("shareholders"));
  EXPECT_TRUE(w.has_word("register"));
  // A value that opens its sentence before a comma: the clause after the comma is its.
  EXPECT_TRUE(clause_words_after(", revenue fell sharply. Costs rose").has_word("fell"));
  EXPECT_FALSE(clause_words_after(", revenue fell sharply. Costs rose").has_word("costs"));
  EXPECT_EQ(clause_words_after(" and 61 staff").size, 0);
}

TEST(ClauseWords, ValuesJoinedIntoARangeOrList) {
  EXPECT_TRUE(joins_values(" to "));
  EXPECT_TRUE(joins_values(" million in 2019 to ") == false);  // digits: another value between
  EXPECT_TRUE(joins_values(" in "));
  EXPECT_TRUE(joins_values(", "));
  EXPECT_TRUE(joins_values("至"));
  EXPECT_TRUE(joins_values("-"));
  EXPECT_FALSE(joins_values(" to shareholders on the register on "));
  EXPECT_FALSE(joins_values("增长到"));
  EXPECT_FALSE(joins_values(". "));
  // A Han character of value right after a value in digits is the value's.
  EXPECT_FALSE(clause_words_after("岁时打破全国纪录", true).has_word("岁时"));
  EXPECT_TRUE(clause_words_after("岁时打破全国纪录", true).has_word("打破"));
}

TEST(ClauseWords, BoundedAndShared) {
  // Function words alone: the read stops after a bounded number of bytes.
  std::string before;
  for (int i = 0; i < 10000; ++i) before += "the ";
  EXPECT_EQ(clause_words_before(before).size, 0);
  const ClauseWords many = clause_words_before("alpha bravo charlie delta echo foxtrot golf hotel india juliet ");
  EXPECT_EQ(many.size, kClauseWords);
  EXPECT_TRUE(many.has_word("juliet"));  // nearest first
  EXPECT_FALSE(many.has_word("alpha"));
  const ClauseWords a = clause_words_before("the final dividend will be paid on ");
  const ClauseWords b = clause_words_before("The interim dividend was paid on ");
  EXPECT_EQ(a.shared(b), 2U);  // dividend, paid
}

}  // namespace
}  // namespace sfcl::anchor
