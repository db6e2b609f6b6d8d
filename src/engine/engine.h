// sfcl::engine — the only area that talks to llama.cpp. Everything above it (decode, server,
// cli) sees tokens, logits and text through this header and never includes llama.h.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/gguf_writing.h"  // GGUF writing: tiny models, the demo model, random LoRA adapters
#include "util/option_spec.h"

struct llama_model;
struct llama_context;
struct llama_sampler;
struct llama_vocab;
struct llama_adapter_lora;

struct ggml_threadpool;

namespace sfcl::engine {

using Token = std::int32_t;

// Every failure of the engine (bad file, not a GGUF, context too small, decode error).
class EngineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads ggml backends once per process; dir empty = SFCL_BACKEND_DIR env, then the build's
// default (the bootstrap's lib dir). Safe to call many times.
void load_backends(const std::string& dir = {});
// Routes llama.cpp's log: false keeps only errors (default), true passes everything to stderr.
void set_verbose_log(bool verbose);
// llama.cpp's build as llama-server names it in system_fingerprint ("b<number>-<commit>").
const std::string& llama_build();

// One tool call an assistant turn made: `arguments` is a JSON object's text.
struct ToolCall {
  std::string id;
  std::string name;
  std::string arguments;
};

struct ChatMessage {
  std::string role;  // system | user | assistant | tool
  std::string content;
  std::vector<ToolCall> tool_calls{};  // assistant: the calls it made
  std::string tool_call_id{};          // tool: the call this result answers
  std::string tool_name{};             // tool: the tool that produced it
};

// A tool the model may call; `parameters` is the JSON schema of its arguments.
struct ChatTool {
  std::string name;
  std::string description;
  std::string parameters;
};

enum class ToolChoice : uint8_t { automatic, required, none };

// What a chat prompt is rendered from: the conversation, and what the reply must look like.
struct ChatInput {
  std::vector<ChatMessage> messages;
  // The start of the reply, continued by the model: a Jinja template renders it as the open final
  // assistant message (llama-server's continue_final_message); the others append it after the
  // generation prompt.
  std::string prefill;
  std::vector<ChatTool> tools;
  ToolChoice tool_choice = ToolChoice::automatic;
  // Several calls in one reply, where the template's native format has a grammar for them.
  bool parallel_tool_calls = false;
  std::string json_schema;  // the reply is JSON valid for this schema (text of a schema; "{}" = any JSON)
  std::string grammar;      // the reply follows this GBNF grammar
  // Jinja templates only: extra template variables (name -> JSON text, llama-server's
  // chat_template_kwargs), whether a thinking model may think, and how its reasoning is rendered and
  // split from the reply: "none" (left inline), "auto", "deepseek", "deepseek-legacy".
  std::map<std::string, std::string> template_kwargs{};
  bool enable_thinking = true;
  std::string reasoning_format = "none";
  [[nodiscard]] bool tools_active() const { return !tools.empty() && tool_choice != ToolChoice::none; }
};

// A grammar the sampler follows (llama.cpp GBNF). Lazy: unconstrained until a trigger appears.
struct GrammarSpec {
  std::string gbnf;  // empty = no grammar
  bool lazy = false;
  std::vector<std::string> trigger_patterns;  // regexes; the grammar starts at the first match group
  std::vector<Token> trigger_tokens;
  std::string prefix;  // text already in the prompt that the grammar reads first (the reply's opening)
};

// How tool calls are written in the reply.
enum class ToolFormat : uint8_t {
  none,        // no tools
  native,      // the model's Jinja template renders the tools; llama.cpp's common chat code parses calls
  json_object  // no tool-aware template: one JSON object {"name": ..., "arguments": {...}} per call
};

struct ChatPrompt {
  std::string text;  // the rendered prompt, content in place
  std::vector<Token> tokens;
  GrammarSpec grammar;
  std::vector<std::string> stops;  // stop sequences the template adds
  ToolFormat tool_format = ToolFormat::none;
  std::string template_kind;  // "jinja", "builtin" (llama.cpp's named templates) or "plain"
  std::string parser_format;  // native tool calls: llama.cpp's chat format and parser state
  std::string parser_state;
  std::string generation_prompt;
  // The reply's reasoning is split from its content by the parser (a thinking template and a
  // reasoning_format other than "none").
  std::string reasoning_format = "none";
  [[nodiscard]] bool splits_reasoning() const { return reasoning_format != "none" && !parser_format.empty(); }
};

// A reply split into its prose and its tool calls.
struct ParsedReply {
  std::string content;
  std::vector<ToolCall> tool_calls;
  std::string reasoning{};  // the thinking split off (ChatPrompt::splits_reasoning)
};

// The GBNF grammar of JSON valid for `schema` (JSON schema text), written in one line (at most one
// blank between tokens); throws EngineError when the schema is not JSON or uses what llama.cpp's
// converter does not support.
std::string json_schema_grammar(const std::string& schema);

// Whether `name` is a plain file name llama-server accepts for a file under a directory it was
// given (llama.cpp's fs_validate_filename: no directories, no "..", no control or reserved
// characters, valid UTF-8, at most 255 bytes).
bool valid_file_name(const std::string& name);

// Refuses a GBNF grammar llama.cpp would take the process's memory or stack to build (throws
// EngineError saying why): a repetition `{m,n}` with m above n or a bound above kMaxGrammarRepeat
// (each is expanded into that many rules), or groups nested deeper than kMaxGrammarNesting (parsed
// by recursion), more than kMaxGrammarAlternatives alternatives in all (each is a parse stack the
// sampler matches every candidate token against, on the decode thread, at every token: a JSON
// schema `enum` of 50,000 strings stalled every slot), or a grammar over kMaxGrammarBytes. Says
// nothing of other syntax: llama.cpp's parser reports that.
inline constexpr uint64_t kMaxGrammarRepeat = 10000;
inline constexpr size_t kMaxGrammarNesting = 128;
inline constexpr size_t kMaxGrammarAlternatives = 1024;
inline constexpr size_t kMaxGrammarBytes = size_t{256} << 10;
void check_grammar_bounds(std::string_view gbnf);

// A LoRA adapter to load with the model (llama-server's --lora FILE / --lora-scaled FILE SCALE):
// `scale` is what requests get when they name no adapters; 0 loads it switched off.
struct LoraSpec {
  std::filesystem::path path;
  float scale = 1.0F;
};
// A loaded adapter as GET /lora-adapters lists it: its file, its default scale and the task name
// and prompt prefix its GGUF carries (adapter.lora.task_name, adapter.lora.prompt_prefix).
struct LoraInfo {
  std::string path;
  float scale = 1.0F;
  std::string task_name;
  std::string prompt_prefix;
};

// Where the weights go and how they are read (llama.cpp's llama_model_params). On a build with
// only the CPU backend the GPU fields have no effect.
struct ModelOptions {
  std::filesystem::path path;
  int32_t n_gpu_layers = -1;  // layers offloaded; negative = all (llama.cpp's default)
  // Overrides the model's chat template: a file holding a Jinja template, a template name llama.cpp
  // knows ("chatml", "llama3", ...), or Jinja source. Empty: the model's own.
  std::string chat_template{};
  // false: llama.cpp's built-in templates only (llama-server's --no-jinja): the template is
  // recognised among them, else "role: content" lines; a Jinja-only template is not run.
  bool jinja = true;
  int32_t main_gpu = 0;              // the GPU used with split_mode "none"
  std::string split_mode = "layer";  // none | layer | row
  std::vector<float> tensor_split;   // share of the model per GPU; empty = by free memory
  bool use_mmap = true;
  bool use_mlock = false;
  // Only the vocabulary and metadata (tokenise, detokenise, chat template): no weights, no context.
  // What a gateway in front of remote engines needs of a model.
  bool vocab_only = false;
  // Loading progress from 0 to 1 (llama.cpp's progress callback); empty = none.
  std::function<void(float)> on_progress{};
  // Jinja: what llama.cpp's template analysis gives a request without tools or prefill (thinking
  // support, extra stops) is learnt once at load, and such requests skip the analysis (docs/DESIGN.md,
  // 'Tools and structured output'). false: every request runs it, as llama-server does.
  bool reuse_template_analysis = true;
  // Jinja: the renders of this many conversation shapes are kept (roles, tools, tool calls, flags;
  // every message's content is a placeholder when the template runs), so a request shaped like a
  // recent one skips the template (docs/DESIGN.md, 'Tools and structured output'). 0 = every request renders.
  size_t template_render_cache = 64;
  // Loaded after the weights, in this order (llama_adapter_lora_init); a file llama.cpp rejects
  // (not a LoRA GGUF, another base model's shapes) fails the load.
  std::vector<LoraSpec> lora{};
  bool lora_without_apply = false;  // every adapter starts at scale 0 (--lora-init-without-apply)
};

// "none"/"layer"/"row" -> llama_split_mode; cache types "f32", "f16", "bf16", "q8_0", "q4_0",
// "q4_1", "iq4_nl", "q5_0", "q5_1" -> ggml_type. Both throw EngineError naming what is accepted.
int split_mode_from_name(const std::string& name);
int cache_type_from_name(const std::string& name);
// Names of the backend devices ggml found (e.g. "CPU", "CUDA0"); load_backends() first.
std::vector<std::string> backend_device_names();

struct ChatTemplates;
struct SpecialScan;

class Model {
 public:
  // Throws EngineError with a one-line reason.
  static std::unique_ptr<Model> load(const ModelOptions& options);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  [[nodiscard]] std::vector<Token> tokenize(std::string_view text, bool add_special, bool parse_special) const;
  // Raw bytes of one token (may be part of a UTF-8 character). Appends; no allocation when
  // `out` has capacity.
  void append_piece(Token token, std::string& out) const;
  [[nodiscard]] std::string piece(Token token) const;
  [[nodiscard]] bool is_eog(Token token) const;
  [[nodiscard]] Token bos() const;
  [[nodiscard]] Token eos() const;
  // Whether the vocabulary puts BOS before a text it tokenises with add_special.
  [[nodiscard]] bool adds_bos() const;
  // The vocabulary's fill-in-the-middle tokens (llama_vocab_fim_*), -1 where it has none: prefix,
  // suffix, middle, and the repository and file separators of repo-level FIM.
  struct FimTokens {
    Token pre = -1;
    Token suf = -1;
    Token mid = -1;
    Token rep = -1;
    Token sep = -1;
  };
  [[nodiscard]] FimTokens fim_tokens() const;
  [[nodiscard]] int32_t n_vocab() const;
  [[nodiscard]] int32_t n_ctx_train() const;
  [[nodiscard]] std::string description() const;
  // The model's own template; empty when it has none.
  [[nodiscard]] std::string chat_template() const;
  // Applies the model's template with llama_chat_apply_template; falls back to a plain
  // "role: content" template when the model has none or llama.cpp does not know it.
  [[nodiscard]] std::string apply_chat_template(const std::vector<ChatMessage>& messages, bool add_assistant) const;

  // Renders and tokenises a chat prompt with the model's Jinja template (or the override), else
  // llama.cpp's named template, else "role: content" lines. Only the template's own markup is
  // tokenised with special tokens; message content, the prefill and tool results are plain text.
  // Tools and a schema or grammar give the prompt its grammar. Throws EngineError (bad template,
  // schema or grammar).
  [[nodiscard]] ChatPrompt render_chat(const ChatInput& input) const;
  // Splits a finished reply to `prompt` into prose and tool calls; `partial`: the reply is still
  // being written (llama.cpp's partial parse: a call's arguments so far; nothing when it fails).
  [[nodiscard]] ParsedReply parse_reply(const ChatPrompt& prompt, const std::string& text, bool partial = false) const;
  // Tokens whose text parse_special would read as one special token (control, user-defined).
  [[nodiscard]] const std::vector<std::string>& special_texts() const;
  // "jinja", "builtin" or "plain": what render_chat uses for this model.
  [[nodiscard]] std::string chat_template_kind() const;
  // Chat renders served from the template's render cache so far (ModelOptions::template_render_cache).
  [[nodiscard]] size_t chat_renders_reused() const;

  // Tokens whose text starts with an ASCII letter or digit or a CJK ideograph (or the UTF-8 lead
  // byte of one): written right after a complete value they would glue onto it ("Foster" + "s").
  // Computed once per model, thread-safe.
  [[nodiscard]] const std::vector<Token>& word_start_tokens() const;
  // Tokens that begin a new capitalised word: a space, then an ASCII capital (" Emma", " D").
  [[nodiscard]] const std::vector<Token>& spaced_capital_tokens() const;

  // The adapters ModelOptions::lora loaded, in its order; their index is the id requests use.
  [[nodiscard]] const std::vector<LoraInfo>& lora_adapters() const { return lora_info_; }

  [[nodiscard]] llama_model* raw() const { return model_; }
  [[nodiscard]] const llama_vocab* vocab() const { return vocab_; }

 private:
  Model(llama_model* model);
  llama_model* model_;
  const llama_vocab* vocab_;
  std::shared_ptr<const ChatTemplates> chat_;
  friend class Context;
  void load_lora(const ModelOptions& options);  // engine/lora.cpp
  std::vector<llama_adapter_lora*> lora_;       // freed with the model
  std::vector<LoraInfo> lora_info_;
  mutable std::once_flag special_once_;
  mutable std::vector<std::string> special_texts_;
  // engine/tokenize.cpp, engine/chat_literal.cpp: special texts found in one pass.
  [[nodiscard]] const SpecialScan& special_scan() const;
  // Replaces each special text in the client's strings that the template renders as markup (tools,
  // earlier calls) by `placeholder(text)`, a piece tokenised as plain text.
  void literal_specials(ChatInput& input, const std::function<std::string(std::string)>& placeholder) const;
  mutable std::once_flag special_scan_once_;
  mutable std::shared_ptr<const SpecialScan> special_scan_;
  mutable std::once_flag word_start_once_;
  mutable std::vector<Token> word_start_;
  mutable std::once_flag spaced_capital_once_;
  mutable std::vector<Token> spaced_capital_;
};

struct ContextOptions {
  uint32_t n_ctx = 4096;   // total KV cells (shared by all sequences)
  uint32_t n_batch = 512;  // tokens per llama_decode call
  int32_t n_threads = 0;   // 0 = hardware concurrency
  uint32_t n_seq_max = 1;  // parallel sequences (server slots)
  // true: one KV cache every sequence may fill; false: n_ctx / n_seq_max cells per sequence, so a
  // sequence's attention only spans its own cells (what the server's fixed-size slots want).
  bool kv_unified = true;
  bool kv_f32 = false;               // F32 K/V cache (exact comparisons in tests); default F16
  bool flash_attn = true;            // false: llama.cpp's plain softmax attention (exact comparisons in tests)
  bool flash_attn_on = false;        // require flash attention (-fa on) instead of letting llama.cpp pick
  std::string cache_type_k = "f16";  // KV cache types (quantised K/V: q8_0, q4_0, ...); kv_f32 overrides
  std::string cache_type_v = "f16";
  uint32_t n_ubatch = 0;        // physical batch; 0 = n_batch
  int32_t n_threads_batch = 0;  // threads for prompt batches; 0 = n_threads
};

// A batch of tokens over one or many sequences, decoded by one llama_decode.
class Batch {
 public:
  explicit Batch(int32_t capacity);
  ~Batch();
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;
  void clear();
  // Returns the index of the token in the batch (use it with Context::logits).
  int32_t add(Token token, int32_t pos, int32_t seq, bool want_logits);
  [[nodiscard]] int32_t size() const { return n_; }
  [[nodiscard]] int32_t capacity() const { return capacity_; }

 private:
  friend class Context;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int32_t n_ = 0;
  int32_t capacity_;
};

class Context {
 public:
  Context(const Model& model, const ContextOptions& options);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // Decodes `tokens` of sequence `seq` at positions pos, pos+1, ...; split into n_batch
  // chunks; logits are kept for the last token only (read with logits_last()).
  void decode(std::span<const Token> tokens, int32_t pos, int32_t seq = 0);
  // Decodes a prepared multi-sequence batch.
  void decode(Batch& batch);
  [[nodiscard]] const float* logits_last() const;
  [[nodiscard]] const float* logits(int32_t batch_index) const;

  // Removes positions >= pos of `seq` from the KV cache (the backtrack primitive).
  void rewind(int32_t seq, int32_t pos);
  void clear(int32_t seq);
  void clear_all();
  // Position after the last cell of seq (0 when empty).
  [[nodiscard]] int32_t seq_end(int32_t seq) const;

  // A sequence's KV cells as bytes (llama_state_seq_get_data), for a host-memory prompt cache:
  // saved from one sequence, they may be restored into any sequence of a context of the same model
  // and options. state_size is what save_state writes; save_state resizes `out` and returns false
  // when llama.cpp wrote nothing.
  [[nodiscard]] size_t state_size(int32_t seq) const;
  bool save_state(int32_t seq, std::vector<uint8_t>& out) const;
  // Replaces seq's cells with saved ones; false (seq left empty) when llama.cpp rejects them.
  bool restore_state(int32_t seq, std::span<const uint8_t> state);
  // A sequence's cells and `tokens` to a file (llama_state_seq_save_file, the format llama-server's
  // /slots save writes); the bytes written, 0 on failure.
  size_t save_file(int32_t seq, const std::string& path, std::span<const Token> tokens) const;
  // Replaces seq's cells with a file's (llama_state_seq_load_file) and reads the tokens stored with
  // them into `tokens`; the bytes read, 0 (seq left empty) when the file is missing, not such a
  // file, stores more than `max_tokens` tokens, or does not fit the cache.
  size_t load_file(int32_t seq, const std::string& path, std::vector<Token>& tokens, size_t max_tokens);

  // The scale of each of the model's LoRA adapters (Model::lora_adapters order; 0 = off) for the
  // decodes from here on. A context starts with none applied. Throws EngineError when the count
  // is not the model's; no allocation when the scales are those already applied.
  void set_lora(std::span<const float> scales);

  [[nodiscard]] uint32_t n_ctx() const;
  [[nodiscard]] uint32_t n_batch() const { return n_batch_; }
  [[nodiscard]] int32_t n_vocab() const { return n_vocab_; }
  [[nodiscard]] const Model& model() const { return model_; }

 private:
  const Model& model_;
  llama_context* ctx_;
  std::unique_ptr<Batch> batch_;  // reused by decode(span): no allocation per token
  ggml_threadpool* threadpool_ = nullptr;
  void (*threadpool_free_)(ggml_threadpool*) = nullptr;
  uint32_t n_batch_;
  int32_t n_vocab_;
  int32_t last_logits_index_ = -1;
  std::vector<float> lora_scales_;  // what set_lora last applied
};

// How an embedding pools a sequence's token vectors (llama-server's --pooling): `model` is what
// the GGUF says (its pooling_type; none for most generative models).
enum class Pooling : uint8_t { model, none, mean, cls, last };
struct EmbedderOptions {
  uint32_t n_ctx = 2048;  // the longest input, in tokens (one ubatch: pooling reads a sequence whole)
  int32_t n_threads = 0;  // 0 = hardware concurrency
  Pooling pooling = Pooling::model;
};

// Embeddings of the model's own weights through a context of its own (embeddings on, llama.cpp's
// pooling), so a served model answers /v1/embeddings beside its generation. One input at a time.
class Embedder {
 public:
  Embedder(const Model& model, const EmbedderOptions& options);
  ~Embedder();
  Embedder(const Embedder&) = delete;
  Embedder& operator=(const Embedder&) = delete;
  // The embedding of `tokens` (1..n_ctx of them, ids in the vocabulary): one vector when pooled,
  // one per token with pooling none. `normalize` is llama-server's embd_normalize (-1 none, 0 max
  // absolute int16, 1 taxicab, 2 euclidean, >2 p-norm); vectors per token are never normalised.
  [[nodiscard]] std::vector<std::vector<float>> embed(std::span<const Token> tokens, int normalize = 2);
  [[nodiscard]] bool pooled() const { return pooled_; }
  [[nodiscard]] const char* pooling_name() const;
  [[nodiscard]] int32_t n_embd() const { return n_embd_; }
  [[nodiscard]] uint32_t n_ctx() const { return n_ctx_; }

 private:
  const Model& model_;
  llama_context* ctx_ = nullptr;
  int pooling_ = 0;  // llama_pooling_type
  bool pooled_ = false;
  int32_t n_embd_ = 0;
  uint32_t n_ctx_ = 0;
};

struct SamplingOptions {
  float temperature = 0.8F;     // 0 = greedy
  int32_t top_k = 40;           // 0 = off
  float top_p = 0.95F;          // 1 = off
  float min_p = 0.05F;          // 0 = off
  uint32_t seed = 0xFFFFFFFFU;  // 0xFFFFFFFF = random
  // With a grammar: apply it to the whole vocabulary before the chain at every token. Off (the
  // default, as llama.cpp's common sampler): the chain picks first and the grammar checks only that
  // token, applied in full only when it rejects it (docs/DESIGN.md, 'Tools and structured output').
  bool grammar_first = false;
};

// The sampling options that a request and the CLI set, each defined once (sampling_options.cpp):
// request field, flag, range, help (docs/API.md, "Sampling").
using SamplingOption = util::OptionSpec<SamplingOptions>;
std::span<const SamplingOption> sampling_options();

// llama.cpp's sampler chain applied to a logits row, with two hooks the check loop needs:
// tokens banned at this position (logit -inf) and an optional allow-list (constrained decode).
class Sampler {
 public:
  Sampler(const Model& model, const SamplingOptions& options);
  ~Sampler();
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // Returns -1 when every token is banned or outside `allowed`.
  Token sample(const float* logits, std::span<const Token> banned = {}, std::span<const Token> allowed = {});
  // Rebuilds the chain at a new temperature (dynamic temperature); no-op when unchanged.
  void set_temperature(float temperature);
  [[nodiscard]] float temperature() const { return options_.temperature; }

  // Every sampled token follows `grammar` from here on (docs/DESIGN.md, 'Tools and structured
  // output'). Throws EngineError when the grammar does not parse or rejects its prefix.
  void set_grammar(const GrammarSpec& grammar);
  [[nodiscard]] bool has_grammar() const;
  // After a rewind: the grammar state of an output that holds exactly `kept`.
  void reset_grammar(std::span<const Token> kept);
  // A token written without sampling (abstain marker): false, and nothing changes, when the grammar
  // rejects it.
  bool accept_forced(Token token);
  // Engines that sample without the grammar (a remote backend): `flags[t]` = 1 where the grammar
  // allows token t next (every token when there is none, or a lazy one waits for its trigger);
  // returns how many it allows. `flags` is resized to the vocabulary.
  size_t grammar_allows(std::vector<uint8_t>& flags);

 private:
  struct Impl;
  void build_chain();
  void build_grammar();
  SamplingOptions options_;
  uint32_t rebuilds_ = 0;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sfcl::engine
