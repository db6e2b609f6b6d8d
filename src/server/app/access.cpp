#include "server/app/access.h"

#include <algorithm>

#include "server/api/dialect.h"
#include "server/app/ui.h"
#include "server/http/auth.h"
#include "server/http/http_util.h"

namespace sfcl::server {

namespace {

bool is_loopback(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

// "name:port" or "[v6]:port" without the port; empty when the header is not of that form (RFC
// 9110 7.2: uri-host [ ":" port ], the port digits only), so "[::1]x" or ":80" name nothing.
std::string host_name(const std::string& host_header) {
  size_t end = 0;
  if (!host_header.empty() && host_header.front() == '[') {
    end = host_header.find(']');
    if (end == std::string::npos) return {};
    ++end;
  } else {
    end = std::min(host_header.find(':'), host_header.size());
  }
  const std::string_view port = std::string_view(host_header).substr(end);
  const bool port_ok =
      port.empty() || (port[0] == ':' && port.size() <= 6 &&
                       std::all_of(port.begin() + 1, port.end(), [](char c) { return c >= '0' && c <= '9'; }));
  if (!port_ok || end == 0) return {};
  const std::string name = host_header.substr(0, end);
  const bool printable = std::all_of(name.begin(), name.end(), [](char c) {
    return static_cast<unsigned char>(c) > 0x20 && c != 0x7F && c != '/' && c != '@';
  });
  return printable ? name : std::string();
}

bool host_allowed(const State& st, const std::string& host_header) {
  const bool loopback = is_loopback(st.opt.host);
  if (!loopback && st.opt.allowed_hosts.empty()) return true;
  const std::string name = host_name(host_header);
  const auto& extra = st.opt.allowed_hosts;
  if (std::find(extra.begin(), extra.end(), name) != extra.end()) return true;
  if (std::find(extra.begin(), extra.end(), host_header) != extra.end()) return true;
  return loopback && (name == "127.0.0.1" || name == "localhost" || name == "[::1]");
}

// llama-server's "localhost" origin: a page served from this machine, on any port.
bool local_origin(std::string_view origin) {
  for (const std::string_view scheme : {"http://", "https://"}) {
    if (!origin.starts_with(scheme)) continue;
    const std::string_view rest = origin.substr(scheme.size());
    for (const std::string_view host : {"localhost", "127.0.0.1", "[::1]"}) {
      if (!rest.starts_with(host)) continue;
      const std::string_view port = rest.substr(host.size());
      if (port.empty()) return true;
      return port.size() >= 2 && port.size() <= 6 && port[0] == ':' &&
             std::all_of(port.begin() + 1, port.end(), [](char c) { return c >= '0' && c <= '9'; });
    }
  }
  return false;
}

bool origin_listed(const State& st, const std::string& origin) {
  const auto& list = st.opt.cors_origins;
  return std::find(list.begin(), list.end(), origin) != list.end() ||
         std::find(list.begin(), list.end(), "*") != list.end() ||
         (std::find(list.begin(), list.end(), "localhost") != list.end() && local_origin(origin));
}

bool same_origin(const http::Request& req, const std::string& origin) {
  const std::string& host = req.get_header_value("Host");
  return !host.empty() && (origin == "http://" + host || origin == "https://" + host);
}

bool is_json(const std::string& content_type) {
  const std::string media = content_type.substr(0, content_type.find(';'));
  std::string trimmed;
  for (char c : media) {
    if (c != ' ' && c != '\t') trimmed.push_back(c);
  }
  return http::iequals(trimmed, "application/json");
}

}  // namespace

void send_api_error(http::Response& res, const std::string& path, int status, const std::string& type,
                    const std::string& message) {
  set_json(res, status, error_body(api_of_path(path), ApiError(status, type, message)));
  if (status == 429 || status == 503) res.set_header("Retry-After", "1");
}

void add_cors_headers(const State& st, const http::Request& req, http::Response& res) {
  const std::string& origin = req.get_header_value("Origin");
  if (origin.empty() || !origin_listed(st, origin)) return;
  res.set_header("Access-Control-Allow-Origin", origin);
  res.set_header("Vary", "Origin");
  res.set_header("Access-Control-Expose-Headers",
                 "X-SFCL-Status, X-SFCL-Model, X-SFCL-Signature, X-SFCL-Request-Id, X-Anthropic-SFCL-Status, "
                 "x-anthropic-layer-status, Retry-After");
}

bool screen_request(const State& st, const http::Request& req, http::Response& res) {
  const std::string& encoding = req.get_header_value("Content-Encoding");
  if (!encoding.empty() && !http::iequals(encoding, "identity")) {
    send_api_error(res, req.path, 415, "invalid_request_error",
                   "Content-Encoding " + encoding + " is not accepted; send the body uncompressed");
    return true;
  }
  const std::string& host = req.get_header_value("Host");
  // Without Host: HTTP/1.0 (browsers always send one). One that names no host is refused
  // (RFC 9112 3.2: 400 for an invalid Host).
  if (req.has_header("Host") && host_name(host).empty()) {
    send_api_error(res, req.path, 400, "invalid_request_error", "the Host header names no host");
    return true;
  }
  if (req.has_header("Host") && !host_allowed(st, host)) {
    send_api_error(res, req.path, 403, "permission_error",
                   "Host " + host + " is not served here (add it with --allowed-host)");
    return true;
  }
  const std::string& origin = req.get_header_value("Origin");
  const bool cross = !origin.empty() && !same_origin(req, origin);
  const bool listed = !cross || origin_listed(st, origin);
  if (!listed && req.method != "OPTIONS") {
    send_api_error(res, req.path, 403, "permission_error",
                   "cross-origin requests from " + origin + " are not allowed (see --cors-origin)");
    return true;
  }
  if (req.method == "OPTIONS") {  // preflight: answered before auth, as browsers send no key with it
    // 200 as llama-server answers it; for an origin not listed without Access-Control-Allow-*, which
    // is how a browser learns the request is refused (the request itself would be a 403).
    res.status = 200;
    res.set_header("Allow", "GET, POST, OPTIONS");
    if (cross && listed) {
      add_cors_headers(st, req, res);
      res.set_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      const std::string& asked = req.get_header_value("Access-Control-Request-Headers");
      res.set_header(
          "Access-Control-Allow-Headers",
          asked.empty() ? "authorization, x-api-key, content-type, anthropic-version, x-sfcl-events" : asked);
      res.set_header("Access-Control-Max-Age", "600");
    }
    return true;
  }
  // The playground's own files need no key (the page asks for one and sends it with API calls).
  if (!st.opt.api_keys.empty() && req.path != "/health" && !(st.opt.ui && is_ui_path(req.path))) {
    const std::string key = presented_key(req);
    if (key.empty() || !key_matches(key, st.opt.api_keys)) {
      send_api_error(res, req.path, 401, dialect_for(api_of_path(req.path)).errors().auth,
                     key.empty() ? "missing API key (x-api-key or Authorization: Bearer)" : "invalid API key");
      add_cors_headers(st, req, res);
      return true;
    }
  }
  if (req.method == "POST" && !is_json(req.get_header_value("Content-Type"))) {
    const std::string& given = req.get_header_value("Content-Type");
    send_api_error(res, req.path, 415, "invalid_request_error",
                   "the body must be JSON with Content-Type: application/json (got " +
                       (given.empty() ? std::string("none") : given) + ")");
    add_cors_headers(st, req, res);
    return true;
  }
  return false;
}

}  // namespace sfcl::server
