// The backends behind the gateway: which are healthy, how many requests each has outstanding, and
// which one a request goes to (least outstanding, with affinity for the backend that last served
// the same prompt prefix, so its prompt cache is warm). A backend that fails is taken out of
// rotation and probed with backoff until /health answers again (docs/SCALING.md).
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gateway/backend_client.h"

namespace sfcl::gateway {

struct PoolOptions {
  int32_t slots_per_backend = 4;   // requests one backend serves at once (--backend-slots)
  double timeout_s = 30.0;         // each backend call (connect, every read)
  double call_timeout_s = 600.0;   // one completion call from its start to its end (0 = none)
  double health_interval_s = 2.0;  // probe of a healthy backend
  double backoff_min_s = 0.2;      // first probe of a failed backend; doubles per failed probe
  double backoff_max_s = 5.0;
  // A backend that shares the prompt's prefix is chosen while it has at most this many more
  // requests outstanding than the least loaded one.
  int32_t affinity_slack = 1;
  // When set, a backend serves only once its /tokenize gives `probe_tokens` for `probe_text`:
  // checked at its first answered probe and whenever it comes back, so one restarted on another
  // model stays out of rotation.
  std::string probe_text;
  std::vector<Token> probe_tokens;
};

struct BackendStatus {
  std::string url;
  bool healthy = false;  // in rotation: answers /health and passed the tokenizer probe
  int32_t outstanding = 0;
  int64_t requests = 0;  // completion calls sent
  int64_t failures = 0;  // calls that failed (the backend was taken out)
};

class Pool {
 public:
  Pool(const std::vector<BackendAddress>& backends, const PoolOptions& options);
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  // A healthy backend with a free slot for a prompt whose prefix hashes to `affinity`, not
  // `avoid` when another one is free; waits until `deadline`. nullopt: none became free, or none
  // is healthy (then at once: waiting would hold the client for nothing; the health checks bring
  // a backend back).
  // `return_by`: with none healthy, wait until then for one to come back instead (an answer
  // already under way: its backend may have failed one call and pass its next probe).
  std::optional<size_t> acquire(uint64_t affinity, std::optional<size_t> avoid,
                                std::chrono::steady_clock::time_point deadline,
                                std::optional<std::chrono::steady_clock::time_point> return_by = std::nullopt);
  void release(size_t backend);
  // The backend failed a call: out of rotation until its /health answers, and no sooner than a
  // backoff that doubles with each call it fails in a row (one whose /health answers but whose
  // calls fail would otherwise come back at the next probe, again and again).
  void mark_failed(size_t backend);
  // The backend answered a call: its run of failed calls is over.
  void mark_served(size_t backend);
  // `client` is calling `backend` from now until end_call: while it does, two health probes of the
  // backend failing in a row abort the call (BackendClient::abort), so an answer on a hung
  // backend moves on instead of waiting out --backend-timeout.
  void begin_call(size_t backend, BackendClient* client);
  void end_call(size_t backend, BackendClient* client);
  void count_request(size_t backend);

  [[nodiscard]] size_t size() const { return backends_.size(); }
  [[nodiscard]] int32_t total_slots() const;
  [[nodiscard]] int32_t free_slots() const;
  // Some backend is in rotation (healthy, its tokenizer checked) or not probed yet.
  [[nodiscard]] bool any_healthy() const;
  [[nodiscard]] std::vector<BackendStatus> status() const;
  [[nodiscard]] const BackendAddress& address(size_t backend) const { return backends_[backend].address; }
  [[nodiscard]] const PoolOptions& options() const { return options_; }
  void stop();

 private:
  struct Backend {
    BackendAddress address;
    bool healthy = true;
    bool checked = true;  // its tokenizer passed the probe (PoolOptions::probe_text)
    bool probed = false;  // the health loop has probed it once
    // In rotation, or may be at its first probe: worth waiting for.
    [[nodiscard]] bool available() const { return healthy && (checked || !probed); }
    int32_t outstanding = 0;
    int64_t requests = 0;
    int64_t failures = 0;
    int32_t failed_calls = 0;           // calls failed in a row
    int64_t marks = 0;                  // mark_failed calls: a probe begun before the last one says nothing
    int32_t failed_probes = 0;          // in a row
    std::vector<BackendClient*> calls;  // clients calling it now (begin_call)
    double backoff_s = 0.0;
    std::chrono::steady_clock::time_point next_probe{};
  };
  void health_loop();
  [[nodiscard]] bool same_tokenizer(BackendClient& client) const;

  PoolOptions options_;
  std::vector<Backend> backends_;
  mutable std::mutex mu_;
  std::condition_variable cv_;  // a slot was freed or a backend came back
  std::condition_variable health_cv_;
  bool stop_ = false;
  std::thread health_;
};

// Hash of the templated prompt's prefix (what a backend's prompt cache keys on).
uint64_t prefix_hash(std::span<const Token> prompt);

}  // namespace sfcl::gateway
