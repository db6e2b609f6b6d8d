#include "cli/api_flags.h"

#include <fstream>

#include "cli/commands.h"
#include "cli/option_flags.h"

namespace sfcl::cli {

namespace {

void add_transport_flags(CLI::App& cmd, server::ServerOptions& o) {
  cmd.add_option("--host", o.host, "Listen address")->capture_default_str();
  cmd.add_option("--port", o.port, "Listen port (0 = any free port, printed at start)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd.add_option("--max-body", o.max_body, "Largest request body in bytes (413 above)")->capture_default_str();
  cmd.add_option("--max-header-bytes", o.max_header_bytes, "Largest request line + headers in bytes (431 above)")
      ->capture_default_str()
      ->check(CLI::Range(1024U, 16U << 20));
  cmd.add_option("--max-headers", o.max_headers, "Most header fields in a request (431 above)")
      ->capture_default_str()
      ->check(CLI::Range(8, 10000));
  cmd.add_option("--max-connections", o.max_connections, "Open connections; more get 503 (also the listen backlog)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20));
  cmd.add_option("--header-timeout", o.header_timeout_s, "Seconds for a request's headers to arrive")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  cmd.add_option("--idle-timeout", o.idle_timeout_s, "Seconds a keep-alive connection may wait for a request")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 86400.0));
  cmd.add_option("--body-timeout", o.body_timeout_s, "Seconds for a request's body to arrive")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  cmd.add_option("--write-timeout", o.write_timeout_s, "Seconds a write may wait for a client to read")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  // llama-server's read/write timeout: here the deadlines of a request's headers and body and of
  // each write (the keep-alive wait keeps --idle-timeout).
  cmd.add_option_function<double>(
         "--timeout", [&o](const double& s) { o.header_timeout_s = o.body_timeout_s = o.write_timeout_s = s; },
         "(-to) Seconds for --header-timeout, --body-timeout and --write-timeout at once (llama-server's "
         "read/write timeout)")
      ->check(CLI::Range(0.1, 3600.0));
  cmd.add_option("--cors-origin,--cors-origins", o.cors_origins,
                 "Origin allowed to call the API from a browser (repeatable or comma-separated; default: none; "
                 "localhost = a page of this machine on any port)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->delimiter(',');
  cmd.add_option("--allowed-host", o.allowed_hosts,
                 "Host name accepted besides localhost/127.0.0.1/[::1] on a loopback address (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void add_sampling_flags(CLI::App& cmd, const std::shared_ptr<server::ServerOptions>& o) {
  cmd.add_option("--default-max-tokens", o->default_max_tokens,
                 "max_tokens of OpenAI chat and Responses requests without one, and of llama-server's /completion "
                 "without n_predict")
      ->capture_default_str();
  cmd.add_option("--max-tokens-limit", o->max_tokens_limit, "Largest max_tokens accepted")->capture_default_str();
  cmd.add_option_function<int32_t>(
         "-n,--n-predict,--predict", [o](const int32_t& n) { o->n_predict = n < 0 ? 0 : n; },
         "Cap on every request's max_tokens: larger ones are clamped to it (0 or -1 = no cap)")
      ->default_str(std::to_string(o->n_predict))
      ->check(CLI::Range(-1, 1 << 24));
  add_option_flags(cmd, o->sampling, {"temperature", "top_k", "top_p", "min_p", "seed"}, true);
}

void add_admission_flags(CLI::App& cmd, server::ServerOptions& o) {
  cmd.add_option("--max-decision-points", o.max_decision_points,
                 "Refuse requests with more decision points (400; 0 = off)")
      ->capture_default_str();
  cmd.add_option("--max-prompt-tokens", o.max_prompt_tokens, "Refuse longer prompts (400; 0 = off)")
      ->capture_default_str();
  cmd.add_option("--max-prompt-bytes", o.max_prompt_bytes,
                 "Refuse requests whose prompt text (messages, tools, prefill) is larger, before tokenising "
                 "(413; 0 = off)")
      ->capture_default_str();
  cmd.add_option("--spam-density", o.spam_anchors_per_kb,
                 "Refuse requests with more anchors per KiB of text (anchor spam: 400; 0 = off)")
      ->capture_default_str();
  cmd.add_option("--max-client-work", o.max_client_work,
                 "Requests one client address may have in preparation at once (parse, render, tokenise, index "
                 "sources); more get 429 (0 = off: on loopback or behind a proxy all clients share one address)")
      ->capture_default_str()
      ->check(CLI::Range(0, 4096));
  cmd.add_option("--drift-threshold", o.drift_threshold,
                 "How far the mean confidence of the last 200 checked anchors may fall below that of the 1,000 "
                 "before them before /health says degraded")
      ->capture_default_str();
}

}  // namespace

ApiFlags add_api_flags(CLI::App& cmd, const std::shared_ptr<server::ServerOptions>& o) {
  ApiFlags f;
  add_transport_flags(cmd, *o);
  add_option_flags(cmd, o->checks, {"threshold", "max_backtracks", "fallback", "strict", "derived"}, true);
  cmd.add_flag("--events", o->events, "Send anchor_confirmed/backtrack SSE events by default");
  cmd.add_flag("--no-compat-headers", *f.no_compat, "Omit x-anthropic-layer-status and X-Anthropic-SFCL-Status");
  cmd.add_flag("--keep-zero-width", *f.keep_zero_width, "Do not strip zero-width characters from requests");
  cmd.add_flag("--ui,--webui,!--no-ui,!--no-webui", o->ui,
               "Serve the playground page at / (default); --no-ui / --no-webui: do not");
  cmd.add_flag("--metrics,!--no-metrics", o->metrics,
               "Serve Prometheus metrics at /metrics (default); --no-metrics: answer 501 there");
  cmd.add_flag("--slots,!--no-slots", o->slots, "Serve the slots' state at /slots (default); --no-slots: answer 501");
  cmd.add_flag("--warmup,!--no-warmup", o->warmup,
               "Run one short generation per model before reporting ready (default), so the first request "
               "does not pay the one-time setup; --no-warmup: ready sooner");
  cmd.add_option("--slot-save-path", o->slot_save_path,
                 "Directory for POST /slots/{id}?action=save|restore (a slot's KV cache and tokens as files, "
                 "llama-server's format); created if missing; without it those actions answer 501");
  cmd.add_option("--kb", o->kb_path, "Knowledge-anchor file (JSONL: term, value, type, aliases)");
  cmd.add_option("--api-key", o->api_keys, "Accepted API key (repeatable or comma-separated; none = no auth)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->delimiter(',');
  cmd.add_option("--api-key-file", *f.key_file, "File with one accepted API key per line");
  add_sampling_flags(cmd, o);
  cmd.add_option("--drain-timeout", o->drain_timeout_s, "Seconds to finish in-flight responses on SIGTERM")
      ->capture_default_str();
  add_admission_flags(cmd, *o);
  cmd.add_option("--answer-cache-mib", o->answer_cache_mib,
                 "MiB for answers of deterministic requests (temperature 0 or a fixed seed), served again to the "
                 "same request under the same API key with X-SFCL-Cache: hit (0 = off)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 20));
  cmd.add_option("--answer-cache-ttl", o->answer_cache_ttl_s, "Seconds an answer stays in the answer cache")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 365.0 * 24 * 3600));
  cmd.add_option("--sign-key", o->sign_key_path, "Ed25519 key file (sfcl keygen): sign verdicts");
  cmd.add_option("--log-format", o->log_format, "Log lines: text or json")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
  cmd.add_option("--test-script", o->test_script, "Test hook: force this output text")->group("");
  return f;
}

void apply_api_flags(const ApiFlags& flags, server::ServerOptions& o) {
  o.compat_headers = !*flags.no_compat;
  o.strip_zero_width = !*flags.keep_zero_width;
  if (flags.key_file->empty()) return;
  std::ifstream in(*flags.key_file);
  if (!in) throw UsageError("cannot read --api-key-file " + *flags.key_file);
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) o.api_keys.push_back(line);
  }
}

}  // namespace sfcl::cli
