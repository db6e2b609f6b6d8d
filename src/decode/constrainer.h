// The constrain fallback: after its retries an unsupported anchor is decoded again restricted to
// source values of its type (same field when the sources bind one), as token sequences; each
// sampled token prunes the candidates that do not continue with it.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "anchor/anchor.h"
#include "engine/engine.h"

namespace sfcl::decode {

// The label `a` is written under in `text` when the sources state values of its type (numbers:
// any numeric type) under the same label: the checker then binds it to those values, and so do
// the divergence and the candidates. Empty otherwise.
std::string_view bound_field(const anchor::SourceIndex& sources, std::string_view text, const anchor::Anchor& a);
// Source anchor `i` is stated under `field` (any field when empty).
bool in_field(const anchor::SourceIndex& sources, uint32_t i, std::string_view field);

class Constrainer {
 public:
  // A retry is skipped when the tokens that could start a source value hold less than this share
  // of the probability: below it the retry nearly always writes another unsupported value.
  static constexpr double kFutileMass = 0.05;

  // Candidates for `a`: source values of its own type under `field` (never an amount for a bare
  // number; logic: obligations only), tokenised after `prefix` (the bytes of the anchor's first
  // token before it). False when there are none.
  bool build(const engine::Model& model, const anchor::SourceIndex& sources, const anchor::Anchor& a,
             std::string_view field, std::string_view prefix);
  void add_candidate(std::vector<engine::Token> tokens) { cands_.push_back(std::move(tokens)); }
  [[nodiscard]] size_t candidate_count() const { return cands_.size(); }
  // Keeps the candidates `keep(tokens)` is true for (those the output's grammar can hold there).
  template <typename Keep>
  void retain(Keep&& keep) {
    std::erase_if(cands_,
                  [&](const std::vector<engine::Token>& c) { return !keep(std::span<const engine::Token>(c)); });
  }

  // Marks alive the candidates that begin with `kept` (the output tokens already written of the
  // value; all when empty) and are longer; false when none.
  bool keep_prefix(std::span<const engine::Token> kept);
  // Position in the candidates of the next token sampled.
  void set_depth(size_t depth) { depth_ = depth; }

  // Constrains the value starting at output token `first`, from output token `from` on.
  void start(size_t first, size_t from);
  [[nodiscard]] bool active() const { return active_; }

  struct Choice {
    std::span<const engine::Token> allowed;  // empty: any token
    std::span<const engine::Token> banned;
  };
  // What the next token may be. Once a candidate is complete the model may stop or continue a
  // longer one, but not glue a word-start token onto the value it just wrote ("Foster" + "s").
  Choice choices(std::span<const engine::Token> word_start_tokens);
  // Prunes the candidates by the sampled token; when none is left the constraint ends and the
  // value ended at byte `end_bytes` (where `tok` starts).
  void advance(engine::Token tok, size_t end_bytes);

  // At the retry's first token: no alive candidate's next token is the greedy choice
  // (temperature 0) or they hold less than kFutileMass of the probability.
  bool next_is_unlikely(const float* logits, size_t n_vocab, std::span<const engine::Token> bans, float temperature);

  // The anchor starting at output token `first` is the constrained value.
  [[nodiscard]] bool constrained(size_t first) const { return first == anchor_; }
  // `a` (starting at `first`) runs on past the end of the constrained value.
  [[nodiscard]] bool extended_by(const anchor::Anchor& a, size_t first) const {
    return constrained(first) && value_end_ > a.start && a.end > value_end_;
  }
  [[nodiscard]] size_t value_end() const { return value_end_; }
  [[nodiscard]] int32_t extension_bans() const { return extension_bans_; }
  void count_extension_ban() { ++extension_bans_; }

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);

  std::vector<std::vector<engine::Token>> cands_;
  std::vector<uint8_t> alive_;
  size_t depth_ = 0;
  bool active_ = false;
  size_t anchor_ = kNone;       // output index of the constrained value's first token
  size_t value_end_ = 0;        // byte where the constrained value ended
  int32_t extension_bans_ = 0;  // continuations banned for extending that value
  // Scratch, reused: no allocation per token.
  std::vector<engine::Token> allowed_;
  std::vector<engine::Token> glue_ban_;
  std::vector<uint8_t> ban_mask_;
};

}  // namespace sfcl::decode
