#include "gateway/pool.h"

#include <algorithm>
#include <cstdio>

namespace sfcl::gateway {

namespace {
using Clock = std::chrono::steady_clock;

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

// Prompt tokens that decide the affinity: a system prompt and the start of a conversation, not
// the last turn (which differs between requests of the same conversation).
constexpr size_t kAffinityTokens = 64;
}  // namespace

uint64_t prefix_hash(std::span<const Token> prompt) {
  uint64_t h = 1469598103934665603ULL;
  const size_t n = std::min(prompt.size(), kAffinityTokens);
  for (size_t i = 0; i < n; ++i) h = mix(h, static_cast<uint64_t>(static_cast<uint32_t>(prompt[i])));
  return h;
}

Pool::Pool(const std::vector<BackendAddress>& backends, const PoolOptions& options) : options_(options) {
  for (const auto& a : backends) {
    backends_.push_back(Backend{a});
    backends_.back().checked = options_.probe_text.empty();
  }
  health_ = std::thread([this] { health_loop(); });
}

Pool::~Pool() { stop(); }

void Pool::stop() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stop_) return;
    stop_ = true;
  }
  health_cv_.notify_all();
  cv_.notify_all();
  if (health_.joinable()) health_.join();
}

std::optional<size_t> Pool::acquire(uint64_t affinity, std::optional<size_t> avoid, Clock::time_point deadline,
                                    std::optional<Clock::time_point> return_by) {
  std::unique_lock<std::mutex> lk(mu_);
  while (true) {
    if (stop_) return std::nullopt;
    // Rendezvous hashing: each prompt prefix prefers one backend, and only the prompts of a
    // backend that leaves move when it does.
    std::optional<size_t> least;
    std::optional<size_t> preferred;
    uint64_t best_score = 0;
    for (size_t i = 0; i < backends_.size(); ++i) {
      const Backend& b = backends_[i];
      if (!b.healthy || !b.checked || b.outstanding >= options_.slots_per_backend) continue;
      if (avoid && *avoid == i) continue;
      if (!least || b.outstanding < backends_[*least].outstanding) least = i;
      const uint64_t score = mix(affinity, i + 1);
      if (!preferred || score > best_score) {
        preferred = i;
        best_score = score;
      }
    }
    if (!least && avoid) {  // the one to avoid is the only one free: better than waiting
      const Backend& b = backends_[*avoid];
      if (b.healthy && b.checked && b.outstanding < options_.slots_per_backend) least = preferred = *avoid;
    }
    if (!least && std::none_of(backends_.begin(), backends_.end(), [](const Backend& b) { return b.available(); })) {
      if (!return_by || Clock::now() >= *return_by) return std::nullopt;
      cv_.wait_until(lk, std::min(*return_by, deadline));  // a backend back notifies
      continue;
    }
    if (least) {
      size_t pick = *least;
      if (backends_[*preferred].outstanding <= backends_[*least].outstanding + options_.affinity_slack) {
        pick = *preferred;
      }
      ++backends_[pick].outstanding;
      return pick;
    }
    if (cv_.wait_until(lk, deadline) == std::cv_status::timeout) return std::nullopt;
  }
}

void Pool::release(size_t backend) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    --backends_[backend].outstanding;
  }
  cv_.notify_all();
}

void Pool::mark_failed(size_t backend) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    Backend& b = backends_[backend];
    ++b.failures;
    ++b.marks;
    // Calls that fail together (or are aborted) once it is out are one failure of the run.
    if (!b.healthy) return;
    ++b.failed_calls;
    b.healthy = false;
    b.backoff_s = options_.backoff_min_s;
    for (int32_t i = 1; i < b.failed_calls && b.backoff_s < options_.backoff_max_s; ++i) b.backoff_s *= 2;
    b.backoff_s = std::min(b.backoff_s, options_.backoff_max_s);
    b.next_probe = Clock::now() + seconds(b.backoff_s);
  }
  health_cv_.notify_all();
}

void Pool::begin_call(size_t backend, BackendClient* client) {
  std::lock_guard<std::mutex> lk(mu_);
  backends_[backend].calls.push_back(client);
}

void Pool::end_call(size_t backend, BackendClient* client) {
  std::lock_guard<std::mutex> lk(mu_);
  std::erase(backends_[backend].calls, client);
}

void Pool::mark_served(size_t backend) {
  std::lock_guard<std::mutex> lk(mu_);
  backends_[backend].failed_calls = 0;
}

void Pool::count_request(size_t backend) {
  std::lock_guard<std::mutex> lk(mu_);
  ++backends_[backend].requests;
}

int32_t Pool::total_slots() const { return static_cast<int32_t>(backends_.size()) * options_.slots_per_backend; }

bool Pool::any_healthy() const {
  std::lock_guard<std::mutex> lk(mu_);
  return std::any_of(backends_.begin(), backends_.end(), [](const Backend& b) { return b.available(); });
}

int32_t Pool::free_slots() const {
  std::lock_guard<std::mutex> lk(mu_);
  int32_t n = 0;
  for (const Backend& b : backends_) {
    if (b.healthy && b.checked) n += std::max(0, options_.slots_per_backend - b.outstanding);
  }
  return n;
}

std::vector<BackendStatus> Pool::status() const {
  std::lock_guard<std::mutex> lk(mu_);
  std::vector<BackendStatus> out;
  for (const Backend& b : backends_) {
    out.push_back({b.address.url, b.healthy && b.checked, b.outstanding, b.requests, b.failures});
  }
  return out;
}

bool Pool::same_tokenizer(BackendClient& client) const {
  std::vector<Token> got;
  try {
    got = client.tokenize(options_.probe_text);
  } catch (const std::exception&) {
    return false;
  }
  if (got == options_.probe_tokens) return true;
  std::fprintf(stderr, "sfcl: backend %s tokenises differently from the gateway's vocabulary: kept out of rotation\n",
               client.address().url.c_str());
  return false;
}

void Pool::health_loop() {
  std::vector<std::unique_ptr<BackendClient>> clients;
  for (const Backend& b : backends_) {
    clients.push_back(std::make_unique<BackendClient>(b.address, std::min(options_.timeout_s, 2.0)));
  }
  std::unique_lock<std::mutex> lk(mu_);
  while (!stop_) {
    const auto now = Clock::now();
    auto next = now + seconds(options_.health_interval_s);
    for (size_t i = 0; i < backends_.size(); ++i) {
      if (backends_[i].next_probe > now) {
        next = std::min(next, backends_[i].next_probe);
        continue;
      }
      const bool recheck = !options_.probe_text.empty() && (!backends_[i].checked || !backends_[i].healthy);
      const int64_t marks = backends_[i].marks;
      lk.unlock();
      bool ok = clients[i]->healthy();  // no lock held over the network
      if (ok && recheck) ok = same_tokenizer(*clients[i]);
      lk.lock();
      if (stop_) return;
      Backend& b = backends_[i];
      b.probed = true;
      if (b.marks != marks) {  // a call failed while this probe ran: its backoff stands
        next = std::min(next, b.next_probe);
        continue;
      }
      b.failed_probes = ok ? 0 : b.failed_probes + 1;
      // Two probes failed in a row (one slow answer is not enough): the calls on it are hung, or
      // will fail on their own anyway. Aborted without the lock: cpp-httplib's stop() waits for a
      // connect in progress, and the pool must keep serving meanwhile. A client stays valid while
      // the pool runs (its worker outlives this thread); one whose call ended meanwhile only loses
      // its idle connection, or its next call fails over.
      if (b.failed_probes >= 2 && !b.calls.empty()) {
        const std::vector<BackendClient*> hung = b.calls;
        lk.unlock();
        for (BackendClient* c : hung) c->abort();
        lk.lock();
        if (stop_) return;
      }
      if (ok) {
        const bool back = !b.healthy || !b.checked;
        b.healthy = true;
        b.checked = true;
        b.backoff_s = 0.0;
        b.next_probe = Clock::now() + seconds(options_.health_interval_s);
        if (back) cv_.notify_all();
      } else {
        b.healthy = false;
        b.backoff_s = b.backoff_s <= 0.0 ? options_.backoff_min_s : std::min(b.backoff_s * 2, options_.backoff_max_s);
        b.next_probe = Clock::now() + seconds(b.backoff_s);
      }
      next = std::min(next, b.next_probe);
    }
    health_cv_.wait_until(lk, next);
  }
}

}  // namespace sfcl::gateway
