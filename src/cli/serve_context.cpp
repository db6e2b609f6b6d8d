#include "cli/serve_context.h"

#include <string>

#include "cli/commands.h"

namespace sfcl::cli {

namespace {
constexpr uint32_t pad256(uint32_t n) { return (n + 255U) / 256U * 256U; }
}  // namespace

ContextFlags add_context_size_flags(CLI::App& cmd, server::SchedulerOptions& s) {
  ContextFlags f;
  // llama-server's -np -1 ("auto") is 4 slots, sfcl's default.
  cmd.add_option_function<int32_t>(
         "--parallel", [&s](const int32_t& n) { s.n_parallel = n < 0 ? 4 : n; },
         "(-np) Slots decoded together (continuous batching); -1 = auto (4)")
      ->default_str(std::to_string(s.n_parallel))
      ->check(CLI::Range(-1, 256) & !CLI::IsMember({0}));
  f.per_slot = cmd.add_option("--ctx", s.n_ctx_per_slot,
                              "Context tokens per slot (sfcl's; also llama-server's --kv-unified-per-slot)")
                   ->capture_default_str()
                   ->check(CLI::Range(64, 1 << 20));
  f.total = cmd.add_option("-c,--ctx-size", *f.total_tokens,
                           "Context tokens in all, split over the slots as llama-server does: each of the --parallel "
                           "slots gets the total / --parallel, rounded up to a multiple of 256 (default: 4096 per "
                           "slot, see --ctx)")
                ->check(CLI::Range(1U, 1U << 24));
  cmd.add_option("-b,--batch,--batch-size", s.n_batch, "Tokens per llama_decode step (logical batch)")
      ->capture_default_str()
      ->check(CLI::Range(16, 1 << 16));
  return f;
}

uint32_t per_slot_context(uint32_t total, int32_t n_parallel) {
  return pad256(pad256(total) / static_cast<uint32_t>(n_parallel));
}

void resolve_context_size(const CLI::App& cmd, const ContextFlags& flags, server::SchedulerOptions& s) {
  if (flags.total->count() == 0) return;
  // parse_order() lists every occurrence; the last of the two options wins.
  for (auto it = cmd.parse_order().rbegin(); it != cmd.parse_order().rend(); ++it) {
    if (*it == flags.per_slot) return;  // --ctx came later; CLI11 already stored it
    if (*it == flags.total) break;
  }
  const uint32_t per_slot = per_slot_context(*flags.total_tokens, s.n_parallel);
  if (per_slot < 64) {
    throw UsageError("-c/--ctx-size " + std::to_string(*flags.total_tokens) + " over " + std::to_string(s.n_parallel) +
                     " slots leaves " + std::to_string(per_slot) + " tokens per slot (64 at least)");
  }
  s.n_ctx_per_slot = per_slot;
}

}  // namespace sfcl::cli
