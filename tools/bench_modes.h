// sfcl bench, modes part: off vs anchor vs per-token on the same grounded prompts, interleaved
// (item outer, mode inner) so machine noise hits every mode alike; one sample per repetition.
#pragma once
#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sfcl::tools {

struct ModesBenchOptions {
  std::filesystem::path model;
  std::filesystem::path set;  // eval-set JSONL (document, question)
  int items = 200;
  int reps = 5;
  int max_tokens = 64;
  int threads = 1;
  bool progress = true;  // a progress line on stderr
};

// Totals of one mode over all items of one repetition.
struct ModeSample {
  double decode_s = 0;   // llama_decode + loop time after the prompt
  double prefill_s = 0;  // the prompt's llama_decode
  int64_t prompt_tokens = 0;
  // Time to first text: from the prompt's llama_decode to the first text the loop delivers (what a
  // streaming client waits for), and the tokens decoded by then; summed over items.
  double first_text_s = 0;
  int64_t first_text_tokens = 0;
  int64_t items = 0;
  int64_t tokens = 0;    // decoded (sampled) tokens, regenerated ones included
  int64_t check_ns = 0;  // verifying complete anchors
  int64_t scan_ns = 0;   // finding them (lexing / re-scanning)
  int64_t checks = 0;
  int64_t anchors = 0;
  int64_t backtracks = 0;
  int64_t regenerated = 0;
};

struct ModesBenchReport {
  std::string model;
  int items = 0;
  int reps = 0;
  std::array<std::vector<ModeSample>, 3> samples;  // off, anchor, per-token; one per repetition
  int64_t model_bytes = 0;                         // the GGUF file: what one decode step reads, roughly
  double peak_rss_mib = 0;                         // this process after the runs (getrusage)
  // STREAM-style copy bandwidth (GB/s) with 1 thread and with the context's threads: the ceiling of
  // a memory-bound decode step is bandwidth / model bytes.
  double copy_gbs_1 = 0;
  double copy_gbs_n = 0;
  int threads = 1;
};

ModesBenchReport run_modes_bench(const ModesBenchOptions& options);
nlohmann::json modes_json(const ModesBenchReport& report);
void print_modes(const ModesBenchReport& report);
// SVG panels: decode tokens/s per mode (min/median/max over repetitions) and check ns per token.
std::vector<std::string> modes_svg(const ModesBenchReport& report, int y0, int& height);

}  // namespace sfcl::tools
