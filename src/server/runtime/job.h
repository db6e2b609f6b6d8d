// One generation job as the routes submit it to a JobRunner: its input, and the channel that carries
// its text, events and outcome back across threads.
#pragma once
#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "decode/decode.h"
#include "metrics/metrics.h"
#include "server/runtime/job_channel.h"

namespace sfcl::server {

struct ReplyShape;

struct Job {
  // Input, set before submit and read-only afterwards.
  std::vector<engine::Token> prompt;
  decode::Options options;
  std::shared_ptr<anchor::SourceIndex> sources;
  bool want_events = false;
  bool return_progress = false;             // llama-server's prompt_progress events while the prompt is fed
  bool timings_per_token = false;           // llama-server's timings on each text and progress event
  bool warm_up = false;                     // the server's own warm-up: no task of a slot (GET /slots)
  std::string request_sha256;               // what a signature says of the request (server/api/signing.h); "" unsigned
  metrics::Metrics* metrics = nullptr;      // optional
  std::shared_ptr<const ReplyShape> shape;  // tools: how the reply is split into blocks (server/api/tools.h)
  // The request's logit_bias for engines that sample themselves (the gateway); the local loop
  // applies it through options.logit_hook.
  std::vector<std::pair<engine::Token, float>> logit_bias;
  // The scale of each of the model's LoRA adapters for this job (engine::Model::lora_adapters
  // order); empty = the scales the adapters were loaded with.
  std::vector<float> lora;
  int32_t id_slot = -1;  // llama-server's id_slot: the one slot this job may take; -1 = any
  std::chrono::steady_clock::time_point enqueued = std::chrono::steady_clock::now();
  // Decode thread only.
  std::chrono::steady_clock::time_point last_text{};
  std::chrono::steady_clock::time_point admitted_at{};  // a slot took it
  std::chrono::steady_clock::time_point first_text{};
  int32_t progress_cache = 0;                  // the prompt tokens the slot's cache held at admission
  const decode::Sequence* sequence = nullptr;  // the slot's sequence while it runs the job (timings)
  int32_t progress_processed = -1;             // the prompt tokens the last prompt_progress reported
  // Everything the two threads share.
  JobChannel channel;
};

// What a job's sequence reports, as the job's channel carries it: text chunks always, the check
// events when the request asked for them, and the latency metrics (both schedulers use it).
decode::EventSink job_event_sink(const std::shared_ptr<Job>& job);

// Ends and removes the queued jobs whose client went away, so they hold no place in the queue (a
// live request would get 429 behind them). Both schedulers call it under their queue's lock.
void drop_cancelled(std::deque<std::shared_ptr<Job>>& queue);

// With return_progress: a prompt_progress event (llama-server's {total, cache, processed, time_ms})
// once `processed` prompt tokens are in the KV cache (progress_cache of them reused), each count
// once. Decode thread.
void report_prompt_progress(Job& job, int32_t processed);

}  // namespace sfcl::server
