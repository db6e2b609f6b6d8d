#include "cli/llama_server_flags.h"

#include <initializer_list>
#include <span>

namespace sfcl::cli {

namespace {

using K = LlamaFlagKind;

// Why each group of llama-server flags is refused or ignored; one reason per group, so the
// message names what sfcl lacks rather than repeating the flag's help.
constexpr std::string_view kSpec = "speculative decoding: sfcl's check loop samples each token from its one model";
constexpr std::string_view kCpu = "CPU affinity, priority and polling: sfcl sets only the thread counts (-t, -tb)";
constexpr std::string_view kMedia = "images, audio and video: sfcl serve serves text";
constexpr std::string_view kAdapters = "control vectors: sfcl applies LoRA adapters (--lora), not control vectors";
constexpr std::string_view kDownload = "downloading models: sfcl serve loads local GGUF files (-m)";
constexpr std::string_view kRouter = "router mode: repeat -m to serve several models";
constexpr std::string_view kRerank = "reranking: sfcl serve has no /rerank endpoint";
constexpr std::string_view kRope = "RoPE and YaRN overrides: sfcl uses the model's own (its GGUF metadata)";
constexpr std::string_view kSampler =
    "this sampler: sfcl's defaults are --temp, --top-k, --top-p, --min-p and --seed (requests set their own)";
constexpr std::string_view kGrammar = "a server-wide grammar or JSON schema: requests send response_format or tools";
constexpr std::string_view kTools = "llama-server's built-in tools, MCP servers and agent";
constexpr std::string_view kUi = "settings of llama.cpp's web UI: sfcl's playground (--no-ui) has none";
constexpr std::string_view kTls = "TLS: sfcl serve speaks HTTP; put a TLS proxy in front";
constexpr std::string_view kCors =
    "CORS methods, headers and credentials: sfcl's are fixed; --cors-origin picks origins";
constexpr std::string_view kPlacement =
    "this tensor placement or memory mode: -ngl, -sm, -ts, -mg, --no-mmap and --mlock place the model";
constexpr std::string_view kFit = "fitting the context to device memory: sfcl allocates -c/--ctx as given";
constexpr std::string_view kReasoning =
    "thinking budgets and preserved reasoning: --reasoning, --reasoning-effort, --reasoning-format and "
    "chat_template_kwargs (--chat-template-kwargs or per request) are the controls";
constexpr std::string_view kChat = "this chat handling switch: sfcl always parses replies and continues a prefill";
constexpr std::string_view kLog = "llama.cpp's log options: sfcl logs lines to stderr (-v, --log-format text|json)";
constexpr std::string_view kCheckpoints =
    "context checkpoints and idle-slot saving: --cache-ram keeps the KV states of prompts no slot holds";
constexpr std::string_view kShift = "context shift: a request that outgrows its slot is refused, never shifted";
constexpr std::string_view kCli = "llama.cpp's command-line tools: sfcl serve has no prompt or interactive mode";
constexpr std::string_view kDefault = "llama.cpp's default, which sfcl keeps";

// The table as it is written: one call per group of spellings that share a kind and a meaning.
struct Table {
  std::vector<LlamaFlag> rows;
  void add(K kind, std::string_view meaning, std::span<const std::string_view> names, int values) {
    for (const std::string_view n : names) rows.push_back({n, kind, meaning, values});
  }
  void add(K kind, std::string_view meaning, std::initializer_list<std::string_view> names, int values) {
    add(kind, meaning, std::span<const std::string_view>(names.begin(), names.size()), values);
  }
  void alias(std::string_view to, std::initializer_list<std::string_view> names) { add(K::alias, to, names, 0); }
  void refuse(std::string_view why, std::initializer_list<std::string_view> names) { add(K::refused, why, names, 0); }
  void refuse(std::string_view why, std::span<const std::string_view> names) { add(K::refused, why, names, 0); }
};

void add_aliases(Table& t) {
  // Multi-letter single-dash spellings: CLI11 only knows one-letter short names.
  t.alias("--n-gpu-layers", {"-ngl"});
  t.alias("--main-gpu", {"-mg"});
  t.alias("--split-mode", {"-sm"});
  t.alias("--tensor-split", {"-ts"});
  t.alias("--flash-attn", {"-fa"});
  t.alias("--cache-type-k", {"-ctk"});
  t.alias("--cache-type-v", {"-ctv"});
  t.alias("--ubatch-size", {"-ub"});
  t.alias("--threads-batch", {"-tb"});
  t.alias("--parallel", {"-np"});
  t.alias("--cache-ram", {"-cram"});
  t.alias("--kv-unified", {"-kvu"});
  t.alias("--no-kv-unified", {"-no-kvu"});
  t.alias("--timeout", {"-to"});
  t.alias("--reasoning", {"-rea"});
  // llama-server's per-slot cap, which also sizes the pool without -c: sfcl's --ctx.
  t.alias("--ctx", {"--kv-unified-per-slot"});
}

void add_ignored(Table& t) {
  // Accepted without effect: what they ask for is what sfcl does anyway.
  t.add(K::ignored, "continuous batching is how sfcl always decodes", {"-cb", "--cont-batching"}, 0);
  t.add(K::ignored, "llama.cpp's log is already off unless -v; sfcl's own status lines stay on stderr",
        {"--log-disable"}, 0);
  t.add(K::ignored, "sfcl gives every slot and queued request a handler thread (--parallel + --queue)",
        {"--threads-http"}, 1);
  t.add(K::ignored, "only speed: sfcl reuses a slot's cached prompt prefix (and --cache-ram), never KV-shifted chunks",
        {"--cache-reuse"}, 1);
  t.add(K::ignored, "sfcl always reuses a slot's cached prompt prefix", {"--cache-prompt"}, 0);
  t.add(K::ignored, "sfcl loads no multimodal projector", {"--no-mmproj", "--no-mmproj-auto"}, 0);
  t.add(K::ignored, "sfcl never shifts a slot's context", {"--no-context-shift"}, 0);
  t.add(K::ignored, "sfcl has no agent or MCP proxy",
        {"-no-ag", "--no-agent", "--no-ui-mcp-proxy", "--no-webui-mcp-proxy"}, 0);
  t.add(K::ignored, "sfcl never downloads", {"--offline"}, 0);
  t.add(K::ignored, "escapes apply to prompts on llama.cpp's command line; sfcl serve takes none",
        {"-e", "--escape", "--no-escape"}, 0);
  t.add(K::ignored, "libllama's timings are off in sfcl", {"--no-perf"}, 0);
  t.add(K::ignored, kDefault, {"-kvo", "--kv-offload", "--repack", "--op-offload"}, 0);
}

void add_refused_engine(Table& t) {
  t.refuse("sfcl serve always batches continuously", {"-nocb", "--no-cont-batching"});
  t.refuse("sfcl always reuses a slot's cached prompt prefix", {"--no-cache-prompt"});
}

// llama-server's speculative-decoding flags (draft models, lookup caches, n-gram drafts).
constexpr std::string_view kSpecFlags[] = {"-lcs",
                                           "--lookup-cache-static",
                                           "-lcd",
                                           "--lookup-cache-dynamic",
                                           "--spec-draft-hf",
                                           "-hfd",
                                           "-hfrd",
                                           "--hf-repo-draft",
                                           "--spec-draft-threads",
                                           "-td",
                                           "--threads-draft",
                                           "--spec-draft-threads-batch",
                                           "-tbd",
                                           "--threads-batch-draft",
                                           "--spec-draft-cpu-mask",
                                           "-Cd",
                                           "--cpu-mask-draft",
                                           "--spec-draft-cpu-range",
                                           "-Crd",
                                           "--cpu-range-draft",
                                           "--spec-draft-cpu-strict",
                                           "--cpu-strict-draft",
                                           "--spec-draft-prio",
                                           "--prio-draft",
                                           "--spec-draft-poll",
                                           "--poll-draft",
                                           "--spec-draft-cpu-mask-batch",
                                           "-Cbd",
                                           "--cpu-mask-batch-draft",
                                           "--spec-draft-cpu-strict-batch",
                                           "--cpu-strict-batch-draft",
                                           "--spec-draft-prio-batch",
                                           "--prio-batch-draft",
                                           "--spec-draft-poll-batch",
                                           "--poll-batch-draft",
                                           "--spec-draft-type-k",
                                           "-ctkd",
                                           "--cache-type-k-draft",
                                           "--spec-draft-type-v",
                                           "-ctvd",
                                           "--cache-type-v-draft",
                                           "--spec-draft-override-tensor",
                                           "-otd",
                                           "--override-tensor-draft",
                                           "--spec-draft-cpu-moe",
                                           "-cmoed",
                                           "--cpu-moe-draft",
                                           "--spec-draft-n-cpu-moe",
                                           "--spec-draft-ncmoe",
                                           "-ncmoed",
                                           "--n-cpu-moe-draft",
                                           "--spec-draft-n-max",
                                           "--spec-draft-n-min",
                                           "--spec-synth-len",
                                           "--spec-synth-rates",
                                           "--spec-draft-p-split",
                                           "--draft-p-split",
                                           "--spec-draft-p-min",
                                           "--draft-p-min",
                                           "--spec-draft-backend-sampling",
                                           "--no-spec-draft-backend-sampling",
                                           "--spec-draft-device",
                                           "-devd",
                                           "--device-draft",
                                           "--spec-draft-ngl",
                                           "-ngld",
                                           "--gpu-layers-draft",
                                           "--n-gpu-layers-draft",
                                           "--spec-draft-model",
                                           "-md",
                                           "--model-draft",
                                           "--spec-type",
                                           "--spec-ngram-mod-n-min",
                                           "--spec-ngram-mod-n-max",
                                           "--spec-ngram-mod-n-match",
                                           "--spec-ngram-simple-size-n",
                                           "--spec-ngram-simple-size-m",
                                           "--spec-ngram-simple-min-hits",
                                           "--spec-ngram-map-k-size-n",
                                           "--spec-ngram-map-k-size-m",
                                           "--spec-ngram-map-k-min-hits",
                                           "--spec-ngram-map-k4v-size-n",
                                           "--spec-ngram-map-k4v-size-m",
                                           "--spec-ngram-map-k4v-min-hits",
                                           "--draft",
                                           "--draft-n",
                                           "--draft-max",
                                           "--draft-min",
                                           "--draft-n-min",
                                           "--spec-ngram-size-n",
                                           "--spec-ngram-size-m",
                                           "--spec-ngram-min-hits",
                                           "--spec-default",
                                           "--fim-qwen-7b-spec",
                                           "--fim-qwen-14b-spec"};

void add_refused_speculative(Table& t) { t.refuse(kSpec, kSpecFlags); }

void add_refused_model(Table& t) {
  t.refuse(kCpu,
           {"-C", "--cpu-mask", "-Cr", "--cpu-range", "--cpu-strict", "--prio", "--poll", "-Cb", "--cpu-mask-batch",
            "-Crb", "--cpu-range-batch", "--cpu-strict-batch", "--prio-batch", "--poll-batch", "--numa"});
  t.refuse(kMedia,
           {"-mm", "--mmproj", "-mmu", "--mmproj-url", "--mmproj-auto", "--mmproj-offload", "--no-mmproj-offload",
            "-mmdev", "--mmproj-device", "--image-min-tokens", "--image-max-tokens", "--mtmd-batch-max-tokens",
            "--video-fps", "--video-timestamp-interval", "--video-ffmpeg-dir", "--media-path"});
  t.refuse(kAdapters, {"--control-vector", "--control-vector-scaled", "--control-vector-layer-range"});
  t.refuse(kDownload, {"-mu",
                       "--model-url",
                       "-dr",
                       "--docker-repo",
                       "-hf",
                       "-hfr",
                       "--hf-repo",
                       "-hff",
                       "--hf-file",
                       "-hft",
                       "--hf-token",
                       "-cl",
                       "--cache-list",
                       "--embd-gemma-default",
                       "--fim-qwen-1.5b-default",
                       "--fim-qwen-3b-default",
                       "--fim-qwen-7b-default",
                       "--fim-qwen-30b-default",
                       "--gpt-oss-20b-default",
                       "--gpt-oss-120b-default",
                       "--vision-gemma-4b-default",
                       "--vision-gemma-12b-default"});
  t.refuse(kRouter, {"--models-dir", "--models-preset", "--models-max", "--models-autoload", "--no-models-autoload"});
  t.refuse(kRerank, {"--rerank", "--reranking"});
  t.refuse(kRope, {"--rope-scaling", "--rope-scale", "--rope-freq-base", "--rope-freq-scale", "--yarn-orig-ctx",
                   "--yarn-ext-factor", "--yarn-attn-factor", "--yarn-beta-slow", "--yarn-beta-fast"});
  t.refuse(kSampler, {"--samplers",
                      "--sampler-seq",
                      "--sampling-seq",
                      "--ignore-eos",
                      "--top-nsigma",
                      "--top-n-sigma",
                      "--xtc-probability",
                      "--xtc-threshold",
                      "--typical",
                      "--typical-p",
                      "--repeat-last-n",
                      "--repeat-penalty",
                      "--presence-penalty",
                      "--frequency-penalty",
                      "--dry-multiplier",
                      "--dry-base",
                      "--dry-allowed-length",
                      "--dry-penalty-last-n",
                      "--dry-sequence-breaker",
                      "--adaptive-target",
                      "--adaptive-decay",
                      "--dynatemp-range",
                      "--dynatemp-exp",
                      "--mirostat",
                      "--mirostat-lr",
                      "--mirostat-ent",
                      "-l",
                      "--logit-bias",
                      "-bs",
                      "--backend-sampling"});
}

void add_refused_server(Table& t) {
  t.refuse(kGrammar, {"--grammar", "--grammar-file", "-j", "--json-schema", "-jf", "--json-schema-file"});
  t.refuse(kTools, {"--tools", "--tools-runtime", "--mcp-servers-config", "--mcp-servers-json", "-ag", "--agent",
                    "--ui-mcp-proxy", "--webui-mcp-proxy"});
  t.refuse(kUi, {"--ui-config", "--webui-config", "--ui-config-file", "--webui-config-file"});
  t.refuse("static files: sfcl serves its own playground (--no-ui) and API only", {"--path"});
  t.refuse("an API prefix: sfcl serves its API at the root paths", {"--api-prefix"});
  t.refuse(kTls, {"--ssl-key-file", "--ssl-cert-file"});
  t.refuse("sharing the port (SO_REUSEPORT): sfcl binds its port alone", {"--reuse-port"});
  t.refuse(kCors, {"--cors-methods", "--cors-headers", "--cors-credentials", "--no-cors-credentials"});
  t.refuse("model tags: sfcl's /v1/models lists ids and aliases", {"--tags"});
}

void add_refused_placement(Table& t) {
  t.refuse(kPlacement, {"--no-host",
                        "-nr",
                        "--no-repack",
                        "-nkvo",
                        "--no-kv-offload",
                        "--no-op-offload",
                        "-dio",
                        "--direct-io",
                        "-ndio",
                        "--no-direct-io",
                        "-lm",
                        "--load-mode",
                        "-lzm",
                        "--lazy-mode",
                        "-dev",
                        "--device",
                        "--list-devices",
                        "-ot",
                        "--override-tensor",
                        "-cmoe",
                        "--cpu-moe",
                        "-ncmoe",
                        "--n-cpu-moe",
                        "-ncffn",
                        "--n-cpu-ffn",
                        "--swa-full",
                        "-dt",
                        "--defrag-thold"});
  t.refuse(kFit, {"-fit", "--fit", "-fitt", "--fit-target", "-fitc", "--fit-ctx"});
  t.refuse("checking or overriding the model's tensors and metadata", {"--check-tensors", "--override-kv"});
  t.refuse(kReasoning,
           {"--reasoning-budget", "--reasoning-budget-message", "--reasoning-preserve", "--no-reasoning-preserve"});
  t.refuse(kChat, {"--skip-chat-parsing", "--no-skip-chat-parsing", "--prefill-assistant", "--no-prefill-assistant"});
  t.refuse(kLog, {"--log-file", "--log-colors", "-lv", "--verbosity", "--log-verbosity", "--log-prefix",
                  "--no-log-prefix", "--log-timestamps", "--no-log-timestamps", "--log-prompts-dir", "--perf"});
  t.refuse(kCheckpoints, {"-ctxcp", "--ctx-checkpoints", "--swa-checkpoints", "-cms", "--checkpoint-min-step",
                          "--cache-idle-slots", "--no-cache-idle-slots"});
  t.refuse(kShift, {"--context-shift", "--keep"});
  t.refuse(kCli, {"-r", "--reverse-prompt", "-sp", "--special", "--spm-infill", "--completion-bash"});
  t.refuse("POST /props: sfcl's /props is read-only", {"--props"});
  t.refuse("SSE pings: sfcl's streams send events only", {"--sse-ping-interval"});
  t.refuse("slot choice by prompt similarity: sfcl picks the slot whose cached prompt shares the longest prefix",
           {"-sps", "--slot-prompt-similarity"});
  t.refuse("unloading the model when idle: sfcl keeps its models loaded", {"--sleep-idle-seconds"});
  t.refuse("`sfcl --version` prints sfcl's version", {"--version"});
}

std::vector<LlamaFlag> build() {
  Table t;
  add_aliases(t);
  add_ignored(t);
  add_refused_engine(t);
  add_refused_speculative(t);
  add_refused_model(t);
  add_refused_server(t);
  add_refused_placement(t);
  return std::move(t.rows);
}

// "-ngl=99" names -ngl; "-ngl" names itself.
std::string_view flag_name(std::string_view arg) {
  const size_t eq = arg.find('=');
  return eq == std::string_view::npos ? arg : arg.substr(0, eq);
}

const LlamaFlag* find(std::string_view name) {
  for (const LlamaFlag& f : llama_flags()) {
    if (f.spelling == name) return &f;
  }
  return nullptr;
}

}  // namespace

const std::vector<LlamaFlag>& llama_flags() {
  static const std::vector<LlamaFlag> table = build();
  return table;
}

RefusedFlag::RefusedFlag(const std::string& flag, std::string_view why)
    : std::runtime_error("unsupported option " + flag + ": " + std::string(why) + " (see --help)") {}

void apply_llama_flags(std::vector<std::string>& args, const CLI::App& command) {
  const bool serve = command.get_name() == "serve";
  std::vector<std::string> out;
  out.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    std::string& a = args[i];
    if (a == "--") {
      out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    const std::string_view name = flag_name(a);
    const LlamaFlag* f = a.size() > 1 && a[0] == '-' ? find(name) : nullptr;
    // A spelling sfcl declares itself is its own (e.g. --kv-unified, which the table aliases to).
    if (f == nullptr || command.get_option_no_throw(std::string(name)) != nullptr) {
      out.push_back(std::move(a));
    } else if (f->kind == K::alias) {
      const bool declared = command.get_option_no_throw(std::string(f->meaning)) != nullptr;
      out.push_back(declared ? std::string(f->meaning) + a.substr(name.size()) : std::move(a));
    } else if (!serve) {
      out.push_back(std::move(a));  // the command's own parser calls it unknown
    } else if (f->kind == K::refused) {
      throw RefusedFlag(std::string(name), f->meaning);
    } else if (name.size() == a.size()) {
      i += static_cast<size_t>(f->values);  // ignored, with its value(s) unless given as -x=v
    }
  }
  args = std::move(out);
}

std::string llama_flags_help() {
  std::string out = "llama-server flags accepted without effect:";
  std::string_view group;
  for (const LlamaFlag& f : llama_flags()) {
    if (f.kind != K::ignored) continue;
    if (f.meaning != group) {
      if (!group.empty()) out += ": " + std::string(group);
      out += "\n  ";
      group = f.meaning;
    } else {
      out += " ";
    }
    out += f.spelling;
  }
  out += ": " + std::string(group) +
         "\nOther llama-server flags without a meaning here are refused, naming the flag and the reason "
         "(docs/API.md, \"Command line\").\n";
  return out;
}

}  // namespace sfcl::cli
