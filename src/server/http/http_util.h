// Small helpers shared by the route handlers.
#pragma once
#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <string_view>

#include "server/http/message.h"

namespace sfcl::server {

inline std::string sse(const std::string& event, const nlohmann::json& data) {
  return "event: " + event + "\ndata: " + data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n\n";
}
inline std::string sse_data(const nlohmann::json& data) {
  return "data: " + data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n\n";
}

// `s` as a JSON string appended to `out`, escaped as sse_data escapes it (bytes that are not UTF-8
// become U+FFFD).
inline void append_json_string(std::string& out, std::string_view s) {
  out += nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

inline std::string random_id(const std::string& prefix) {
  static thread_local std::mt19937_64 rng(std::random_device{}());
  static const char* kHex = "0123456789abcdef";
  std::string s = prefix;
  for (int i = 0; i < 24; ++i) s.push_back(kHex[rng() % 16]);
  return s;
}

inline int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

inline void set_json(http::Response& res, int status, const nlohmann::json& body) {
  res.status = status;
  res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json");
}

}  // namespace sfcl::server
