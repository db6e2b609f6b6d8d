// A value the sources write in another form (docs/ANCHORS.md, "Written another way"): confirmed below
// certainty, while a different value in the same form stays unsupported.
#include <gtest/gtest.h>

#include <string>

#include "verify/verify.h"

namespace sfcl::verify {
namespace {

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

TEST(WrittenForms, RightValueInAnotherFormWrongValueCaught) {
  struct Row {
    const char* source;
    const char* answer;
    const char* value;
    Verdict verdict;
  };
  const Row rows[] = {
      {"it is the first sighting in wa and only the second in australia .", "It was found in Western Australia.",
       "Western", Verdict::confirmed},
      // yuan said aloud: 3块45 is 3.45元, 2块2 is 2.20元
      {"第一阶梯水价为每立方米3.45元。", "第一阶梯水价每立方米3块45。", "3块45", Verdict::confirmed},
      {"第一阶梯水价为每立方米3.45元。", "第一阶梯水价每立方米3块54。", "3块54", Verdict::unsupported},
      {"高层住宅每月每平方米2.20元。", "高层每月每平米2块2。", "2块2", Verdict::confirmed},
      {"it is the first sighting in wa and only the second in australia .", "It was found in Northern Territory.",
       "Northern", Verdict::unsupported},
      {"It is the first sighting in WA.", "It is the first sighting in Western Australia.", "Western",
       Verdict::confirmed},
      {"Officials in the US said so.", "Officials in Utah State said so.", "Utah", Verdict::unsupported},  // "us"
      {"The economy of the U.S. grew.", "The Utah Senate voted.", "Utah", Verdict::unsupported},
      {"The economy of the UN grew.", "The US Navy voted.", "US", Verdict::unsupported},  // "US" is no initial
      {"identifying the 5.68 m juvenile female", "The 5.68m juvenile female", "5.68", Verdict::confirmed},
      {"identifying the 5.68 m juvenile female", "The 5.86m juvenile female", "5.86", Verdict::unsupported},
      {"The bill, which passed 92 to 8, also", "The bill passed 92-8.", "92", Verdict::confirmed},
      {"The bill, which passed 92 to 8, also", "The bill passed 92-6.", "92", Verdict::unsupported},
      {"The votes came to more than thirty.", "The votes came to more than 30.", "30", Verdict::confirmed},
      {"The votes came to more than thirty.", "The votes came to more than 40.", "40", Verdict::unsupported},
      {"The votes came to forty-five.", "The votes came to 45.", "45", Verdict::confirmed},
      {"The votes came to forty five.", "The votes came to 45.", "45", Verdict::confirmed},
      {"The votes came to forty-five.", "The votes came to 44.", "44", Verdict::unsupported},
      {"The votes came to two.", "The votes came to 2.", "2", Verdict::unsupported},  // small numbers: not in words
      {"caught flush in the eighth round", "He quit in the 8th round.", "8th", Verdict::confirmed},
      {"caught flush in the eighth round", "He quit in the 9th round.", "9th", Verdict::unsupported},
      {"he will fight chris algieri on may 30 .", "He will fight Algieri on May 30th.", "May", Verdict::confirmed},
      {"he will fight chris algieri on may 30 .", "He will fight Algieri on May 31st.", "May", Verdict::unsupported},
      {"They can be reached at (301) 352-1200.", "Call 301-352-1200.", "301", Verdict::confirmed},
      {"They can be reached at (301) 352-1200.", "Call 301-352-1201.", "301", Verdict::unsupported},
      {"He finished third during the 2007 -- 08 season .", "He finished third in the 2007-2008 season.", "2008",
       Verdict::confirmed},
      {"He finished third during the 2007 -- 08 season .", "He finished third in the 2008-2009 season.", "2009",
       Verdict::unsupported},
      {"他在2007-08赛季排名第三。", "他在2008赛季排名第三。", "2008", Verdict::confirmed},
      {"他在2007-08赛季排名第三。", "他在2009赛季排名第三。", "2009", Verdict::unsupported},
      {"Cut the two 4 x 4 skids at 70 inches.", "Cut two 4x4 skids.", "4x4", Verdict::confirmed},
      {"Cut two pressure-treated 2 by 4s to length.", "Cut the 2x4s to length.", "2x4s", Verdict::confirmed},
      {"Cut the two 4 x 4 skids at 70 inches.", "Cut two 4x6 skids.", "4x6", Verdict::unsupported},
  };
  for (const auto& r : rows) {
    const auto res = check_at(r.source, r.answer, r.value);
    EXPECT_EQ(res.verdict, r.verdict) << r.answer;
    if (r.verdict == Verdict::confirmed) {
      EXPECT_LT(res.confidence, 1.0F) << r.answer;
    }
  }
}

// The age of "Martin Richard, who was 8," is the duration of "an 8-year-old" (an exact typed match).
TEST(WrittenForms, AgesSaidInWords) {
  EXPECT_EQ(
      check_at("Martin Richard, who was 8, was remembered.", "Martin Richard, an 8-year-old boy", "8-year").verdict,
      Verdict::confirmed);
  EXPECT_EQ(
      check_at("Martin Richard, who was 8, was remembered.", "Martin Richard, a 9-year-old boy", "9-year").verdict,
      Verdict::unsupported);
  EXPECT_EQ(check_at("The children, aged 5, sang.", "The 5-year-old children sang.", "5-year").verdict,
            Verdict::confirmed);
}

}  // namespace
}  // namespace sfcl::verify
