// POST /slots/{id}?action=save|restore|erase on the local scheduler (job_runner.h, SlotAction):
// queued by the HTTP thread, run on the scheduler thread (the only one that touches the context)
// when the slot has no request, as llama-server defers them.
#include <chrono>

#include "server/runtime/scheduler.h"
#include "server/runtime/slot_file.h"

namespace sfcl::server {

std::future<SlotActionResult> Scheduler::slot_action(SlotAction action) {
  PendingAction p{std::move(action), {}};
  auto done = p.done.get_future();
  if (p.action.slot < 0 || p.action.slot >= options_.n_parallel) {
    p.done.set_value({"id_slot " + std::to_string(p.action.slot) + " is not a slot of this server (0 to " +
                          std::to_string(options_.n_parallel - 1) + "; GET /slots lists them)",
                      true, 0, 0, 0});
    return done;
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stop_) {
      p.done.set_value({"server shutting down", false, 0, 0, 0});
      return done;
    }
    actions_.push_back(std::move(p));
  }
  cv_.notify_one();
  return done;
}

void Scheduler::run_slot_actions() {
  while (true) {
    std::optional<PendingAction> next;
    {
      std::lock_guard<std::mutex> lk(mu_);
      for (auto it = actions_.begin(); it != actions_.end(); ++it) {
        if (slots_[static_cast<size_t>(it->action.slot)].job) continue;  // busy: deferred
        next.emplace(std::move(*it));
        actions_.erase(it);
        break;
      }
    }
    if (!next) return;
    SlotActionResult r;
    try {
      r = run_slot_action(next->action);
    } catch (const std::exception& e) {  // out of memory reading a file: the slot is left empty
      ctx_->clear(next->action.slot);
      slots_[static_cast<size_t>(next->action.slot)].cached.clear();
      r = {std::string("the slot action failed: ") + e.what(), false, 0, 0, 0};
    }
    next->done.set_value(std::move(r));
  }
}

SlotActionResult Scheduler::run_slot_action(const SlotAction& a) {
  Slot& slot = slots_[static_cast<size_t>(a.slot)];
  const auto t0 = std::chrono::steady_clock::now();
  SlotActionResult r;
  switch (a.kind) {
    case SlotAction::Kind::save: {
      const std::vector<engine::Token> packed = pack_slot_tokens(slot.cached);
      r.n_tokens = slot.cached.size();
      r.n_bytes = ctx_->save_file(slot.id, a.path, packed);
      if (r.n_bytes == 0) r.error = "unable to save slot " + std::to_string(slot.id) + " to its file";
      break;
    }
    case SlotAction::Kind::restore: {
      std::vector<engine::Token> packed;
      // The packed form adds a header of three words and a media count to the tokens.
      r.n_bytes = ctx_->load_file(slot.id, a.path, packed, options_.n_ctx_per_slot + kSlotTokensOverhead);
      std::vector<engine::Token> tokens;
      std::string why;
      if (r.n_bytes == 0) {
        why = "not a slot file of this model's cache, or more than the slot's " +
              std::to_string(options_.n_ctx_per_slot) + " tokens";
      } else if (!unpack_slot_tokens(packed, model_.n_vocab(), tokens, why)) {
        r.n_bytes = 0;
      } else if (tokens.size() > options_.n_ctx_per_slot) {
        why = "it holds " + std::to_string(tokens.size()) + " tokens, more than the slot's " +
              std::to_string(options_.n_ctx_per_slot);
      } else if (static_cast<size_t>(std::max(0, ctx_->seq_end(slot.id))) != tokens.size()) {
        why = "its cells do not match the tokens stored with them";
      }
      if (!why.empty()) {
        ctx_->clear(slot.id);
        slot.cached.clear();
        r.error = "unable to restore slot " + std::to_string(slot.id) + ": " + why;
        r.bad_request = true;
        r.n_bytes = 0;
        break;
      }
      slot.cached = std::move(tokens);
      // The file does not say which LoRA scales its cells were computed under: the adapters' own.
      slot.lora.clear();
      for (const auto& adapter : model_.lora_adapters()) slot.lora.push_back(adapter.scale);
      r.n_tokens = slot.cached.size();
      break;
    }
    case SlotAction::Kind::erase:
      r.n_tokens = slot.cached.size();
      ctx_->clear(slot.id);
      slot.cached.clear();
      break;
  }
  {
    std::lock_guard lock(states_mu_);
    states_[static_cast<size_t>(slot.id)].n_cached = static_cast<int32_t>(slot.cached.size());
  }
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace sfcl::server
