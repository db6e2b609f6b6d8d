#include "server/runtime/scheduler.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <optional>

#include "report/report.h"

namespace sfcl::server {

namespace {
// This thread's CPU time: on a busy machine the wall time of a phase also counts the time other
// threads held its core.
int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

engine::ContextOptions context_options(const SchedulerOptions& options) {
  engine::ContextOptions c = options.context;
  c.n_ctx = options.n_ctx_per_slot * static_cast<uint32_t>(options.n_parallel);
  c.n_batch = options.n_batch;
  c.n_threads = options.n_threads;
  c.n_seq_max = static_cast<uint32_t>(options.n_parallel);
  // Slots never outgrow n_ctx_per_slot, whichever KV layout holds them.
  c.kv_unified = options.kv_unified;
  return c;
}
}  // namespace

Scheduler::Scheduler(const engine::Model& model, const SchedulerOptions& options)
    : model_(model),
      options_(options),
      owned_ctx_(std::make_unique<engine::Context>(model, context_options(options))),
      ctx_(owned_ctx_.get()) {
  if (options.cache_ram_mib > 0) prompt_cache_ = std::make_unique<PromptCache>(size_t{options.cache_ram_mib} << 20);
  init_slots();
}

Scheduler::Scheduler(const engine::Model& model, engine::Context& ctx, const SchedulerOptions& options)
    : model_(model), options_(options), ctx_(&ctx) {
  if (options.cache_ram_mib > 0) prompt_cache_ = std::make_unique<PromptCache>(size_t{options.cache_ram_mib} << 20);
  init_slots();
}

void Scheduler::init_slots() {
  slots_.resize(static_cast<size_t>(options_.n_parallel));
  rewinds_ = std::make_unique<DeferredRewind[]>(slots_.size());
  for (size_t i = 0; i < slots_.size(); ++i) rewinds_[i].n_ctx_ = ctx_->n_ctx();
  workers_ = std::make_unique<TokenWorkers>(options_.check_threads > 0 ? options_.check_threads : auto_check_threads());
  states_.resize(slots_.size());
  for (int32_t i = 0; i < options_.n_parallel; ++i) {
    slots_[static_cast<size_t>(i)].id = i;
    states_[static_cast<size_t>(i)] = {i, static_cast<int32_t>(options_.n_ctx_per_slot), false, -1, 0};
  }
  thread_ = std::thread([this] { loop(); });
}

void Scheduler::count_decode(const std::vector<SlotTake>& plan) {
  decodes_.fetch_add(1, std::memory_order_relaxed);
  for (const SlotTake& t : plan) {
    if (t.tokens <= 0) continue;
    slots_fed_.fetch_add(1, std::memory_order_relaxed);
    const Slot& s = slots_[static_cast<size_t>(t.slot)];
    // This thread alone writes it; readers take any recent value.
    const int64_t end = s.seq->pending_pos() + static_cast<int64_t>(s.fed);
    if (end > longest_sequence_.load(std::memory_order_relaxed)) longest_sequence_.store(end);
    // Before token_work samples the first output token: the tokens fed so far are the prompt's.
    if (s.seq->output_tokens().empty()) report_prompt_progress(*s.job, static_cast<int32_t>(end));
  }
}

void Scheduler::one_lora_per_step(std::span<int32_t> waiting, size_t first) {
  const std::vector<float>* chosen = nullptr;
  for (size_t k = 0; k < slots_.size(); ++k) {
    const size_t i = (first + k) % slots_.size();
    if (waiting[i] <= 0) continue;
    if (chosen == nullptr) {
      chosen = &slots_[i].lora;
    } else if (slots_[i].lora != *chosen) {
      waiting[i] = 0;
    }
  }
  if (chosen != nullptr) ctx_->set_lora(*chosen);
}

std::vector<SlotState> Scheduler::slot_states() const {
  std::lock_guard lock(states_mu_);
  return states_;
}

Scheduler::~Scheduler() {
  try {
    stop();
  } catch (const std::exception& e) {  // ending the jobs failed (out of memory): nothing is left to tell
    std::fprintf(stderr, "sfcl: scheduler stop: %s\n", e.what());
  }
}

void Scheduler::stop() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stop_) return;
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  for (auto& s : slots_) {
    if (s.job) finish(s, "server shutting down");
  }
  for (auto& j : queue_) j->channel.fail("server shutting down");
  queue_.clear();
  for (auto& a : actions_) a.done.set_value({"server shutting down", false, 0, 0, 0});
  actions_.clear();
}

bool Scheduler::submit(const std::shared_ptr<Job>& job) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stop_) return false;  // stop() walks the queue without the lock once it is set
    drop_cancelled(queue_);
    // --queue counts requests waiting beyond the free slots.
    const int32_t free_slots = options_.n_parallel - busy_.load();
    if (static_cast<int32_t>(queue_.size()) >= options_.queue_limit + std::max(0, free_slots)) return false;
    queue_.push_back(job);
  }
  cv_.notify_one();
  return true;
}

SchedulerStats Scheduler::stats() const {
  SchedulerStats s;
  {
    std::lock_guard<std::mutex> lk(mu_);
    // A job whose client left is not waiting for anything (submit drops it).
    s.queued = static_cast<int32_t>(
        std::count_if(queue_.begin(), queue_.end(), [](const auto& j) { return !j->channel.cancelled(); }));
  }
  s.busy_slots = busy_.load();
  s.prompt_tokens = prompt_tokens_.load();
  s.reused_tokens = reused_tokens_.load();
  s.cache_hits = cache_hits_.load();
  s.cache_restored_tokens = cache_restored_tokens_.load();
  s.cache_saves = cache_saves_.load();
  s.cache_bytes = cache_bytes_.load();
  s.cache_entries = cache_entries_.load();
  s.decodes = decodes_.load();
  s.slots_fed = slots_fed_.load();
  s.longest_sequence = longest_sequence_.load();
  s.decode_ns = decode_ns_.load();
  s.token_work_ns = token_work_ns_.load();
  s.token_work_cpu_ns = token_work_cpu_ns_.load();
  s.token_steps = token_steps_.load();
  return s;
}

void Scheduler::finish(Slot& slot, const std::string& error) {
  auto job = slot.job;
  if (slot.seq) {
    // What the KV cache now holds: prompt + accepted output, up to the cache's end.
    const auto& p = slot.seq->prompt_tokens();
    const auto& o = slot.seq->output_tokens();
    slot.cached.assign(p.begin(), p.end());
    slot.cached.insert(slot.cached.end(), o.begin(), o.end());
    const auto end = static_cast<size_t>(std::max(0, ctx_->seq_end(slot.id)));
    if (!error.empty() || end > slot.cached.size()) {
      ctx_->clear(slot.id);
      slot.cached.clear();
    } else {
      slot.cached.resize(end);
    }
  }
  {
    std::lock_guard lock(states_mu_);
    SlotState& state = states_[static_cast<size_t>(slot.id)];
    state.is_processing = false;
    state.n_cached = static_cast<int32_t>(slot.cached.size());
  }
  decode::Result result;
  if (slot.seq) result = slot.seq->result();
  using ms = std::chrono::duration<double, std::milli>;
  const auto now = std::chrono::steady_clock::now();
  if (job->first_text != std::chrono::steady_clock::time_point{}) {
    result.prompt_ms = ms(job->first_text - job->admitted_at).count();
    result.predicted_ms = ms(now - job->first_text).count();
  } else if (job->admitted_at != std::chrono::steady_clock::time_point{}) {
    result.prompt_ms = ms(now - job->admitted_at).count();  // no text: all of it was the prompt's
  }
  if (slot.seq && job->metrics != nullptr && error.empty())
    job->metrics->generation(result, job->channel.cached_tokens());
  if (job->want_events && error.empty()) {
    // The loop reports checked anchors as it goes; ones no source could check (unverifiable) are
    // delivered too, and get their event here, before the end.
    for (const auto& a : result.anchors) {
      if (a.checked) continue;
      JobEvent ev;
      ev.kind = JobEvent::Kind::anchor_checked;
      ev.data = report::unchecked_anchor_event(a);
      job->channel.push_event(std::move(ev));
    }
  }
  // Free the slot before telling the client, so a response never races ahead of the slot count.
  slot.job.reset();
  slot.seq.reset();
  slot.fed = 0;
  --busy_;
  if (error.empty()) {
    job->channel.finish(std::move(result));
  } else {
    job->channel.fail(error);
  }
}

namespace {
size_t common_prefix(const std::vector<engine::Token>& a, const std::vector<engine::Token>& b) {
  size_t n = 0;
  const size_t m = std::min(a.size(), b.size());
  while (n < m && a[n] == b[n]) ++n;
  return n;
}

}  // namespace

void Scheduler::admit() {
  while (true) {
    std::shared_ptr<Job> job;
    {
      std::lock_guard<std::mutex> lk(mu_);
      const auto it = next_admissible();
      if (it == queue_.end()) return;
      job = *it;
      queue_.erase(it);
    }
    if (job->channel.cancelled()) {
      job->channel.finish({});
      continue;
    }
    const auto& adapters = model_.lora_adapters();
    if (job->lora.size() != adapters.size()) {  // the scales the adapters were loaded with
      job->lora.clear();
      for (const auto& a : adapters) job->lora.push_back(a.scale);
    }
    candidates_.clear();
    candidate_slots_.clear();
    for (auto& s : slots_) {
      if (s.job || (job->id_slot >= 0 && s.id != job->id_slot)) continue;
      // Cells computed under other adapter scales hold other keys and values: nothing to reuse.
      const size_t shared = s.lora == job->lora ? common_prefix(s.cached, job->prompt) : 0;
      candidates_.push_back({shared, s.cached.size(), s.last_used});
      candidate_slots_.push_back(&s);
    }
    const size_t pick = pick_slot(candidates_);
    Slot* best = candidate_slots_[pick];
    size_t best_len = candidates_[pick].shared;
    best->last_used = ++admissions_;
    if (prompt_cache_) best_len = use_prompt_cache(*best, *job, best_len);
    best->lora = job->lora;
    const auto reuse = static_cast<int32_t>(std::min(best_len, job->prompt.size() - 1));
    ctx_->rewind(best->id, reuse);
    best->cached.resize(static_cast<size_t>(reuse));
    best->job = job;
    best->fed = 0;
    ++busy_;
    prompt_tokens_ += static_cast<int64_t>(job->prompt.size());
    reused_tokens_ += reuse;
    job->options.n_ctx_seq = static_cast<int32_t>(options_.n_ctx_per_slot);
    best->seq = std::make_unique<decode::Sequence>(model_, job->options, *job->sources, job_event_sink(job));
    job->admitted_at = std::chrono::steady_clock::now();
    job->sequence = best->seq.get();
    best->seq->start(job->prompt, best->id, reuse);
    job->channel.mark_admitted(reuse);
    job->progress_cache = reuse;
    report_prompt_progress(*job, reuse);  // llama-server's first report: nothing processed beyond the cache
    {
      std::lock_guard lock(states_mu_);
      SlotState& state = states_[static_cast<size_t>(best->id)];
      state.is_processing = true;
      if (!job->warm_up) state.id_task = static_cast<int64_t>(admissions_);
    }
    if (best->seq->done()) finish(*best);
  }
}

std::deque<std::shared_ptr<Job>>::iterator Scheduler::next_admissible() {
  bool any_free = false;
  for (const auto& s : slots_) any_free = any_free || !s.job;
  if (!any_free) return queue_.end();
  // A job bound to a busy slot (id_slot) waits without holding up the jobs behind it.
  return std::find_if(queue_.begin(), queue_.end(), [&](const std::shared_ptr<Job>& j) {
    return j->id_slot < 0 || j->channel.cancelled() || !slots_[static_cast<size_t>(j->id_slot)].job;
  });
}

size_t Scheduler::use_prompt_cache(Slot& slot, const Job& job, size_t shared) {
  const size_t keep = std::min(shared, job.prompt.size() - 1);
  // Saved only when the slot is about to lose most of what it holds (llama-server's rule too):
  // a slot that keeps most of its cache for this prompt still serves the old prefix.
  if (slot.cached.size() >= options_.cache_min_tokens && keep < slot.cached.size() / 2) {
    const size_t bytes = ctx_->state_size(slot.id);
    if (prompt_cache_->save(
            slot.cached, bytes, [&](std::vector<uint8_t>& out) { return ctx_->save_state(slot.id, out); }, slot.lora)) {
      ++cache_saves_;
    }
  }
  // Restored when it spares at least kMinRestoreGain tokens over the slot's own prefix, however
  // short the prompt (cache_min_tokens bounds what is worth saving, not what is worth restoring),
  // and at least an eighth of the saved state: a restore copies the whole state back, which on a
  // GPU costs more than decoding a few tokens of a long document's shared header.
  constexpr size_t kMinRestoreGain = 16;
  size_t common = 0;
  const PromptCache::Entry* e = prompt_cache_->find(job.prompt, shared + kMinRestoreGain - 1, common, job.lora);
  if (e != nullptr && common - shared < e->tokens.size() / 8) e = nullptr;
  if (e != nullptr) {
    if (ctx_->restore_state(slot.id, e->state)) {
      slot.cached = e->tokens;
      shared = common;
      ++cache_hits_;
      cache_restored_tokens_ += static_cast<int64_t>(std::min(common, job.prompt.size() - 1));
    } else {
      prompt_cache_->drop(e);
      slot.cached.clear();
      shared = 0;
    }
  }
  cache_bytes_ = static_cast<int64_t>(prompt_cache_->bytes());
  cache_entries_ = static_cast<int32_t>(prompt_cache_->entries());
  return shared;
}

void Scheduler::DeferredRewind::rewind(int32_t seq, int32_t pos) {
  seq_ = seq;
  pos_ = pos_ < 0 ? pos : std::min(pos_, pos);
}

void Scheduler::DeferredRewind::apply(engine::Context& ctx) {
  if (pos_ >= 0) ctx.rewind(seq_, pos_);
  pos_ = -1;
}

void Scheduler::token_work(std::vector<Ready>& ready) {
  // Here, one at a time: llama_get_logits_ith synchronises the context.
  for (Ready& r : ready) {
    r.slot->fed = 0;
    r.logits = ctx_->logits(r.index);
  }
  auto work = [&](size_t k) {
    Ready& r = ready[k];
    try {
      r.slot->seq->on_logits(r.logits, rewinds_[static_cast<size_t>(r.slot->id)]);
    } catch (const std::exception& e) {
      r.failed = true;
      try {
        r.error = e.what();
      } catch (const std::exception&) {  // out of memory even for the message
        r.error.clear();
      }
    }
  };
  workers_->run(ready.size(), work);
  for (Ready& r : ready) {
    Slot& s = *r.slot;
    rewinds_[static_cast<size_t>(s.id)].apply(*ctx_);
    if (r.failed) {
      finish(s, r.error.empty() ? std::string("out of memory") : r.error);
    } else if (s.seq->done()) {
      finish(s);
    }
  }
}

void Scheduler::loop() {
  engine::Batch batch(static_cast<int32_t>(options_.n_batch));
  std::vector<Ready> ready;
  std::vector<int32_t> waiting(slots_.size());
  std::vector<uint8_t> first_token_held(slots_.size());
  std::vector<SlotTake> plan;
  std::vector<uint64_t> admitted(slots_.size());
  size_t rr = 0;  // round-robin start of the decodes' share when they outnumber the budget
  bool deferred = false;  // the last step ran without the prompts (defer_prompts)
  while (true) {
    {
      std::unique_lock<std::mutex> lk(mu_);
      cv_.wait(lk, [&] { return stop_ || !queue_.empty() || !actions_.empty() || busy_.load() > 0; });
      if (stop_) return;
    }
    run_slot_actions();
    admit();
    batch.clear();
    ready.clear();
    for (size_t i = 0; i < slots_.size(); ++i) {
      Slot& s = slots_[i];
      waiting[i] = 0;
      first_token_held[i] = 0;
      admitted[i] = s.last_used;
      if (!s.job) continue;
      if (s.job->channel.cancelled()) {
        s.seq->cancel();
        finish(s);
        continue;
      }
      waiting[i] = static_cast<int32_t>(s.seq->pending().size() - s.fed);
      first_token_held[i] = s.seq->output_tokens().size() == 1 && s.seq->result().text.empty() ? 1 : 0;
    }
    if (!model_.lora_adapters().empty()) one_lora_per_step(waiting, rr);
    deferred = defer_prompts(waiting, first_token_held, deferred);
    plan_step(waiting, admitted, rr, static_cast<int32_t>(options_.n_batch), plan);
    rr = (rr + 1) % slots_.size();
    for (const SlotTake& t : plan) {
      Slot& s = slots_[static_cast<size_t>(t.slot)];
      const auto pend = s.seq->pending();
      const int32_t pos0 = s.seq->pending_pos();
      for (size_t i = 0; i < static_cast<size_t>(t.tokens); ++i) {
        const size_t at = s.fed + i;
        const bool last = at + 1 == pend.size();
        const int32_t idx = batch.add(pend[at], pos0 + static_cast<int32_t>(at), s.id, last);
        if (last) ready.push_back({&s, idx, nullptr, false, {}});
      }
      s.fed += static_cast<size_t>(t.tokens);
    }
    if (batch.size() == 0) continue;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      ctx_->decode(batch);
    } catch (const std::exception& e) {
      for (auto& s : slots_) {
        if (s.job) finish(s, e.what());
      }
      continue;
    }
    const auto t1 = std::chrono::steady_clock::now();
    const int64_t cpu1 = thread_cpu_ns();
    count_decode(plan);
    token_work(ready);
    const auto t2 = std::chrono::steady_clock::now();
    decode_ns_.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count(),
                         std::memory_order_relaxed);
    token_work_ns_.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(t2 - t1).count(),
                             std::memory_order_relaxed);
    token_work_cpu_ns_.fetch_add(thread_cpu_ns() - cpu1, std::memory_order_relaxed);
    token_steps_.fetch_add(static_cast<int64_t>(ready.size()), std::memory_order_relaxed);
  }
}

}  // namespace sfcl::server
