// The options of `sfcl serve` (and `sfcl gateway`): the models served, transport limits, scheduler
// options, and the SFCL and sampling defaults the request parsers start from.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "decode/decode.h"
#include "engine/engine.h"
#include "server/runtime/options.h"

namespace sfcl::server {

// One model the server serves (--model, and the per-model flags that follow it).
struct ModelSpec {
  std::string path;
  std::string id;  // default: the file name without .gguf
  // More names for the model (--alias): what /v1/models lists, GET /v1/models/{id} finds and a
  // request's "model" may give to pick it.
  std::vector<std::string> aliases;
  std::optional<decode::Mode> mode;  // unset: ServerOptions::mode
  std::string chat_template;         // empty: ServerOptions::chat_template
};

struct ServerOptions {
  // The models served, each with its own scheduler and slots. With one, a request naming any model
  // is answered by it (as llama-server does); with several, the request's "model" picks one by id
  // or alias and an unknown name is a 404. The first answers requests that name none.
  std::vector<ModelSpec> models;
  engine::ModelOptions model_options;  // GPU offload and loading, for every model (its path is the spec's)
  std::string host = "127.0.0.1";
  int port = 8080;
  SchedulerOptions scheduler;
  size_t max_body = 8U << 20;
  // Transport limits (docs/OPERATIONS.md): what a connection may cost before and between requests.
  int32_t max_connections = 4096;  // more get 503 and are closed; also the listen backlog
  double header_timeout_s = 10.0;  // a request's headers must arrive within this
  double idle_timeout_s = 60.0;    // keep-alive connections idle longer are closed
  double body_timeout_s = 60.0;    // the body must arrive within this once the headers did
  double write_timeout_s = 60.0;   // each write to a client that stopped reading
  uint32_t max_header_bytes = 64U << 10;
  int32_t max_headers = 100;
  // Browser access: cross-origin requests only from these origins; with a loopback address,
  // only these Host names besides localhost/127.0.0.1/[::1] (DNS rebinding).
  std::vector<std::string> cors_origins;
  std::vector<std::string> allowed_hosts;
  // SFCL defaults: the fields of decode::check_options() in `checks` (a model's --sfcl overrides
  // the mode); each request may override them in its "sfcl" object. Only those fields are read.
  decode::Options checks;
  bool events = false;
  bool compat_headers = true;
  bool strip_zero_width = true;
  bool ui = true;       // the playground at / (web/, embedded at build time)
  bool metrics = true;  // GET /metrics (off: 501, as llama-server without --metrics)
  bool slots = true;    // GET /slots (off: 501, as llama-server with --no-slots)
  bool warmup = true;   // one short generation per model before ready (llama-server's --warmup)
  // POST /slots/{id}?action=save|restore takes file names under this directory (llama-server's
  // --slot-save-path); empty: 501 there.
  std::string slot_save_path;
  std::string kb_path;
  // Embeddings (/v1/embeddings, /embedding): off unless asked for. From the first model's weights
  // through a context of their own, or from a GGUF of their own (--embedding-model).
  bool embeddings = false;
  std::string embedding_model;
  engine::Pooling pooling = engine::Pooling::model;
  int32_t embd_normalize = 2;  // llama-server's: 2 = euclidean (unit length), -1 = none
  std::string chat_template;   // overrides the models' templates (engine::ModelOptions::chat_template)
  // Defaults of the requests' chat_template_kwargs (name -> JSON text) and reasoning_format.
  std::map<std::string, std::string> chat_template_kwargs;
  std::string reasoning_format = "none";
  int32_t default_max_tokens = 256;  // OpenAI requests without max_tokens
  int32_t max_tokens_limit = 32768;
  // -n: every request's max_tokens is clamped to this (llama-server's n_predict); 0 = no cap.
  int32_t n_predict = 0;
  // Sampling of requests that do not set their own (--temp, --top-k, --top-p, --min-p, --seed);
  // the defaults are llama.cpp's (engine::SamplingOptions).
  engine::SamplingOptions sampling;
  std::vector<std::string> api_keys;
  double drain_timeout_s = 30.0;
  int32_t ping_interval_ms = 10000;
  bool verbose = false;
  // Admission limits: 0 = off.
  int32_t max_decision_points = 0;
  int32_t max_prompt_tokens = 0;
  // Bytes of request text the prompt is rendered from; larger requests get 413 before they are
  // tokenised (docs/OPERATIONS.md, 'Requests'); 0 = off.
  size_t max_prompt_bytes = 1U << 20;
  // Anchor density of a request above which it is refused as anchor spam (400); 0 = off. Tables of
  // figures stay below it (a quarterly table with amounts, percents and dates: about 110 per KiB).
  double spam_anchors_per_kb = 250.0;
  // Requests one client address may have in preparation at once (parsing, rendering, tokenising,
  // indexing its sources: the HTTP workers' own CPU); more get 429. 0 = off, the default: on a
  // loopback bind or behind a proxy every client shares one address (docs/OPERATIONS.md, "Admission").
  int32_t max_client_work = 0;
  // Degraded when the mean confidence of the last 200 checked anchors is this far below that of the
  // 1,000 before them (metrics::Metrics::drift).
  double drift_threshold = 0.2;
  // The verified-answer cache (server/app/answer_cache.h): its budget in MiB (0 = off, the
  // default: benchmarks and evaluations that repeat a request would be answered from memory) and
  // how long an answer stays.
  int64_t answer_cache_mib = 0;
  double answer_cache_ttl_s = 24.0 * 3600.0;
  std::string sign_key_path;        // Ed25519 key (sfcl keygen); empty = no signatures
  std::string log_format = "text";  // text | json
  // Test hook: makes the model write this text while its output follows it (deterministic
  // outputs for tests on random-weight models). Never set in production.
  std::string test_script;
  int32_t test_ready_delay_ms = 0;  // test hook: stay "loading" this long after the warm-up
};

// The SFCL mode a model's requests start from (its own --sfcl, else the server's).
inline decode::Mode mode_of(const ServerOptions& server, const ModelSpec& model) {
  return model.mode.value_or(server.checks.mode);
}

}  // namespace sfcl::server
