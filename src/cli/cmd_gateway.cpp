// sfcl gateway: the API of `sfcl serve` in front of llama-server or OpenAI-completions (vLLM)
// engines; the check loop runs in the gateway, the engines sample (docs/SCALING.md).
#include <fstream>

#include "cli/commands.h"
#include "gateway/gateway.h"

namespace sfcl::cli {

Runner register_gateway(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "gateway",
      "Serve the sfcl API in front of llama-server or vLLM engines: the check loop here, the engines sample");
  cmd->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  auto o = std::make_shared<gateway::GatewayOptions>();
  auto mode = std::make_shared<std::string>("anchor");
  auto fallback = std::make_shared<std::string>("constrain");
  auto key_file = std::make_shared<std::string>();
  auto api = std::make_shared<std::string>("llama");
  server::ServerOptions& s = o->server;
  cmd->add_option("--backend", o->backends, "An engine's address, http://host:port (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->required();
  cmd->add_option("--backend-api", *api,
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
  cmd->add_option("--host", s.host, "Listen address")->capture_default_str();
  cmd->add_option("--port", s.port, "Listen port (0 = any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--queue", o->remote.queue_limit, "Requests that may wait for a backend slot; more get 429")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--queue-timeout", o->remote.queue_timeout_s,
                  "Seconds a request waits for a healthy backend's slot before it fails")
      ->capture_default_str();
  cmd->add_option("--sfcl", *mode, "Default check mode: off, anchor or per-token")
      ->capture_default_str()
      ->check(CLI::IsMember({"off", "anchor", "per-token"}));
  cmd->add_option("--threshold", s.threshold, "Default confidence threshold")->capture_default_str();
  cmd->add_option("--max-backtracks", s.max_backtracks, "Default backtracks per anchor")->capture_default_str();
  cmd->add_option("--fallback", *fallback, "Default fallback: constrain, flag or abstain")
      ->capture_default_str()
      ->check(CLI::IsMember({"constrain", "flag", "abstain"}));
  cmd->add_flag("--events", s.events, "Send anchor_confirmed/backtrack SSE events by default");
  cmd->add_flag(
      "--no-ui", [o](int64_t) { o->server.ui = false; }, "Do not serve the playground page at /");
  cmd->add_option("--kb", s.kb_path, "Knowledge-anchor file (JSONL: term, value, type, aliases)");
  cmd->add_option("--api-key", s.api_keys, "Accepted API key (repeatable; none = no auth)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--api-key-file", *key_file, "File with one accepted API key per line");
  cmd->add_option("--sign-key", s.sign_key_path, "Ed25519 key file (sfcl keygen): sign verdicts");
  cmd->add_option("--default-max-tokens", s.default_max_tokens, "max_tokens of OpenAI chat requests without one")
      ->capture_default_str();
  cmd->add_option("--temp", s.sampling.temperature, "Temperature of requests that set none (0 = greedy)")
      ->capture_default_str();
  cmd->add_option_function<int64_t>(
         "--seed",
         [o](const int64_t& seed) { o->server.sampling.seed = seed < 0 ? 0xFFFFFFFFU : static_cast<uint32_t>(seed); },
         "Seed of requests that set none (-1 = random)")
      ->default_str("-1");
  cmd->add_option("--drain-timeout", s.drain_timeout_s, "Seconds to finish in-flight responses on SIGTERM")
      ->capture_default_str();
  cmd->add_option("--log-format", s.log_format, "Log lines: text or json")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--test-script", s.test_script, "Test hook: force this output text")->group("");
  return [o, mode, fallback, key_file, api]() -> int {
    o->api = *api == "openai" ? gateway::BackendApi::openai : gateway::BackendApi::llama;
    decode::parse_mode(*mode, o->server.mode);
    decode::parse_fallback(*fallback, o->server.fallback);
    if (!key_file->empty()) {
      std::ifstream in(*key_file);
      if (!in) throw UsageError("cannot read --api-key-file " + *key_file);
      std::string line;
      while (std::getline(in, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (!line.empty()) o->server.api_keys.push_back(line);
      }
    }
    return gateway::run_gateway(*o);
  };
}

}  // namespace sfcl::cli
