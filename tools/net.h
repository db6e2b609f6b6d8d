// Client-side helpers for commands that talk to servers (probe, bench): URLs, free ports, readiness.
#pragma once
#include <string>

namespace sfcl::tools {

struct HostPort {
  std::string scheme_host_port;  // "http://host:port"
  std::string host;
  std::string port;
};

// Accepts http://host[:port][/]; throws UsageError otherwise.
HostPort parse_url(const std::string& url);

// A TCP port on 127.0.0.1 that was free a moment ago.
int free_port();

// Polls GET /health until it answers 200; false after timeout_s.
bool wait_healthy(const std::string& base_url, double timeout_s);

}  // namespace sfcl::tools
