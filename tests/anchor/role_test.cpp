// Roles (docs/ANCHORS.md, "Roles"): what a value is the value of, read from the text around it.
#include <gtest/gtest.h>

#include <string>

#include "anchor/anchor.h"

namespace sfcl::anchor {
namespace {

// The role of the value that starts at `value` in `text`.
std::string role_of(const std::string& text, const std::string& value) {
  const size_t at = text.find(value);
  EXPECT_NE(at, std::string::npos) << text;
  return std::string(role_before(text, at));
}

TEST(RoleBefore, LabelsNounsAndVerbsBeforeTheValue) {
  struct Row {
    const char* text;
    const char* value;
    const char* role;
  };
  const Row rows[] = {
      {"Total due: $21,705.60", "$21", "due"},
      {"Subtotal: $18,240.00", "$18", "Subtotal"},
      {"The total due is $18,240.00.", "$18", "due"},
      {"a monthly fee of $450", "$450", "fee"},
      {"the liability cap is about $50,000", "$50", "cap"},
      {"He was arrested on March 26.", "March", "arrested"},
      {"The company was founded in 1998.", "1998", "founded"},
      {"could be worth upwards of £6 million", "£6", "worth"},
      {"{'Monday': '17:0-21:0'}", "17:0", "Monday"},
      {"发票合计为5000元", "5000", "合计"},
      {"联系电话：021-5555-0101", "021", "联系电话"},
      {"应付金额5000元，应付5000元", "5000元，", ""},  // 金额 is no role word: the first value has none
      {"the total ScoresScoresScoresScoresScoresScoresScores2031", "2031", ""},  // glued to a word: none
      // a hyphenated label, a subject linked to its time, the head before a phrase
      {"Follow-up date: 3 June 2025", "3 June", "Follow-up"},
      {"Check-out: 11 am", "11 am", "Check-out"},
      {"The follow-up is on 3 June.", "3 June", "follow-up"},
      {"The hearing is scheduled for 5 May.", "5 May", "hearing"},
      {"The due date on invoice INV-7 is 5 May 2025.", "5 May", "due"},
      {"the issue date of the invoice was 5 April", "5 April", "issue"},
      {"Final exam date: 20 June", "20 June", "Final"},  // heads stacked
      // no modifier before the head: the noun of its phrase, as before
      {"The number of deaths was 300", "300", "deaths"},
      {"Date of birth is 12 May 1990", "12 May", "birth"},
      {"Apple was co-founded in 1976", "1976", "founded"},  // a verb keeps its own word
      {"公司成立于：1998年", "1998", "成立"},               // 于 before a colon links here
      {"期末考试时间：2025年6月20日", "2025", "期末"},
      {"本次总费用为5000元", "5000", "费用"},  // no head stripped after 总
  };
  for (const auto& r : rows) EXPECT_EQ(role_of(r.text, r.value), r.role) << r.text;
}

TEST(RoleBefore, NoRoleWhereTheWordBeforeSaysNothing) {
  const char* rows[][2] = {
      {"European Cup competitions since 2010.", "2010"},  // a preposition of time, not a role
      {"Roast in the oven for 45 minutes.", "45"},
      {"the competition in 2015", "2015"},  // "in" after a noun, not a verb
      {"fees of $5, $10 and $20", "$10"},   // a list: a value before it
      {"Smith said 40 people came.", "40"},
      {"New episodes of Survivor are 90 minutes long", "90"},  // a name is no role
      {"sales rose sharply. 2019 was", "2019"},
      {"Costs are estimated at $212 million.", "$212"},  // how the value is known, not what it is
      {"Sales grew year-on-year 5%", "5%"},              // a phrase of generic words
  };
  for (const auto& r : rows) EXPECT_EQ(role_of(r[0], r[1]), "") << r[0];
}

TEST(SameRole, CaseAndStem) {
  EXPECT_TRUE(same_role("arrested", "arrest"));
  EXPECT_TRUE(same_role("approved", "approve"));
  EXPECT_TRUE(same_role("founded", "founding"));
  EXPECT_TRUE(same_role("Subtotal", "subtotal"));
  EXPECT_TRUE(same_role("合计", "合计"));
  EXPECT_FALSE(same_role("subtotal", "due"));
  EXPECT_FALSE(same_role("", ""));
  // pay: "earn about $32 per hour" is what they are "paid"; an average is of anything, 收入 a company's too
  EXPECT_TRUE(same_role("earns", "paid"));
  EXPECT_TRUE(same_role("salary", "wage"));
  EXPECT_FALSE(same_role("earn", "average"));
  EXPECT_FALSE(same_role("工资", "收入"));
}

TEST(Weekdays, LabelsThatNameDays) {
  EXPECT_EQ(weekdays("Monday"), 0x01);
  EXPECT_EQ(weekdays("'Sunday'"), 0x40);
  EXPECT_EQ(weekdays("Mon-Fri"), 0x1F);
  EXPECT_EQ(weekdays("Saturday to Sunday"), 0x60);
  EXPECT_EQ(weekdays("Friday – Monday"), 0x71);  // wraps over the weekend
  EXPECT_EQ(weekdays("Mondays, Wednesdays and Fridays"), 0x15);
  EXPECT_EQ(weekdays("weekends"), 0x60);
  EXPECT_EQ(weekdays("Total due"), 0);
  EXPECT_EQ(weekdays("Monday meeting"), 0);
}

TEST(WeekdaysOfTime, DaysBeforeOrAfterTheTimes) {
  struct Row {
    const char* text;
    const char* time;
    int days;
  };
  const Row rows[] = {
      {"open Monday to Thursday from 5:00 PM to 9:00 PM, Friday from 11 am", "9:00 PM", 0x0F},
      {"open Monday to Thursday from 5:00 PM to 9:00 PM, Friday from 11 am", "11 am", 0x10},
      {"open from 11 am to 11 pm on Monday through Sunday.", "11 am", 0x7F},
      {"from 9 am to 6 pm on weekdays, 8 am to 6 pm on Saturday", "8 am", 0x20},
      {"Hours: Sat 10:00-14:00", "14:00", 0x20},
      {"The store opened at 9 am after the storm.", "9 am", 0},
      {"On Monday, police said the attack began at 9 am.", "9 am", 0},
  };
  for (const auto& r : rows) {
    const std::string t = r.text;
    const size_t at = t.find(r.time);
    ASSERT_NE(at, std::string::npos) << t;
    const std::string_view sv = t;
    EXPECT_EQ(weekdays_of_time(sv.substr(0, at), sv.substr(at + std::string_view(r.time).size())), r.days) << t;
  }
}

}  // namespace
}  // namespace sfcl::anchor
