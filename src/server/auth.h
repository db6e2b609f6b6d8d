// API keys: x-api-key or Authorization: Bearer, compared in constant time.
#pragma once
#include <string>
#include <vector>

namespace sfcl::server {

// The key a request presents (empty when none).
template <typename Request>
std::string presented_key(const Request& req) {
  std::string key = req.get_header_value("x-api-key");
  const std::string& auth = req.get_header_value("Authorization");
  if (key.empty() && auth.rfind("Bearer ", 0) == 0) key = auth.substr(7);
  return key;
}

// Constant-time: fixed-size digests compared with sodium_memcmp, every key scanned.
bool key_matches(const std::string& given, const std::vector<std::string>& keys);

}  // namespace sfcl::server
