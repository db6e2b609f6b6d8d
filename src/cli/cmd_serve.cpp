// sfcl serve: the HTTP server (Anthropic Messages + OpenAI APIs) over the check loop.
#include <nlohmann/json.hpp>

#include <cstdio>

#include "cli/api_flags.h"
#include "cli/commands.h"
#include "cli/config.h"
#include "cli/default_model.h"
#include "cli/engine_flags.h"
#include "cli/llama_server_flags.h"
#include "cli/load_progress.h"
#include "cli/serve_context.h"
#include "cli/serve_models.h"
#include "cli/serve_settings.h"
#include "server/app/app.h"

namespace sfcl::cli {

namespace {

void add_scheduler_flags(CLI::App& cmd, server::SchedulerOptions& s) {
  cmd.add_option("-t,--threads", s.n_threads, "CPU threads (0 = all)")->capture_default_str();
  cmd.add_option("--check-threads", s.check_threads,
                 "Threads for the work after each decode step (sampling, detokenising, checks, streaming), "
                 "slots side by side; 0 = half the hardware threads, 1 to 8")
      ->capture_default_str()
      ->check(CLI::Range(0, 64));
  cmd.add_option("--queue", s.queue_limit, "Requests that may wait for a slot; more get 429")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
  cmd.add_flag("--kv-unified,!--no-kv-unified", s.kv_unified,
               "One KV cache shared by all slots (default, as llama-server's -kvu); --no-kv-unified: a KV "
               "stream per slot");
  cmd.add_option("--cache-ram", s.cache_ram_mib,
                 "MiB of host memory for KV states of prompts no slot holds any more, restored instead of "
                 "processed again (0 = off); alias -cram")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 24));
}

void add_chat_flags(CLI::App& cmd, const std::shared_ptr<server::ServerOptions>& o) {
  cmd.add_flag(
      "--jinja", [o](int64_t) { o->model_options.jinja = true; },
      "Run the models' Jinja chat templates through llama.cpp's common chat code (the default)");
  cmd.add_flag(
      "--no-jinja", [o](int64_t) { o->model_options.jinja = false; },
      "llama.cpp's built-in chat templates only (a template it does not recognise: role: content lines)");
  cmd.add_option_function<std::string>(
      "--chat-template-kwargs",
      [o](const std::string& text) {
        const auto kw = nlohmann::json::parse(text, nullptr, false);
        if (!kw.is_object()) throw CLI::ValidationError("--chat-template-kwargs", "must be a JSON object");
        for (const auto& [key, value] : kw.items()) o->chat_template_kwargs[key] = value.dump();
      },
      "JSON object of extra chat template variables, e.g. '{\"enable_thinking\": false}' (requests' "
      "chat_template_kwargs are merged over it)");
  // llama-server's server-wide thinking switches, as the template variables they set (requests'
  // enable_thinking / chat_template_kwargs still override them).
  cmd.add_option_function<std::string>(
         "--reasoning",
         [o](const std::string& v) {
           // auto: the template's own default, or what --chat-template-kwargs says.
           if (v != "auto") o->chat_template_kwargs["enable_thinking"] = v == "on" ? "true" : "false";
         },
         "Thinking in the chat template: on, off (enable_thinking false; over --chat-template-kwargs) or auto "
         "(the template's default)")
      ->check(CLI::IsMember({"on", "off", "auto"}));
  cmd.add_option_function<std::string>(
      "--reasoning-effort",
      [o](const std::string& v) {
        if (v == "default") {
          o->chat_template_kwargs.erase("reasoning_effort");
        } else {
          o->chat_template_kwargs["reasoning_effort"] = nlohmann::json(v).dump();
        }
      },
      "reasoning_effort given to the chat template ('default': the template's own), as llama-server's");
  cmd.add_option("--reasoning-format", o->reasoning_format,
                 "Reasoning of thinking models: none (left in the text) or auto, deepseek, deepseek-legacy (the "
                 "template renders and the reply parser reads it as llama-server's); requests may override it")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "auto", "deepseek", "deepseek-legacy"}));
}

void add_embedding_flags(CLI::App& cmd, const std::shared_ptr<server::ServerOptions>& o) {
  cmd.add_flag("--embeddings,--embedding", o->embeddings,
               "Serve /v1/embeddings and /embedding from the first model's weights (generation is served too)");
  cmd.add_option("--embedding-model", o->embedding_model,
                 "Serve embeddings from this GGUF (an embedding model) instead; implies --embeddings");
  cmd.add_option_function<std::string>(
         "--pooling",
         [o](const std::string& p) {
           o->pooling = p == "none"   ? engine::Pooling::none
                        : p == "mean" ? engine::Pooling::mean
                        : p == "cls"  ? engine::Pooling::cls
                        : p == "last" ? engine::Pooling::last
                                      : engine::Pooling::model;
         },
         "Pooling of embeddings: none, mean, cls, last (default: the model's)")
      ->check(CLI::IsMember({"none", "mean", "cls", "last"}));
  cmd.add_option("--embd-normalize", o->embd_normalize,
                 "Normalisation of pooled embeddings: -1 none, 0 max absolute int16, 1 taxicab, 2 euclidean, >2 "
                 "p-norm (requests' embd_normalize overrides it)")
      ->capture_default_str();
}

}  // namespace

Runner register_serve(CLI::App& app) {
  auto* cmd = app.add_subcommand("serve", "Serve a GGUF model over the Anthropic Messages and OpenAI APIs");
  cmd->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // later flags win
  auto o = std::make_shared<server::ServerOptions>();
  const ModelFlags model_flags = add_per_model_flags(*cmd);
  const ApiFlags api = add_api_flags(*cmd, o);
  const ContextFlags ctx = add_context_size_flags(*cmd, o->scheduler);
  add_scheduler_flags(*cmd, o->scheduler);
  add_chat_flags(*cmd, o);
  cmd->add_flag("-v,--verbose,--log-verbose", o->verbose, "Show llama.cpp's log");
  add_embedding_flags(*cmd, o);
  CLI::Option* ngl = add_model_flags(*cmd, o->model_options);
  add_lora_flags(*cmd, o->model_options);
  add_context_flags(*cmd, o->scheduler.context);
  cmd->add_option("--test-ready-delay-ms", o->test_ready_delay_ms, "Test hook: delay readiness")->group("");
  auto print_only = std::make_shared<bool>(false);
  cmd->add_flag("--test-print-settings", *print_only, "Test hook: print the parsed settings, serve nothing")->group("");
  cmd->footer(llama_flags_help());
  // Read before parsing by expand_serve_args (cli/config.cpp); declared here for --help.
  std::string env_help;
  for (const auto& [env, flag] : serve_env_flags()) env_help += " " + env + "=" + flag.substr(2);
  static std::string config_path;  // consumed by expand_serve_args before parsing
  cmd->add_option("--config", config_path,
                  "TOML config file with any of these flags, e.g. port = 8080, api-key = [\"k\"]. "
                  "Precedence: flag > environment (" +
                      env_help.substr(1) + ") > file");
  return [cmd, model_flags, o, api, ctx, ngl, print_only]() -> int {
    const std::string demo = model_flags.model->count() == 0 ? installed_demo_model() : std::string();
    if (model_flags.model->count() == 0 && demo.empty()) {
      throw UsageError("--model is required (no installed demo model next to sfcl)");
    }
    assign_model_flags(*cmd, model_flags, demo, *o);
    engine::set_verbose_log(o->verbose);
    // One progress line per file (the models load one after another).
    if (o->models.size() == 1) o->model_options.on_progress = load_progress(o->models.front().path);
    apply_api_flags(api, *o);
    resolve_context_size(*cmd, ctx, o->scheduler);
    if (*print_only) {
      std::printf("%s\n", settings_json(*o).c_str());
      return 0;
    }
    note_cpu_only(*ngl, o->model_options);
    return server::serve(*o);
  };
}

}  // namespace sfcl::cli
