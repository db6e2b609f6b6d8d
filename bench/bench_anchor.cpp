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

// Indexing a 1 MB source for a request: extraction plus each anchor's field label and name trigrams.
void BM_IndexSource1MB(benchmark::State& state) {
  for (auto _ : state) {
    anchor::SourceIndex idx;
    idx.add_source(doc_1mb());
    benchmark::DoNotOptimize(idx.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(doc_1mb().size()));
}
BENCHMARK(BM_IndexSource1MB)->Unit(benchmark::kMillisecond);

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

// Times single checks of `probes` (each with its field label in `out`, when given): p50/p99/max.
void time_checks(benchmark::State& state, verify::Checker& checker, const std::vector<anchor::Anchor>& probes,
                 std::string_view out) {
  std::vector<int64_t> ns;
  ns.reserve(1 << 20);
  for (auto _ : state) {
    for (const auto& a : probes) {
      const auto t0 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(checker.check(a, out.empty() ? std::string_view{} : anchor::field_label(out, a.start)));
      ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  std::sort(ns.begin(), ns.end());
  state.counters["index_anchors"] = static_cast<double>(checker.index().size());
  state.counters["p50_us"] = static_cast<double>(ns[ns.size() / 2]) / 1000.0;
  state.counters["p99_us"] = static_cast<double>(ns[ns.size() * 99 / 100]) / 1000.0;
  state.counters["max_us"] = static_cast<double>(ns.back()) / 1000.0;
}

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
  time_checks(state, checker, probes, {});
}
BENCHMARK(BM_CheckLatency)->Unit(benchmark::kMicrosecond);

// The same with field binding: records of "Label: value" lines (about 1,000 anchors), probes
// written as field values (the label scan of the output is included), some under the wrong label.
void BM_CheckLatencyWithField(benchmark::State& state) {
  anchor::SourceIndex idx;
  for (int i = 0; idx.size() < 1000; ++i) {
    idx.add_source("Invoice number: INV-" + std::to_string(1000 + i) + "\nTotal due: $" + std::to_string(100 + i * 7) +
                   ".50\nDue date: June " + std::to_string(1 + i % 28) + ", 2024\nIssued by: Vendor" +
                   std::string(1, static_cast<char>('A' + i % 26)) +
                   " Holdings Ltd.\nLate fee: " + std::to_string(i % 9) + ".5% per month");
  }
  verify::Checker checker(idx, {});
  const std::string out =
      "Total due: $107.50; Due date: June 3, 2024; Issued by: VendorC Holdings Ltd.; Late fee: 1.5% per month; "
      "Total due: June 2, 2024; Invoice number: INV-1042; Issued by: Zenith Partners LLC.";
  const auto probes = anchor::extract(out);
  time_checks(state, checker, probes, out);
}
BENCHMARK(BM_CheckLatencyWithField)->Unit(benchmark::kMicrosecond);

// What a knowledge base costs each request: the request's index (prompt plus knowledge) and its
// checker. Second argument 0: the knowledge entries indexed per request (before 2026-11-30 13:30);
// 1: the request's index starts from a knowledge index built once (what the server does now).
// Entries: term, value, one alias.
void BM_RequestIndexWithKnowledge(benchmark::State& state) {
  std::vector<anchor::KnowledgeEntry> kb;
  for (int i = 0; i < static_cast<int>(state.range(0)); ++i) {
    kb.push_back({"term number " + std::to_string(i) + " of the glossary",
                  "Value " + std::to_string(i) + " Corp.",
                  "name",
                  {"alias " + std::to_string(i)}});
  }
  auto base = std::make_shared<anchor::SourceIndex>();
  base->add_knowledge(kb);
  const bool shared = state.range(1) == 1;
  const std::string prompt = "Invoice INV-2024-0042 from Acme Robotics Ltd.: $12,500.00 due June 15, 2024.";
  const auto probe = anchor::extract("Acme Robotics Ltd. owes $12,500.00.");
  for (auto _ : state) {
    anchor::SourceIndex idx =
        shared ? anchor::SourceIndex(std::shared_ptr<const anchor::SourceIndex>(base)) : anchor::SourceIndex();
    idx.add_source(prompt);
    if (!shared) idx.add_knowledge(kb);
    verify::Checker checker(idx, {});
    benchmark::DoNotOptimize(checker.check(probe[1]));
  }
  state.counters["entries"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_RequestIndexWithKnowledge)
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Args({10000, 0})
    ->Args({10000, 1})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
