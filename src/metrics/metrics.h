// sfcl::metrics — Prometheus metrics of the server (prometheus-cpp), including the SFCL gauges:
// AAR, AAI and BRS over a sliding window of the last kWindow requests, and the confidence drift
// (standard deviation of the last kDriftWindow anchor confidences).
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

inline constexpr size_t kWindow = 1000;      // requests in the AAR/AAI/BRS window
inline constexpr size_t kDriftWindow = 100;  // anchor confidences in the drift window

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
  void anchor_spam();
  void admission_rejected(const std::string& reason);
  void set_load(int busy_slots, int queued);

  // Drift monitor: true while the std dev of the last confidences exceeds the threshold.
  [[nodiscard]] bool degraded() const;
  [[nodiscard]] double drift() const;
  // Prometheus text exposition format.
  [[nodiscard]] std::string serialize() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sfcl::metrics
