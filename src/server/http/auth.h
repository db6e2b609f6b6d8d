// API keys: x-api-key or Authorization: Bearer, compared in constant time.
#pragma once
#include <cctype>
#include <string>
#include <vector>

namespace sfcl::server {

// The key a request presents (empty when none).
template <typename Request>
std::string presented_key(const Request& req) {
  std::string key = req.get_header_value("x-api-key");
  const std::string& auth = req.get_header_value("Authorization");
  // The scheme's name is case-insensitive (RFC 9110, 11.1): "bearer" is as good as "Bearer".
  const auto is_bearer = [&] {
    if (auth.size() < 7 || auth[6] != ' ') return false;
    for (size_t i = 0; i < 6; ++i) {
      if (std::tolower(static_cast<unsigned char>(auth[i])) != "bearer"[i]) return false;
    }
    return true;
  };
  if (key.empty() && is_bearer()) key = auth.substr(7);
  return key;
}

// Constant-time: fixed-size digests compared with sodium_memcmp, every key scanned.
bool key_matches(const std::string& given, const std::vector<std::string>& keys);

}  // namespace sfcl::server
