// The state of one sequence's check loop, private to src/decode: the parts it coordinates
// (each in its own file) and the policy that ties them. loop.cpp holds the per-token path and the
// Sequence facade, backtrack.cpp the backtrack and fallback policy.
#pragma once
#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "decode/abstainer.h"
#include "decode/backtracker.h"
#include "decode/constrainer.h"
#include "decode/decode.h"
#include "decode/grammar_gate.h"
#include "decode/logit_cache.h"
#include "decode/output_text.h"
#include "decode/sentence_scanner.h"

namespace sfcl::decode {

struct Sequence::State {
  // Checks whose mean confidence sets the dynamic temperature: enough to smooth one odd anchor,
  // few enough to follow a change of topic within an answer.
  static constexpr size_t kConfidenceWindow = 8;

  State(const engine::Model& m, const Options& o, const anchor::SourceIndex& src, EventSink s);

  const engine::Model& model;
  Options opt;
  const anchor::SourceIndex& sources;
  EventSink sink;
  verify::Checker checker;
  engine::Sampler sampler;
  anchor::Incremental lexer;

  std::vector<Token> prompt;
  OutputText output;
  // The stop-sequence scan: text before stop_scan cannot start a match (each position was read
  // up to a mismatch), so a token re-reads only what a partial match holds back; a rewind moves
  // it back by stop_span, the most bytes a match can cover.
  size_t stop_scan = 0;
  size_t stop_span = 0;
  int32_t seq = 0;
  std::vector<Token> input;  // what the next llama_decode processes
  int32_t input_pos = 0;
  bool finished = false;
  bool active = false;    // checking anchors (any mode but off)
  bool grounded = false;  // the request has source text: status "active", else "inactive"
  Result res;

  Backtracker backtracker;
  Constrainer constrainer;
  Abstainer abstainer;
  SentenceScanner sentences;
  LogitCache cache;
  GrammarGate grammar_gate;            // remote engines: the tokens the grammar rejected at this position
  std::optional<size_t> replay_index;  // set by a rewind that hit the cache: sample here from it

  // A retry whose first token is checked before it is sampled (see Constrainer::next_is_unlikely)
  struct RetryCheck {
    size_t index = 0;  // output position of the retry's first token
    size_t first = 0;  // the anchor's first token
    anchor::Anchor anchor;
    std::string text;  // the unsupported value
  };
  std::optional<RetryCheck> retry;

  std::vector<anchor::Anchor> new_anchors;        // completed by the last token (anchor mode)
  int32_t emitted_extension_bans = 0;             // continuations banned for extending an emitted anchor
  std::array<float, kConfidenceWindow> recent{};  // confidences of the last checks (dynamic temperature)
  size_t n_recent = 0;
  std::vector<float> hooked;  // logits edited by Options::logit_hook
  std::vector<float> onehot;  // remote engines: the retry check's row
  // Options::logprobs: one entry per output token (truncated on rewind); the first
  // res.token_logprobs.size() are delivered, with the text that completes them.
  std::vector<TokenLogprob> logprobs;

  [[nodiscard]] bool anchor_mode() const { return opt.mode == Mode::anchor && active; }
  [[nodiscard]] std::string_view text_of(const anchor::Anchor& a) const { return output.slice(a.start, a.end); }

  // ---------------------------------------------------------------- output
  // Which tokens' logprobs go out with emitted text: those whose text is all out, or at the end all
  // of them (`stopped`: all before the stop sequence).
  enum class Delivery : uint8_t { whole, end, stopped };
  void emit(size_t limit, Delivery delivery = Delivery::whole);
  // Appends the logprobs of the tokens delivered now; returns how many.
  size_t deliver_logprobs(Delivery delivery);
  void record_logprob(std::span<const float> logits, Token tok, size_t index);
  // Remote engines: the entry from what the engine reported (NaN when nothing).
  void record_reported(Token tok, size_t index);
  const ReportedLogprob* reported = nullptr;  // on_token's, while it runs ...
  Token reported_token = -1;                  // ... and the token it came with

  // Emission limit: before any unchecked anchor (aligned to its token) and any partial stop.
  [[nodiscard]] size_t stable_limit() const;

  void append_token(Token tok);

  // Keeps output tokens [0, index) and sets the input that gets logits for position `index`.
  void rewind(Engine& ctx, size_t index);

  // The llama boundary: positions are int32_t there.
  void set_input(Engine& ctx, std::span<const Token> tokens, size_t pos);

  // ---------------------------------------------------------------- records and events
  // The record of `a` as written (or with `text` instead, for a value that was replaced).
  [[nodiscard]] AnchorRecord make_record(const anchor::Anchor& a, std::string_view text = {}) const;

  void record(const anchor::Anchor& a, const verify::CheckResult& r, size_t first, bool flagged);

  void backtrack_event(const anchor::Anchor& a, const verify::CheckResult& r, int32_t attempt);

  void fallback_event(const anchor::Anchor& a, Fallback policy, std::string_view failed = {},
                      verify::Reason reason = verify::Reason::none);

  // ---------------------------------------------------------------- checks
  // Every check goes through here, so the stats and Options::on_check see all of them.
  verify::CheckResult timed_check(const anchor::Anchor& a);
  void abstain(const anchor::Anchor& a, const verify::CheckResult& r, size_t first, Engine& ctx);
  // The marker that stands for `a` (its language's), as the tokens that write it at output token
  // `first`: the bytes of that token before the anchor, then the marker.
  [[nodiscard]] std::vector<Token> marker_tokens(const anchor::Anchor& a, size_t first, std::string& marker) const;
  // Whether the output's grammar lets `tokens` be written at output token `first` (no grammar: yes).
  // A JSON number or a bounded string has no room for "[not in the sources]".
  bool grammar_takes(size_t first, std::span<const Token> tokens);
  // The same, leaving the grammar in the state after them (the caller puts it back).
  bool grammar_accepts(size_t first, std::span<const Token> tokens);
  // A forced marker token the grammar rejected: the marker is not written, its record goes, and
  // what is written in its place is checked like any value.
  void marker_rejected();

  // Counts a seen anchor's verdict (and feeds dynamic temperature when `confidence`).
  void count(const verify::CheckResult& r, bool confidence);

  void note_confidence(const verify::CheckResult& r);

  // ---------------------------------------------------------------- backtracking
  // The token where the anchor departs from every source value of its type: the anchor's first
  // token when no source value shares its beginning. Banning the anchor's first token instead
  // would make the right value unreachable whenever it shares that token with the wrong one
  // ("$", "INV-2024-", "Section "), so every such retry would fail by construction.
  [[nodiscard]] size_t divergence_token(const anchor::Anchor& a, size_t first) const;

  // The constrained value is grounded by construction; when what follows it makes the lexer read
  // a longer anchor that is not an exact source value ("Henry Hughes" + " Inc.", which n-gram
  // similarity may even accept), that continuation is banned and resampled.
  bool ban_constrained_extension(const anchor::Anchor& a, size_t first, Engine& ctx);

  // An emitted anchor that the text after a rewind extends into one the sources do not support:
  // emitted text stays, so the first token after it is banned and decoded again.
  bool reject_emitted_extension(const anchor::Anchor& a, Engine& ctx);

  // The bytes of the anchor's first token that precede the anchor (a token may start before it).
  [[nodiscard]] std::string first_token_prefix(const anchor::Anchor& a, size_t first) const;

  // Candidates of the constrain fallback for `a`, alive when they begin with output [first, upto).
  bool build_candidates(const anchor::Anchor& a, size_t first);
  bool keep_prefix(size_t first, size_t upto);

  // A retry is worth its tokens only if the model can write a source value at the divergence: for
  // the constrain fallback, the first token of the retry is checked before it is sampled.
  void prepare_retry_check(const anchor::Anchor& a, size_t first, size_t rewind_to);

  // Backtrack or fall back for an unsupported anchor; true when the sequence was rewound.
  bool handle_unsupported(const anchor::Anchor& a, const verify::CheckResult& r, size_t first, size_t rewind_to,
                          Engine& ctx);

  // ---------------------------------------------------------------- modes
  // anchor::Anchor mode: check anchors the lexer just completed. True when rewound.
  bool process_anchor_mode(Engine& ctx);

  bool check_new_anchors(Engine& ctx);

  // Per-token (legacy) mode: re-scan and re-check the whole current sentence at every token.
  bool process_per_token(Engine& ctx, bool final);

  bool process(Engine& ctx, bool final);

  void finish(StopReason reason);

  // End of generation: flush anchors only the end proves complete. False when rewound.
  bool finalize(Engine& ctx, StopReason reason);

  // ---------------------------------------------------------------- sampling
  Token next_token(const float* logits);

  // One sampled token (on_logits, replays).
  void step(const float* logits, Engine& ctx);
  // Remote engines: what the next token may be, and the token the engine sampled under it.
  NextToken next_constraint();
  void step_sampled(Token sampled, Engine& ctx);
  // The token for the next position, however it was chosen.
  // `logits`: the row `tok` was sampled from (logprobs); null when a remote engine sampled it.
  void take(Token tok, Engine& ctx, const float* logits = nullptr);
  void after_token(Token tok, Engine& ctx);
};

}  // namespace sfcl::decode
