#include "tools/bench_modes.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "decode/decode.h"
#include "eval.h"
#include "tools/progress.h"
#include "tools/stats.h"
#include "tools/svg.h"

namespace sfcl::tools {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::array<decode::Mode, 3> kModes = {decode::Mode::off, decode::Mode::anchor, decode::Mode::per_token};

double per_1k(int64_t n, int64_t tokens) {
  return tokens > 0 ? 1000.0 * static_cast<double>(n) / static_cast<double>(tokens) : 0.0;
}
double tps(const ModeSample& s) { return s.decode_s > 0 ? static_cast<double>(s.tokens) / s.decode_s : 0.0; }
// The whole cost of checking: finding anchors plus verifying them.
double check_ns_per_token(const ModeSample& s) {
  return s.tokens > 0 ? static_cast<double>(s.check_ns + s.scan_ns) / static_cast<double>(s.tokens) : 0.0;
}
double verify_ns_per_token(const ModeSample& s) {
  return s.tokens > 0 ? static_cast<double>(s.check_ns) / static_cast<double>(s.tokens) : 0.0;
}
double scan_ns_per_token(const ModeSample& s) {
  return s.tokens > 0 ? static_cast<double>(s.scan_ns) / static_cast<double>(s.tokens) : 0.0;
}

double prompt_tps(const ModeSample& s) {
  return s.prefill_s > 0 ? static_cast<double>(s.prompt_tokens) / s.prefill_s : 0.0;
}
double ttft_ms(const ModeSample& s) {
  return s.items > 0 ? 1000.0 * s.first_text_s / static_cast<double>(s.items) : 0.0;
}
double first_text_tokens(const ModeSample& s) {
  return s.items > 0 ? static_cast<double>(s.first_text_tokens) / static_cast<double>(s.items) : 0.0;
}

// STREAM's "copy" kernel over buffers far larger than the caches: `threads` threads each copy their
// share; the best of a few passes, in GB/s counting bytes read plus bytes written.
double copy_bandwidth_gbs(int threads) {
  constexpr size_t kBytes = size_t{256} << 20;
  std::vector<char> a(kBytes, 1);
  std::vector<char> b(kBytes, 0);
  double best = 0;
  for (int pass = 0; pass < 4; ++pass) {
    const auto t0 = Clock::now();
    std::vector<std::thread> pool;
    const size_t share = kBytes / static_cast<size_t>(threads);
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        const size_t off = share * static_cast<size_t>(t);
        std::memcpy(b.data() + off, a.data() + off, share);
      });
    }
    for (auto& th : pool) th.join();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (pass > 0) best = std::max(best, 2.0 * static_cast<double>(kBytes) / s / 1e9);  // pass 0 faults pages in
  }
  return best;
}

}  // namespace

ModesBenchReport run_modes_bench(const ModesBenchOptions& o) {
  auto items = demo::load_eval_set(o.set);
  if (o.items > 0 && items.size() > static_cast<size_t>(o.items)) items.resize(static_cast<size_t>(o.items));
  auto model = engine::Model::load({o.model});
  engine::ContextOptions co;
  co.n_ctx = 1024;
  co.n_batch = 512;
  co.n_threads = o.threads;
  engine::Context ctx(*model, co);
  struct Prepared {
    std::vector<engine::Token> prompt;
    anchor::SourceIndex sources;
  };
  std::vector<Prepared> prepared;
  for (const auto& it : items) {
    Prepared p;
    p.prompt =
        model->tokenize(model->apply_chat_template({{"system", it.document}, {"user", it.question}}, true), true, true);
    p.sources.add_source(it.document);
    p.sources.add_source(it.question);
    if (p.prompt.size() + static_cast<size_t>(o.max_tokens) * 4 < ctx.n_ctx()) prepared.push_back(std::move(p));
  }
  ModesBenchReport rep;
  rep.model = model->description() + " (" + o.model.filename().string() + ")";
  rep.items = static_cast<int>(prepared.size());
  rep.reps = o.reps;
  Progress progress("modes", static_cast<int64_t>(o.reps + 1) * static_cast<int64_t>(prepared.size() * kModes.size()),
                    "runs", o.progress);
  for (int r = 0; r <= o.reps; ++r) {  // round 0 warms caches and is dropped
    std::array<ModeSample, 3> round{};
    for (const auto& p : prepared) {
      for (size_t m = 0; m < kModes.size(); ++m) {
        decode::Options opt;
        opt.mode = kModes[m];
        opt.max_tokens = o.max_tokens;
        opt.sampling.temperature = 0.0F;
        Clock::time_point first_text{};
        int64_t decoded_at_first_text = 0;
        const decode::Sequence* running = nullptr;
        decode::Sequence seq(*model, opt, p.sources, [&](const decode::Event& e) {
          if (e.kind != decode::Event::Kind::token || first_text != Clock::time_point{}) return;
          first_text = Clock::now();
          decoded_at_first_text = running->result().stats.decoded_tokens;
        });
        running = &seq;
        ctx.clear(0);
        seq.start(p.prompt, 0, 0);
        const auto t0 = Clock::now();
        ctx.decode(seq.pending(), seq.pending_pos(), 0);
        seq.on_logits(ctx.logits_last(), ctx);
        const auto t1 = Clock::now();
        while (!seq.done()) {
          ctx.decode(seq.pending(), seq.pending_pos(), 0);
          seq.on_logits(ctx.logits_last(), ctx);
        }
        const auto t2 = Clock::now();
        const auto& st = seq.result().stats;
        ModeSample& s = round[m];
        s.prefill_s += std::chrono::duration<double>(t1 - t0).count();
        s.prompt_tokens += static_cast<int64_t>(p.prompt.size());
        ++s.items;
        // An answer with no text at all counts its whole time (and tokens) as the wait.
        const bool got_text = first_text != Clock::time_point{};
        s.first_text_s += std::chrono::duration<double>((got_text ? first_text : t2) - t0).count();
        s.first_text_tokens += got_text ? decoded_at_first_text : st.decoded_tokens;
        s.decode_s += std::chrono::duration<double>(t2 - t1).count();
        s.tokens += st.decoded_tokens;
        s.check_ns += st.check_ns_total;
        s.scan_ns += st.scan_ns_total;
        s.checks += st.checks;
        s.anchors += st.anchors_seen;
        s.backtracks += st.backtracks;
        s.regenerated += st.regenerated_tokens;
        progress.advance();
      }
    }
    if (r > 0) {
      for (size_t m = 0; m < kModes.size(); ++m) rep.samples[m].push_back(round[m]);
    }
  }
  rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) == 0) rep.peak_rss_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;
  std::error_code ec;
  rep.model_bytes = static_cast<int64_t>(std::filesystem::file_size(o.model, ec));
  rep.threads = o.threads;
  rep.copy_gbs_1 = copy_bandwidth_gbs(1);
  rep.copy_gbs_n = copy_bandwidth_gbs(std::max(1, static_cast<int>(std::thread::hardware_concurrency())));
  return rep;
}

nlohmann::json modes_json(const ModesBenchReport& r) {
  nlohmann::json per_mode = nlohmann::json::object();
  for (size_t m = 0; m < kModes.size(); ++m) {
    const auto& v = r.samples[m];
    per_mode[std::string(decode::mode_name(kModes[m]))] = {
        {"decode_tokens_per_s", to_json(over(v, tps))},
        {"check_ns_per_token", to_json(over(v, check_ns_per_token))},
        {"scan_ns_per_token", to_json(over(v, scan_ns_per_token))},
        {"verify_ns_per_token", to_json(over(v, verify_ns_per_token))},
        {"check_ms_total",
         to_json(over(v, [](const ModeSample& s) { return static_cast<double>(s.check_ns + s.scan_ns) / 1e6; }))},
        {"checks_per_1k_tokens", to_json(over(v, [](const ModeSample& s) { return per_1k(s.checks, s.tokens); }))},
        {"anchors_per_1k_tokens", to_json(over(v, [](const ModeSample& s) { return per_1k(s.anchors, s.tokens); }))},
        {"backtracks_per_1k_tokens",
         to_json(over(v, [](const ModeSample& s) { return per_1k(s.backtracks, s.tokens); }))},
        {"regenerated_per_1k_tokens",
         to_json(over(v, [](const ModeSample& s) { return per_1k(s.regenerated, s.tokens); }))},
        {"decoded_tokens", to_json(over(v, [](const ModeSample& s) { return static_cast<double>(s.tokens); }))},
        {"prompt_tokens_per_s", to_json(over(v, prompt_tps))},
        {"time_to_first_text_ms", to_json(over(v, ttft_ms))},
        {"tokens_to_first_text", to_json(over(v, first_text_tokens))}};
  }
  return {{"model", r.model},
          {"items", r.items},
          {"reps", r.reps},
          {"modes", per_mode},
          {"ratios",
           {{"anchor/off decode", to_json(paired_ratio(r.samples[1], r.samples[0], tps))},
            {"per-token/off decode", to_json(paired_ratio(r.samples[2], r.samples[0], tps))},
            {"per-token/anchor check cost per token",
             to_json(paired_ratio(r.samples[2], r.samples[1], check_ns_per_token))},
            {"anchor/off time to first text", to_json(paired_ratio(r.samples[1], r.samples[0], ttft_ms))}}},
          {"peak_rss_mib", r.peak_rss_mib},
          {"model_bytes", r.model_bytes},
          {"copy_bandwidth_gbs", {{"threads_1", r.copy_gbs_1}, {"threads_all", r.copy_gbs_n}}}};
}

void print_modes(const ModesBenchReport& r) {
  std::printf("modes: %s, %d items, %d repetitions (interleaved; min/median/max over repetitions)\n", r.model.c_str(),
              r.items, r.reps);
  std::printf("%-10s %22s %14s %10s %10s %10s %11s %10s %10s\n", "mode", "decode tok/s min/med/max", "check ns/tok",
              "(scan", "verify)", "checks/1k", "anchors/1k", "backtr/1k", "regen/1k");
  for (size_t m = 0; m < kModes.size(); ++m) {
    const auto& v = r.samples[m];
    const auto t = over(v, tps);
    std::printf("%-10s %6.0f /%6.0f /%6.0f %14.1f %10.1f %10.1f %10.1f %11.1f %10.1f %10.1f\n",
                std::string(decode::mode_name(kModes[m])).c_str(), t.min, t.median, t.max,
                over(v, check_ns_per_token).median, over(v, scan_ns_per_token).median,
                over(v, verify_ns_per_token).median,
                over(v, [](const ModeSample& s) { return per_1k(s.checks, s.tokens); }).median,
                over(v, [](const ModeSample& s) { return per_1k(s.anchors, s.tokens); }).median,
                over(v, [](const ModeSample& s) { return per_1k(s.backtracks, s.tokens); }).median,
                over(v, [](const ModeSample& s) { return per_1k(s.regenerated, s.tokens); }).median);
  }
  const auto a = paired_ratio(r.samples[1], r.samples[0], tps);
  const auto p = paired_ratio(r.samples[2], r.samples[0], tps);
  const auto c = paired_ratio(r.samples[2], r.samples[1], check_ns_per_token);
  std::printf("anchor/off decode rate     min %.3f  median %.3f  max %.3f   (target >= 0.98)\n", a.min, a.median,
              a.max);
  std::printf("per-token/off decode rate  min %.3f  median %.3f  max %.3f\n", p.min, p.median, p.max);
  std::printf(
      "per-token/anchor check (scan + verify) ns per token  min %.1fx  median %.1fx  max %.1fx   (target >= 10x)\n",
      c.min, c.median, c.max);
  std::printf("%-10s %24s %26s %22s\n", "mode", "prompt tok/s min/med/max", "first text ms min/med/max",
              "tokens to first text");
  for (size_t m = 0; m < kModes.size(); ++m) {
    const auto pp = over(r.samples[m], prompt_tps);
    const auto tt = over(r.samples[m], ttft_ms);
    std::printf("%-10s %7.1f /%7.1f /%7.1f %8.1f /%8.1f /%8.1f %22.2f\n",
                std::string(decode::mode_name(kModes[m])).c_str(), pp.min, pp.median, pp.max, tt.min, tt.median, tt.max,
                over(r.samples[m], first_text_tokens).median);
  }
  const auto f = paired_ratio(r.samples[1], r.samples[0], ttft_ms);
  std::printf("anchor/off time to first text  min %.2f  median %.2f  max %.2f   (target <= 1.2)\n", f.min, f.median,
              f.max);
  const double gb = static_cast<double>(r.model_bytes) / 1e9;
  const double off_tps = over(r.samples[0], tps).median;
  std::printf(
      "peak RSS %.0f MiB; copy bandwidth %.1f GB/s (1 thread), %.1f GB/s (all threads); model %.3f GB: "
      "memory-bound ceiling %.1f tok/s (1 thread); off decodes %.2f tok/s = %.2f GB/s of weights (%.0f%% of 1-thread "
      "copy)\n",
      r.peak_rss_mib, r.copy_gbs_1, r.copy_gbs_n, gb, gb > 0 ? r.copy_gbs_1 / gb : 0.0, off_tps, off_tps * gb,
      r.copy_gbs_1 > 0 ? 100.0 * off_tps * gb / r.copy_gbs_1 : 0.0);
}

std::vector<std::string> modes_svg(const ModesBenchReport& r, int y0, int& height) {
  std::vector<svg::Spread> rate;
  std::vector<svg::Spread> check;
  for (size_t m = 0; m < kModes.size(); ++m) {
    const std::string name(decode::mode_name(kModes[m]));
    const auto t = over(r.samples[m], tps);
    const auto c = over(r.samples[m], check_ns_per_token);
    rate.push_back({name, static_cast<int>(m), t.min, t.median, t.median, t.median, t.max});
    check.push_back({name, static_cast<int>(m), c.min, c.median, c.median, c.median, c.max});
  }
  height = 320;
  const std::string sub = " (" + std::to_string(r.reps) + " reps, min/median/max)";
  const std::vector<std::string> legend = {"off", "anchor", "per-token"};
  const std::string note = "whiskers: min..max";
  return {svg::spread_chart({0, y0, 480, 320}, "decode tokens/s by mode" + sub, {"SFCL mode", "decode rate (tokens/s)"},
                            rate, legend, note),
          svg::spread_chart({480, y0, 480, 320}, "check time per decoded token" + sub,
                            {"SFCL mode", "check time (ns/token)"}, check, legend, note)};
}

}  // namespace sfcl::tools
