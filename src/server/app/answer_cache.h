// The verified-answer cache (--answer-cache-mib, --answer-cache-ttl; docs/OPERATIONS.md, "Answer
// cache"): a deterministic request (temperature 0 or a fixed seed) sent again with the same body to
// the same endpoint, answered by the same model, under the same API key, gets the bytes its first
// answer was sent as (text, verdicts, events and signature), marked X-SFCL-Cache: hit. Bounded in
// bytes (the least recently used answer goes first) and in age.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>

#include "server/api/types.h"
#include "server/http/http.h"

namespace sfcl::server {

class AnswerCache {
 public:
  using Clock = std::chrono::steady_clock;
  struct Answer {
    std::string content_type;
    std::string body;
    http::Headers headers;  // the handler's headers of the first answer (SFCL status, signature)
  };
  struct Stats {
    int64_t hits = 0;
    int64_t misses = 0;
    int64_t entries = 0;
    size_t bytes = 0;
  };

  // `now` is the clock a test may turn; the steady clock otherwise.
  AnswerCache(size_t max_bytes, double ttl_s, std::function<Clock::time_point()> now = Clock::now);

  // The answer stored under `key` and younger than the TTL (it becomes the most recently used);
  // nullopt otherwise (an expired one is dropped). Counts a hit or a miss.
  std::optional<Answer> find(const std::string& key);
  // Stores `answer` under `key` (replacing what was there), evicting the least recently used
  // until it fits; an answer larger than the whole budget is not kept.
  void store(const std::string& key, Answer answer);
  [[nodiscard]] Stats stats() const;
  [[nodiscard]] size_t max_bytes() const { return max_bytes_; }

 private:
  struct Entry {
    std::string key;
    Answer answer;
    Clock::time_point stored;
    size_t bytes = 0;
  };
  void erase(std::list<Entry>::iterator it);

  const size_t max_bytes_;
  const Clock::duration ttl_;
  const std::function<Clock::time_point()> now_;
  mutable std::mutex mu_;
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> by_key_;
  Stats stats_;
};

// The cache key of a request: a SHA-256 over the endpoint, the answering model, the API key it
// presented and the request's body in canonical JSON. "" when the answer is not deterministic
// (a temperature above 0 without a fixed seed) or asks for several choices: such a request is
// never answered from the cache. `lora`: the adapter scales the answer runs under (POST
// /lora-adapters changes them without changing the body).
std::string answer_key(const http::Request& http, const std::string& model_id, const GenerationRequest& req,
                       std::span<const float> lora = {});

}  // namespace sfcl::server
