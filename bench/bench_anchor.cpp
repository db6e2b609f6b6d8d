// Anchor engine throughput and check latency (Google Benchmark). Results: docs/BENCHMARKS.md.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>

#include "bench_corpus.h"
#include "verify/verify.h"

namespace {
using namespace sfcl;

const std::string& doc_1mb() {
  static const std::string d = bench::mixed_document(1 << 20);
  return d;
}

void BM_Extract1MB(benchmark::State& state) {
  std::vector<anchor::Anchor> out;
  out.reserve(1 << 16);
  for (auto _ : state) {
    out.clear();
    anchor::extract_into(doc_1mb(), out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(doc_1mb().size()));
  state.counters["anchors"] = static_cast<double>(out.size());
}
BENCHMARK(BM_Extract1MB)->Unit(benchmark::kMillisecond);

void BM_CountDecisionPoints1MB(benchmark::State& state) {
  uint64_t n = 0;
  for (auto _ : state) {
    n = anchor::count_decision_points(doc_1mb()).total;
    benchmark::DoNotOptimize(n);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(doc_1mb().size()));
  state.counters["decision_points"] = static_cast<double>(n);
}
BENCHMARK(BM_CountDecisionPoints1MB)->Unit(benchmark::kMillisecond);

// Incremental lexing as the decode loop does it: a few bytes per token.
void BM_IncrementalPerToken(benchmark::State& state) {
  const std::string text = bench::mixed_document(16 << 10);
  std::vector<anchor::Anchor> out;
  out.reserve(4096);
  size_t tokens = 0;
  for (auto _ : state) {
    anchor::Incremental inc;
    inc.reserve(text.size());
    out.clear();
    for (size_t i = 0; i < text.size(); i += 3) {
      inc.feed(std::string_view(text).substr(i, std::min<size_t>(3, text.size() - i)), out);
      ++tokens;
    }
    inc.finish(out);
  }
  state.counters["ns_per_token"] =
      benchmark::Counter(static_cast<double>(tokens), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_IncrementalPerToken)->Unit(benchmark::kMillisecond);

// Check latency against a source index of about 1,000 anchors: p50/p99 over single checks.
void BM_CheckLatency(benchmark::State& state) {
  anchor::SourceIndex idx;
  std::string src;
  for (int i = 0; idx.size() < 1000; ++i) {
    src = "Invoice INV-" + std::to_string(1000 + i) + " of $" + std::to_string(100 + i * 7) + ".50 due June " +
          std::to_string(1 + i % 28) + ", 2024 to Vendor" + std::string(1, static_cast<char>('A' + i % 26)) +
          " Holdings Ltd. under Section " + std::to_string(i % 40) + "." + std::to_string(i % 9) + ".";
    idx.add_source(src);
  }
  verify::Checker checker(idx, {});
  const auto probes = anchor::extract(
      "Pay $12,600.00 by June 3, 2024 to VendorC Holdings Ltd. under Section 7.2 for INV-1042 and 1.5% and "
      "$107.50 by 2024-06-02 to Zenith Partners LLC.");
  std::vector<int64_t> ns;
  ns.reserve(1 << 20);
  for (auto _ : state) {
    for (const auto& a : probes) {
      const auto t0 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(checker.check(a));
      ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  std::sort(ns.begin(), ns.end());
  state.counters["index_anchors"] = static_cast<double>(idx.size());
  state.counters["p50_us"] = static_cast<double>(ns[ns.size() / 2]) / 1000.0;
  state.counters["p99_us"] = static_cast<double>(ns[ns.size() * 99 / 100]) / 1000.0;
  state.counters["max_us"] = static_cast<double>(ns.back()) / 1000.0;
}
BENCHMARK(BM_CheckLatency)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
