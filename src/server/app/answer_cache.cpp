#include "server/app/answer_cache.h"

#include <charconv>

#include "server/api/signing.h"
#include "server/http/auth.h"

namespace sfcl::server {

AnswerCache::AnswerCache(size_t max_bytes, double ttl_s, std::function<Clock::time_point()> now)
    : max_bytes_(max_bytes),
      ttl_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(ttl_s))),
      now_(std::move(now)) {}

std::optional<AnswerCache::Answer> AnswerCache::find(const std::string& key) {
  std::lock_guard lock(mu_);
  const auto it = by_key_.find(key);
  if (it == by_key_.end()) {
    ++stats_.misses;
    return std::nullopt;
  }
  if (now_() - it->second->stored >= ttl_) {
    erase(it->second);
    ++stats_.misses;
    return std::nullopt;
  }
  lru_.splice(lru_.begin(), lru_, it->second);
  ++stats_.hits;
  return lru_.front().answer;
}

void AnswerCache::store(const std::string& key, Answer answer) {
  size_t bytes = key.size() + answer.body.size() + answer.content_type.size();
  for (const auto& [name, value] : answer.headers) bytes += name.size() + value.size();
  std::lock_guard lock(mu_);
  if (const auto it = by_key_.find(key); it != by_key_.end()) erase(it->second);
  if (bytes > max_bytes_) return;
  while (stats_.bytes + bytes > max_bytes_ && !lru_.empty()) erase(std::prev(lru_.end()));
  lru_.push_front(Entry{key, std::move(answer), now_(), bytes});
  by_key_[key] = lru_.begin();
  stats_.bytes += bytes;
  ++stats_.entries;
}

AnswerCache::Stats AnswerCache::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

void AnswerCache::erase(std::list<Entry>::iterator it) {
  stats_.bytes -= it->bytes;
  --stats_.entries;
  by_key_.erase(it->key);
  lru_.erase(it);
}

std::string answer_key(const http::Request& http, const std::string& model_id, const GenerationRequest& req,
                       std::span<const float> lora) {
  const engine::SamplingOptions& s = req.options.sampling;
  const bool deterministic = s.temperature <= 0.0F || s.seed != 0xFFFFFFFFU;
  if (!deterministic || req.n != 1) return "";
  // The body as parsed, so that key order and spacing do not matter; each part ends in a NUL,
  // which none of them holds (check_text refuses it in text, and JSON escapes it).
  const std::string body = canonical_json(nlohmann::json::parse(http.body, nullptr, false));
  std::string parts = http.path + '\0' + model_id + '\0' + sha256_hex(presented_key(http)) + '\0' + body;
  for (const float scale : lora) {  // shortest text that reads back as the same float
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, scale);
    parts += '\0';
    parts.append(buf, r.ptr);
  }
  return sha256_hex(parts);
}

}  // namespace sfcl::server
