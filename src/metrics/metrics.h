// sfcl::metrics — Prometheus metrics of the server (prometheus-cpp), including the SFCL gauges:
// AAR, AAI and BRS over a sliding window of the last kWindow requests, and the confidence drift:
// how far the mean confidence of the last kDriftWindow checked anchors fell below that of the
// kDriftBaselineWindow anchors before them (docs/DESIGN.md, "Serving").
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "decode/decode.h"

namespace prometheus {
class Registry;
class Counter;
class Gauge;
class Histogram;
template <typename T>
class Family;
}  // namespace prometheus

namespace sfcl::metrics {

// The reasons admission control refuses a request for (sfcl_admission_rejected_total's label).
inline constexpr const char* kAdmissionReasons[] = {"prompt_bytes", "prompt_tokens", "decision_points", "anchor_spam",
                                                    "client_work"};
inline constexpr size_t kWindow = 1000;  // requests in the AAR/AAI/BRS window
// Checked anchors in the recent window. Confidences are mostly 0 or 1 and arrive clustered by
// request, so a smaller window's mean swings past any useful band on healthy traffic.
inline constexpr size_t kDriftWindow = 200;
inline constexpr size_t kDriftBaselineWindow = 1000;  // the anchors before them: the baseline

class Metrics {
 public:
  Metrics(decode::Mode default_mode, double drift_threshold);
  ~Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  void request(const std::string& endpoint, int status);
  void first_token(double seconds_since_request);
  void inter_token(double seconds);
  void check(anchor::Type type, verify::Verdict verdict, float confidence, double seconds, bool checked);
  void fallback(decode::Fallback policy);
  // Once per finished generation.
  void generation(const decode::Result& r, int32_t cached_tokens);
  // One embeddings request (/v1/embeddings, /embedding): its tokens, decode calls and time.
  void embedded(int64_t tokens, int64_t decodes, double ms);
  void anchor_spam();
  // `reason`: one of kAdmissionReasons (the label's bounded values).
  void admission_rejected(const std::string& reason);
  void set_load(int busy_slots, int queued);
  // The schedulers' running totals as they read now: batch decode calls, the slots those calls fed
  // and the longest sequence a slot held (llama-server's llamacpp:n_decode_total and kin).
  void set_decode(int64_t decodes, int64_t slots_fed, int64_t longest_sequence);
  // The schedulers' running totals of their thread's time in llama_decode and in the work after it
  // for each slot it fed (SchedulerStats::decode_ns and kin), as they read now.
  void set_step_time(int64_t decode_ns, int64_t token_work_ns, int64_t token_work_cpu_ns, int64_t token_steps);
  // The host-memory prompt cache's totals over every scheduler, as they read now.
  void set_host_cache(int64_t restores, int64_t restored_tokens, int64_t bytes, int64_t entries);
  // The served models' chat renders taken from their render caches so far (a running total).
  void set_renders_reused(int64_t reused);

  // Drift monitor: true while drift() exceeds the threshold.
  [[nodiscard]] bool degraded() const;
  // Baseline mean confidence minus recent mean confidence; 0 until the recent window is full and
  // the baseline holds at least as many anchors (a minimum sample of 2 x kDriftWindow).
  [[nodiscard]] double drift() const;
  // Prometheus text exposition format: the sfcl_* families and llama-server's llamacpp:* ones. A
  // scrape closes the window the llamacpp:*_tokens_seconds throughput gauges average over.
  [[nodiscard]] std::string serialize() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sfcl::metrics
