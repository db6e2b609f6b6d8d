// The one JSON shape of checked anchors (sfcl anchors check, eval-spans): what each anchor of a
// finished text reports against the sources, as docs/API.md describes it.
#include "report/report.h"

#include <gtest/gtest.h>

namespace sfcl::report {
namespace {

using nlohmann::json;

std::vector<json> checked(const std::string& source, const std::string& text) {
  anchor::SourceIndex index;
  index.add_source(source);
  verify::Checker checker(index, {});
  return check_text(text, {}, checker);
}

const json* find(const std::vector<json>& anchors, const std::string& text) {
  for (const json& a : anchors) {
    if (a.value("text", "") == text) return &a;
  }
  return nullptr;
}

TEST(Report, ACopiedValueIsConfirmedWithTheSpanThatStatesIt) {
  const std::string source = "The Client shall pay $12,500.00 by June 15, 2024.";
  const auto anchors = checked(source, "The fee is $12,500.00.");
  const json* a = find(anchors, "$12,500.00");
  ASSERT_NE(a, nullptr) << json(anchors).dump();
  EXPECT_EQ((*a)["verdict"], "confirmed");
  // The sources pay it, the answer calls it a fee: no role matched, so below certainty.
  EXPECT_TRUE((*a)["role"].is_null()) << a->dump();
  EXPECT_FLOAT_EQ((*a)["confidence"].get<float>(), verify::kRoleUnread);
  EXPECT_EQ((*a)["checked"], true);
  EXPECT_EQ((*a)["start"], 11);
  EXPECT_EQ((*a)["end"], 21);
  const size_t at = source.find("$12,500.00");
  ASSERT_TRUE((*a).contains("support")) << a->dump();
  EXPECT_EQ((*a)["support"]["start"], at);
  EXPECT_EQ((*a)["support"]["end"], at + 10);
}

TEST(Report, AValueConfirmedUnderItsRoleSaysWhichAtFullConfidence) {
  const auto anchors = checked("Subtotal: $18,240.00\nTotal due: $21,705.60", "The total due is $21,705.60.");
  const json* a = find(anchors, "$21,705.60");
  ASSERT_NE(a, nullptr) << json(anchors).dump();
  EXPECT_EQ((*a)["verdict"], "confirmed");
  EXPECT_EQ((*a)["role"], "due") << a->dump();
  EXPECT_EQ((*a)["confidence"], 1.0);
}

TEST(Report, AnAlteredValueIsUnsupportedWithoutASpan) {
  const auto anchors = checked("The Client shall pay $12,500.00 by June 15, 2024.", "The fee is $12,600.00.");
  const json* a = find(anchors, "$12,600.00");
  ASSERT_NE(a, nullptr) << json(anchors).dump();
  EXPECT_EQ((*a)["verdict"], "unsupported");
  EXPECT_EQ((*a)["confidence"], 0.0);
  EXPECT_FALSE((*a).contains("support") && !(*a)["support"].is_null()) << a->dump();
}

TEST(Report, StatusLineAndSummaryCountTheDeliveredVerdicts) {
  decode::Result r;
  EXPECT_EQ(status_line(r, decode::Mode::anchor), "inactive");  // no sources: nothing was checked
  EXPECT_EQ(status_line(r, decode::Mode::off), "off");
  r.active = true;
  r.stats.verdicts[static_cast<size_t>(verify::Verdict::confirmed)] = 2;
  r.stats.backtracks = 1;
  decode::AnchorRecord confirmed;
  confirmed.verdict = verify::Verdict::confirmed;
  confirmed.checked = true;
  confirmed.anchor.type = anchor::Type::amount;
  decode::AnchorRecord with_role = confirmed;
  with_role.role = "due";
  r.anchors = {confirmed, with_role};
  EXPECT_EQ(anchor_count(r), 2);
  EXPECT_EQ(delivered_count(r, verify::Verdict::confirmed), 2);
  EXPECT_EQ(delivered_count(r, verify::Verdict::unsupported), 0);
  const std::string line = status_line(r, decode::Mode::anchor);
  EXPECT_EQ(line.rfind("active", 0), 0U) << line;
  EXPECT_NE(line.find("anchor_count=2"), std::string::npos) << line;
  const json s = summary_json(r, decode::Mode::anchor);
  EXPECT_EQ(s["confirmed"], 2) << s.dump();
  EXPECT_EQ(s["confirmed_role_unread"], 1) << s.dump();  // the one confirmed on its value alone
  EXPECT_EQ(s["backtracks"], 1) << s.dump();
  EXPECT_EQ(s["mode"], "anchor");
}

}  // namespace
}  // namespace sfcl::report
