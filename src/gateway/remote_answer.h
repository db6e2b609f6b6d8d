// One answer of the gateway's RemoteScheduler (remote_answer.cpp, remote_call.cpp): the job's check
// loop on tokens the backends sample, call by call. Private to those two files.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gateway/greedy_pick.h"
#include "gateway/remote_scheduler.h"
#include "gateway/top_rows.h"

namespace sfcl::gateway {

// llama-server adds a logit_bias to the logits; an allow-list (constrain fallback) is a bias that
// lifts the allowed tokens above every other, which keeps their order: greedy picks what the local
// loop would, and sampling sees their relative probabilities unchanged.
inline constexpr float kAllowBias = 100.0F;
inline constexpr float kScriptBias = 1000.0F;  // as the local test hook (server/app/admission.cpp)
inline constexpr float kProbeBias = 1000.0F;   // outweighs every logit: a probe call's token is the end of generation
inline constexpr float kBanned = -std::numeric_limits<float>::infinity();
// Streams that end with no token before the job fails (a backend that stops at once).
inline constexpr int kMaxEmptyStreams = 3;
// Calls in a row whose tokens the loop did not take (the grammar rejected them) before the job
// fails: a backend that honours logit_bias never returns a token banned there, so every refusal
// bans another one; one that ignores it would be asked for ever.
inline constexpr int kMaxRefusedCalls = 256;
// Raw top tokens asked per position: two tell a free position (the best, and whether it ties).
inline constexpr int32_t kTopN = 4;
// Sampled answers draw a banned position in the gateway only for a chain this narrow (its top_k):
// the call asks for 4 * top_k + 8 raw top tokens of each position, so that top_k of them remain
// after a ban that takes most of the likeliest (the word-start ban after a number: digits).
inline constexpr int32_t kMaxDrawTopK = 64;
// A free call asks for raw top tokens only if it may go on this far (or to the answer's end).
inline constexpr int32_t kMinFreeRawWindow = 256;
// Decisions at one position from its top tokens (the loop may not take a token and constrain).
inline constexpr int kMaxDecisionsPerPosition = 4;

// A rewind reaches the backend through this: the accepted prefix got shorter, so the stream in
// flight no longer continues it.
class RemoteEngine final : public decode::Engine {
 public:
  explicit RemoteEngine(size_t n_ctx) : n_ctx_(n_ctx) {}
  void rewind(int32_t /*seq*/, int32_t /*pos*/) override { rewound = true; }
  [[nodiscard]] size_t n_ctx() const override { return n_ctx_; }
  bool rewound = false;

 private:
  size_t n_ctx_;
};

// A backend call the pool may abort while it runs (Pool::begin_call).
class CallGuard {
 public:
  CallGuard(Pool& pool, size_t backend, BackendClient& client) : pool_(pool), backend_(backend), client_(client) {
    client_.arm();  // before the pool can abort it: an abort from then on holds
    pool_.begin_call(backend_, &client_);
  }
  ~CallGuard() { pool_.end_call(backend_, &client_); }
  CallGuard(const CallGuard&) = delete;
  CallGuard& operator=(const CallGuard&) = delete;

 private:
  Pool& pool_;
  size_t backend_;
  BackendClient& client_;
};

// One job's answer. Its states: the loop steps (step) until the sequence is done or the answer
// fails; a step writes a token the loop can decide itself, or makes one backend call (plan_call,
// call), whose streamed tokens the loop takes one by one (take) until the stream no longer
// continues its output, and whose end decides what follows (after_call).
class RemoteScheduler::Answer {
 public:
  Answer(RemoteScheduler& s, const std::shared_ptr<server::Job>& job,
         std::vector<std::unique_ptr<BackendClient>>& clients);
  // The backend slot goes back on every path, an exception's too.
  ~Answer();
  Answer(const Answer&) = delete;
  Answer& operator=(const Answer&) = delete;
  // Runs the loop to its end and finishes the job.
  void run();

 private:
  enum class Next : uint8_t { go_on, stop };
  // What one backend call is: planned from the loop's next position, then what its stream did.
  struct Call {
    size_t at = 0;        // the output position it starts at
    bool single = false;  // one token: constrained, or the test script's
    bool raw = false;     // asks for the raw top tokens of each position (greedy)
    bool drawn = false;   // sampled: its first position is drawn in the gateway from its top tokens
    bool loose = false;   // its first position's ban is checked here, not sent
    bool rewind_call = false;
    bool loose_refused = false;  // its first token: banned, and the top tokens there cannot say
    size_t taken = 0;
    size_t received = 0;
    bool first = true;
  };

  Next step();
  void admit(int32_t cached);
  std::optional<Token> draw(std::span<const TopProb> top, const decode::NextToken& now);
  void write(Token t, double sampled_logprob = kUnknownLogprob);
  std::optional<Token> pick_locally(const decode::NextToken& now);
  bool have_backend();
  void probe_row(size_t pos);
  Call plan_call(const decode::NextToken& next);
  StreamResult call(Call& c);
  bool on_event(Call& c, const CompletionEvent& ev);
  bool take(Call& c, Token sampled, std::span<const TopProb> top, double sampled_logprob);
  std::optional<Token> choose(Call& c, Token sampled, std::span<const TopProb> top, size_t pos, int decision);
  Next after_call(const Call& c, const StreamResult& r);

  RemoteScheduler& s_;
  const std::shared_ptr<server::Job>& job_;
  std::vector<std::unique_ptr<BackendClient>>& clients_;
  decode::Sequence seq_;
  // Admitted (the stream's head goes out) at the first call's first event, which tells the prompt
  // tokens the backend reused from its cache (as a local slot's admission does); a job that ends
  // before any call is admitted by its end.
  bool admitted_ = false;
  int32_t error_status_ = 500;
  std::string error_;
  RemoteEngine engine_;
  int32_t raw_window_;
  uint64_t affinity_;
  std::chrono::steady_clock::duration wait_;
  std::optional<size_t> backend_;  // the pool's slot this answer holds
  // Read at every chunk a backend sends: its client left, or the gateway stops.
  std::function<bool()> gone_;
  std::optional<size_t> avoid_;
  int32_t failovers_ = 0;
  int empty_streams_ = 0;
  int refused_calls_ = 0;
  bool after_rewind_ = false;
  // The position where a call without its bans returned no token the loop could take (none: max).
  size_t loose_refused_at_ = std::numeric_limits<size_t>::max();
  // The last call's stream ended inside a UTF-8 character: tokens it sampled never arrived.
  bool lost_ = false;
  std::chrono::steady_clock::time_point rewound_at_{};
  CompletionRequest req_;
  // Greedy answers without a bias of the request's own: the raw order is the loop's order, so the
  // loop can check a constrained call's later tokens, and decide positions whose raw top tokens it
  // has, itself (docs/SCALING.md, "Calls").
  bool raw_ok_;
  TopRows rows_;
  size_t decided_at_ = std::numeric_limits<size_t>::max();
  int decisions_ = 0;
  // OpenAI logprobs: every call asks for the raw top tokens too (n_probs), whose log-probabilities
  // are those sfcl serve reports (docs/SCALING.md, "Log-probabilities").
  int32_t logprobs_;
  std::vector<std::pair<Token, float>> reported_top_;
  // Sampled answers (temperature > 0, the chain's top_k on, the same conditions otherwise): a call
  // under a ban does not send it either; the loop draws that position itself from the raw top
  // tokens the backend reports there, with a sampler of its own built as `sfcl serve`'s
  // (docs/SCALING.md, "Calls"). Not with logprobs asked (a drawn token past the 20 kept per
  // position would have none) nor on a protocol that reports fewer top tokens than a draw asks
  // for (BackendProtocol::reports_wide_top: vLLM caps logprobs at 20 by default).
  int32_t top_k_;
  bool draw_ok_;
  uint64_t calls_made_ = 0;                // this answer's calls so far (their seeds)
  std::optional<engine::Sampler> drawer_;  // made at the first draw, with a seed of its own
  std::optional<DrawScratch> draw_scratch_;
  // llama-server reports no log-probability for a token whose text ends inside a UTF-8 character
  // (it holds the token back). Such a token is not written from the stream: a one-token call at
  // its position whose token is the end of generation, which the backend does report, gives the
  // position's raw top tokens, then the token the stream sampled is written with its value from
  // there (not drawn again, which would skew what is sampled at temperature > 0) and the answer
  // goes on (docs/SCALING.md, "Log-probabilities").
  std::optional<size_t> probe_at_;
  Token probe_token_ = -1;
  CompletionRequest probe_;
};

}  // namespace sfcl::gateway
