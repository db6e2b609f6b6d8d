// sfcl::decode — the Semantic Fidelity Check Loop for one sequence: decode, sample, detokenise,
// watch anchors, hold back unchecked text, check each completed anchor and backtrack locally
// (KV rewind + ban) when it is unsupported. The state lives in Sequence so a server can drive
// many of them through one batched llama_decode per step.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "anchor/anchor.h"
#include "engine/engine.h"
#include "util/option_spec.h"
#include "verify/verify.h"

namespace sfcl::decode {

using engine::Token;

enum class Mode : uint8_t { off, anchor, per_token };
enum class Fallback : uint8_t { constrain, flag, abstain };
enum class StopReason : uint8_t { end_turn, max_tokens, stop_sequence };

bool parse_mode(std::string_view s, Mode& out);
bool parse_fallback(std::string_view s, Fallback& out);
std::string_view mode_name(Mode m);
std::string_view fallback_name(Fallback f);
std::string_view stop_reason_name(StopReason r);
bool parse_stop_reason(std::string_view s, StopReason& out);
// Every name of each enum, in enum order (for CLI choices and error messages).
std::span<const std::string_view> mode_names();
std::span<const std::string_view> fallback_names();
std::span<const std::string_view> stop_reason_names();

struct Options {
  Mode mode = Mode::anchor;
  int32_t max_tokens = 256;    // hard limit on delivered tokens
  int32_t max_backtracks = 2;  // retries per unsupported anchor before its fallback
  Fallback fallback = Fallback::constrain;
  verify::CheckerOptions checker;  // the threshold default lives there
  bool dynamic_temperature = false;
  std::vector<std::string> stop;
  engine::SamplingOptions sampling;
  // Output follows this grammar (tools, structured output); it follows every rewind too.
  engine::GrammarSpec grammar;
  // Written in place of a value the sources do not support when nothing of its type can be grounded
  // (abstain fallback, or constrain with no candidate); the Chinese marker after Chinese text.
  std::string abstain_marker = "[not in the sources]";
  std::string abstain_marker_zh = "[来源未提及]";
  int32_t n_ctx_seq = 0;  // positions this sequence may use (0 = the whole context)
  // Test and research hook: may edit the logits row before sampling (bans still win).
  std::function<void(std::span<float> logits, std::span<const Token> output)> logit_hook;
  // Called after every anchor check (metrics): anchor, result, check duration in ns.
  std::function<void(const anchor::Anchor&, const verify::CheckResult&, int64_t ns)> on_check;
  // Log-probabilities of the delivered tokens (OpenAI logprobs): -1 off; otherwise each token's own
  // and its `logprobs` most likely alternatives (at most TokenLogprob::kMaxTop).
  int32_t logprobs = -1;
};

// The check options, each defined once (check_options.cpp): a request's "sfcl" fields, the flags
// of sfcl serve, generate and anchors check (docs/API.md, "The `sfcl` request options").
using CheckOption = util::OptionSpec<Options>;
std::span<const CheckOption> check_options();

// One delivered output token's log-probability under the logits it was sampled from (after
// Options::logit_hook, before bans, sampler settings and grammar): a regenerated token carries the
// one it was sampled with, and a token a rewind removed has none.
struct TokenLogprob {
  static constexpr int32_t kMaxTop = 20;
  struct Alternative {
    Token token = -1;
    float logprob = 0.0F;
    std::string piece;  // the token's bytes (may end inside a UTF-8 character)
  };
  Token token = -1;
  float logprob = 0.0F;
  std::string piece;
  uint32_t offset = 0;           // byte offset of the token's text in the output text
  std::vector<Alternative> top;  // most likely first, Options::logprobs of them
};

// One checked anchor of the output.
struct AnchorRecord {
  std::string id;         // entity_001, struct_json_002, logic_003
  anchor::Anchor anchor;  // offsets into the output text
  std::string text;
  verify::Verdict verdict = verify::Verdict::unverifiable;
  float confidence = 0.0F;
  bool checked = false;
  bool flagged = false;                          // kept although unsupported (fallback flag / budget spent)
  bool constrained = false;                      // produced by the constrain fallback
  bool other_field = false;                      // unsupported: a source value, but stated under another field's label
  int32_t attempts = 0;                          // backtracks spent on this anchor
  verify::Reason reason = verify::Reason::none;  // unsupported: absent, mismatch or other_field
  verify::Derivation derivation = verify::Derivation::none;  // derived: the computation
  bool verbatim = false;                                     // confirmed as written in a source
  std::string role;  // confirmed: the role it matched (CheckResult::role); empty = `role: null`
  int32_t support_source = -1;                               // source index (-1 = knowledge base) when confirmed
  uint32_t support_start = 0;
  uint32_t support_end = 0;
};

struct Event {
  enum class Kind : uint8_t { token, anchor_confirmed, backtrack, fallback, anchor_checked };
  Kind kind = Kind::token;
  std::string_view text;  // token: emitted text; backtrack: removed text
  const AnchorRecord* anchor = nullptr;
  std::span<const TokenLogprob> logprobs;  // token: the tokens this text completes (Options::logprobs)
  std::string_view reason;                 // backtrack, fallback: absent, mismatch or other_field
  int32_t attempt = 0;                     // backtrack
  Fallback policy = Fallback::flag;        // fallback
};
using EventSink = std::function<void(const Event&)>;

struct Stats {
  int64_t anchors_seen = 0;
  std::array<int64_t, verify::kVerdictCount> verdicts{};  // by verify::Verdict
  int64_t backtracks = 0;
  int64_t backtracks_resolved = 0;  // backtracks whose anchor ended confirmed
  int64_t regenerated_tokens = 0;
  int64_t fallbacks = 0;
  int64_t decoded_tokens = 0;      // sampled tokens, regenerated ones included
  int64_t cached_rewinds = 0;      // rewinds resampled from cached logits (no llama_decode)
  int64_t grammar_rejections = 0;  // remote engines: sampled tokens the grammar did not take
  int64_t checks = 0;
  int64_t check_ns_total = 0;
  int64_t check_ns_max = 0;
  int64_t scan_ns_total = 0;  // finding anchors: incremental lexing (anchor), sentence re-scans (per-token)
  double confidence_sum = 0.0;
  [[nodiscard]] int64_t checked() const {
    return verdicts[static_cast<size_t>(verify::Verdict::confirmed)] +
           verdicts[static_cast<size_t>(verify::Verdict::unsupported)] +
           verdicts[static_cast<size_t>(verify::Verdict::derived)];
  }
};

struct Result {
  std::string text;
  StopReason stop_reason = StopReason::end_turn;
  std::string stop_sequence;
  int32_t prompt_tokens = 0;
  int32_t cached_tokens = 0;
  int32_t output_tokens = 0;
  Stats stats;
  std::vector<AnchorRecord> anchors;
  int32_t logprobs = -1;                     // Options::logprobs
  std::vector<TokenLogprob> token_logprobs;  // of the delivered tokens, in order (Options::logprobs >= 0)
  // Whether the check ran against sources; the status line clients get (anchor_count, avg_backtrack,
  // constrained, unverifiable of the delivered anchors) is report::status_line, one function for
  // generate, serve, the gateway, the playground and the signature.
  bool active = false;
  // Set by the server's scheduler (llama-server's timings): from the slot taking the job to its
  // first token (the prompt's prefill), and from there to the end.
  double prompt_ms = 0;
  double predicted_ms = 0;
};

// What the loop needs of the engine it runs on besides logits: a rewind and the context size.
// Two implementations: a local llama.cpp context (on_logits) and a remote OpenAI-compatible
// backend that samples tokens itself (on_token; the gateway, docs/DESIGN.md, 'Gateway').
class Engine {
 public:
  Engine() = default;
  virtual ~Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  // Removes positions >= pos of `seq`: the accepted prefix is now shorter (a backtrack).
  virtual void rewind(int32_t seq, int32_t pos) = 0;
  [[nodiscard]] virtual size_t n_ctx() const = 0;
};

// What the next output token may be, for an engine that samples it itself (a remote backend).
struct NextToken {
  std::optional<Token> forced;     // written without sampling (an abstain marker; -1: the output ends)
  std::span<const Token> banned;   // must not be sampled
  std::span<const Token> allowed;  // when not empty: only these (constrain fallback, grammar)
  float temperature = 0.0F;        // the sampler's now (dynamic temperature changes it)
  [[nodiscard]] bool free() const { return !forced && banned.empty() && allowed.empty(); }
};

// What a remote engine reported of the distribution a token was taken from (Options::logprobs), on
// the same terms as TokenLogprob: the model's raw distribution there. NaN where it reported none
// (the entry's logprob is then NaN, which JSON writes as null).
struct ReportedLogprob {
  float logprob = std::numeric_limits<float>::quiet_NaN();  // of the token passed with it
  std::span<const std::pair<Token, float>> top;             // most likely first; may be empty
};

// Per-sequence state of the check loop.
class Sequence {
 public:
  // `sources`: the request's SourceIndex (prompt, documents, knowledge); must outlive this.
  Sequence(const engine::Model& model, const Options& options, const anchor::SourceIndex& sources, EventSink sink);
  ~Sequence();
  Sequence(const Sequence&) = delete;
  Sequence& operator=(const Sequence&) = delete;

  // prompt: tokens of the templated prompt; `reused`: leading tokens already in the KV cache of
  // `seq` (prefix reuse).
  void start(std::vector<Token> prompt, int32_t seq, int32_t reused);
  // Input the next llama_decode must process for this sequence (empty when done).
  [[nodiscard]] std::span<const Token> pending() const;
  [[nodiscard]] int32_t pending_pos() const;
  [[nodiscard]] int32_t seq() const;
  // Call after the pending input was decoded; `logits` of its last token.
  void on_logits(const float* logits, engine::Context& ctx);
  // The same, rewinding through `engine` (the server's scheduler collects the rewinds of a step's
  // sequences, checked side by side, and applies them to the context after them).
  void on_logits(const float* logits, Engine& engine);
  [[nodiscard]] bool done() const;

  // Remote engines, which sample themselves: what the token at output position
  // output_tokens().size() may be (valid until the next call into the sequence) ...
  [[nodiscard]] NextToken next_token();
  // ... and the token the engine sampled there under it. The sequence may rewind (engine.rewind),
  // or not take the token (output_tokens() did not grow: ask again under next_token()).
  void on_token(Token token, Engine& engine);
  // ... the same, with what the engine reported of the distribution there (Options::logprobs; a
  // token taken with plain on_token gets an entry with a NaN logprob and no alternatives).
  void on_token(Token token, Engine& engine, const ReportedLogprob& reported);
  // Stops early (client gone); result() stays valid.
  void cancel();
  [[nodiscard]] const Result& result() const;
  [[nodiscard]] const std::vector<Token>& prompt_tokens() const;
  [[nodiscard]] const std::vector<Token>& output_tokens() const;

 private:
  void step(const float* logits, engine::Context& ctx);  // one sampled token (on_logits, replays)
  struct State;
  std::unique_ptr<State> s_;
};

// Runs one sequence to completion on a context (seq 0). Throws engine::EngineError.
Result generate(engine::Context& ctx, const std::vector<Token>& prompt, const Options& options,
                const anchor::SourceIndex& sources, const EventSink& sink = {});

// Zero-width and stop-sequence helpers (exposed for tests).
struct StopMatch {
  size_t start = std::string::npos;  // first byte of the match (npos = none)
  size_t end = 0;
  size_t partial = std::string::npos;  // start of a possible match cut by the end of text
  size_t which = 0;
};
// What a request may ask of the stop-sequence scan, which runs on the decode thread at every token
// (the API refuses more): a match spans at most 3 bytes of text per byte of its stop sequence
// (a newline variant), so the scan after each token reads a bounded window.
inline constexpr size_t kMaxStops = 16;
inline constexpr size_t kMaxStopBytes = 512;
// Finds the earliest stop sequence in text[from, ...); newline variants (\n, \r\n, \r, U+2028,
// U+2029, U+0085) all match a '\n' in a stop sequence.
StopMatch find_stop(std::string_view text, size_t from, const std::vector<std::string>& stops);

}  // namespace sfcl::decode
