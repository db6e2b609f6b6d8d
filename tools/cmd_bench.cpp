// sfcl bench: what SFCL costs (modes off / anchor / per-token on the same prompts) and how sfcl
// serve compares with llama-server on the same model and load. Human table, --json, --out SVG.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "tools/bench_modes.h"
#include "tools/bench_peer.h"
#include "tools/commands.h"
#include "tools/svg.h"

namespace sfcl::tools {
namespace {

const char* const kDefaultPeerBin = ".deps/llama-server-build/llama-server";

nlohmann::json machine_json() {
  std::string cpu = "unknown";
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  }
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return {{"nproc", std::thread::hardware_concurrency()}, {"cpu", cpu}, {"date", date}};
}

std::vector<int> parse_list(const std::string& s) {
  std::vector<int> out;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');) {
    try {
      const int v = std::stoi(x);
      if (v < 1 || v > 256) throw std::out_of_range("range");
      out.push_back(v);
    } catch (const std::exception&) {
      throw cli::UsageError("--concurrency takes numbers 1..256 separated by commas (got " + s + ")");
    }
  }
  if (out.empty()) throw cli::UsageError("--concurrency is empty");
  return out;
}

struct BenchOpts {
  BenchOpts() {
    modes.model = "demo/sfcl-demo.gguf";
    modes.set = "demo/eval.jsonl";
    peer.peer_binary = kDefaultPeerBin;
    peer.threads = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  }
  ModesBenchOptions modes;
  PeerBenchOptions peer;
  std::string peer_name;
  std::string concurrency = "1,4,8";
  bool no_modes = false;
  bool quick = false;
  bool json = false;
  std::string out;
};

void add_flags(CLI::App& cmd, BenchOpts& o) {
  cmd.add_option("-m,--model", o.modes.model, "GGUF model (both parts)")->capture_default_str();
  cmd.add_option("--set", o.modes.set, "Prompt set: eval-set JSONL (document + question per line)")
      ->capture_default_str();
  cmd.add_option("--items", o.modes.items, "Prompts used from the set (modes and peer)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd.add_option("--reps", o.modes.reps, "Modes: interleaved repetitions")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  cmd.add_option("-n,--max-tokens", o.modes.max_tokens, "Max tokens per answer")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  cmd.add_option("-t,--threads", o.modes.threads, "Modes: CPU threads of the llama context")->capture_default_str();
  cmd.add_flag("--no-modes", o.no_modes, "Skip the modes benchmark");
  cmd.add_option("--peer", o.peer_name, "Also compare with this server: llama-server")
      ->check(CLI::IsMember({"llama-server"}));
  cmd.add_option("--peer-bin", o.peer.peer_binary, "llama-server executable (scripts/build-llama-server)")
      ->capture_default_str();
  cmd.add_option("--peer-url", o.peer.peer_url, "Use an already running OpenAI-compatible server as the peer");
  cmd.add_option("--sfcl-url", o.peer.sfcl_url,
                 "Use an already running sfcl server for both modes instead of starting one per mode (they then share "
                 "its prefix cache)");
  cmd.add_option_function<std::string>(
      "--sfcl-args",
      [&o](const std::string& v) {
        std::stringstream ss(v);
        for (std::string a; ss >> a;) o.peer.sfcl_args.push_back(a);
      },
      "Peer: more flags for the sfcl servers started here, in one string (\"--kv-unified --cache-ram 0\")");
  cmd.add_option("--concurrency", o.concurrency, "Peer: concurrent streams, comma-separated")->capture_default_str();
  cmd.add_option("--peer-reps", o.peer.reps, "Peer: interleaved repetitions")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  cmd.add_option("--requests-per-stream", o.peer.requests_per_stream, "Peer: requests each stream sends per run")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  cmd.add_option("--parallel", o.peer.parallel, "Peer: slots of both servers")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd.add_option("--ctx", o.peer.ctx_per_slot, "Peer: context tokens per slot (both servers)")->capture_default_str();
  cmd.add_option("--server-threads", o.peer.threads, "Peer: CPU threads of both servers")->capture_default_str();
  cmd.add_flag("--quick", o.quick, "A few prompts and short runs (checks the pipeline, numbers are not meaningful)");
  cmd.add_flag("--json", o.json, "One JSON object instead of the tables");
  cmd.add_option("--out", o.out, "Write the plots as one SVG file");
}

// The options as run: --quick shortens everything, the peer part shares the modes part's inputs.
BenchOpts resolve(const BenchOpts& given) {
  BenchOpts o = given;
  if (!std::filesystem::exists(o.modes.model)) throw cli::UsageError("model not found: " + o.modes.model.string());
  if (!std::filesystem::exists(o.modes.set)) throw cli::UsageError("prompt set not found: " + o.modes.set.string());
  if (o.no_modes && o.peer_name.empty() && o.peer.peer_url.empty()) {
    throw cli::UsageError("--no-modes without --peer or --peer-url leaves nothing to run");
  }
  o.peer.concurrency = parse_list(o.concurrency);
  o.peer.items = o.modes.items;
  if (o.quick) {
    o.modes.items = std::min(o.modes.items, 3);
    o.modes.max_tokens = std::min(o.modes.max_tokens, 24);
    o.peer.reps = 1;
    o.peer.requests_per_stream = 1;
    o.peer.items = 8;
    o.peer.parallel = std::min(o.peer.parallel, 2);
    o.peer.concurrency = {1, 2};
  }
  o.modes.progress = !o.json;
  o.peer.progress = !o.json;
  o.peer.model = o.modes.model;
  o.peer.set = o.modes.set;
  o.peer.max_tokens = o.modes.max_tokens;
  if (!o.peer_name.empty()) o.peer.peer = o.peer_name;
  if (!o.peer.peer_url.empty() && o.peer_name.empty()) o.peer.peer = "peer";
  return o;
}

void build_peer_if_missing(const PeerBenchOptions& peer) {
  if (peer.peer_url.empty() && peer.peer_binary == kDefaultPeerBin && !std::filesystem::exists(peer.peer_binary) &&
      std::filesystem::exists("scripts/build-llama-server")) {
    std::fprintf(stderr, "building llama-server once from .deps/llama.cpp (scripts/build-llama-server)...\n");
    if (std::system("scripts/build-llama-server >&2") != 0) throw cli::UsageError("scripts/build-llama-server failed");
  }
}

int run(const BenchOpts& given) {
  const BenchOpts o = resolve(given);
  nlohmann::json j = {{"machine", machine_json()}};
  std::vector<std::string> panels;
  int y = 0;
  if (!o.no_modes) {
    if (!o.json) std::fprintf(stderr, "running modes benchmark (%d reps)...\n", o.modes.reps);
    const auto r = run_modes_bench(o.modes);
    j["modes"] = modes_json(r);
    if (!o.json) print_modes(r);
    int h = 0;
    for (auto& p : modes_svg(r, y, h)) panels.push_back(std::move(p));
    y += h;
  }
  if (!o.peer_name.empty() || !o.peer.peer_url.empty()) {
    build_peer_if_missing(o.peer);
    if (!o.json) std::fprintf(stderr, "running peer benchmark...\n");
    const auto r = run_peer_bench(o.peer);
    j["peer"] = peer_json(r);
    if (!o.json) print_peer(r);
    int h = 0;
    for (auto& p : peer_svg(r, y, h)) panels.push_back(std::move(p));
    y += h;
  }
  if (!o.out.empty()) {
    std::ofstream f(o.out);
    if (!f) throw cli::UsageError("cannot write " + o.out);
    f << svg::document(960, y, panels);
    j["svg"] = o.out;
    if (!o.json) std::printf("plots: %s\n", o.out.c_str());
  }
  if (o.json) std::cout << j.dump() << "\n";
  return 0;
}

}  // namespace

Runner register_bench(CLI::App& app) {
  return cli::add_command<BenchOpts>(app, "bench",
                                     "Measure SFCL's cost (modes off/anchor/per-token) and sfcl vs llama-server");
}

}  // namespace sfcl::tools
