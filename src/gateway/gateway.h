// sfcl::gateway — `sfcl gateway`: the API of `sfcl serve` with no model of its own, in front of
// engines (llama-server, or any server of the OpenAI completions API as vLLM has it) that sample; the check loop runs
// here (docs/SCALING.md).
#pragma once
#include <string>
#include <vector>

#include "gateway/pool.h"
#include "gateway/remote_scheduler.h"
#include "server/api/api.h"

namespace sfcl::gateway {

struct GatewayOptions {
  // The API side, as `sfcl serve` has it (port, auth, signing, SFCL defaults, limits).
  // scheduler.n_parallel and n_ctx_per_slot are set from the backends.
  server::ServerOptions server;
  std::vector<std::string> backends;   // http://host:port of each engine
  BackendApi api = BackendApi::llama;  // how every backend is spoken to
  // GGUF whose vocabulary (loaded without weights) is the backends' tokenizer; checked at startup
  // against the backends' /tokenize. Empty: the model file the backend reports (/props model_path)
  // when it is readable here; otherwise startup fails.
  std::string tokenizer;
  PoolOptions pool;
  RemoteOptions remote;
  double startup_timeout_s = 60.0;  // how long to wait for a backend to answer /props at startup
};

// Listens, learns the backends, serves until SIGTERM/SIGINT; returns the process exit code (2 when
// no backend answers, no vocabulary is known, or a backend tokenises differently from it).
int run_gateway(const GatewayOptions& options);

// The text every backend must tokenise as --tokenizer does (digits, currency, CJK, markup).
extern const char* const kTokenizerProbe;

}  // namespace sfcl::gateway
