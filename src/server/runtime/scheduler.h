// The serving engine: N slots decoded together (continuous batching, one llama_decode per step),
// a bounded queue, per-slot prefix reuse of the KV cache, cancellation when a client goes away.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "decode/decode.h"
#include "metrics/metrics.h"
#include "server/runtime/job.h"
#include "server/runtime/job_runner.h"
#include "server/runtime/options.h"
#include "server/runtime/prompt_cache.h"
#include "server/runtime/token_workers.h"

namespace sfcl::server {

// One step's share of the batch for one slot.
struct SlotTake {
  int32_t slot = 0;
  int32_t tokens = 0;
};
// Shares `budget` batch tokens between slots with `waiting[i]` tokens to feed and returns the
// shares in increasing slot order (llama.cpp with per-sequence KV streams decodes a batch in one
// pass over the weights only when its sequence ids come in increasing order).
// Slots with one token (a running answer's next step) go first, from slot `first` round-robin when
// there are more of them than the budget holds; then prompts (and the tokens a backtrack feeds
// again) take the rest one after the other in the order their requests were admitted
// (`admitted[i]`, lower first). Feeding one prompt whole before the next, as llama-server does,
// gives the first of several arriving prompts its first token after its own prompt; sharing the
// budget among all of them gives every one its first token after all of them. A decode never
// waits for a prompt, and while prompts wait the decodes leave them an eighth of the budget
// (at least a token), so a server with more slots than batch tokens still admits new prompts.
void plan_step(std::span<const int32_t> waiting, std::span<const uint64_t> admitted, size_t first, int32_t budget,
               std::vector<SlotTake>& out);

// A slot that has sampled its first token and still holds its text back (`first_token_held[i]`,
// docs/DESIGN.md 'Hold-back and emission') most often needs one more token to release it, and a
// step that also processes a prompt takes as long as many decode steps. So while such a slot waits
// for that token, the prompts (`waiting[i]` > 1) sit out the step: their entries are set to 0 and
// true is returned. The step after the one that sampled a first token is then a decode step, and a
// first text held one token waits one decode step, not a prompt's. Never two steps in a row
// (`deferred_last_step`): a first token comes from a step that fed a prompt, so this bounds what
// prompts lose to one decode step per step that fed them.
bool defer_prompts(std::span<int32_t> waiting, std::span<const uint8_t> first_token_held, bool deferred_last_step);

// A free slot as a new prompt sees it: the prefix its cache shares with the prompt, the tokens it
// caches, and when it last took a request.
struct SlotCandidate {
  size_t shared = 0;
  size_t cached = 0;
  uint64_t last_used = 0;
};
// The index in `free` (not empty) of the slot a prompt takes: the one whose cache saves more tokens
// than the prompt throws away of it, most first; when none does, an empty slot, else the least
// recently used (llama-server's fallback). So a prompt that shares only a chat template's header
// with a slot does not evict that slot's document while another slot is empty.
size_t pick_slot(std::span<const SlotCandidate> free);

class Scheduler final : public JobRunner {
 public:
  // Owns a context made for `options` (per-slot KV streams).
  Scheduler(const engine::Model& model, const SchedulerOptions& options);
  // Decodes on `ctx`, which must outlive the scheduler and hold n_parallel sequences.
  Scheduler(const engine::Model& model, engine::Context& ctx, const SchedulerOptions& options);
  ~Scheduler() override;
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // False when the queue is full (the caller answers 429).
  bool submit(const std::shared_ptr<Job>& job) override;
  [[nodiscard]] SchedulerStats stats() const override;
  [[nodiscard]] std::vector<SlotState> slot_states() const override;
  std::future<SlotActionResult> slot_action(SlotAction action) override;
  [[nodiscard]] const SchedulerOptions& options() const { return options_; }
  void stop() override;

 private:
  struct Slot {
    int32_t id = 0;
    std::shared_ptr<Job> job;
    std::unique_ptr<decode::Sequence> seq;
    size_t fed = 0;                     // tokens of seq->pending() already in the batch
    std::vector<engine::Token> cached;  // tokens in this slot's KV cache (prefix reuse)
    uint64_t last_used = 0;             // admissions counter when it last took a request
    std::vector<float> lora;            // the LoRA scales `cached` was computed under
  };
  // A slot whose last batch token was decoded at `index`: its logits there, and what its work
  // after the decode threw.
  struct Ready {
    Slot* slot = nullptr;
    int32_t index = 0;
    const float* logits = nullptr;
    bool failed = false;
    std::string error;
  };
  // What a sequence's step rewinds, applied to the context once the step's work is done (the
  // sequences of one step run side by side; llama.cpp's KV cache takes one caller at a time).
  class DeferredRewind final : public decode::Engine {
   public:
    void rewind(int32_t seq, int32_t pos) override;
    [[nodiscard]] size_t n_ctx() const override { return n_ctx_; }
    void apply(engine::Context& ctx);
    size_t n_ctx_ = 0;

   private:
    int32_t seq_ = -1;
    int32_t pos_ = -1;  // the lowest rewound position; -1: none
  };
  void init_slots();  // slots_, states_ and the thread, once options_ and ctx_ are set
  void loop();
  // After a decode: each ready slot's sampling and checks (on the token workers), then its
  // rewinds and, when it is done or failed, its end.
  void token_work(std::vector<Ready>& ready);
  // After a decode: the llamacpp:* totals, and prompt_progress for the slots fed prompt tokens.
  void count_decode(const std::vector<SlotTake>& plan);
  // llama.cpp applies one set of LoRA scales to a whole batch: a step feeds only the slots whose
  // job runs under the scales of the first waiting slot from `first` on (the others' `waiting`
  // becomes 0: they wait a step), and applies those scales to the context.
  void one_lora_per_step(std::span<int32_t> waiting, size_t first);
  void admit();
  // The queued job admit() takes next (under mu_): the first whose slot (id_slot) is free, or
  // that takes any slot while one is free; queue_.end() when none can start.
  std::deque<std::shared_ptr<Job>>::iterator next_admissible();
  // The slot actions whose slot is free, run in the order they came (scheduler_slots.cpp).
  void run_slot_actions();
  SlotActionResult run_slot_action(const SlotAction& action);
  void finish(Slot& slot, const std::string& error = {});
  // Before a slot gives up most of its cache for `job`: saves it to the prompt cache, then restores
  // a saved state sharing a longer prefix with the prompt than the slot does. Returns the prefix
  // the slot now shares with the prompt.
  size_t use_prompt_cache(Slot& slot, const Job& job, size_t shared);

  const engine::Model& model_;
  SchedulerOptions options_;
  std::unique_ptr<engine::Context> owned_ctx_;
  engine::Context* ctx_;
  std::vector<Slot> slots_;
  std::unique_ptr<DeferredRewind[]> rewinds_;  // one per slot
  std::unique_ptr<TokenWorkers> workers_;
  std::vector<SlotCandidate> candidates_;  // admit()'s, reused
  std::vector<Slot*> candidate_slots_;
  uint64_t admissions_ = 0;
  std::deque<std::shared_ptr<Job>> queue_;
  struct PendingAction {
    SlotAction action;
    std::promise<SlotActionResult> done;
  };
  std::deque<PendingAction> actions_;  // under mu_
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::atomic<int32_t> busy_{0};
  std::atomic<int64_t> prompt_tokens_{0};
  std::atomic<int64_t> reused_tokens_{0};
  std::unique_ptr<PromptCache> prompt_cache_;  // null when --cache-ram is 0
  std::atomic<int64_t> cache_hits_{0};
  std::atomic<int64_t> cache_restored_tokens_{0};
  std::atomic<int64_t> cache_saves_{0};
  std::atomic<int64_t> cache_bytes_{0};
  std::atomic<int32_t> cache_entries_{0};
  // Batch decodes, the slots they fed, the longest sequence a slot reached (SchedulerStats).
  std::atomic<int64_t> decodes_{0};
  std::atomic<int64_t> slots_fed_{0};
  std::atomic<int64_t> longest_sequence_{0};
  std::atomic<int64_t> decode_ns_{0};
  std::atomic<int64_t> token_work_ns_{0};
  std::atomic<int64_t> token_work_cpu_ns_{0};
  std::atomic<int64_t> token_steps_{0};
  // What slot_states() reads: written at admission and finish only (never per token).
  mutable std::mutex states_mu_;
  std::vector<SlotState> states_;
  std::thread thread_;
};

}  // namespace sfcl::server
