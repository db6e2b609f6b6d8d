#include "tools/bench_peer.h"

#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>

#include "cli/commands.h"
#include "eval.h"
#include "tools/child_process.h"
#include "tools/net.h"
#include "tools/progress.h"
#include "tools/stats.h"
#include "tools/svg.h"

namespace sfcl::tools {
namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct Target {
  std::string name;
  std::string url;
  json extra;  // merged into every request body
};

// One streaming OpenAI chat request; appends its TTFT / inter-token latency to `run`.
void one_request(httplib::Client& cli, const json& body, LoadRun& run, std::mutex& mu) {
  const auto t0 = Clock::now();
  double first = -1;
  double last = -1;
  int64_t usage_tokens = -1;
  bool error_event = false;
  std::string buf;
  auto on_line = [&](const std::string& line) {
    if (line.rfind("data: ", 0) != 0 || line == "data: [DONE]") return;
    const json j = json::parse(line.substr(6), nullptr, false);
    if (j.is_discarded()) return;
    // Both servers report a failure mid-stream as an event with an `error` member, after a 200.
    if (j.contains("error")) error_event = true;
    if (j.contains("usage") && j["usage"].is_object() && j["usage"].contains("completion_tokens")) {
      usage_tokens = j["usage"]["completion_tokens"].get<int64_t>();
    }
    if (j.contains("choices") && !j["choices"].empty()) {
      const auto& d = j["choices"][0].value("delta", json::object());
      if (d.contains("content") && d["content"].is_string() && !d["content"].get<std::string>().empty()) {
        const double t = ms_since(t0);
        if (first < 0) first = t;
        last = t;
      }
    }
  };
  httplib::Request req;
  req.method = "POST";
  req.path = "/v1/chat/completions";
  req.body = body.dump();
  req.set_header("Content-Type", "application/json");
  req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
    buf.append(data, n);
    for (size_t p = buf.find('\n'); p != std::string::npos; p = buf.find('\n')) {
      std::string line = buf.substr(0, p);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      on_line(line);
      buf.erase(0, p + 1);
    }
    return true;
  };
  httplib::Response res;
  httplib::Error err = httplib::Error::Success;
  const bool sent = cli.send(req, res, err) && res.status == 200 && first >= 0;
  const std::lock_guard<std::mutex> lock(mu);
  ++run.requests;
  if (error_event) ++run.error_events;
  // Tokens are counted from usage only: content chunks need not be one token each.
  if (sent && !error_event && usage_tokens < 0) ++run.no_usage;
  if (!sent || error_event || usage_tokens < 0) {
    ++run.errors;
    return;
  }
  const int64_t tokens = usage_tokens;
  if (tokens < body.value("max_tokens", int64_t{0})) ++run.short_completions;
  run.completion_tokens += tokens;
  run.ttft_ms.push_back(first);
  if (tokens > 1) run.itl_ms.push_back((last - first) / static_cast<double>(tokens - 1));
}

// Every request's system message starts with a line of its own (`tag`, stream, request), so when
// the set's prompts repeat, no server is timed on a prefix it cached from an earlier request; the
// targets still get the same texts (same tag) in the same slot.
LoadRun run_load(const Target& t, const std::vector<json>& prompts, int concurrency, int per_stream, size_t offset,
                 const std::string& tag) {
  LoadRun run;
  std::mutex mu;
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(concurrency));
  const auto t0 = Clock::now();
  for (int s = 0; s < concurrency; ++s) {
    threads.emplace_back([&, s] {
      httplib::Client cli(t.url);
      cli.set_connection_timeout(5, 0);
      cli.set_read_timeout(300, 0);
      for (int k = 0; k < per_stream; ++k) {
        json body =
            prompts[(offset + static_cast<size_t>(s) * static_cast<size_t>(per_stream) + static_cast<size_t>(k)) %
                    prompts.size()];
        auto& system = body["messages"][0]["content"];
        system =
            "Request " + tag + "-" + std::to_string(s) + "-" + std::to_string(k) + ".\n" + system.get<std::string>();
        body.update(t.extra);
        one_request(cli, body, run, mu);
      }
    });
  }
  for (auto& th : threads) th.join();
  run.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  return run;
}

double gen_tps(const LoadRun& r) { return r.wall_s > 0 ? static_cast<double>(r.completion_tokens) / r.wall_s : 0.0; }
double req_ps(const LoadRun& r) { return r.wall_s > 0 ? static_cast<double>(r.requests - r.errors) / r.wall_s : 0.0; }

std::vector<double> pooled(const std::vector<LoadRun>& runs, bool ttft) {
  std::vector<double> v;
  for (const auto& r : runs)
    v.insert(v.end(), (ttft ? r.ttft_ms : r.itl_ms).begin(), (ttft ? r.ttft_ms : r.itl_ms).end());
  return v;
}

MinMedMax throughput_ratio(const std::vector<LoadRun>& a, const std::vector<LoadRun>& b) {
  return paired_ratio(a, b, gen_tps);
}

// One (target, concurrency) cell over all repetitions.
struct CellSummary {
  MinMedMax requests_per_s;
  MinMedMax generated_tokens_per_s;
  double ttft_p50, ttft_p95, ttft_p99, itl_p50, itl_p95;
  int errors = 0;
  int error_events = 0;
  int short_completions = 0;
};

CellSummary summarize(const std::vector<LoadRun>& runs) {
  CellSummary c{over(runs, req_ps), over(runs, gen_tps), 0, 0, 0, 0, 0, 0, 0, 0};
  for (const auto& x : runs) {
    c.errors += x.errors;
    c.error_events += x.error_events;
    c.short_completions += x.short_completions;
  }
  const auto ttft = pooled(runs, true);
  const auto itl = pooled(runs, false);
  c.ttft_p50 = percentile(ttft, 0.5);
  c.ttft_p95 = percentile(ttft, 0.95);
  c.ttft_p99 = percentile(ttft, 0.99);
  c.itl_p50 = percentile(itl, 0.5);
  c.itl_p95 = percentile(itl, 0.95);
  return c;
}

// Where started servers log (created only when one is started).
std::filesystem::path log_dir() {
  return std::filesystem::temp_directory_path() / ("sfcl-bench-" + std::to_string(::getpid()));
}

}  // namespace

PeerBenchReport run_peer_bench(const PeerBenchOptions& o) {
  auto items = demo::load_eval_set(o.set);
  if (o.items > 0 && items.size() > static_cast<size_t>(o.items)) items.resize(static_cast<size_t>(o.items));
  const std::string model_id = o.model.stem().string();
  std::vector<json> prompts;
  prompts.reserve(items.size());
  for (const auto& it : items) {
    prompts.push_back({{"model", model_id},
                       {"messages", json::array({{{"role", "system"}, {"content", it.document}},
                                                 {{"role", "user"}, {"content", it.question}}})},
                       {"max_tokens", o.max_tokens},
                       {"temperature", 0},
                       // Both servers honour it: every request generates max_tokens tokens, so
                       // neither wins by stopping early.
                       {"ignore_eos", true},
                       {"stream", true},
                       {"stream_options", {{"include_usage", true}}}});
  }
  if (prompts.empty()) throw cli::UsageError("no prompts in " + o.set.string());
  const auto logs = log_dir();
  std::unique_ptr<ChildProcess> peer;
  std::unique_ptr<ChildProcess> sfcl;
  std::string peer_url = o.peer_url;
  std::string sfcl_url = o.sfcl_url;
  const std::string threads = std::to_string(o.threads);
  std::vector<std::string> peer_argv;  // empty when the peer runs elsewhere
  std::vector<std::string> sfcl_off_argv;
  std::vector<std::string> sfcl_on_argv;
  if (peer_url.empty()) {
    if (!std::filesystem::exists(o.peer_binary)) {
      throw cli::UsageError("no " + o.peer + " binary at " + o.peer_binary.string() +
                            " (build it once with scripts/build-llama-server, or pass --peer-url)");
    }
    const int port = free_port();
    std::filesystem::create_directories(logs);
    peer_argv = {o.peer_binary.string(), "-m", o.model.string(), "--host", "127.0.0.1", "--port", std::to_string(port),
                 "-np", std::to_string(o.parallel),
                 // llama-server splits -c over the slots, or with -kvu lets one slot take all of
                 // it unless --kv-unified-per-slot caps it, as sfcl's --ctx does.
                 "-c", std::to_string(o.ctx_per_slot * o.parallel), "--kv-unified-per-slot",
                 std::to_string(o.ctx_per_slot), o.kv_unified ? "--kv-unified" : "--no-kv-unified", "-b",
                 std::to_string(o.batch), "-ub", std::to_string(o.ubatch), "--cache-ram",
                 std::to_string(o.cache_ram_mib), "-t", threads, "-tb", threads, "--no-webui", "--fit", "off",
                 "--alias", model_id};
    peer = std::make_unique<ChildProcess>(peer_argv, logs / "peer.log");
    peer_url = "http://127.0.0.1:" + std::to_string(port);
  }
  // SFCL off and on each get a server of their own: on one server the mode timed second would find
  // the prompts the first had just cached (the prefix cache), and run ~2x faster for that alone.
  std::unique_ptr<ChildProcess> sfcl_on;
  std::string sfcl_on_url = o.sfcl_url;
  const auto start_sfcl = [&](const std::string& log, std::unique_ptr<ChildProcess>& child, std::string& url,
                              std::vector<std::string>& argv) {
    const int port = free_port();
    std::filesystem::create_directories(logs);
    argv = {self_executable().string(),
            "serve",
            "-m",
            o.model.string(),
            "--host",
            "127.0.0.1",
            "--port",
            std::to_string(port),
            "--parallel",
            std::to_string(o.parallel),
            "--ctx",
            std::to_string(o.ctx_per_slot),
            o.kv_unified ? "--kv-unified" : "--no-kv-unified",
            "-b",
            std::to_string(o.batch),
            "--ubatch-size",
            std::to_string(o.ubatch),
            "--cache-ram",
            std::to_string(o.cache_ram_mib),
            "-t",
            threads,
            "--threads-batch",
            threads,
            "--queue",
            "1024"};
    argv.insert(argv.end(), o.sfcl_args.begin(), o.sfcl_args.end());
    child = std::make_unique<ChildProcess>(argv, logs / log);
    url = "http://127.0.0.1:" + std::to_string(port);
  };
  if (sfcl_url.empty()) {
    start_sfcl("sfcl-off.log", sfcl, sfcl_url, sfcl_off_argv);
    start_sfcl("sfcl-on.log", sfcl_on, sfcl_on_url, sfcl_on_argv);
  }
  const auto ready = [](const std::string& name, const std::string& url, ChildProcess* child) {
    const auto end = Clock::now() + std::chrono::seconds(180);
    while (Clock::now() < end) {
      if (wait_healthy(url, 1.0)) return;
      if (child != nullptr && !child->running()) {
        throw cli::UsageError(name + " exited before it was ready (log: " + child->log().string() + ")");
      }
    }
    throw cli::UsageError(name + " at " + url + " did not become healthy in 180 s" +
                          (child ? " (log: " + child->log().string() + ")" : ""));
  };
  ready(o.peer, peer_url, peer.get());
  ready("sfcl serve", sfcl_url, sfcl.get());
  ready("sfcl serve", sfcl_on_url, sfcl_on.get());
  const std::vector<Target> targets = {{o.peer, peer_url, json::object()},
                                       {"sfcl (SFCL off)", sfcl_url, {{"sfcl", {{"mode", "off"}}}}},
                                       {"sfcl (SFCL on)", sfcl_on_url, {{"sfcl", {{"mode", "anchor"}}}}}};
  PeerBenchReport rep;
  rep.peer = o.peer;
  rep.concurrency = o.concurrency;
  rep.setup = {{"model", o.model.string()},
               {"threads", o.threads},
               {"parallel_slots", o.parallel},
               {"ctx_per_slot", o.ctx_per_slot},
               {"batch", o.batch},
               {"ubatch", o.ubatch},
               {"cache_ram_mib", o.cache_ram_mib},
               {"kv_unified", o.kv_unified},
               {"ignore_eos", true},
               {"prompt_first_line", "unique per request (same across targets)"},
               {"peer_command", peer_argv},
               {"sfcl_off_command", sfcl_off_argv},
               {"sfcl_on_command", sfcl_on_argv},
               {"max_tokens", o.max_tokens},
               {"requests_per_stream", o.requests_per_stream},
               {"reps", o.reps},
               {"prompts", prompts.size()},
               {"peer_url", peer_url},
               {"sfcl_url", sfcl_url},
               {"sfcl_on_url", sfcl_on_url},
               {"peer_started_here", peer != nullptr},
               {"sfcl_args", o.sfcl_args},
               {"client",
                "sfcl bench: cpp-httplib, one thread and one keep-alive connection per stream, "
                "streaming /v1/chat/completions at temperature 0"}};
  for (const auto& t : targets) rep.targets.push_back(t.name);
  // Same warm-up for every target: one request per slot, all at once.
  for (const auto& t : targets) {
    const LoadRun w = run_load(t, prompts, o.parallel, 1, 0, "warm-up");
    if (w.errors == w.requests) throw cli::UsageError(t.name + " at " + t.url + " failed every warm-up request");
  }
  rep.runs.assign(targets.size(), std::vector<std::vector<LoadRun>>(o.concurrency.size()));
  size_t offset = 0;
  Progress progress("peer", static_cast<int64_t>(o.reps) * static_cast<int64_t>(o.concurrency.size() * targets.size()),
                    "load runs", o.progress);
  for (int r = 0; r < o.reps; ++r) {
    for (size_t c = 0; c < o.concurrency.size(); ++c) {
      for (size_t t = 0; t < targets.size(); ++t) {  // same prompts for every target in this slot
        const std::string tag = std::to_string(r) + "-" + std::to_string(o.concurrency[c]);
        rep.runs[t][c].push_back(run_load(targets[t], prompts, o.concurrency[c], o.requests_per_stream, offset, tag));
        progress.advance();
      }
      offset += static_cast<size_t>(o.concurrency[c] * o.requests_per_stream);
    }
  }
  progress.finish();
  // The servers' logs are kept only when some request failed (they explain why).
  int errors = 0;
  for (const auto& per_target : rep.runs) {
    for (const auto& per_conc : per_target) {
      for (const auto& run : per_conc) errors += run.errors;
    }
  }
  for (ChildProcess* child : {peer.get(), sfcl.get(), sfcl_on.get()})
    rep.peak_rss_mib.push_back(child != nullptr ? child->peak_rss_mib() : 0.0);
  peer.reset();
  sfcl.reset();
  sfcl_on.reset();
  if (errors == 0) {
    std::error_code ec;
    std::filesystem::remove_all(logs, ec);
  } else {
    std::fprintf(stderr, "%d requests failed; server logs kept in %s\n", errors, logs.c_str());
  }
  return rep;
}

json peer_json(const PeerBenchReport& r) {
  json results = json::array();
  json ratios = json::array();
  for (size_t c = 0; c < r.concurrency.size(); ++c) {
    for (size_t t = 0; t < r.targets.size(); ++t) {
      const CellSummary x = summarize(r.runs[t][c]);
      results.push_back({{"concurrency", r.concurrency[c]},
                         {"target", r.targets[t]},
                         {"requests_per_s", to_json(x.requests_per_s)},
                         {"generated_tokens_per_s", to_json(x.generated_tokens_per_s)},
                         {"ttft_ms", {{"p50", x.ttft_p50}, {"p95", x.ttft_p95}, {"p99", x.ttft_p99}}},
                         {"inter_token_ms", {{"p50", x.itl_p50}, {"p95", x.itl_p95}}},
                         {"errors", x.errors},
                         {"error_events", x.error_events},
                         {"short_completions", x.short_completions},
                         {"peak_rss_mib", t < r.peak_rss_mib.size() ? r.peak_rss_mib[t] : 0.0}});
    }
    ratios.push_back({{"concurrency", r.concurrency[c]},
                      {"sfcl_off/" + r.peer, to_json(throughput_ratio(r.runs[1][c], r.runs[0][c]))},
                      {"sfcl_on/" + r.peer, to_json(throughput_ratio(r.runs[2][c], r.runs[0][c]))}});
  }
  return {{"peer", r.peer}, {"setup", r.setup}, {"results", results}, {"throughput_ratios", ratios}};
}

void print_peer(const PeerBenchReport& r) {
  std::printf("peer: %s vs sfcl serve; %s\n", r.peer.c_str(), r.setup.dump().c_str());
  // The exact command lines, so a reader can check both servers ran the same configuration.
  for (const char* key : {"peer_command", "sfcl_off_command", "sfcl_on_command"}) {
    if (!r.setup.contains(key) || r.setup[key].empty()) continue;
    std::string line;
    for (const auto& a : r.setup[key]) line += (line.empty() ? "" : " ") + a.get<std::string>();
    std::printf("%-16s %s\n", key, line.c_str());
  }
  std::printf("%-5s %-18s %18s %24s %26s %17s %6s\n", "conc", "server", "requests/s", "generated tok/s (med)",
              "TTFT p50/p95/p99 ms", "ITL p50/p95 ms", "errors");
  for (size_t c = 0; c < r.concurrency.size(); ++c) {
    for (size_t t = 0; t < r.targets.size(); ++t) {
      const CellSummary x = summarize(r.runs[t][c]);
      const auto& g = x.generated_tokens_per_s;
      std::printf("%-5d %-18s %18.2f %10.0f (%5.0f-%5.0f) %8.1f/%8.1f/%8.1f %8.2f/%8.2f %6d\n", r.concurrency[c],
                  r.targets[t].c_str(), x.requests_per_s.median, g.median, g.min, g.max, x.ttft_p50, x.ttft_p95,
                  x.ttft_p99, x.itl_p50, x.itl_p95, x.errors);
      if (x.error_events > 0 || x.short_completions > 0) {
        std::printf("      %s: %d streams ended in an error event, %d completions shorter than max_tokens\n",
                    r.targets[t].c_str(), x.error_events, x.short_completions);
      }
    }
    const auto off = throughput_ratio(r.runs[1][c], r.runs[0][c]);
    const auto on = throughput_ratio(r.runs[2][c], r.runs[0][c]);
    std::printf("      throughput ratio sfcl/%s: SFCL off %.3f (%.3f-%.3f), SFCL on %.3f (%.3f-%.3f)\n", r.peer.c_str(),
                off.median, off.min, off.max, on.median, on.min, on.max);
    // TTFT over every request of the cell (all repetitions pooled), so one slow repetition shows.
    const double peer_p50 = summarize(r.runs[0][c]).ttft_p50;
    if (peer_p50 > 0) {
      std::printf("      TTFT p50 ratio sfcl/%s: SFCL off %.3f, SFCL on %.3f\n", r.peer.c_str(),
                  summarize(r.runs[1][c]).ttft_p50 / peer_p50, summarize(r.runs[2][c]).ttft_p50 / peer_p50);
    }
  }
  for (size_t t = 0; t < r.targets.size() && t < r.peak_rss_mib.size(); ++t) {
    if (r.peak_rss_mib[t] > 0) std::printf("peak RSS %-18s %8.0f MiB\n", r.targets[t].c_str(), r.peak_rss_mib[t]);
  }
}

std::vector<std::string> peer_svg(const PeerBenchReport& r, int y0, int& height) {
  std::vector<svg::Series> tput;
  for (size_t t = 0; t < r.targets.size(); ++t) {
    svg::Series s{r.targets[t], {}};
    for (size_t c = 0; c < r.concurrency.size(); ++c)
      s.points.emplace_back(r.concurrency[c], over(r.runs[t][c], gen_tps).median);
    tput.push_back(s);
  }
  std::vector<svg::Spread> ttft;
  std::vector<svg::Spread> itl;
  for (size_t c = 0; c < r.concurrency.size(); ++c) {
    for (size_t t = 0; t < r.targets.size(); ++t) {
      const auto a = pooled(r.runs[t][c], true);
      const auto b = pooled(r.runs[t][c], false);
      const std::string label = "c=" + std::to_string(r.concurrency[c]);
      ttft.push_back({label, static_cast<int>(t), percentile(a, 0.05), percentile(a, 0.25), percentile(a, 0.5),
                      percentile(a, 0.75), percentile(a, 0.95)});
      itl.push_back({label, static_cast<int>(t), percentile(b, 0.05), percentile(b, 0.25), percentile(b, 0.5),
                     percentile(b, 0.75), percentile(b, 0.95)});
    }
  }
  height = 640;
  return {svg::line_chart({0, y0, 960, 320}, "generated tokens/s vs concurrent streams (median of reps)",
                          "concurrent streams (c)", "generated (tokens/s)", tput),
          svg::spread_chart({0, y0 + 320, 480, 320}, "time to first token (p5/p25/p50/p75/p95)",
                            {"concurrent streams (c)", "time to first token (ms)"}, ttft, r.targets, ""),
          svg::spread_chart({480, y0 + 320, 480, 320}, "inter-token latency per request (p5..p95)",
                            {"concurrent streams (c)", "inter-token latency (ms)"}, itl, r.targets, "")};
}

}  // namespace sfcl::tools
