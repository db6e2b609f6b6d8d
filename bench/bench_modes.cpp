// off vs anchor vs per-token on the same prompts, interleaved, >= 5 repetitions: decode rate and
// check cost per token. The model writes a scripted grounded answer (a logit hook) so every mode
// decodes the same tokens and sees the same anchors; all else is the production loop.
// Usage: sfcl_bench_modes [model.gguf] [reps]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "decode/decode.h"

using namespace sfcl;

int main(int argc, char** argv) {
  std::filesystem::path model_path = argc > 1 ? argv[1] : "";
  const int reps = argc > 2 ? std::max(5, std::atoi(argv[2])) : 7;
  if (model_path.empty()) {
    model_path = std::filesystem::temp_directory_path() / "sfcl-bench-tiny.gguf";
    engine::LlamaHParams hp;
    hp.n_embd = 128;
    hp.n_layer = 2;
    hp.n_head = 4;
    hp.n_head_kv = 4;
    hp.n_ff = 512;
    hp.n_ctx = 2048;
    engine::write_tiny_test_model(model_path, 3, hp);
  }
  auto model = engine::Model::load({model_path});
  const std::string source =
      "SERVICE AGREEMENT between Acme Robotics Ltd. and Harbor Logistics LLC, signed June 15, 2024. Section 7.2: "
      "the Client shall pay $12,500.00 within 30 days of invoice INV-2024-0042; late interest 1.5% per month.";
  std::string answer;
  for (int i = 0; i < 6; ++i) {
    answer += " Under Section 7.2 the Client shall pay $12,500.00 within 30 days of invoice INV-2024-0042, and the "
              "agreement was signed on June 15, 2024 by Acme Robotics Ltd. with late interest of 1.5% per month.";
  }
  const auto script = std::make_shared<std::vector<engine::Token>>(model->tokenize(answer, false, false));
  anchor::SourceIndex index;
  index.add_source(source);
  const auto prompt = model->tokenize(source + "\nQ: What are the payment terms?\nA:", true, false);
  engine::Context ctx(*model, {2048, 256, 1, 1});  // 1 thread: a 2x128 model is faster unthreaded

  struct Sample {
    double tps;
    double check_ns_per_token;
    double anchors_per_1k;
    int64_t tokens;
  };
  const decode::Mode modes[] = {decode::Mode::off, decode::Mode::anchor, decode::Mode::per_token};
  std::vector<Sample> samples[3];
  for (int r = 0; r < reps + 1; ++r) {  // first round is warm-up
    for (int m = 0; m < 3; ++m) {
      decode::Options o;
      o.mode = modes[m];
      o.max_tokens = static_cast<int32_t>(script->size());
      o.sampling.temperature = 0.0F;
      o.logit_hook = [script](std::span<float> logits, std::span<const engine::Token> out) {
        if (out.size() < script->size()) logits[static_cast<size_t>((*script)[out.size()])] += 1000.0F;
      };
      const auto t0 = std::chrono::steady_clock::now();
      const auto res = decode::generate(ctx, prompt, o, index);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r == 0) continue;
      const auto n = static_cast<double>(res.stats.decoded_tokens);
      samples[m].push_back({n / s, static_cast<double>(res.stats.check_ns_total) / n,
                            1000.0 * static_cast<double>(res.stats.checks) / n, res.stats.decoded_tokens});
    }
  }
  auto stat = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return std::array<double, 3>{v.front(), v[v.size() / 2], v.back()};
  };
  std::printf("model: %s, prompt %zu tokens, answer %zu tokens, %d repetitions (interleaved)\n",
              model->description().c_str(), prompt.size(), script->size(), reps);
  std::printf("%-10s %12s %12s %12s %16s %14s\n", "mode", "tok/s min", "tok/s med", "tok/s max", "check ns/token",
              "checks/1k tok");
  for (int m = 0; m < 3; ++m) {
    std::vector<double> t;
    std::vector<double> c;
    std::vector<double> a;
    for (const auto& s : samples[m]) {
      t.push_back(s.tps);
      c.push_back(s.check_ns_per_token);
      a.push_back(s.anchors_per_1k);
    }
    const auto ts = stat(t);
    std::printf("%-10s %12.0f %12.0f %12.0f %16.1f %14.1f\n", std::string(decode::mode_name(modes[m])).c_str(), ts[0],
                ts[1], ts[2], stat(c)[1], stat(a)[1]);
  }
  for (int m = 1; m < 3; ++m) {
    std::vector<double> ratio;
    for (size_t i = 0; i < samples[0].size(); ++i) ratio.push_back(samples[m][i].tps / samples[0][i].tps);
    const auto rs = stat(ratio);
    std::printf("%s/off decode rate: min %.3f  median %.3f  max %.3f\n", std::string(decode::mode_name(modes[m])).c_str(),
                rs[0], rs[1], rs[2]);
  }
  std::vector<double> cost;
  for (size_t i = 0; i < samples[1].size(); ++i) {
    cost.push_back(samples[2][i].check_ns_per_token / std::max(1e-9, samples[1][i].check_ns_per_token));
  }
  const auto cs = stat(cost);
  std::printf("per-token/anchor check cost per token: min %.1fx  median %.1fx  max %.1fx\n", cs[0], cs[1], cs[2]);
  return 0;
}
