// What is reported is what was delivered, inside structured output (docs/DESIGN.md, 'Tools and
// structured output'): every anchor record's span holds its text in the delivered bytes, a value the
// grammar keeps in place of an abstention marker it rejects is checked and reported as written
// (flagged, or constrained to a source value), and JSON syntax is never a value or unverifiable.
// On the byte vocabulary and Qwen2's, the model scripted to invent a value.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "decode/decode.h"
#include "support/bundle.h"
#include "support/loop_run.h"
#include "support/script.h"
#include "support/test_model.h"

namespace sfcl::decode {
namespace {

using engine::Model;
using verify::Verdict;

// No bare number in the source: a number the answer invents has no same-type value to be
// constrained to, so the loop's fallback is the abstention marker, which a JSON number cannot hold.
const std::string kSource = "Invoice INV-7 total: $12,500.00 due June 15, 2024. Contact: Dana Reyes.";
const std::string kSchema =
    R"({"type":"object","properties":{"total":{"type":"number"},"contact":{"type":"string","maxLength":24}},)"
    R"("required":["total","contact"]})";

class StructuredReportTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    model_ = test::loaded_model(GetParam());
    SFCL_NEEDS_BUNDLE(model_ == nullptr, "no ggml-vocab-" << GetParam() << ".gguf in the llama.cpp bundle");
  }

  [[nodiscard]] test::LoopRun run(Fallback fallback, const std::string& script) const {
    Options o = test::greedy(Mode::anchor, 96);
    o.grammar.gbnf = engine::json_schema_grammar(kSchema);
    o.fallback = fallback;
    o.logit_hook = test::script(*model_, script);
    return test::run_loop(*model_, kSource, o);
  }

  const Model* model_ = nullptr;
};

// Each record's text is the delivered text at its span, and no value reaches the client unchecked.
void expect_report_is_delivery(const test::LoopRun& r) {
  const std::string& text = r.result.text;
  EXPECT_EQ(r.streamed, text);
  for (const AnchorRecord& a : r.result.anchors) {
    ASSERT_LE(a.anchor.start, a.anchor.end) << a.id;
    ASSERT_LE(a.anchor.end, text.size()) << a.id << " in " << text;
    EXPECT_EQ(text.substr(a.anchor.start, a.anchor.end - a.anchor.start), a.text) << a.id << " in " << text;
    if (anchor::kind_of(a.anchor.type) != anchor::Kind::entity) {
      EXPECT_FALSE(a.checked) << a.id << " " << a.text;
      continue;
    }
    EXPECT_TRUE(a.checked) << a.id << " " << a.text;
    EXPECT_NE(a.verdict, Verdict::unverifiable) << a.id << " " << a.text << " (the request has sources)";
    // An unsupported value that was delivered says so: flagged, never silently passed.
    if (a.verdict == Verdict::unsupported) {
      EXPECT_TRUE(a.flagged) << a.id << " " << a.text;
    }
  }
  // Every value anchor of the delivered text has its record (none went out unchecked).
  size_t values = 0;
  for (const anchor::Anchor& a : anchor::extract(text)) values += anchor::kind_of(a.type) == anchor::Kind::entity;
  size_t recorded = 0;
  for (const AnchorRecord& a : r.result.anchors) recorded += anchor::kind_of(a.anchor.type) == anchor::Kind::entity;
  EXPECT_EQ(recorded, values) << text;
}

// The issue's case: an invented total inside a JSON number. The marker cannot be written there;
// the value the grammar leaves is checked and reported as delivered (flagged), never as the marker.
TEST_P(StructuredReportTest, InventedNumberInJsonIsReportedAsDelivered) {
  for (const Fallback f : {Fallback::abstain, Fallback::constrain}) {
    const test::LoopRun r = run(f, R"({"total": 209.0023990, "contact": "Dana Reyes"})");
    SCOPED_TRACE(std::string(fallback_name(f)) + ": " + r.result.text);
    const auto j = nlohmann::json::parse(r.result.text, nullptr, false);
    ASSERT_FALSE(j.is_discarded());
    EXPECT_TRUE(j["total"].is_number());
    EXPECT_EQ(r.result.text.find("[not in the sources]"), std::string::npos);
    expect_report_is_delivery(r);
    bool total_reported = false;
    for (const AnchorRecord& a : r.result.anchors) {
      EXPECT_NE(a.text, "[not in the sources]");
      if (a.anchor.type == anchor::Type::number) {
        total_reported = true;
        EXPECT_EQ(a.verdict, Verdict::unsupported) << a.text;
        EXPECT_TRUE(a.flagged) << a.text;
      }
    }
    EXPECT_TRUE(total_reported);
  }
}

// With a source value of the type, the abstain policy that cannot write its marker in a JSON
// number writes that value instead, reported `constrained` (grounded by construction).
TEST_P(StructuredReportTest, NumberTheMarkerCannotReplaceIsConstrainedToASourceValue) {
  Options o = test::greedy(Mode::anchor, 96);
  o.grammar.gbnf = engine::json_schema_grammar(
      R"({"type":"object","properties":{"seats":{"type":"integer","maximum":9999}},"required":["seats"]})");
  o.fallback = Fallback::abstain;
  o.logit_hook = test::script(*model_, R"({"seats": 512})");
  const test::LoopRun r = test::run_loop(*model_, kSource + " Seats booked: 340.", o);
  SCOPED_TRACE(r.result.text);
  expect_report_is_delivery(r);
  EXPECT_EQ(r.result.text.find("[not in"), std::string::npos);
  bool constrained = false;
  for (const AnchorRecord& a : r.result.anchors) {
    if (a.anchor.type != anchor::Type::number) continue;
    EXPECT_EQ(a.text, "340");
    EXPECT_EQ(a.verdict, Verdict::constrained);
    constrained = constrained || a.constrained;
  }
  EXPECT_TRUE(constrained);
}

// Inside a JSON string the marker fits: it is delivered, and its record spans it.
TEST_P(StructuredReportTest, MarkerInJsonStringSpansTheDeliveredMarker) {
  const test::LoopRun r = run(Fallback::abstain, R"({"total": 12500, "contact": "Omar Lindqvist"})");
  SCOPED_TRACE(r.result.text);
  ASSERT_FALSE(nlohmann::json::parse(r.result.text, nullptr, false).is_discarded());
  expect_report_is_delivery(r);
  EXPECT_EQ(r.result.text.find("Omar"), std::string::npos);
}

// A value of the sources inside the JSON: confirmed at its own bytes; the braces, keys and quotes
// around it are no values and nothing unverifiable.
TEST_P(StructuredReportTest, JsonSyntaxIsNoValue) {
  const test::LoopRun r = run(Fallback::constrain, R"({"total": 12500.00, "contact": "Dana Reyes"})");
  SCOPED_TRACE(r.result.text);
  expect_report_is_delivery(r);
  for (const AnchorRecord& a : r.result.anchors) {
    if (anchor::kind_of(a.anchor.type) == anchor::Kind::entity) {
      EXPECT_EQ(a.verdict, Verdict::confirmed) << a.text;
    }
  }
}

// Tool-call arguments are JSON under the call's grammar: an invented number there is checked and
// reported at its bytes of the reply, never passed as a marker the grammar refused.
TEST_P(StructuredReportTest, InventedNumberInToolArgumentsIsReportedAsDelivered) {
  engine::ChatInput in;
  in.messages.push_back({"user", "Book seats for invoice INV-7."});
  in.tools.push_back({"book", "Book seats",
                      R"({"type":"object","properties":{"seats":{"type":"integer","maximum":9999}},)"
                      R"("required":["seats"]})"});
  in.tool_choice = engine::ToolChoice::required;
  const engine::ChatPrompt p = model_->render_chat(in);
  ASSERT_FALSE(p.grammar.gbnf.empty());
  for (const Fallback f : {Fallback::abstain, Fallback::constrain}) {
    Options o = test::greedy(Mode::anchor, 96);
    o.grammar = p.grammar;
    o.fallback = f;
    o.logit_hook = test::script(*model_, R"({"name": "book", "arguments": {"seats": 512}})");
    const test::LoopRun r = test::run_loop(*model_, kSource, o);
    SCOPED_TRACE(std::string(fallback_name(f)) + ": " + r.result.text);
    EXPECT_EQ(r.result.text.find("[not in"), std::string::npos);
    expect_report_is_delivery(r);
    bool seats = false;
    for (const AnchorRecord& a : r.result.anchors) {
      if (a.anchor.type != anchor::Type::number) continue;
      seats = true;
      EXPECT_EQ(a.verdict, Verdict::unsupported) << a.text;
      EXPECT_TRUE(a.flagged) << a.text;
    }
    EXPECT_TRUE(seats);
  }
}

INSTANTIATE_TEST_SUITE_P(Vocabularies, StructuredReportTest, ::testing::Values("byte", "qwen2"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace sfcl::decode
