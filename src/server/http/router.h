// Method + path dispatch for the route handlers: 404 for an unknown path, 405 with `Allow` for a
// known path asked with another method; HEAD wherever GET is.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "server/http/message.h"

namespace sfcl::server::http {

using Handler = std::function<void(const Request&, Response&)>;

class Router {
 public:
  void add(const std::string& method, const std::string& path, Handler handler) {
    routes_[path].emplace_back(method, std::move(handler));
  }
  void Get(const std::string& path, Handler h) { add("GET", path, std::move(h)); }
  void Post(const std::string& path, Handler h) { add("POST", path, std::move(h)); }
  // Every path under `prefix` ("/v1/models/" -> "/v1/models/gpt-4o") that has no exact route.
  void GetPrefix(const std::string& prefix, Handler h) { prefixes_.push_back({"GET", prefix, std::move(h)}); }
  void PostPrefix(const std::string& prefix, Handler h) { prefixes_.push_back({"POST", prefix, std::move(h)}); }

  enum class Match : uint8_t { found, no_path, no_method };
  // The handler for `req`, or why there is none (`allow` lists the path's methods).
  const Handler* find(const Request& req, Match& match, std::string& allow) const {
    const auto it = routes_.find(req.path);
    if (it == routes_.end()) {
      match = Match::no_path;
      for (const auto& p : prefixes_) {
        if (req.path.size() <= p.prefix.size() || !req.path.starts_with(p.prefix)) continue;
        if (p.method == req.method || (p.method == "GET" && req.method == "HEAD")) {
          match = Match::found;
          return &p.handler;
        }
        match = Match::no_method;
        allow += p.method + ", ";
      }
      if (match == Match::no_method) allow += "OPTIONS";
      return nullptr;
    }
    for (const auto& [method, handler] : it->second) {
      // HEAD is GET without the body (RFC 9110 9.3.2); server.cpp leaves the body out.
      if (method == req.method || (method == "GET" && req.method == "HEAD")) {
        match = Match::found;
        return &handler;
      }
    }
    match = Match::no_method;
    for (const auto& [method, handler] : it->second) allow += (allow.empty() ? "" : ", ") + method;
    allow += ", OPTIONS";
    return nullptr;
  }
  [[nodiscard]] bool knows(const std::string& path) const { return routes_.count(path) != 0; }

 private:
  std::map<std::string, std::vector<std::pair<std::string, Handler>>> routes_;
  struct PrefixRoute {
    std::string method;
    std::string prefix;
    Handler handler;
  };
  std::vector<PrefixRoute> prefixes_;
};

}  // namespace sfcl::server::http
