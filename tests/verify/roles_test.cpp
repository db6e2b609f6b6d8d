// Roles in the check (docs/ANCHORS.md, "Roles"): a value the sources state only under another role
// is unsupported (other_field); one stated under the same role is confirmed with it.
#include <gtest/gtest.h>

#include <string>

#include "verify/verify.h"

namespace sfcl::verify {
namespace {

// Checks the anchor of `answer` that starts with `value`, as `sfcl anchors check` does.
CheckResult check_at(const std::string& source, const std::string& answer, const std::string& value) {
  anchor::SourceIndex idx;
  idx.add_source(source);
  Checker c(idx, {});
  const std::string_view t = answer;
  for (const auto& a : anchor::extract(answer)) {
    if (t.substr(a.start).starts_with(value)) {
      return c.check(a, anchor::field_label(t, a.start), t.substr(a.start, a.end - a.start), t.substr(0, a.start),
                     t.substr(a.end));
    }
  }
  ADD_FAILURE() << value << " is no anchor of " << answer;
  return {};
}

struct Row {
  const char* source;
  const char* answer;
  const char* value;
  Verdict verdict;
  bool role_matched;
};

void expect_rows(std::initializer_list<Row> rows) {
  for (const auto& r : rows) {
    const auto res = check_at(r.source, r.answer, r.value);
    EXPECT_EQ(res.verdict, r.verdict) << r.answer << " / " << r.value;
    EXPECT_EQ(res.role_matched, r.role_matched) << r.answer << " / " << r.value;
    if (r.verdict == Verdict::unsupported) {
      EXPECT_EQ(res.reason, Reason::other_field) << r.answer;
      EXPECT_TRUE(res.other_field) << r.answer;
    }
  }
}

constexpr const char* kInvoice =
    "Invoice INV-2024-0042\nSubtotal: $18,240.00\nTax: $3,465.60\nTotal due: $21,705.60\nMonthly fee: $450";

TEST(Roles, AValueUnderAnotherRoleIsUnsupported) {
  expect_rows({
      {kInvoice, "The total due is $18,240.00.", "$18", Verdict::unsupported, false},  // the subtotal
      {kInvoice, "The total due is $21,705.60.", "$21", Verdict::confirmed, true},
      {kInvoice, "The subtotal of $18,240.00 is before tax.", "$18", Verdict::confirmed, true},
      {kInvoice, "You paid $18,240.00.", "$18", Verdict::confirmed, false},  // no role read: role null
      {"He was arrested on March 24, 2015. On March 26 he was charged.", "He was arrested on March 26.", "March",
       Verdict::unsupported, false},
      {"He was arrested on March 24, 2015. On March 26 he was charged.", "He was arrested on March 24.", "March",
       Verdict::confirmed, true},
      {"He was arrested on March 24, 2015. On March 26 he was charged.", "He was charged on March 26.", "March",
       Verdict::confirmed, true},  // the source's verb after a date that opens its sentence
      {"He was arrested on March 24, 2015. On March 26 he was charged.", "He was released on March 26.", "March",
       Verdict::confirmed, false},  // the sources state no release: nothing to compare with
  });
}

TEST(Roles, ChineseFieldWords) {
  constexpr const char* kCn = "发票小计为4000元，税额为680元，合计为4680元。";
  expect_rows({
      {kCn, "本发票合计为4000元。", "4000", Verdict::unsupported, false},  // 小计's value
      {kCn, "本发票合计为4680元。", "4680", Verdict::confirmed, true},
      {kCn, "客户已付4000元。", "4000", Verdict::confirmed, false},
  });
}

// A table's rows, any Chinese field name before 为/是/：, "since" after a verb, and names under a
// labelled field: each with its right value beside it.
TEST(Roles, TablesChineseFieldNamesSinceAndNames) {
  constexpr const char* kTable = "| Item | Price |\n|---|---|\n| Subtotal | $18,240.00 |\n| Total due | $21,705.60 |";
  constexpr const char* kCap = "责任上限为50000元，月费为2500元。";
  constexpr const char* kContacts = "Contact: Jane Smith, phone 555-010-2233. Account manager: Bob Lee.";
  constexpr const char* kCnContacts = "联系人：张伟，电话：13812345678。客户经理：李娜。";
  expect_rows({
      {kTable, "The total due is $18,240.00.", "$18", Verdict::unsupported, false},
      {kTable, "The total due is $21,705.60.", "$21", Verdict::confirmed, true},
      {kCap, "责任上限为2500元。", "2500", Verdict::unsupported, false},
      {kCap, "责任上限为50000元。", "50000", Verdict::confirmed, true},
      {"The store opened in 2015. A reviewer visited in 2022.", "It has been open since 2022.", "2022",
       Verdict::unsupported, false},
      {"The store opened in 2015. A reviewer visited in 2022.", "It has been open since 2015.", "2015",
       Verdict::confirmed, true},
      {kContacts, "The account manager is Jane Smith.", "Jane", Verdict::unsupported, false},
      {kContacts, "The account manager is Bob Lee.", "Bob", Verdict::confirmed, false},
      {kCnContacts, "客户经理是张伟。", "张伟", Verdict::unsupported, false},
      {kCnContacts, "客户经理是李娜。", "李娜", Verdict::confirmed, false},
      // A role word that opens its sentence before a link; a Chinese verb right after a value that
      // opens its clause, and 于 as a link.
      {"The deposit of $1,200 is refundable. Rent is $2,400 per month.", "Monthly rent is $1,200.", "$1,200",
       Verdict::unsupported, false},
      {"The deposit of $1,200 is refundable. Rent is $2,400 per month.", "Monthly rent is $2,400.", "$2,400",
       Verdict::confirmed, true},
      {"该公司成立于1998年，2005年上市。", "该公司成立于2005年。", "2005", Verdict::unsupported, false},
      {"该公司成立于1998年，2005年上市。", "该公司成立于1998年。", "1998", Verdict::confirmed, true},
      // 于 follows subjects too: no role from 公司, the answer's verb after the value instead; a name
      // after "of" is what the role is of.
      {"该公司于2005年成立，2010年上市。", "该公司于2010年上市。", "2010", Verdict::confirmed, true},
      {kContacts, "Bob Lee is the account manager of Jane Smith.", "Jane", Verdict::confirmed, false},
      // A decade is compared with the years of its role: the CEO's birth year is no founding year.
      {"The company was founded in 1995. Its CEO was born in 1962.", "It was founded in the 1960s.", "1960s",
       Verdict::unsupported, false},
      {"The company was founded in 1995. Its CEO was born in 1962.", "It was founded in the 1990s.", "1990s",
       Verdict::confirmed, true},
      {"公司成立于1995年，董事长出生于1962年。", "公司成立于上世纪九十年代。", "九十年代", Verdict::confirmed, true},
      // An item of an enumeration takes the list's field: 75% is a 报销比例 too.
      {"报销比例为85%；二级为75%；三级为60%。", "二级医院的报销比例为75%。", "75%", Verdict::confirmed, false},
  });
}

TEST(Roles, NoPositiveEvidenceNoFlag) {
  expect_rows({
      // The source's other value under that role is there, but this value is also stated with no role
      // read, in a sentence that writes the role.
      {"The fee is $450. Late fees: $450 and $90.", "The fee is $90.", "$90", Verdict::confirmed, false},
      // A role the sources never use binds nothing.
      {kInvoice, "The deposit is $450.", "$450", Verdict::confirmed, false},
  });
}

constexpr const char* kHours =
    "{'name': 'Mala Town', 'hours': {'Monday': '17:0-21:0', 'Tuesday': '17:0-21:0', 'Wednesday': '11:0-15:0', "
    "'Thursday': '17:0-21:0', 'Friday': '11:0-22:0', 'Saturday': '12:0-22:0', 'Sunday': '12:0-22:0'}}";

TEST(Roles, TimesOfDayAreTheHoursOfTheirDays) {
  expect_rows({
      {kHours, "Open Monday to Thursday from 5:00 PM to 9:00 PM.", "5:00", Verdict::unsupported, false},  // Wed
      {kHours, "Open Monday to Tuesday from 5:00 PM to 9:00 PM.", "9:00", Verdict::confirmed, true},
      {kHours, "Open from 11 am to 10 pm on Friday.", "10 pm", Verdict::confirmed, true},
      {kHours, "Open from 11 am to 10 pm on weekends.", "11 am", Verdict::unsupported, false},  // 12:00 on both
      {kHours, "Open Friday from 11 am to 10 pm, and Saturday from 12 pm.", "12 pm", Verdict::confirmed, true},
      {kHours, "The kitchen closes at 9 pm.", "9 pm", Verdict::confirmed, false},  // no days written
      // The days the sentence gives another time later are exceptions, not this time's days.
      {kHours, "Open from 5:00 PM Monday to Thursday, except Wednesday from 11 am.", "5:00", Verdict::confirmed, true},
      {kHours, "Open until 10 pm from Friday to Sunday.", "10 pm", Verdict::confirmed, true},
      {kHours, "Open Monday to Sunday until 9 pm, with extended hours until 10 pm on Friday, Saturday and Sunday.",
       "9 pm", Verdict::unsupported, false},  // Wednesday closes at 15:00
      {kHours, "Open from 5 pm to 9 pm on Monday and Tuesday, and from 12 pm to 10 pm on weekends.", "9 pm",
       Verdict::confirmed, true},  // the range's other end is not an exception
      // Days written after each range: the days behind the comma are the earlier range's.
      {kHours, "Hours: 5 pm-9 pm Monday to Tuesday, 12 pm-10 pm on weekends.", "10 pm", Verdict::confirmed, true},
      {kHours, "Hours: 11 am-3 pm Wednesday, 5 pm-9 pm on weekends.", "5 pm", Verdict::unsupported, false},
  });
}

// What a count counts is its role (docs/ANCHORS.md, "Roles"): the same number counting another noun
// in every source occurrence is another value.
// What a count counts is its role: the same noun on both sides is a role matched.
TEST(Roles, ACountIsOfWhatItCounts) {
  constexpr const char* kEn = "The building has 80 residents and 12 floors. The board approved 14 routes in 2019.";
  constexpr const char* kZh = "本届比赛共有15个国家参加，两支球队晋级。电子体温计中有36支显示屏不亮。";
  expect_rows({
      {kEn, "There are 80 owners in the building.", "80", Verdict::unsupported, false},
      {kEn, "There are 80 residents in the building.", "80", Verdict::confirmed, false},
      {kEn, "The board approved 14 routes.", "14", Verdict::confirmed, true},  // and its role, "approved"
      {kEn, "The board cut 14 flights.", "14", Verdict::unsupported, false},   // a unit's noun too: 14 routes
      {kEn, "The building has 12 floors.", "12", Verdict::confirmed, true},
      {"The jury had 12.", "The jury had 12 members.", "12", Verdict::confirmed, false},  // nothing read
      {"It had 80 new owners.", "It had 80 owners.", "80", Verdict::confirmed, true},     // an adjective first
      {"Apollo 11 landed in July.", "Apollo 11 lands on the Moon.", "11", Verdict::confirmed, true},  // a verb
      // a number that is part of a name, a verb with its object, a unit spelled another way
      {"Interstate 80 crosses 11 states.", "Interstate 80 spans 11 states.", "80", Verdict::confirmed, true},
      {"Apollo 11 reaches the Moon.", "Apollo 11 lands on the Moon.", "11", Verdict::confirmed, true},
      {"It has 11 states. Road 5 crosses 11 states.", "The road crosses 11 states.", "11", Verdict::confirmed, true},
      {"The trail runs 20 kilometers.", "The trail runs 20 kilometres.", "20", Verdict::confirmed, true},
      {"There were 5 ferry crossings.", "There were 5 ferries.", "5", Verdict::confirmed, true},  // singular
      {"There were 5 canoes.", "There were 5 ferries.", "5", Verdict::unsupported, false},
      {"The team of 12 drivers won.", "The team of 12 crosses the line.", "12", Verdict::confirmed, true},  // a verb
      {kZh, "他本赛季打进15个进球。", "15个", Verdict::unsupported, false},  // 15个国家
      {kZh, "共有15个国家参加了比赛。", "15个", Verdict::confirmed, true},
      {kZh, "两支主要球队晋级。", "两支", Verdict::confirmed, true},            // a modifier before the noun
      {kZh, "有36支电子体温计显示屏不亮。", "36支", Verdict::confirmed, true},  // the noun before the count
      {"入组了612例经二甲双胍治疗的成年患者。", "研究共入组612例患者。", "612例", Verdict::confirmed, true},
      {"逾两万人坚守岗位。", "超过两万名职工坚守岗位。", "两万名", Verdict::confirmed, false},  // 人: people
      // a range's first end counts the noun after its other end
      {"Summaries run 100 - 200 words.", "It has over 100 reviews.", "100", Verdict::unsupported, false},
      {"It took 3 to 5 weeks.", "It had 3 wards.", "3", Verdict::unsupported, false},
      {"It took 3 to 5 weeks.", "It took 3 weeks at least.", "3", Verdict::confirmed, true},
      {"It took 3-5 weeks.", "It took 3 weeks at least.", "3", Verdict::confirmed, true},
      {"It took 3 weeks.", "It had 3 wards.", "3", Verdict::unsupported, false},  // a duration counts no noun
      // a number that names a thing counts nothing: Room 3, 12号登机口
      {"Room 3 is on floor 2.", "She stayed 3 nights.", "3", Verdict::unsupported, false},
      // a span of time restated in another unit, though the sources use the answer's unit elsewhere
      {"Response within 30 minutes, resolution in 4 hours.", "They respond within half an hour.", "half an hour",
       Verdict::confirmed, false},
      {"Room 3 is on floor 2.", "She stayed in Room 3.", "3", Verdict::confirmed, false},
      {"12号登机口9点开放。", "共有12个登机口。", "12个", Verdict::unsupported, false},
      {"12号登机口9点开放。", "在12号登机口登机。", "12", Verdict::confirmed, false},
      {"Tampa Bay 5, Boston 3.", "Tampa Bay scored 5 goals.", "5 goals", Verdict::confirmed, false},  // a name's end
      // what happened to what a count counts: a count of another event's, where the sources give
      // the answer's event another count
      {"Two people were killed and nine injured in the attack.", "The attack killed nine people.", "nine people",
       Verdict::unsupported, false},
      {"Two people were killed and nine injured in the attack.", "Nine people were hurt in the attack.", "Nine people",
       Verdict::confirmed, false},
      {"Nine people were injured in the attack.", "Nine people were hospitalised.", "Nine people", Verdict::confirmed,
       false},  // the sources count no one hospitalised
      {"The company opened 14 new stores and closed 5.", "It closed 14 stores.", "14", Verdict::unsupported, false},
      {"造成3人死亡、12人受伤。", "事故造成12人死亡。", "12人", Verdict::unsupported, false},
      {"造成3人死亡、12人受伤。", "事故中12人受伤。", "12人", Verdict::confirmed, false},
      {"因灾死亡12人、失踪5人。", "12人死亡、5人失踪。", "5人", Verdict::confirmed, false},
      {"警方抓获犯罪嫌疑人7名，其中刑事拘留5人。", "已有7人被刑事拘留。", "7人", Verdict::unsupported, false},
      // adjectives between a count and its noun; a part of a whole counts the whole's noun
      {"Three of the alleged attackers were killed. Jets hit four militants.", "Four alleged attackers were killed.",
       "Four", Verdict::unsupported, false},
      {"Four of the alleged attackers were killed.", "Four alleged attackers died.", "Four", Verdict::confirmed, true},
      {"The chain opened 12 stores and hired 12 senior managers.", "The chain opened 12 new stores.", "12",
       Verdict::confirmed, true},
      {"The chain hired 12 senior managers.", "The chain opened 12 new stores.", "12", Verdict::unsupported, false},
      {"He scored 3 goals against 4 rivals.", "He scored 3 against rivals.", "3", Verdict::confirmed, true},
  });
}

// A span of time in another unit is the same span only where it converts exactly: "2 hours" is
// none of "30 minutes" and "4 hours".
TEST(Roles, ASpanOfTimeInAnotherUnit) {
  const auto res =
      check_at("Response within 30 minutes, resolution in 4 hours.", "They respond within 2 hours.", "2 hours");
  EXPECT_EQ(res.verdict, Verdict::unsupported);
  // a whole span in the sources' own unit is one of theirs: "7 days" is not "1 week" beside "30 days"
  EXPECT_EQ(check_at("Returns within 30 days. Delivery takes 1 week.", "Returns within 7 days.", "7 days").verdict,
            Verdict::unsupported);
}

// Words that name one event compare as one role, in either language; the second word of a phrasal
// verb ("went public", "took office") is a role of its own.
TEST(Roles, OneEventByItsOtherWordsAndPhrasalVerbs) {
  constexpr const char* kEn = "The company was founded in 1998. It went public in 2005.";
  constexpr const char* kZh = "该公司成立于1998年，2005年上市。";
  expect_rows({
      {kEn, "The company was founded in 2005.", "2005", Verdict::unsupported, false},
      {kEn, "The firm was established in 2005.", "2005", Verdict::unsupported, false},
      {kEn, "The firm was established in 1998.", "1998", Verdict::confirmed, true},
      {kEn, "It went public in 2005.", "2005", Verdict::confirmed, true},
      {kEn, "It went public in 1998.", "1998", Verdict::unsupported, false},
      {kZh, "该公司成立于2005年。", "2005年", Verdict::unsupported, false},
      {kZh, "该公司成立于1998年。", "1998年", Verdict::confirmed, true},
      {"She took office in 2009 and left in 2013.", "She took office in 2013.", "2013", Verdict::unsupported, false},
  });
}

// A date the sources state with a noun or another verb ("His wife Edna's death on 14 November
// 2003", "came out on") is no other event's date for an answer's verb: no role read, nothing decided.
TEST(Roles, ADateStatedWithANounBindsNothing) {
  expect_rows({
      {"Harold Mills died on 2 April 1998 in Leeds. His wife Edna's death on 14 November 2003 followed an illness.",
       "Harold Mills died on 2 April 1998, and his wife Edna died on 14 November 2003.", "14 November",
       Verdict::confirmed, false},
      {"The band's debut album came out on 12 March 2010. Their second album was released on 20 September 2012.",
       "The band's debut album was released on 12 March 2010.", "12 March", Verdict::confirmed, false},
  });
}

// A value whose role the answer writes, where the sources state that role under a field's label with
// another value and write this one in sentences that never name the role (docs/ANCHORS.md, "Roles"):
// the discharge date is not the echocardiogram's. A sentence that names the role, or a word for the
// same event, anywhere may be stating it; a role stated only in prose binds no role-less value.
TEST(Roles, AValueWhoseSentenceNeverWritesTheRole) {
  constexpr const char* kSummary =
      "Admitted: 3 March 2025. Discharged: 11 March 2025. Echocardiography on 5 March 2025 showed an "
      "ejection fraction of 45%.";
  constexpr const char* kFees = "Fee: $450\nLate payments: $450 and $90.";
  constexpr const char* kFirm = "成立日期：2003年5月8日\n2010年5月8日，第二家工厂在深圳投产。";
  constexpr const char* kTeacher =
      "She was a married 34-year-old teacher in Seattle in 1996 when the affair began. They married in 2005.";
  constexpr const char* kPoll =
      "48%的受访者反对修改宪法，赞成者比例为43%。此外，有63%的受访者反对修改第九条，而赞成的民众比例仅为29%。";
  expect_rows({
      {kSummary, "The patient was discharged on 5 March 2025.", "5 March", Verdict::unsupported, false},
      {kSummary, "The patient was discharged on 11 March 2025.", "11 March", Verdict::confirmed, true},
      {kFees, "The fee is $90.", "$90", Verdict::unsupported, false},
      {kFees, "The fee is $450.", "$450", Verdict::confirmed, true},
      {kFirm, "该公司成立于2010年5月8日。", "2010", Verdict::unsupported, false},
      {kFirm, "该公司成立于2003年5月8日。", "2003", Verdict::confirmed, true},
      // The role in the value's sentence ("married", 比例 after another clause), or stated in prose only.
      {kTeacher, "In 1996, Letourneau was a married 34-year-old teacher.", "1996", Verdict::confirmed, false},
      {kPoll, "反对修改第九条的比例达63%。", "63%", Verdict::confirmed, false},
      {"The first clinic opened in 2009. The second clinic welcomed its first patients in 2016.",
       "The second clinic opened in 2016.", "2016", Verdict::confirmed, false},
      {"华新科技成立于1998年。其子公司华新智能由创始人之子于2004年创办。", "华新智能成立于2004年。", "2004",
       Verdict::confirmed, false},
      // A phrasal verb's particle: "passed away" is no "passed".
      {"Her father died in 1988. Her mother passed away in 2001, after moving to Lisbon.", "Her mother died in 2001.",
       "2001", Verdict::confirmed, false},
      // The value of a role stated in another unit says nothing of a bare number's.
      {"Cut the two skids at 70 inches. Cut two joists to a length of 6 feet.", "Cut the skids to a length of 70.",
       "70", Verdict::confirmed, false},
  });
}

// Prose states one event in too many words (pronouns, "passed away", 始建, 挂牌) for a sentence's
// silence to say anything: a role stated in prose only binds no value whose occurrences have no role
// read. Under a label, a sentence that shares a word with the answer's clause may be stating it.
TEST(Roles, ProseBindsNoRolelessValue) {
  constexpr const char* kShops = "一号店于2019年开业。二号店2021年起正式营业。";
  expect_rows({
      {"Her father died in 1988. Her mother passed away in 2001.", "Her mother died in 2001.", "2001",
       Verdict::confirmed, false},
      {kShops, "二号店于2021年开业。", "2021", Verdict::confirmed, false},
      {"Northwind was founded in 1998. Bluepeak Labs was founded by Ann Lee. That was in 2004.",
       "Bluepeak Labs was founded in 2004.", "2004", Verdict::confirmed, false},
      {"Patient A: Discharge date: 9 March 2025. Patient B recovered faster and went home on 6 March 2025.",
       "Patient B was discharged on 6 March 2025.", "6 March", Verdict::confirmed, false},
      {"Patient A: Discharge date: 9 March 2025. Echo on 6 March 2025 was normal.",
       "Patient A was discharged on 6 March 2025.", "6 March", Verdict::unsupported, false},
      // A sentence that opens with a person's pronoun is read with the one before it.
      {"Bed 4: Mr. Okafor. Discharge date: 10 March 2025. Bed 5: Ms. Park recovered well. She went home on 14 "
       "March 2025.",
       "Ms. Park was discharged on 14 March 2025.", "14 March", Verdict::confirmed, false},
      // A role read only in the answer (the verb after 于) against an occurrence with a role of its own
      // in a sentence that names the answer's subject.
      {"3床王某，出院日期：2025年3月10日。5床李某恢复良好，2025年3月14日回家。", "李某于2025年3月14日出院。",
       "2025年3月14日", Verdict::confirmed, false},
      {"3床王某，出院日期：2025年3月10日。2025年3月14日，病房进行消毒。", "王某于2025年3月14日出院。", "2025年3月14日",
       Verdict::unsupported, false},
  });
}

// The Chinese verb after a value that opens its clause is read past an adverb (，2024年5月3日正式开业
// → 开业), and never from a preposition or the adverb it starts (由双方代表签署: no role 由双). An answer's
// value also takes the verb after 于 and the value, or the verb before a short object ("adopted the
// budget on"); the sources' values do not (anchor::answer_role_of).
TEST(Roles, AVerbPastAnAdverbOrAnObject) {
  constexpr const char* kCampus = "乙院区建成后，2024年5月3日正式开业。2024年6月1日升级全市医保系统。";
  constexpr const char* kBudget = "The budget was adopted on June 17, 2024. The draft was presented on June 4, 2024.";
  expect_rows({
      {kCampus, "乙院区于2024年6月1日开业。", "2024年6月1日", Verdict::unsupported, false},
      {kCampus, "乙院区于2024年5月3日开业。", "2024年5月3日", Verdict::confirmed, true},
      {"甲合同2023年3月签署。乙合同的谈判很长，2023年5月由双方代表签署。", "乙合同的谈判很长，2023年5月签署。",
       "2023年5月", Verdict::confirmed, false},
      {kBudget, "The council adopted the budget on June 4, 2024.", "June 4", Verdict::unsupported, false},
      {kBudget, "The council adopted the budget on June 17, 2024.", "June 17", Verdict::confirmed, true},
      // an object may hold one value; a participle after an article describes it ("the revised")
      {"Invoice date: 3 June 2025. Paid: 20 June 2025.",
       "The firm paid the revised balance of $55,634.20 on 3 June 2025.", "3 June", Verdict::unsupported, false},
      {"Invoice date: 3 June 2025. Paid: 20 June 2025.",
       "The firm paid the revised balance of $55,634.20 on 20 June 2025.", "20 June", Verdict::confirmed, true},
      // In the sources, "that deal closed in 2020" is no other role than "acquired".
      {"Brightwell acquired Tessera Labs in 2017. The purchase of Quill followed; that deal closed in 2020.",
       "Brightwell acquired Quill in 2020.", "2020", Verdict::confirmed, false},
  });
}

// A label's head noun that says only what kind of value follows (date, time, amount, number; 日期,
// 时间, 金额, 数额, 号码) takes the word before it as the role: "Discharge date", 出院日期.
TEST(Roles, AKindOfValueTakesTheWordBeforeIt) {
  constexpr const char* kStay = "Admission date: 3 March 2025. Discharge date: 11 March 2025.";
  constexpr const char* kLease = "The agreement was signed on 1 September 2023. Commencement Date: 1 November 2023.";
  constexpr const char* kCnStay = "入院日期：2024年5月6日　出院日期：2024年5月19日　住院天数：13天";
  expect_rows({
      {kStay, "The discharge date was 3 March 2025.", "3 March", Verdict::unsupported, false},
      {kStay, "The patient was discharged on 11 March 2025.", "11 March", Verdict::confirmed, true},
      {kLease, "The Commencement Date is 1 September 2023.", "1 September", Verdict::unsupported, false},
      {kLease, "The Commencement Date is 1 November 2023.", "1 November", Verdict::confirmed, true},
      {kCnStay, "患者于2024年5月6日出院。", "2024年5月6日", Verdict::unsupported, false},
      {kCnStay, "患者的出院日期为2024年5月19日。", "2024年5月19日", Verdict::confirmed, true},
  });
}

// A hyphenated label is one role ("Follow-up date", "Check-out"); a subject linked to its time ("is
// on", "is scheduled for"; 定于, 安排在, 在…复诊) and the head before a phrase ("The due date on invoice
// INV-7 is") name the answer's role too.
TEST(Roles, HyphenatedLabelsAndSubjectsLinkedToTheirTime) {
  constexpr const char* kVisit =
      "Discharge date: 28 May 2025\nFollow-up date: 3 June 2025\nCheck-in: 3 pm\nCheck-out: 11 am";
  constexpr const char* kInvoice = "Invoice date: 5 April 2025. Due date: 5 May 2025.";
  constexpr const char* kCnVisit = "出院日期：2025年5月28日\n复诊日期：2025年6月3日";
  expect_rows({
      {kVisit, "The follow-up is on 28 May 2025.", "28 May", Verdict::unsupported, false},
      {kVisit, "Her follow-up is scheduled for 3 June 2025.", "3 June", Verdict::confirmed, true},
      {kVisit, "Check-out is at 3 pm.", "3 pm", Verdict::unsupported, false},
      {kVisit, "Check-out is at 11 am.", "11 am", Verdict::confirmed, true},
      {kInvoice, "The due date on invoice INV-7 is 5 April 2025.", "5 April", Verdict::unsupported, false},
      {kInvoice, "The due date on invoice INV-7 is 5 May 2025.", "5 May", Verdict::confirmed, true},
      {kCnVisit, "复诊定于2025年5月28日。", "2025年5月28日", Verdict::unsupported, false},
      {kCnVisit, "患者将在2025年5月28日复诊。", "2025年5月28日", Verdict::unsupported, false},
      {kCnVisit, "复诊安排在2025年6月3日。", "2025年6月3日", Verdict::confirmed, true},
  });
}

// A head that names only the kind of value ("exam", "deadline", "fee"; 考试, 费用) gives way to the
// word before it, so two exams or two deadlines are two roles; 达 and 于 before a colon end a label's
// word (送达：, 抵达：), they link nothing.
TEST(Roles, TwoFieldsOfOneKindAndLabelsEndingInALinkCharacter) {
  constexpr const char* kCourse = "Midterm exam: 14 October 2025. Final exam: 9 December 2025.";
  constexpr const char* kTax = "Filing deadline: 15 April 2025. Extension deadline: 15 October 2025.";
  constexpr const char* kOrder = "发货日期：2025年6月4日。送达：2025年6月7日。";
  expect_rows({
      {kCourse, "The final exam is on 14 October 2025.", "14 October", Verdict::unsupported, false},
      {kCourse, "The final exam is on 9 December 2025.", "9 December", Verdict::confirmed, true},
      {kTax, "The filing deadline is 15 October 2025.", "15 October", Verdict::unsupported, false},
      {kTax, "The filing deadline is 15 April 2025.", "15 April", Verdict::confirmed, true},
      {kOrder, "送达日期为2025年6月4日。", "2025年6月4日", Verdict::unsupported, false},
      {kOrder, "包裹于2025年6月7日送达。", "2025年6月7日", Verdict::confirmed, true},
  });
}

// Clause words (docs/ANCHORS.md, "Clause words"): where no role word is read, a value whose clause
// words are another source value's, and not its own's, is under another role; ranges, lists, a
// list's common words, an enumeration's items, a value that opens its sentence keep theirs.
TEST(Roles, TheClauseWordsOfAnotherValue) {
  constexpr const char* kDividend =
      "Full-year dividend 12.6p. The final dividend will be paid on 1 August 2025 to shareholders on the register "
      "on 27 June 2025.";
  constexpr const char* kFlood =
      "Wakefield Council estimated its immediate costs at £2.3 million. Crews worked for 31 hours. The Environment "
      "Agency said the £18.6 million flood scheme is due in 2026.";
  constexpr const char* kRace =
      "The men's race was won by debutant Joel Okello in 2:06:12, ahead of Hamza Idrissi (2:06:40) and Nick Bett "
      "(2:07:03).";
  constexpr const char* kZh = "白皮书显示，全省规模以上工业企业研发投入强度达到2.6%，数字化管理普及率达到71.5%。";
  expect_rows({
      {kDividend, "The final dividend will be paid on 27 June 2025.", "27 June", Verdict::unsupported, false},
      {kDividend, "The final dividend will be paid on 1 August 2025.", "1 August", Verdict::confirmed, true},
      {kDividend, "Shareholders on the register on 27 June 2025 receive it.", "27 June", Verdict::confirmed, false},
      {kFlood, "The council estimated its immediate costs at £18.6 million.", "£18.6", Verdict::unsupported, false},
      {kFlood, "The council estimated its immediate costs at £2.3 million.", "£2.3", Verdict::confirmed, false},
      {kFlood, "The flood scheme costs £18.6 million.", "£18.6", Verdict::confirmed, false},
      {kRace, "The men's race was won by Joel Okello in 2:06:40.", "2:06:40", Verdict::unsupported, false},
      {kRace, "The men's race was won by Joel Okello in 2:06:12.", "2:06:12", Verdict::confirmed, false},
      {kRace, "Hamza Idrissi finished in 2:06:40.", "2:06:40", Verdict::confirmed, false},
      {kZh, "全省规模以上工业企业研发投入强度达到71.5%。", "71.5%", Verdict::unsupported, false},
      {kZh, "全省规模以上工业企业研发投入强度达到2.6%。", "2.6%", Verdict::confirmed, false},
      {kZh, "全省数字化管理普及率达到71.5%。", "71.5%", Verdict::confirmed, false},
      // The later value of a range shares the words before the first.
      {"The centre's staff expanded from 22 to 61 within five years.", "The centre's staff expanded to 61.", "61",
       Verdict::confirmed, false},
      {"Dorothy Richards (1933-2006) was a politician. Ann Richards (1935-1982) was a singer.",
       "Dorothy Richards (1933-2006) was a politician.", "2006", Verdict::confirmed, false},
      // A year is no count's rival, nor a count a year's.
      {"West assaulted the photographer in July 2013 -- and the two settled after 15 seconds of talks.",
       "West settled with the photographer he assaulted in 2013.", "2013", Verdict::confirmed, false},
      // A value that opens its source sentence: its clause after it is its own.
      {"In 2019, revenue rose sharply at the firm. Sales rose sharply at the firm in 2020.",
       "Revenue rose sharply at the firm in 2019.", "2019", Verdict::confirmed, false},
      // An enumeration's item shares its list's words (报销比例 for 二级's 75%).
      {"参保人在一级定点医疗机构住院，政策范围内费用报销比例为85%；二级为75%；三级为60%。",
       "在二级定点医疗机构住院，政策范围内费用报销比例为75%。", "75%", Verdict::confirmed, false},
      // A range's or a list's later values share the first's words in the sources too, units,
      // years and commas between them.
      {"Pre-tax profit at the retail arm rose from £10 million to £15 million last year.",
       "Last year pre-tax profit at the retail arm was £15 million.", "£15", Verdict::confirmed, false},
      {"The centre's permanent research staff expanded from 22 people to 61 people within five years.",
       "The centre's permanent research staff reached 61 people within five years.", "61", Verdict::confirmed, false},
      {"Annual group revenue was $5m in 2019, $6m in 2020 and $7m in 2021.", "Annual group revenue was $6m in 2020.",
       "$6m", Verdict::confirmed, false},
      {"全省常住人口总数从8000万人增长到8526万人。", "全省常住人口总数达到8526万人。", "8526万人", Verdict::confirmed,
       false},
      // A value whose own clause says too little of what it is ("it had grown to", 这一数字): no
      // evidence against it.
      {"The population of Springfield was 30,000 in 1990. By 2020 it had grown to 45,000.",
       "The population of Springfield grew to 45,000 by 2020.", "45,000", Verdict::confirmed, false},
      {"The British Museum's annual visitor numbers were 6.2 million in 2019. In 2020 the figure fell to 1.3 million.",
       "The British Museum's annual visitor numbers fell to 1.3 million in 2020.", "1.3", Verdict::confirmed, false},
      {"Jane Doe served as chief executive of the bank from 2010. She stepped down in 2018.",
       "Jane Doe served as chief executive of the bank until 2018.", "2018", Verdict::confirmed, false},
      {"江苏省全省常住人口总数为8000万人。截至去年底，这一数字已增至8526万人。", "江苏省全省常住人口总数增至8526万人。",
       "8526万人", Verdict::confirmed, false},
      // A part of the value before ("Of that", 其中), a value set against it ("compared with"), a
      // value in the next sentence (often the other's part or detail): written with the other's
      // words, still the sources' own.
      {"The company's total revenue was $12 billion. Of that, cloud services contributed $4 billion.",
       "The company's total revenue included $4 billion from cloud services.", "$4 billion", Verdict::confirmed, false},
      {"Net income for the quarter was $2.3 million, compared with $1.8 million a year earlier.",
       "A year earlier, net income for the quarter was $1.8 million.", "$1.8", Verdict::confirmed, false},
      {"The Hyde Park music festival drew 85,000 visitors over four days. Saturday was the busiest day, with 31,000 "
       "through the gates.",
       "The Hyde Park music festival drew 31,000 visitors on Saturday, its busiest day.", "31,000", Verdict::confirmed,
       false},
      {"公司全年实现营业收入85亿元。其中，海外业务收入32亿元，同比增长18%。", "公司海外业务全年实现营业收入32亿元。",
       "32亿元", Verdict::confirmed, false},
      {"The maximum temperature in Seville reached 44.2C on Friday, compared with 31.5C in Madrid.",
       "In Madrid, the maximum temperature on Friday reached 31.5C.", "31.5C", Verdict::confirmed, false},
      // A clause in commas before the value, and an abbreviation's full stop, are the value's clause.
      {"Costs are put at $18.7 million. Benefits, chiefly reduced fraud in hours-of-service records, are "
       "estimated at $64.2 million per year. One-time compliance costs are estimated at $212 million.",
       "One-time compliance costs are estimated at $64.2 million.", "$64.2", Verdict::unsupported, false},
      {"The Foundation is a registered charity in Scotland (SC041877) and a company limited by guarantee (No. "
       "SC298412).",
       "The Foundation is a registered charity in Scotland with number SC298412.", "SC298412", Verdict::unsupported,
       false},
      {"The Foundation is a registered charity in Scotland (SC041877) and a company limited by guarantee (No. "
       "SC298412).",
       "The Foundation is a company limited by guarantee, No. SC298412.", "SC298412", Verdict::confirmed, false},
      // Words a whole list shares decide nothing ("主力合约收于每吨" of every item).
      {"豆粕期货主力合约收于每吨2617元；菜籽期货主力合约收于每吨3952元；燃料油期货收于每吨2587元。",
       "燃料油期货主力合约收于每吨2587元。", "2587元", Verdict::confirmed, false},
  });
}

}  // namespace
}  // namespace sfcl::verify
