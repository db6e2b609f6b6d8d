// Scripted model output for check-loop tests: a logit hook that makes a real model (random
// weights) write a given text token by token, so a test decides what the "mistake" is while the
// loop itself (KV rewind, bans, constrained decode, hold-back) runs unchanged.
#pragma once
#include <algorithm>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace sfcl::test {

using LogitHook = std::function<void(std::span<float>, std::span<const engine::Token>)>;

// Tokens whose pieces spell exactly `text`. A SentencePiece vocabulary with add_space_prefix puts a
// space before the first word when it tokenises, which a model writing the text would not.
inline std::vector<engine::Token> tokens_spelling(const engine::Model& model, const std::string& text) {
  std::vector<engine::Token> toks = model.tokenize(text, false, false);
  std::string spelled;
  for (engine::Token t : toks) model.append_piece(t, spelled);
  if (spelled.size() == text.size() + 1 && spelled.starts_with(' ') && spelled.substr(1) == text && !text.empty() &&
      text[0] == ' ') {
    toks = model.tokenize(text.substr(1), false, false);
  }
  return toks;
}

// Makes the model write `text` as long as its output follows it, then end.
inline LogitHook script(const engine::Model& model, const std::string& text) {
  auto toks = std::make_shared<std::vector<engine::Token>>(tokens_spelling(model, text));
  const auto eos = static_cast<size_t>(model.eos());
  return [toks, eos](std::span<float> logits, std::span<const engine::Token> out) {
    if (out.size() >= toks->size()) {
      logits[eos] += 1000.0F;  // end after the script
      return;
    }
    if (!std::equal(out.begin(), out.end(), toks->begin())) return;
    logits[static_cast<size_t>((*toks)[out.size()])] += 1000.0F;
  };
}

// Follows `text`, and ends the output as soon as it ends with `end_after` (the value a backtrack
// or the constrain fallback should have written instead).
inline LogitHook script_until(const engine::Model& model, const std::string& text, const std::string& end_after) {
  auto follow = script(model, text);
  const engine::Model* m = &model;
  return [follow, m, end_after](std::span<float> logits, std::span<const engine::Token> out) {
    std::string written;
    for (engine::Token t : out) m->append_piece(t, written);
    if (written.ends_with(end_after)) logits[static_cast<size_t>(m->eos())] += 1000.0F;
    follow(logits, out);
  };
}

}  // namespace sfcl::test
