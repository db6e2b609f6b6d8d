// The Prometheus metrics: counters move, and the SFCL gauges (AAR, AAI, BRS) are what they claim.
#include "metrics/metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

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

// llama-server's names (llamacpp:*) as its /metrics writes them: counters of prompt tokens decoded
// (cached ones apart), output tokens and their seconds, decode calls; throughput gauges averaged
// over the window between two scrapes, the first output token (from the prompt's logits) aside.
TEST(Metrics, LlamaServerNamesCountWhatLlamaServerCounts) {
  Metrics m(decode::Mode::anchor, 0.15);
  decode::Result r = result(11, 0, 0, 0, 0);  // 10 prompt tokens, 11 output tokens
  r.prompt_ms = 500;
  r.predicted_ms = 2000;
  m.generation(r, 4);  // 4 of the prompt's tokens came from the cache
  m.set_decode(12, 18, 21);
  m.set_load(1, 2);
  std::string t = m.serialize();
  EXPECT_EQ(sample(t, "llamacpp:prompt_tokens_total"), 6);
  EXPECT_EQ(sample(t, "llamacpp:prompt_tokens_cached_total"), 4);
  EXPECT_DOUBLE_EQ(sample(t, "llamacpp:prompt_seconds_total"), 0.5);
  EXPECT_EQ(sample(t, "llamacpp:tokens_predicted_total"), 11);
  EXPECT_DOUBLE_EQ(sample(t, "llamacpp:tokens_predicted_seconds_total"), 2.0);
  EXPECT_EQ(sample(t, "llamacpp:n_decode_total"), 12);
  EXPECT_EQ(sample(t, "llamacpp:n_tokens_max"), 21);
  EXPECT_DOUBLE_EQ(sample(t, "llamacpp:n_busy_slots_per_decode"), 1.5);
  EXPECT_EQ(sample(t, "llamacpp:requests_processing"), 1);
  EXPECT_EQ(sample(t, "llamacpp:requests_deferred"), 2);
  EXPECT_DOUBLE_EQ(sample(t, "llamacpp:prompt_tokens_seconds"), 12.0);    // 6 tokens in 0.5 s
  EXPECT_DOUBLE_EQ(sample(t, "llamacpp:predicted_tokens_seconds"), 5.0);  // 10 steps in 2 s
  EXPECT_EQ(sample(t, "llamacpp:spec_decode_num_drafts_total"), 0);
  for (const char* name : {"llamacpp:n_decode_total", "llamacpp:spec_decode_num_draft_tokens_total"}) {
    EXPECT_NE(t.find(std::string("# TYPE ") + name + " counter"), std::string::npos) << name;
  }
  EXPECT_NE(t.find("# TYPE llamacpp:requests_deferred gauge"), std::string::npos);
  m.embedded(7, 2, 100);  // an embeddings request: prompt tokens and decodes, no output
  t = m.serialize();
  EXPECT_EQ(sample(t, "llamacpp:prompt_tokens_total"), 13);
  EXPECT_EQ(sample(t, "llamacpp:n_decode_total"), 14);
  EXPECT_EQ(sample(t, "llamacpp:tokens_predicted_total"), 11);
  EXPECT_DOUBLE_EQ(sample(t, "llamacpp:prompt_tokens_seconds"), 70.0);  // this window: 7 tokens in 0.1 s
  // The next scrape's window is empty; the counters only grow, also when a total reads lower.
  m.set_decode(3, 3, 5);
  t = m.serialize();
  EXPECT_EQ(sample(t, "llamacpp:predicted_tokens_seconds"), 0);
  EXPECT_EQ(sample(t, "llamacpp:n_decode_total"), 14);
  EXPECT_EQ(sample(t, "llamacpp:n_tokens_max"), 21);
}

// Healthy traffic as it arrives: requests of two kinds (most values confirmed, or fewer than half),
// 1-8 anchors each, confidences mostly 0 or 1. `drop` lowers every request's confirmed rate.
class Traffic {
 public:
  explicit Traffic(uint32_t seed) : rng_(seed) {}
  // Feeds one request's anchors; returns how many.
  int request(Metrics& m, double drop = 0.0) {
    const double p = (unit() < 0.6 ? 0.9 : 0.4) - drop;
    const int anchors = 1 + static_cast<int>(rng_() % 8);
    for (int i = 0; i < anchors; ++i) {
      const bool confirmed = unit() < p;
      const float c = confirmed ? 1.0F : (unit() < 0.8 ? 0.0F : static_cast<float>(unit() * 0.6));
      m.check(anchor::Type::amount, confirmed ? verify::Verdict::confirmed : verify::Verdict::unsupported, c, 0.001,
              true);
    }
    return anchors;
  }

 private:
  double unit() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }
  std::mt19937 rng_;
};

TEST(Metrics, DriftNeedsAMinimumSample) {
  Metrics m(decode::Mode::anchor, 0.2);
  // Everything confirmed, then everything unsupported: a real fall, but too few anchors to say so.
  for (size_t i = 0; i < kDriftWindow; ++i)
    m.check(anchor::Type::amount, verify::Verdict::confirmed, 1.0F, 0.001, true);
  for (size_t i = 0; i < kDriftWindow - 1; ++i) {
    m.check(anchor::Type::amount, verify::Verdict::unsupported, 0.0F, 0.001, true);
  }
  EXPECT_EQ(m.drift(), 0.0);
  EXPECT_FALSE(m.degraded());
}

TEST(Metrics, AHealthyMixNeverDegrades) {
  for (const uint32_t seed : {1U, 2U, 3U}) {
    Metrics m(decode::Mode::anchor, 0.2);
    Traffic traffic(seed);
    double worst = 0.0;
    for (int anchors = 0; anchors < 30000;) {
      anchors += traffic.request(m);
      worst = std::max(worst, m.drift());
      ASSERT_FALSE(m.degraded()) << "seed " << seed << " after " << anchors << " anchors, drift " << m.drift();
    }
    EXPECT_LT(worst, 0.2);
    EXPECT_EQ(sample(m.serialize(), "sfcl_degraded"), 0);
  }
}

TEST(Metrics, ARealShiftDegradesWithinAWindowAndRecoversOnceItIsTheBaseline) {
  Metrics m(decode::Mode::anchor, 0.2);
  Traffic traffic(7);
  for (int anchors = 0; anchors < 5000;) anchors += traffic.request(m);
  ASSERT_FALSE(m.degraded());
  int after = 0;
  while (!m.degraded() && after < 1000) after += traffic.request(m, 0.35);
  EXPECT_TRUE(m.degraded());
  EXPECT_LE(after, static_cast<int>(kDriftWindow));
  EXPECT_GT(m.drift(), 0.2);
  EXPECT_EQ(sample(m.serialize(), "sfcl_degraded"), 1);
  // The shifted traffic becomes the baseline; the monitor says what changed, not what is.
  for (int anchors = 0; anchors < static_cast<int>(kDriftBaselineWindow + kDriftWindow) * 2;) {
    anchors += traffic.request(m, 0.35);
  }
  EXPECT_FALSE(m.degraded());
}

}  // namespace
}  // namespace sfcl::metrics
