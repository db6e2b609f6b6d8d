// sfcl serve: the HTTP server (Anthropic Messages + OpenAI APIs) over the check loop.
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/config.h"
#include "cli/default_model.h"
#include "cli/engine_flags.h"
#include "cli/load_progress.h"
#include "cli/serve_models.h"
#include "server/server.h"

namespace sfcl::cli {

Runner register_serve(CLI::App& app) {
  auto* cmd = app.add_subcommand("serve", "Serve a GGUF model over the Anthropic Messages and OpenAI APIs");
  cmd->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // later flags win
  auto o = std::make_shared<server::ServerOptions>();
  auto fallback = std::make_shared<std::string>("constrain");
  auto key_file = std::make_shared<std::string>();
  auto no_compat = std::make_shared<bool>(false);
  auto keep_zw = std::make_shared<bool>(false);
  const ModelFlags model_flags = add_per_model_flags(*cmd);
  cmd->add_option("--host", o->host, "Listen address")->capture_default_str();
  cmd->add_option("--port", o->port, "Listen port (0 = any free port, printed at start)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--parallel", o->scheduler.n_parallel, "Slots decoded together (continuous batching); alias -np")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("-c,--ctx,--ctx-size", o->scheduler.n_ctx_per_slot,
                  "Context tokens per slot (llama-server's -c is the total over all slots)")
      ->capture_default_str()
      ->check(CLI::Range(64, 1 << 20));
  cmd->add_option("--batch", o->scheduler.n_batch, "Tokens per llama_decode step")
      ->capture_default_str()
      ->check(CLI::Range(16, 1 << 16));
  cmd->add_option("-t,--threads", o->scheduler.n_threads, "CPU threads (0 = all)")->capture_default_str();
  cmd->add_option("--queue", o->scheduler.queue_limit, "Requests that may wait for a slot; more get 429")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
  cmd->add_flag("--kv-unified,!--no-kv-unified", o->scheduler.kv_unified,
                "One KV cache shared by all slots (default, as llama-server's -kvu); --no-kv-unified: a KV "
                "stream per slot");
  cmd->add_option("--cache-ram", o->scheduler.cache_ram_mib,
                  "MiB of host memory for KV states of prompts no slot holds any more, restored instead of "
                  "processed again (0 = off); alias -cram")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 24));
  cmd->add_option("--max-body", o->max_body, "Largest request body in bytes (413 above)")->capture_default_str();
  cmd->add_option("--max-header-bytes", o->max_header_bytes, "Largest request line + headers in bytes (431 above)")
      ->capture_default_str()
      ->check(CLI::Range(1024U, 16U << 20));
  cmd->add_option("--max-headers", o->max_headers, "Most header fields in a request (431 above)")
      ->capture_default_str()
      ->check(CLI::Range(8, 10000));
  cmd->add_option("--max-connections", o->max_connections, "Open connections; more get 503 (also the listen backlog)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--header-timeout", o->header_timeout_s, "Seconds for a request's headers to arrive")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--idle-timeout", o->idle_timeout_s, "Seconds a keep-alive connection may wait for a request")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 86400.0));
  cmd->add_option("--body-timeout", o->body_timeout_s, "Seconds for a request's body to arrive")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--write-timeout", o->write_timeout_s, "Seconds a write may wait for a client to read")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--cors-origin", o->cors_origins,
                  "Origin allowed to call the API from a browser (repeatable; default: none; "
                  "localhost = a page of this machine on any port)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--allowed-host", o->allowed_hosts,
                  "Host name accepted besides localhost/127.0.0.1/[::1] on a loopback address (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--threshold", o->threshold, "Default confidence threshold")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--max-backtracks", o->max_backtracks, "Default backtracks per anchor")
      ->capture_default_str()
      ->check(CLI::Range(0, 16));
  cmd->add_option("--fallback", *fallback, "Default fallback: constrain, flag or abstain")
      ->capture_default_str()
      ->check(CLI::IsMember({"constrain", "flag", "abstain"}));
  cmd->add_flag(
      "--no-derived", [o](int64_t) { o->derived = false; },
      "Values computed from source values (sums, date differences, ...) are unsupported, not derived");
  cmd->add_flag("--events", o->events, "Send anchor_confirmed/backtrack SSE events by default");
  cmd->add_flag("--no-compat-headers", *no_compat, "Omit x-anthropic-layer-status and X-Anthropic-SFCL-Status");
  cmd->add_flag("--keep-zero-width", *keep_zw, "Do not strip zero-width characters from requests");
  cmd->add_flag(
      "--no-ui", [o](int64_t) { o->ui = false; }, "Do not serve the playground page at /");
  cmd->add_option("--kb", o->kb_path, "Knowledge-anchor file (JSONL: term, value, type, aliases)");
  cmd->add_flag(
      "--jinja", [o](int64_t) { o->model_options.jinja = true; },
      "Run the models' Jinja chat templates through llama.cpp's common chat code (the default)");
  cmd->add_flag(
      "--no-jinja", [o](int64_t) { o->model_options.jinja = false; },
      "llama.cpp's built-in chat templates only (a template it does not recognise: role: content lines)");
  cmd->add_option_function<std::string>(
      "--chat-template-kwargs",
      [o](const std::string& text) {
        const auto kw = nlohmann::json::parse(text, nullptr, false);
        if (!kw.is_object()) throw CLI::ValidationError("--chat-template-kwargs", "must be a JSON object");
        for (const auto& [key, value] : kw.items()) o->chat_template_kwargs[key] = value.dump();
      },
      "JSON object of extra chat template variables, e.g. '{\"enable_thinking\": false}' (requests' "
      "chat_template_kwargs are merged over it)");
  cmd->add_option("--reasoning-format", o->reasoning_format,
                  "Reasoning of thinking models: none (left in the text) or auto, deepseek, deepseek-legacy (the "
                  "template renders and the reply parser reads it as llama-server's); requests may override it")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "auto", "deepseek", "deepseek-legacy"}));
  cmd->add_option("--api-key", o->api_keys, "Accepted API key (repeatable; none = no auth)");
  cmd->add_option("--api-key-file", *key_file, "File with one accepted API key per line");
  cmd->add_option("--default-max-tokens", o->default_max_tokens, "max_tokens of OpenAI chat requests without one")
      ->capture_default_str();
  cmd->add_option("--max-tokens-limit", o->max_tokens_limit, "Largest max_tokens accepted")->capture_default_str();
  cmd->add_option("-n,--n-predict", o->n_predict,
                  "Cap on every request's max_tokens: larger ones are clamped to it (0 = no cap)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 24));
  cmd->add_option("--temp", o->sampling.temperature, "Temperature of requests that set none (0 = greedy)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 2.0));
  cmd->add_option("--top-k", o->sampling.top_k, "top_k of requests that set none (0 = off)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 30));
  cmd->add_option("--top-p", o->sampling.top_p, "top_p of requests that set none (1 = off)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--min-p", o->sampling.min_p, "min_p of requests that set none (0 = off)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option_function<int64_t>(
         "--seed",
         [o](const int64_t& seed) { o->sampling.seed = seed < 0 ? 0xFFFFFFFFU : static_cast<uint32_t>(seed); },
         "Seed of requests that set none (-1 = random)")
      ->default_str("-1")
      ->check(CLI::Range(int64_t{-1}, int64_t{0xFFFFFFFF}));
  cmd->add_option("--drain-timeout", o->drain_timeout_s, "Seconds to finish in-flight responses on SIGTERM")
      ->capture_default_str();
  cmd->add_flag("-v,--verbose", o->verbose, "Show llama.cpp's log");
  add_model_flags(*cmd, o->model_options);
  add_context_flags(*cmd, o->scheduler.context);
  cmd->add_option("--test-script", o->test_script, "Test hook: force this output text")->group("");
  cmd->add_option("--test-ready-delay-ms", o->test_ready_delay_ms, "Test hook: delay readiness")->group("");
  cmd->add_option("--max-decision-points", o->max_decision_points,
                  "Refuse requests with more decision points (400; 0 = off)")
      ->capture_default_str();
  cmd->add_option("--max-prompt-tokens", o->max_prompt_tokens, "Refuse longer prompts (400; 0 = off)")
      ->capture_default_str();
  cmd->add_option("--max-prompt-bytes", o->max_prompt_bytes,
                  "Refuse requests whose prompt text (messages, tools, prefill) is larger, before tokenising "
                  "(413; 0 = off)")
      ->capture_default_str();
  cmd->add_option("--spam-density", o->spam_anchors_per_kb,
                  "Refuse requests with more anchors per KB of text (anchor spam: 400; 0 = off)")
      ->capture_default_str();
  cmd->add_option("--drift-threshold", o->drift_threshold,
                  "How far the mean confidence of the last 200 checked anchors may fall below that of the 1,000 "
                  "before them before /health says degraded")
      ->capture_default_str();
  cmd->add_option("--sign-key", o->sign_key_path, "Ed25519 key file (sfcl keygen): sign verdicts");
  cmd->add_option("--log-format", o->log_format, "Log lines: text or json")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
  // Read before parsing by expand_serve_args (cli/config.cpp); declared here for --help.
  std::string env_help;
  for (const auto& [env, flag] : serve_env_flags()) env_help += " " + env + "=" + flag.substr(2);
  static std::string config_path;  // consumed by expand_serve_args before parsing
  cmd->add_option("--config", config_path,
                  "TOML config file with any of these flags, e.g. port = 8080, api-key = [\"k\"]. "
                  "Precedence: flag > environment (" +
                      env_help.substr(1) + ") > file");
  return [cmd, model_flags, o, fallback, key_file, no_compat, keep_zw]() -> int {
    const std::string demo = model_flags.model->count() == 0 ? installed_demo_model() : std::string();
    if (model_flags.model->count() == 0 && demo.empty()) {
      throw UsageError("--model is required (no installed demo model next to sfcl)");
    }
    assign_model_flags(*cmd, model_flags, demo, *o);
    engine::set_verbose_log(o->verbose);
    // One progress line per file (the models load one after another).
    if (o->models.size() == 1) o->model_options.on_progress = load_progress(o->models.front().path);
    decode::parse_fallback(*fallback, o->fallback);
    o->compat_headers = !*no_compat;
    o->strip_zero_width = !*keep_zw;
    if (!key_file->empty()) {
      std::ifstream in(*key_file);
      if (!in) throw UsageError("cannot read --api-key-file " + *key_file);
      std::string line;
      while (std::getline(in, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (!line.empty()) o->api_keys.push_back(line);
      }
    }
    return server::serve(*o);
  };
}

}  // namespace sfcl::cli
