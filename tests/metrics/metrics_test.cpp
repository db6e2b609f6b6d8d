// The Prometheus metrics: counters move, and the SFCL gauges (AAR, AAI, BRS) are what they claim.
#include "metrics/metrics.h"

#include <gtest/gtest.h>

#include <sstream>

namespace sfcl::metrics {
namespace {

// The value of the first sample whose line starts with `series` (name plus labels, if any).
double sample(const std::string& text, const std::string& series) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(series, 0) == 0 && line.size() > series.size() &&
        (line[series.size()] == ' ' || line[series.size()] == '{')) {
      return std::stod(line.substr(line.rfind(' ') + 1));
    }
  }
  ADD_FAILURE() << "no sample " << series << " in\n" << text;
  return -1;
}

decode::Result result(int32_t output_tokens, int64_t confirmed, int64_t unsupported, int64_t backtracks,
                      int64_t resolved) {
  decode::Result r;
  r.prompt_tokens = 10;
  r.output_tokens = output_tokens;
  r.stats.verdicts[0] = confirmed;
  r.stats.verdicts[1] = unsupported;
  r.stats.backtracks = backtracks;
  r.stats.backtracks_resolved = resolved;
  return r;
}

TEST(Metrics, CountersMoveWithRequestsChecksAndGenerations) {
  Metrics m(decode::Mode::anchor, 0.15);
  m.request("/v1/messages", 200);
  m.request("/v1/messages", 200);
  m.request("/health", 503);
  m.check(anchor::Type::amount, verify::Verdict::confirmed, 0.95F, 0.001, true);
  m.fallback(decode::Fallback::flag);
  m.generation(result(20, 1, 0, 0, 0), 4);
  m.admission_rejected("prompt_tokens");
  m.anchor_spam();
  const std::string t = m.serialize();
  EXPECT_EQ(sample(t, R"(sfcl_requests_total{endpoint="/v1/messages",status="200"})"), 2);
  EXPECT_EQ(sample(t, R"(sfcl_requests_total{endpoint="/health",status="503"})"), 1);
  EXPECT_EQ(sample(t, "sfcl_prompt_tokens_total"), 10);
  EXPECT_EQ(sample(t, "sfcl_generated_tokens_total"), 20);
  EXPECT_EQ(sample(t, R"(sfcl_fallbacks_total{policy="flag"})"), 1);
  EXPECT_EQ(sample(t, R"(sfcl_admission_rejected_total{reason="prompt_tokens"})"), 1);
  EXPECT_EQ(sample(t, "sfcl_anchor_spam_total"), 1);
  EXPECT_DOUBLE_EQ(sample(t, "sfcl_prefix_cache_hit_ratio"), 0.4);
}

TEST(Metrics, AarAaiAndBrsOverTheWindow) {
  Metrics m(decode::Mode::anchor, 0.15);
  m.generation(result(30, 2, 1, 4, 3), 0);  // 3 checked anchors, 4 backtracks, 3 resolved
  m.generation(result(10, 0, 0, 0, 0), 0);  // no anchor: not activated
  const std::string t = m.serialize();
  EXPECT_DOUBLE_EQ(sample(t, "sfcl_aar"), 0.5);       // 1 of 2 requests had a checked anchor
  EXPECT_DOUBLE_EQ(sample(t, "sfcl_aai"), 40.0 / 3);  // generated tokens per checked anchor
  EXPECT_DOUBLE_EQ(sample(t, "sfcl_brs"), 0.75);      // resolved backtracks / backtracks
  EXPECT_EQ(sample(t, "sfcl_backtracks_total"), 4);
}

TEST(Metrics, WindowForgetsTheOldestRequest) {
  Metrics m(decode::Mode::anchor, 0.15);
  m.generation(result(10, 1, 0, 0, 0), 0);
  for (size_t i = 0; i < kWindow; ++i) m.generation(result(10, 0, 0, 0, 0), 0);
  EXPECT_DOUBLE_EQ(sample(m.serialize(), "sfcl_aar"), 0.0);
}

TEST(Metrics, DriftIsTheStdDevOfRecentConfidencesAndTurnsDegraded) {
  Metrics m(decode::Mode::anchor, 0.15);
  for (int i = 0; i < 10; ++i) m.check(anchor::Type::amount, verify::Verdict::confirmed, 0.9F, 0.001, true);
  EXPECT_NEAR(m.drift(), 0.0, 1e-6);
  EXPECT_FALSE(m.degraded());
  for (int i = 0; i < 10; ++i) {
    m.check(anchor::Type::amount, verify::Verdict::unsupported, i % 2 == 0 ? 0.1F : 0.9F, 0.001, true);
  }
  EXPECT_GT(m.drift(), 0.15);
  EXPECT_TRUE(m.degraded());
  EXPECT_EQ(sample(m.serialize(), "sfcl_degraded"), 1);
}

}  // namespace
}  // namespace sfcl::metrics
