// llama-server's own metric names (`llamacpp:*`, as its /metrics writes them), so that dashboards and
// alerts written for llama-server read sfcl too (docs/OPERATIONS.md, "Metrics"). Internal to
// src/metrics: Metrics feeds it and serialises it beside the sfcl_* families.
#pragma once
#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <cstdint>

namespace sfcl::metrics {

class LlamaCppFamilies {
 public:
  explicit LlamaCppFamilies(prometheus::Registry& reg);

  // One finished generation: prompt tokens decoded (cached ones apart) and the time they took,
  // output tokens and the time after the first one (which comes from the prompt's logits).
  void generation(int32_t prompt_decoded, int32_t cached, double prompt_ms, int32_t output_tokens, double predicted_ms);
  // One embeddings request: its inputs' tokens, one decode call per input, and the time they took.
  void embedded(int64_t tokens, int64_t decodes, double ms);
  // The schedulers' running totals as they read now: decode calls, the slots those calls fed, the
  // longest sequence seen; and the load now.
  void set_decode(int64_t decodes, int64_t slots_fed, int64_t longest_sequence);
  void set_load(int busy_slots, int queued);
  // The throughput gauges over the window since the last scrape (as llama-server averages them),
  // then a new window.
  void close_window();

 private:
  prometheus::Counter& prompt_tokens_;
  prometheus::Counter& prompt_cached_;
  prometheus::Counter& prompt_seconds_;
  prometheus::Counter& predicted_;
  prometheus::Counter& predicted_seconds_;
  prometheus::Counter& decodes_;
  prometheus::Counter& tokens_max_;
  prometheus::Gauge& prompt_rate_;
  prometheus::Gauge& predicted_rate_;
  prometheus::Gauge& processing_;
  prometheus::Gauge& deferred_;
  prometheus::Gauge& busy_per_decode_;
  int64_t seen_decodes_ = 0;
  int64_t seen_tokens_max_ = 0;
  // This window's sums for the throughput gauges.
  double window_prompt_tokens_ = 0;
  double window_prompt_ms_ = 0;
  double window_steps_ = 0;
  double window_predicted_ms_ = 0;
};

}  // namespace sfcl::metrics
