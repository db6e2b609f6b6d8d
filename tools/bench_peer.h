// sfcl bench, peer part: sfcl serve (SFCL off and on) against another server (llama-server built
// from the same llama.cpp bundle, or any OpenAI-compatible URL) under the same streaming client
// load at several concurrencies, interleaved per repetition.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sfcl::tools {

struct PeerBenchOptions {
  std::filesystem::path model;
  std::filesystem::path set;
  std::string peer = "llama-server";  // name shown in reports
  std::filesystem::path peer_binary;  // llama-server executable (started here)
  std::string peer_url;               // or an already running server (not started here)
  std::string sfcl_url;               // or an already running sfcl server (not started here)
  std::vector<int> concurrency = {1, 4, 8};
  int reps = 5;
  int requests_per_stream = 16;
  int max_tokens = 64;
  // The configuration both servers started here run with, defined once so neither gets a
  // different KV layout, batch or host cache (each server's own defaults differ).
  int threads = 2;
  int parallel = 8;
  int ctx_per_slot = 1024;
  int batch = 512;           // sfcl serve's default -b (llama-server's is 2048)
  int ubatch = 512;          // -ub (both default to 512, given so it cannot drift)
  int cache_ram_mib = 2048;  // sfcl's default --cache-ram (llama-server's is 8192)
  bool kv_unified = true;    // sfcl's default; llama-server turns it on only with -np auto
  int items = 60;
  std::vector<std::string> sfcl_args;  // more flags for the sfcl servers started here (--kv-unified)
  bool progress = true;                // a progress line on stderr
};

// One load run: `concurrency` streams, each sending requests_per_stream requests back to back.
struct LoadRun {
  double wall_s = 0;
  int requests = 0;
  int errors = 0;
  int error_events = 0;       // streams that ended in an `error` event (counted in errors too)
  int no_usage = 0;           // streams without a usage object (counted in errors too)
  int short_completions = 0;  // usage.completion_tokens < max_tokens despite ignore_eos
  int64_t completion_tokens = 0;
  std::vector<double> ttft_ms;  // per request
  std::vector<double> itl_ms;   // per request: (last content - first content) / (tokens - 1)
};

struct PeerBenchReport {  // NOLINT(bugprone-exception-escape): json members, built once per run
  std::string peer;
  nlohmann::json setup;
  std::vector<std::string> targets;  // peer, "sfcl (SFCL off)", "sfcl (SFCL on)"
  std::vector<int> concurrency;
  // runs[target][concurrency index][rep]
  std::vector<std::vector<std::vector<LoadRun>>> runs;
  std::vector<double> peak_rss_mib;  // per target, servers started here (0 otherwise)
};

PeerBenchReport run_peer_bench(const PeerBenchOptions& options);
nlohmann::json peer_json(const PeerBenchReport& report);
void print_peer(const PeerBenchReport& report);
std::vector<std::string> peer_svg(const PeerBenchReport& report, int y0, int& height);

}  // namespace sfcl::tools
