// Structured output against the real `sfcl serve` on 127.0.0.1: what `sfcl.anchors` reports is
// what the client got (each anchor's text at its byte span of the delivered content), under every
// fallback, and JSON syntax is neither a value nor unverifiable in a request that has sources.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "server/server_process.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

const json kSchema =
    json::parse(R"({"type":"object","properties":{"total":{"type":"number"},"qty":{"type":"integer","maximum":99999},)"
                R"("contact":{"type":"string","maxLength":24}},"required":["total","qty","contact"]})");

json request(const std::string& fallback, int max_tokens) {
  return {{"model", "m"},
          {"max_tokens", max_tokens},
          {"temperature", 0},
          {"messages",
           json::array({{{"role", "system"},
                         {"content", "Invoice INV-7 total: $12,500.00 due June 15, 2024. Contact: Dana Reyes."}},
                        {{"role", "user"}, {"content", "The invoice as JSON."}}})},
          {"response_format", {{"type", "json_schema"}, {"json_schema", {{"name", "invoice"}, {"schema", kSchema}}}}},
          {"sfcl", {{"fallback", fallback}}}};
}

class StructuredOutput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new ServerProcess({"--parallel", "2", "--ctx", "1024"}); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static ServerProcess* server_;
};
ServerProcess* StructuredOutput::server_ = nullptr;

TEST_F(StructuredOutput, ReportedAnchorsAreTheDeliveredBytes) {
  auto c = server_->client();
  int values = 0;
  for (const std::string fallback : {"constrain", "abstain", "flag"}) {
    for (const int max_tokens : {24, 48, 96}) {
      const json r = post_json(c, "/v1/chat/completions", request(fallback, max_tokens));
      ASSERT_EQ(r["_status"], 200) << r.dump();
      const std::string content = r["choices"][0]["message"]["content"];
      const json& sfcl = r["sfcl"];
      SCOPED_TRACE(fallback + " " + std::to_string(max_tokens) + ": " + content);
      EXPECT_EQ(sfcl["unverifiable"], 0) << sfcl.dump();
      EXPECT_EQ(sfcl["status"].get<std::string>().find("unverifiable"), std::string::npos);
      int unsupported = 0;
      for (const json& a : sfcl["anchors"]) {
        const size_t start = a["start"];
        const size_t end = a["end"];
        ASSERT_LE(start, end) << a.dump();
        ASSERT_LE(end, content.size()) << a.dump();
        EXPECT_EQ(content.substr(start, end - start), a["text"].get<std::string>()) << a.dump();
        EXPECT_NE(a["verdict"], "unverifiable") << a.dump();
        if (a["anchor_kind"] == "structural") {
          EXPECT_EQ(a["checked"], false) << a.dump();
          EXPECT_EQ(a["verdict"], "unchecked") << a.dump();
        } else if (a["anchor_kind"] == "entity") {
          ++values;
          EXPECT_EQ(a["checked"], true) << a.dump();
        }
        // A delivered value the sources do not support is flagged, whatever the fallback.
        if (a["verdict"] == "unsupported") {
          ++unsupported;
          EXPECT_EQ(a.value("flagged", false), true) << a.dump();
        }
      }
      EXPECT_EQ(sfcl["unsupported"], unsupported) << sfcl.dump();
    }
  }
  EXPECT_GT(values, 0);  // the answers hold values, so the spans above were looked at
}

}  // namespace
}  // namespace sfcl::test
