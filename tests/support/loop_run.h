// One check-loop generation over a source document, with what the client would see: the streamed
// chunks and the backtrack/fallback events. Shared by the loop tests on every vocabulary.
#pragma once
#include <string>
#include <vector>

#include "decode/decode.h"

namespace sfcl::test {

struct LoopRun {
  decode::Result result;
  std::string streamed;
  std::vector<std::string> chunks;
  int backtrack_events = 0;
  int fallback_events = 0;
  std::vector<std::string> backtrack_reasons;
};

// Generates from "<source>\nAnswer:" with `source` as the only source text.
inline LoopRun run_loop(const engine::Model& model, const std::string& source, const decode::Options& opt,
                        const engine::ContextOptions& context = {1024, 128, 1, 1}) {
  anchor::SourceIndex index;
  index.add_source(source);
  const auto prompt = model.tokenize(source + "\nAnswer:", true, false);
  engine::Context ctx(model, context);
  LoopRun r;
  r.result = decode::generate(ctx, prompt, opt, index, [&](const decode::Event& e) {
    if (e.kind == decode::Event::Kind::token) {
      r.chunks.emplace_back(e.text);
      r.streamed += e.text;
    }
    if (e.kind == decode::Event::Kind::backtrack) {
      ++r.backtrack_events;
      r.backtrack_reasons.emplace_back(e.reason);
    }
    if (e.kind == decode::Event::Kind::fallback) ++r.fallback_events;
  });
  return r;
}

// Greedy decoding in `mode`, at most `max_tokens`.
inline decode::Options greedy(decode::Mode mode, int32_t max_tokens = 48) {
  decode::Options o;
  o.mode = mode;
  o.max_tokens = max_tokens;
  o.sampling.temperature = 0.0F;
  return o;
}

}  // namespace sfcl::test
