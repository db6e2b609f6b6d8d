#include "server/http/message.h"

#include <algorithm>

namespace sfcl::server::http {

namespace {
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

const std::string& header_value(const Headers& headers, std::string_view name) {
  static const std::string kEmpty;
  for (const auto& [k, v] : headers) {
    if (iequals(k, name)) return v;
  }
  return kEmpty;
}

bool Request::has_header(std::string_view name) const {
  return std::any_of(headers.begin(), headers.end(), [&](const auto& h) { return iequals(h.first, name); });
}

bool Response::has_header(std::string_view name) const {
  return std::any_of(headers.begin(), headers.end(), [&](const auto& h) { return iequals(h.first, name); });
}

void Response::set_header(std::string name, std::string value) {
  for (auto& [k, v] : headers) {
    if (iequals(k, name)) {
      v = std::move(value);
      return;
    }
  }
  headers.emplace_back(std::move(name), std::move(value));
}

void Response::set_content(std::string content, std::string content_type) {
  body = std::move(content);
  set_header("Content-Type", std::move(content_type));
}

void Response::set_chunked_content_provider(std::string content_type, std::function<bool(StreamSink&)> provider,
                                            std::function<void(bool)> on_end) {
  set_header("Content-Type", std::move(content_type));
  stream = std::move(provider);
  on_stream_end = std::move(on_end);
}

}  // namespace sfcl::server::http
