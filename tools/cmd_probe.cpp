// sfcl probe: the design's detection client. Sends N streaming Anthropic Messages requests to a
// server, checks the SFCL headers and reports layer status and the TTFT distribution.
#include <httplib.h>
#include <prometheus/gateway.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/io.h"
#include "tools/commands.h"
#include "tools/net.h"
#include "tools/stats.h"
#include "tools/svg.h"

namespace sfcl::tools {
namespace {

struct ProbeOpts {
  std::string url;
  int n = 100;
  std::string api_key;
  std::string prompt_file;
  int max_tokens = 32;
  bool json = false;
  std::string out;
  std::string pushgateway;
};

void add_flags(CLI::App& cmd, ProbeOpts& o) {
  cmd.add_option("--url", o.url, "Server base URL, e.g. http://127.0.0.1:8080")->required();
  cmd.add_option("--n", o.n, "Requests (sequential)")->capture_default_str()->check(CLI::Range(1, 100000));
  cmd.add_option("--api-key", o.api_key, "Sent as x-api-key");
  cmd.add_option("--prompt", o.prompt_file, "File with the user prompt (default: a short grounded question)");
  cmd.add_option("--max-tokens", o.max_tokens, "max_tokens per request")->capture_default_str();
  cmd.add_flag("--json", o.json, "One JSON object instead of the report");
  cmd.add_option("--out", o.out, "Write the TTFT histogram as SVG");
  cmd.add_option("--pushgateway", o.pushgateway, "Push results to a Prometheus Pushgateway (http://host:port)");
}

// What the requests saw.
struct ProbeResult {
  std::vector<double> ttft_ms;
  std::map<std::string, int> layer;
  std::map<std::string, int> statuses;
  std::string last_status;
  int errors = 0;
};

// Sends the requests one after another; the first one failing is a usage error (wrong URL, not sfcl).
ProbeResult send_requests(const ProbeOpts& o) {
  const HostPort hp = parse_url(o.url);
  const std::string prompt =
      o.prompt_file.empty() ? std::string("What is the total amount?") : cli::read_input(o.prompt_file);
  httplib::Client cli(hp.scheme_host_port);
  cli.set_connection_timeout(5, 0);
  cli.set_read_timeout(120, 0);
  const nlohmann::json body = {{"max_tokens", o.max_tokens},
                               {"stream", true},
                               {"system", "Invoice INV-2024-0042: total $12,500.00, due June 15, 2024."},
                               {"messages", nlohmann::json::array({{{"role", "user"}, {"content", prompt}}})}};
  ProbeResult p;
  for (int i = 0; i < o.n; ++i) {
    httplib::Request req;
    req.method = "POST";
    req.path = "/v1/messages";
    req.body = body.dump();
    req.set_header("Content-Type", "application/json");
    if (!o.api_key.empty()) req.set_header("x-api-key", o.api_key);
    const auto t0 = std::chrono::steady_clock::now();
    double first = -1.0;
    std::string seen;
    req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
      seen.append(data, n);
      if (first < 0 && seen.find("content_block_delta") != std::string::npos) {
        first = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      }
      return true;
    };
    httplib::Response res;
    httplib::Error err = httplib::Error::Success;
    if (!cli.send(req, res, err)) {
      if (i == 0) throw cli::UsageError("cannot reach " + o.url + " (" + httplib::to_string(err) + ")");
      ++p.errors;
      continue;
    }
    if (res.status != 200) {
      if (i == 0) {
        throw cli::UsageError(o.url + " answered HTTP " + std::to_string(res.status) +
                              " to /v1/messages: " + seen.substr(0, 200));
      }
      ++p.errors;
      continue;
    }
    if (!res.has_header("X-SFCL-Status")) {
      throw cli::UsageError(o.url + " is not an sfcl server: no X-SFCL-Status header on /v1/messages");
    }
    p.last_status = res.get_header_value("X-SFCL-Status");
    ++p.statuses[p.last_status.substr(0, p.last_status.find(';'))];
    ++p.layer[res.has_header("x-anthropic-layer-status") ? res.get_header_value("x-anthropic-layer-status")
                                                         : "(absent)"];
    const auto pos = seen.rfind("\"status\":\"");
    if (pos != std::string::npos) p.last_status = seen.substr(pos + 10, seen.find('"', pos + 10) - pos - 10);
    p.ttft_ms.push_back(
        first >= 0 ? first : std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return p;
}

int push_to_gateway(const std::string& url, const ProbeResult& p, double p50, double p95, double p99) {
  const HostPort gw = parse_url(url);
  auto reg = std::make_shared<prometheus::Registry>();
  auto& g = prometheus::BuildGauge().Name("sfcl_probe_ttft_seconds").Help("Probe TTFT quantiles").Register(*reg);
  g.Add({{"quantile", "0.5"}}).Set(p50 / 1000);
  g.Add({{"quantile", "0.95"}}).Set(p95 / 1000);
  g.Add({{"quantile", "0.99"}}).Set(p99 / 1000);
  prometheus::BuildGauge().Name("sfcl_probe_errors").Help("Failed probe requests").Register(*reg).Add({}).Set(p.errors);
  prometheus::BuildGauge()
      .Name("sfcl_probe_layer_active")
      .Help("1 when the last X-SFCL-Status was active")
      .Register(*reg)
      .Add({})
      .Set(p.last_status.rfind("active", 0) == 0 ? 1 : 0);
  prometheus::Gateway gateway(gw.host, gw.port, "sfcl_probe");
  gateway.RegisterCollectable(reg);
  return gateway.Push();
}

void print_report(const ProbeOpts& o, const ProbeResult& p, double p50, double p95, double p99) {
  std::printf("probe %s: %zu/%d ok, %d errors\n", o.url.c_str(), p.ttft_ms.size(), o.n, p.errors);
  for (const auto& [k, v] : p.layer) std::printf("  x-anthropic-layer-status: %s (%d)\n", k.c_str(), v);
  std::printf("  X-SFCL-Status (final): %s\n", p.last_status.c_str());
  std::printf("  TTFT ms: p50 %.1f  p95 %.1f  p99 %.1f\n", p50, p95, p99);
  if (p.ttft_ms.empty()) return;
  const double lo = *std::min_element(p.ttft_ms.begin(), p.ttft_ms.end());
  const double hi = std::max(lo + 1e-6, *std::max_element(p.ttft_ms.begin(), p.ttft_ms.end()));
  std::vector<int> h(10, 0);
  for (double x : p.ttft_ms) h[static_cast<size_t>(std::min(9, static_cast<int>((x - lo) / (hi - lo) * 10)))]++;
  const int top = *std::max_element(h.begin(), h.end());
  for (int b = 0; b < 10; ++b) {
    std::printf("  %8.1f ms |%s %d\n", lo + (hi - lo) * b / 10,
                std::string(static_cast<size_t>(40 * h[static_cast<size_t>(b)] / std::max(1, top)), '#').c_str(),
                h[static_cast<size_t>(b)]);
  }
}

int run(const ProbeOpts& o) {
  const ProbeResult p = send_requests(o);
  const auto& ttft_ms = p.ttft_ms;
  const double p50 = percentile(ttft_ms, 0.50);
  const double p95 = percentile(ttft_ms, 0.95);
  const double p99 = percentile(ttft_ms, 0.99);
  const MinMedMax spread = min_med_max(ttft_ms);
  nlohmann::json j = {
      {"url", o.url},
      {"requests", o.n},
      {"ok", ttft_ms.size()},
      {"errors", p.errors},
      {"layer_status", p.layer},
      {"sfcl_status", p.statuses},
      {"last_sfcl_status", p.last_status},
      {"ttft_ms", {{"p50", p50}, {"p95", p95}, {"p99", p99}, {"min", spread.min}, {"max", spread.max}}}};
  if (!o.out.empty() && !ttft_ms.empty()) {
    const std::string title = "sfcl probe: time to first token (" + std::to_string(ttft_ms.size()) + " requests)";
    std::ofstream(o.out) << svg::document(
        640, 320,
        {svg::histogram({0, 0, 640, 320}, title, {"time to first token (ms)", "requests (count)"}, ttft_ms,
                        {{"p50", p50}, {"p95", p95}, {"p99", p99}})});
    j["svg"] = o.out;
  }
  if (!o.pushgateway.empty()) j["pushgateway_status"] = push_to_gateway(o.pushgateway, p, p50, p95, p99);
  if (o.json) {
    std::cout << j.dump() << "\n";
  } else {
    print_report(o, p, p50, p95, p99);
  }
  return p.errors == 0 ? 0 : 1;
}

}  // namespace

Runner register_probe(CLI::App& app) {
  return cli::add_command<ProbeOpts>(app, "probe",
                                     "Send N streaming requests to a server; check SFCL headers; TTFT percentiles");
}

}  // namespace sfcl::tools
