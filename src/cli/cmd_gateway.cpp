// sfcl gateway: the API of `sfcl serve` in front of llama-server or OpenAI-completions (vLLM)
// engines; the check loop runs in the gateway, the engines sample (docs/SCALING.md).
#include "cli/api_flags.h"
#include "cli/commands.h"
#include "cli/option_flags.h"
#include "gateway/gateway.h"

namespace sfcl::cli {

Runner register_gateway(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "gateway",
      "Serve the sfcl API in front of llama-server or vLLM engines: the check loop here, the engines sample");
  cmd->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  auto o = std::make_shared<gateway::GatewayOptions>();
  auto mode = std::make_shared<std::string>("anchor");
  auto backend_api = std::make_shared<std::string>("llama");
  server::ServerOptions& s = o->server;
  cmd->add_option("--backend", o->backends, "An engine's address, http://host:port (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->required();
  cmd->add_option("--backend-api", *backend_api,
                  "How the backends are spoken to: llama (llama-server's /completion) or openai (/v1/completions "
                  "with token-id prompts, as vLLM serves it)")
      ->capture_default_str()
      ->check(CLI::IsMember({"llama", "openai"}));
  cmd->add_option("--backend-slots", o->pool.slots_per_backend,
                  "Requests each backend serves at once (match its --parallel); more wait in the queue")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--backend-timeout", o->pool.timeout_s,
                  "Seconds for each backend call to connect and for each read; past it the backend counts as failed")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--backend-call-timeout", o->pool.call_timeout_s,
                  "Seconds one completion call to a backend may take from start to end, however steadily it "
                  "streams (0 = no limit); past it the backend counts as failed")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--health-interval", o->pool.health_interval_s, "Seconds between health checks of a healthy backend")
      ->capture_default_str()
      ->check(CLI::Range(0.05, 3600.0));
  cmd->add_option("--health-max-backoff", o->pool.backoff_max_s,
                  "Longest wait between probes of a failed backend (the wait doubles from 0.2 s)")
      ->capture_default_str()
      ->check(CLI::Range(0.05, 3600.0));
  cmd->add_option("--max-failovers", o->remote.max_failovers, "Backends one answer may move to before it fails")
      ->capture_default_str()
      ->check(CLI::Range(0, 64));
  cmd->add_option("--tokenizer", o->tokenizer,
                  "GGUF of the model the backends serve; only its vocabulary is loaded (default: the file the "
                  "backend reports in /props model_path when it is readable here; otherwise required)");
  cmd->add_option("--chat-template", s.chat_template,
                  "Chat template instead of the backend's (/props; without one, the tokenizer GGUF's): a llama.cpp "
                  "template name, a Jinja file or text");
  cmd->add_option("--startup-timeout", o->startup_timeout_s, "Seconds to wait for a backend to answer at startup")
      ->capture_default_str();
  // One served model: the backends'. Its spec lives in the options, so the flags bind to it.
  s.models.resize(1);
  server::ModelSpec& spec = s.models.front();
  cmd->add_option("--model-id", spec.id,
                  "Model id in the API (default: the backend's model file name, or the last part of its model id)");
  cmd->add_option("--alias", spec.aliases, "Another name for the model in /v1/models (repeatable)");
  cmd->add_option("--queue", o->remote.queue_limit, "Requests that may wait for a backend slot; more get 429")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--queue-timeout", o->remote.queue_timeout_s,
                  "Seconds a request waits for a healthy backend's slot before it fails")
      ->capture_default_str();
  cmd->add_option("--sfcl", *mode, "Default check mode: off, anchor or per-token")
      ->capture_default_str()
      ->check(CLI::IsMember(choice_names(decode::mode_names())));
  // The API side's flags, as `sfcl serve` has them (bound to the options' server part).
  const ApiFlags api_flags = add_api_flags(*cmd, std::shared_ptr<server::ServerOptions>(o, &o->server));
  return [o, mode, backend_api, api_flags]() -> int {
    o->api = *backend_api == "openai" ? gateway::BackendApi::openai : gateway::BackendApi::llama;
    decode::parse_mode(*mode, o->server.checks.mode);
    apply_api_flags(api_flags, o->server);
    return gateway::run_gateway(*o);
  };
}

}  // namespace sfcl::cli
