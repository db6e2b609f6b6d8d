// sfcl::server — `sfcl serve`: Anthropic Messages and OpenAI APIs over the check loop.
// Never includes llama.h: it talks to the model through engine/ and decode/.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "decode/decode.h"
#include "server/scheduler.h"

namespace sfcl::server {

struct ServerOptions {
  std::string model_path;
  std::string model_id;  // default: the file name without .gguf
  std::string host = "127.0.0.1";
  int port = 8080;
  SchedulerOptions scheduler;
  size_t max_body = 8U << 20;
  // SFCL defaults; each request may override them in its "sfcl" object.
  // (the defaults are decode::Options' own, so they are declared once)
  decode::Mode mode = decode::Options{}.mode;
  float threshold = decode::Options{}.checker.threshold;
  int32_t max_backtracks = decode::Options{}.max_backtracks;
  decode::Fallback fallback = decode::Options{}.fallback;
  bool derived = decode::Options{}.checker.derived;
  bool events = false;
  bool compat_headers = true;
  bool strip_zero_width = true;
  std::string kb_path;
  std::string chat_template;         // overrides the model's template (engine::ModelOptions::chat_template)
  int32_t default_max_tokens = 256;  // OpenAI requests without max_tokens
  int32_t max_tokens_limit = 32768;
  std::vector<std::string> api_keys;
  double drain_timeout_s = 30.0;
  int32_t ping_interval_ms = 10000;
  bool verbose = false;
  // Admission limits: 0 = off.
  int32_t max_decision_points = 0;
  int32_t max_prompt_tokens = 0;
  double spam_anchors_per_kb = 100.0;  // anchor density that counts as anchor spam (logged, metric)
  double drift_threshold = 0.15;       // std dev of the last 100 confidences -> degraded
  std::string sign_key_path;           // Ed25519 key (sfcl keygen); empty = no signatures
  std::string log_format = "text";     // text | json
  // Test hook: makes the model write this text while its output follows it (deterministic
  // outputs for tests on random-weight models). Never set in production.
  std::string test_script;
  int32_t test_ready_delay_ms = 0;  // test hook: stay "loading" this long after the warm-up
};

// Loads the model, listens and serves until SIGTERM/SIGINT; returns the process exit code.
int serve(const ServerOptions& options);

}  // namespace sfcl::server
