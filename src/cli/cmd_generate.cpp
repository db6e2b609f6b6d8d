// sfcl generate: one prompt through the check loop; text streams to stdout, stats to stderr.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli/engine_flags.h"
#include "cli/io.h"
#include "cli/load_progress.h"
#include "cli/option_flags.h"
#include "report/report.h"

namespace sfcl::cli {

namespace {
struct GenerateOpts {
  std::string model;
  std::string prompt;
  std::string prompt_file;
  std::string system;
  bool raw = false;
  int32_t n = 128;
  engine::SamplingOptions sampling{0.0F, 40, 0.95F, 0.05F, 0xFFFFFFFFU};
  uint32_t ctx = 4096;
  int32_t threads = 0;
  bool json = false;
  std::vector<std::string> sources;
  std::string kb;
  std::string chat_template;
  decode::Options check;  // the check options' values (decode::check_options())
  bool events = false;
  bool dynamic_temperature = false;
  std::vector<std::string> stop;
  bool keep_zero_width = false;
  bool verbose = false;
  engine::ModelOptions model_options;
  engine::ContextOptions context;
};

nlohmann::json event_json(const decode::Event& e) {
  if (e.kind == decode::Event::Kind::token) return {{"event", "token"}, {"text", std::string(e.text)}};
  return report::event_json(e);
}

void add_flags(CLI::App& cmd, GenerateOpts& o) {
  cmd.add_option("-m,--model", o.model, "GGUF model file")->required();
  auto* p = cmd.add_option("-p,--prompt", o.prompt, "User prompt (also a source of facts)");
  cmd.add_option("-f,--prompt-file", o.prompt_file, "Read the user prompt from a file")->excludes(p);
  cmd.add_option("--system", o.system, "System prompt (also a source of facts)");
  cmd.add_flag("--raw", o.raw, "Do not apply the chat template; the prompt is the raw text");
  cmd.add_option("-n,--max-tokens", o.n, "Maximum tokens to deliver")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20));
  add_option_flags(cmd, o.sampling, {"temperature", "top_k", "top_p", "min_p", "seed"});
  cmd.add_option("-c,--ctx", o.ctx, "Context size in tokens")->capture_default_str()->check(CLI::Range(16, 1 << 20));
  cmd.add_option("-t,--threads", o.threads, "CPU threads (0 = all)")->capture_default_str();
  cmd.add_flag("--json", o.json, "Print one JSON object (text, tokens, timings, anchors) instead of streaming");
  cmd.add_option("--source", o.sources, "Extra source document (repeatable)")->allow_extra_args(false);
  cmd.add_option("--kb", o.kb, "Knowledge-anchor file (JSONL)");
  cmd.add_option("--chat-template", o.chat_template,
                 "Chat template instead of the model's own: a llama.cpp template name, a Jinja file or Jinja text");
  add_option_flags(cmd, o.check, {"mode", "threshold", "max_backtracks", "fallback", "strict", "derived"});
  cmd.add_flag("--events", o.events, "Print events (anchor_confirmed, backtrack, fallback) as JSON lines to stderr");
  cmd.add_flag("--dynamic-temperature", o.dynamic_temperature, "Adapt temperature to running anchor confidence");
  cmd.add_option("--stop", o.stop, "Stop sequence (repeatable)")->allow_extra_args(false);
  cmd.add_flag("--keep-zero-width", o.keep_zero_width, "Do not strip zero-width characters from the input");
  cmd.add_flag("-v,--verbose", o.verbose, "Show llama.cpp's log");
  add_model_flags(cmd, o.model_options);
  add_lora_flags(cmd, o.model_options);
  add_context_flags(cmd, o.context);
}

decode::Options decode_options_of(const GenerateOpts& o) {
  decode::Options opt = o.check;
  opt.max_tokens = o.n;
  opt.dynamic_temperature = o.dynamic_temperature;
  opt.stop = o.stop;
  opt.sampling = o.sampling;
  return opt;
}

std::vector<engine::Token> prompt_tokens(const GenerateOpts& o, const engine::Model& model, const engine::Context& ctx,
                                         const std::string& system, const std::string& prompt) {
  std::vector<engine::Token> tokens;
  if (o.raw) {
    tokens = model.tokenize(prompt, true, true);
  } else {
    // The prompt and system text are content: tokenised as plain text, never as control tokens.
    engine::ChatInput chat;
    if (!system.empty()) chat.messages.push_back({"system", system});
    chat.messages.push_back({"user", prompt});
    tokens = model.render_chat(chat).tokens;
  }
  if (tokens.size() >= ctx.n_ctx()) {
    throw UsageError("prompt is " + std::to_string(tokens.size()) + " tokens but the context holds " +
                     std::to_string(ctx.n_ctx()) + " (raise --ctx)");
  }
  return tokens;
}

// Wall time of one generation, split at the first sampling (prompt processing | generation).
struct Timing {
  double secs = 0;
  double prompt_secs = 0;
  double prompt_tps = 0;
  double tps = 0;
};

void print_result(const GenerateOpts& o, const decode::Result& r, const decode::Options& opt, const Timing& t,
                  const nlohmann::json& events) {
  if (!o.json) {
    std::fwrite("\n", 1, 1, stdout);
    std::fflush(stdout);
    std::fprintf(
        stderr, "prompt tokens: %d (%.1f tok/s), output tokens: %d, decoded: %lld, %.1f tok/s, stop: %s, sfcl: %s\n",
        r.prompt_tokens, t.prompt_tps, r.output_tokens, static_cast<long long>(r.stats.decoded_tokens), t.tps,
        std::string(decode::stop_reason_name(r.stop_reason)).c_str(), report::status_line(r, opt.mode).c_str());
    return;
  }
  nlohmann::json anchors = nlohmann::json::array();
  for (const auto& a : r.anchors) anchors.push_back(report::anchor_json(a));
  nlohmann::json j = {{"text", r.text},
                      {"stop_reason", std::string(decode::stop_reason_name(r.stop_reason))},
                      {"prompt_tokens", r.prompt_tokens},
                      {"output_tokens", r.output_tokens},
                      {"decoded_tokens", r.stats.decoded_tokens},
                      {"seconds", t.secs},
                      {"prompt_seconds", t.prompt_secs},
                      {"prompt_tokens_per_second", t.prompt_tps},
                      {"tokens_per_second", t.tps},
                      {"sfcl",
                       {{"mode", std::string(decode::mode_name(opt.mode))},
                        {"status", report::status_line(r, opt.mode)},
                        {"backtracks", r.stats.backtracks},
                        {"regenerated_tokens", r.stats.regenerated_tokens},
                        {"fallbacks", r.stats.fallbacks},
                        {"check_us_total", static_cast<double>(r.stats.check_ns_total) / 1000.0},
                        {"check_us_max", static_cast<double>(r.stats.check_ns_max) / 1000.0},
                        {"anchors", anchors}}}};
  if (!r.stop_sequence.empty()) j["stop_sequence"] = r.stop_sequence;
  if (o.events) j["events"] = events;
  std::cout << j.dump() << "\n";
}

int run(const GenerateOpts& o) {
  engine::set_verbose_log(o.verbose);
  std::string prompt = o.prompt_file.empty() ? o.prompt : read_input(o.prompt_file);
  std::string system = o.system;
  if (prompt.empty()) throw UsageError("a prompt is required (--prompt or --prompt-file)");
  if (!o.keep_zero_width) {
    prompt = anchor::strip_zero_width(prompt);
    system = anchor::strip_zero_width(system);
  }
  decode::Options opt = decode_options_of(o);

  anchor::SourceIndex index;
  if (!system.empty()) index.add_source(system);
  index.add_source(prompt);
  for (const auto& f : o.sources) index.add_source(read_input(f));
  if (!o.kb.empty()) index.add_knowledge(anchor::load_knowledge(o.kb));

  engine::ModelOptions mo = o.model_options;
  mo.path = o.model;
  mo.chat_template = o.chat_template;
  mo.on_progress = load_progress(o.model);
  auto model = engine::Model::load(mo);
  engine::ContextOptions copt = o.context;
  copt.n_ctx = o.ctx;
  copt.n_threads = o.threads;
  engine::Context ctx(*model, copt);
  std::vector<float> lora;
  for (const auto& a : model->lora_adapters()) lora.push_back(a.scale);
  ctx.set_lora(lora);
  const std::vector<engine::Token> tokens = prompt_tokens(o, *model, ctx, system, prompt);
  nlohmann::json events = nlohmann::json::array();
  auto sink = [&](const decode::Event& e) {
    if (e.kind == decode::Event::Kind::token) {
      if (!o.json) {
        std::fwrite(e.text.data(), 1, e.text.size(), stdout);
        std::fflush(stdout);
      }
      return;
    }
    if (!o.events) return;
    if (o.json) {
      events.push_back(event_json(e));
    } else {
      std::cerr << event_json(e).dump() << "\n";
    }
  };
  // The first sampling happens right after the prompt is processed: that instant splits prompt
  // processing from generation, so neither rate is diluted by the other.
  std::optional<std::chrono::steady_clock::time_point> first_sample;
  opt.logit_hook = [&first_sample](std::span<float>, std::span<const engine::Token>) {
    if (!first_sample) first_sample = std::chrono::steady_clock::now();
  };
  const auto t0 = std::chrono::steady_clock::now();
  const decode::Result r = decode::generate(ctx, tokens, opt, index, sink);
  const auto t1 = std::chrono::steady_clock::now();
  Timing t;
  t.secs = std::chrono::duration<double>(t1 - t0).count();
  t.prompt_secs = std::chrono::duration<double>(first_sample.value_or(t1) - t0).count();
  const double gen_secs = t.secs - t.prompt_secs;
  t.prompt_tps = t.prompt_secs > 0 ? static_cast<double>(r.prompt_tokens) / t.prompt_secs : 0.0;
  t.tps = gen_secs > 0 ? static_cast<double>(r.stats.decoded_tokens) / gen_secs : 0.0;
  print_result(o, r, opt, t, events);
  return 0;
}

}  // namespace

Runner register_generate(CLI::App& app) {
  return add_command<GenerateOpts>(app, "generate",
                                   "Generate text for one prompt with fact checking; shows anchors and events");
}

}  // namespace sfcl::cli
