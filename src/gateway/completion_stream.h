// llama-server's /completion stream, read without building a JSON tree: the SSE framing split
// chunk by chunk, and of each event only what the gateway uses (`tokens`, `stop`, `error`, the raw
// top-N of `completion_probabilities` when asked for, and `content` and `tokens_predicted`, which
// give back the ids of tokens held inside a UTF-8 character: held_tokens.h). A backend sends one event per token, so
// this is on the gateway's per-token path: nothing here allocates once its buffers have grown.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"

namespace sfcl::gateway {

using engine::Token;

// One entry of a token's `top_logprobs` (n_probs with post_sampling_probs false): the softmax of
// the raw logits, before logit_bias and temperature. -inf where the backend wrote null.
struct TopProb {
  Token id = -1;
  double logprob = 0.0;
};

// One entry of `completion_probabilities`: the sampled token's raw log-probability (NaN when not
// sent) and its position's top-N, `all_top[top_begin, top_end)`.
struct PositionProbs {
  Token id = -1;
  double logprob = std::numeric_limits<double>::quiet_NaN();
  uint32_t top_begin = 0;
  uint32_t top_end = 0;
};

struct CompletionEvent {
  std::span<const Token> tokens;  // the ids sampled since the last event
  std::span<const TopProb> top;   // the raw top-N at the position of the last of `tokens`, most likely first
  // Every entry of `completion_probabilities`, in order, and the top-N lists they index. A call
  // not streamed has one per token (but none for a token held inside a character), a stream's
  // event one for its last token.
  std::span<const PositionProbs> positions;
  std::span<const TopProb> all_top;
  bool stop = false;       // the backend's last event
  std::string_view error;  // the `error` value as sent; empty when none
  std::string_view text;   // `content`, unescaped: the bytes the event releases
  int64_t predicted = -1;  // `tokens_predicted`: tokens sampled in the call so far; -1 when not sent
  // The raw log-probability of the last of `tokens` (as `top`'s); NaN when not sent.
  double logprob = std::numeric_limits<double>::quiet_NaN();
  // Prompt tokens the backend reused from its cache: `prompt_progress.cache` of a progress event
  // (which carries no token) or `timings.cache_n` of a call's last event; -1 when not sent.
  int32_t cached = -1;
  // Prompt tokens the backend evaluated, not taken from its cache: `timings.prompt_n` of a call's
  // last event (llama-server's); -1 when not sent.
  int32_t evaluated = -1;
};

// Every position an event reports log-probabilities for, in order, and the top-N lists they index
// (CompletionEvent::positions and all_top), where a reader keeps them.
struct PositionRows {
  std::vector<PositionProbs> positions;
  std::vector<TopProb> top;
};

// Reads one event's JSON object. Spans in `out` stay valid until the next call.
class CompletionEventParser {
 public:
  // False when `json` is not an object this reader can walk.
  bool parse(std::string_view json, CompletionEvent& out);

 private:
  std::vector<Token> tokens_;
  std::vector<TopProb> top_;  // every entry's top-N, one after the other
  std::vector<PositionProbs> positions_;
  std::string text_;
};

// Appends the bytes a JSON string's raw text (between its quotes, escapes as sent) stands for;
// false on a malformed escape.
bool unescape_json_string(std::string_view raw, std::string& out);

// Splits an SSE byte stream into the payloads of its `data:` lines, whatever the chunking. An event
// longer than `max_event_bytes` ends the stream (overflowed()): a backend that never writes the
// blank line would otherwise grow the buffer for ever.
class SseSplitter {
 public:
  explicit SseSplitter(size_t max_event_bytes = size_t{1} << 20) : max_event_bytes_(max_event_bytes) {}
  void clear() {
    pending_.clear();
    scanned_ = 0;
    overflowed_ = false;
  }
  // Calls on_data(payload) for every complete event in the bytes so far; stops and returns false
  // as soon as on_data does, or when the event being read outgrows the limit.
  template <class OnData>
  bool feed(std::string_view bytes, OnData&& on_data) {
    pending_.append(bytes);
    size_t start = 0;
    bool go_on = true;
    while (go_on) {
      // Bytes already searched are not searched again (one byte back: a "\n" that ended the last chunk).
      const size_t end = pending_.find("\n\n", std::max(start, scanned_ > 0 ? scanned_ - 1 : 0));
      if (end == std::string::npos) break;
      const std::string_view event(pending_.data() + start, end - start);
      start = end + 2;
      scanned_ = start;
      const std::string_view payload = data_of(event);
      if (!payload.empty()) go_on = on_data(payload);
    }
    pending_.erase(0, start);
    scanned_ = pending_.size();
    if (go_on && pending_.size() > max_event_bytes_) {
      overflowed_ = true;
      return false;
    }
    return go_on;
  }
  [[nodiscard]] bool empty() const { return pending_.empty(); }
  [[nodiscard]] bool overflowed() const { return overflowed_; }
  [[nodiscard]] size_t max_event_bytes() const { return max_event_bytes_; }

 private:
  // The `data:` field of one event (its only line as llama-server writes them); empty for others.
  static std::string_view data_of(std::string_view event);
  size_t max_event_bytes_;
  std::string pending_;
  size_t scanned_ = 0;  // pending_[0, scanned_) holds no event end
  bool overflowed_ = false;
};

}  // namespace sfcl::gateway
