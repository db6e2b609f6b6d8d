#include "metrics/llamacpp.h"

#include <algorithm>

namespace sfcl::metrics {

namespace {
prometheus::Counter& counter(prometheus::Registry& reg, const char* name, const char* help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(reg).Add({});
}
prometheus::Gauge& gauge(prometheus::Registry& reg, const char* name, const char* help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(reg).Add({});
}
}  // namespace

// Names and help as llama-server (tools/server/server-task.cpp, to_metrics) writes them.
LlamaCppFamilies::LlamaCppFamilies(prometheus::Registry& reg)
    : prompt_tokens_(
          counter(reg, "llamacpp:prompt_tokens_total", "Number of prompt tokens processed, excluding cached tokens")),
      prompt_cached_(
          counter(reg, "llamacpp:prompt_tokens_cached_total", "Number of prompt tokens reused from the cache")),
      prompt_seconds_(counter(reg, "llamacpp:prompt_seconds_total", "Total time spent processing prompts")),
      predicted_(counter(reg, "llamacpp:tokens_predicted_total", "Number of generation tokens processed")),
      predicted_seconds_(counter(reg, "llamacpp:tokens_predicted_seconds_total", "Total time spent generating tokens")),
      decodes_(counter(reg, "llamacpp:n_decode_total", "Total number of llama_decode() calls")),
      tokens_max_(counter(reg, "llamacpp:n_tokens_max", "Largest observed sequence length (prompt + generation)")),
      prompt_rate_(gauge(reg, "llamacpp:prompt_tokens_seconds", "Average prompt throughput in tokens/s")),
      predicted_rate_(gauge(reg, "llamacpp:predicted_tokens_seconds", "Average generation throughput in tokens/s")),
      processing_(gauge(reg, "llamacpp:requests_processing", "Number of requests processing")),
      deferred_(gauge(reg, "llamacpp:requests_deferred", "Number of requests deferred")),
      busy_per_decode_(
          gauge(reg, "llamacpp:n_busy_slots_per_decode", "Average number of busy slots per llama_decode() call")) {
  // sfcl has no speculative decoding: its counters stay at 0, present for dashboards that sum them.
  counter(reg, "llamacpp:spec_decode_num_draft_tokens_total", "Speculative: Total draft tokens generated");
  counter(reg, "llamacpp:spec_decode_num_accepted_tokens_total",
          "Speculative: Total draft tokens accepted by the target model");
  counter(reg, "llamacpp:spec_decode_num_drafts_total", "Speculative: Total speculative decoding verification steps");
}

void LlamaCppFamilies::generation(int32_t prompt_decoded, int32_t cached, double prompt_ms, int32_t output_tokens,
                                  double predicted_ms) {
  prompt_tokens_.Increment(std::max(0, prompt_decoded));
  prompt_cached_.Increment(std::max(0, cached));
  prompt_seconds_.Increment(std::max(0.0, prompt_ms) / 1e3);
  predicted_.Increment(std::max(0, output_tokens));
  predicted_seconds_.Increment(std::max(0.0, predicted_ms) / 1e3);
  window_prompt_tokens_ += std::max(0, prompt_decoded);
  window_prompt_ms_ += std::max(0.0, prompt_ms);
  window_steps_ += std::max(0, output_tokens - 1);
  window_predicted_ms_ += std::max(0.0, predicted_ms);
}

void LlamaCppFamilies::embedded(int64_t tokens, int64_t decodes, double ms) {
  prompt_tokens_.Increment(static_cast<double>(std::max<int64_t>(0, tokens)));
  prompt_seconds_.Increment(std::max(0.0, ms) / 1e3);
  decodes_.Increment(static_cast<double>(std::max<int64_t>(0, decodes)));  // apart from the schedulers' totals
  window_prompt_tokens_ += static_cast<double>(std::max<int64_t>(0, tokens));
  window_prompt_ms_ += std::max(0.0, ms);
}

void LlamaCppFamilies::set_decode(int64_t decodes, int64_t slots_fed, int64_t longest_sequence) {
  if (decodes > seen_decodes_) {
    decodes_.Increment(static_cast<double>(decodes - seen_decodes_));
    seen_decodes_ = decodes;
  }
  if (longest_sequence > seen_tokens_max_) {
    tokens_max_.Increment(static_cast<double>(longest_sequence - seen_tokens_max_));
    seen_tokens_max_ = longest_sequence;
  }
  busy_per_decode_.Set(static_cast<double>(slots_fed) / static_cast<double>(std::max<int64_t>(1, decodes)));
}

void LlamaCppFamilies::set_load(int busy_slots, int queued) {
  processing_.Set(busy_slots);
  deferred_.Set(queued);
}

void LlamaCppFamilies::close_window() {
  prompt_rate_.Set(window_prompt_ms_ > 0 ? 1e3 * window_prompt_tokens_ / window_prompt_ms_ : 0.0);
  predicted_rate_.Set(window_predicted_ms_ > 0 ? 1e3 * window_steps_ / window_predicted_ms_ : 0.0);
  window_prompt_tokens_ = window_prompt_ms_ = window_steps_ = window_predicted_ms_ = 0;
}

}  // namespace sfcl::metrics
