// What the routes submit generation jobs to: the local Scheduler (one model, batched slots) or the
// gateway's remote scheduler (OpenAI-compatible backends). Both run the same check loop.
#pragma once
#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace sfcl::server {

struct Job;

struct SchedulerStats {
  int32_t busy_slots = 0;
  int32_t queued = 0;
  int64_t prompt_tokens = 0;
  int64_t reused_tokens = 0;
  // Host-memory prompt cache (local scheduler only): restores into a slot, the prompt tokens they
  // supplied (also counted in reused_tokens), states saved, and what it holds now.
  int64_t cache_hits = 0;
  int64_t cache_restored_tokens = 0;
  int64_t cache_saves = 0;
  int64_t cache_bytes = 0;
  int32_t cache_entries = 0;
  // Batch decode calls since the start, the slots those calls fed (their sum), and the longest
  // sequence (prompt + output) a slot held.
  int64_t decodes = 0;
  int64_t slots_fed = 0;
  int64_t longest_sequence = 0;
  // Where the scheduler thread's time goes (ns): wall time inside llama_decode, and wall and
  // thread CPU time in the work after it for each slot whose logits it produced (sampling,
  // detokenising, the lexer, the checker, writing to the stream); `token_steps` counts those
  // slots' steps (docs/SCALING.md).
  int64_t decode_ns = 0;
  int64_t token_work_ns = 0;
  int64_t token_work_cpu_ns = 0;
  int64_t token_steps = 0;
};

// One slot as GET /slots reports it (llama-server's fields that sfcl has).
struct SlotState {
  int32_t id = 0;
  int32_t n_ctx = 0;
  bool is_processing = false;
  int64_t id_task = -1;  // the admission that took it last (-1: none yet)
  int32_t n_cached = 0;  // tokens its KV cache holds for prefix reuse, as of its last request's end
};

// POST /slots/{id}?action=save|restore|erase, as llama-server's: a slot's KV cells and the tokens
// they hold written to `path`, read back from it into a slot (any slot of a server of the same
// model and options), or dropped. Runs when the slot has no request.
struct SlotAction {
  enum class Kind : uint8_t { save, restore, erase };
  Kind kind = Kind::save;
  int32_t slot = 0;
  std::string path;  // save, restore
};
struct SlotActionResult {
  std::string error;         // empty: done
  bool bad_request = false;  // the error is the request's (400), not the server's (500)
  size_t n_tokens = 0;       // saved, restored or erased
  size_t n_bytes = 0;        // written or read
  double ms = 0;
};

class JobRunner {
 public:
  JobRunner() = default;
  virtual ~JobRunner() = default;
  JobRunner(const JobRunner&) = delete;
  JobRunner& operator=(const JobRunner&) = delete;

  // False when the queue is full (the caller answers 429).
  virtual bool submit(const std::shared_ptr<Job>& job) = 0;
  [[nodiscard]] virtual SchedulerStats stats() const = 0;
  // Ends every job (they fail with "server shutting down"); idempotent.
  virtual void stop() = 0;
  // Why this runner cannot serve a request's logprobs (`logit_bias`: the request has one of its
  // own); empty when it can.
  [[nodiscard]] virtual std::string logprobs_refusal(bool /*logit_bias*/) const { return {}; }
  // Why no job can be served now (the gateway: no backend is healthy), so requests get 503 at once
  // and /health says so; empty when jobs can be served.
  [[nodiscard]] virtual std::string unavailable() const { return {}; }
  // The runner's slots (none for runners without slots of their own, such as the gateway's).
  [[nodiscard]] virtual std::vector<SlotState> slot_states() const { return {}; }
  // Runs `action` once its slot is free (runners without slots of their own answer at once).
  virtual std::future<SlotActionResult> slot_action(SlotAction /*action*/) {
    std::promise<SlotActionResult> p;
    p.set_value({"this server's slots are its backends': save and restore them there", true, 0, 0, 0});
    return p.get_future();
  }
};

}  // namespace sfcl::server
