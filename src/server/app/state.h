// What every part of a running `sfcl serve` shares: options, model, scheduler, metrics, flags.
#pragma once
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "anchor/anchor.h"
#include "metrics/metrics.h"
#include "server/api/options.h"
#include "server/api/request.h"
#include "server/api/signing.h"
#include "server/app/answer_cache.h"
#include "server/app/client_work.h"
#include "server/app/embeddings.h"
#include "server/runtime/scheduler.h"

namespace sfcl::server {

// One served model: its names and defaults, the weights, and the scheduler that owns its slots.
struct ServedModel {
  ModelSpec spec;                            // id, aliases, file, chat template
  decode::Mode mode = decode::Mode::anchor;  // mode_of(server, spec): what its requests start from
  std::unique_ptr<engine::Model> model;
  std::unique_ptr<JobRunner> scheduler;                // the local Scheduler, or the gateway's remote one
  std::shared_ptr<std::vector<engine::Token>> script;  // test hook, see ServerOptions
  // The LoRA scales of requests that name no adapters (--lora, --lora-scaled; POST /lora-adapters
  // changes them), one per engine::Model::lora_adapters entry.
  mutable std::mutex lora_mu;
  std::vector<float> lora_scales;  // guarded by lora_mu
  [[nodiscard]] bool named(const std::string& name) const;
};

struct State {
  ServerOptions opt;
  // In --model order; the first answers requests that name no model. Filled before the server
  // listens (the weights and schedulers come later, while /health says loading).
  std::vector<std::unique_ptr<ServedModel>> models;
  // The knowledge base, indexed once at startup; each request's index starts from it without
  // copying it (re-indexing every entry per request is what BM_RequestIndexWithKnowledge measures).
  std::shared_ptr<const anchor::SourceIndex> kb;
  std::atomic<bool> ready{false};
  std::atomic<bool> draining{false};
  std::atomic<int32_t> in_flight{0};
  std::unique_ptr<metrics::Metrics> metrics;
  std::optional<SigningKey> key;
  std::atomic<bool> was_degraded{false};
  ClientWork client_work;                        // --max-client-work
  std::unique_ptr<EmbeddingService> embeddings;  // --embeddings, --embedding-model (null: not served)
  std::unique_ptr<AnswerCache> answers;          // --answer-cache-mib (null: off)
  // When this server started (/metrics' Process-Start-Time-Unix header, as llama-server sends it).
  std::chrono::system_clock::time_point started = std::chrono::system_clock::now();
};

// The model a request's "model" names: with one model served, that one whatever the name; else
// by id or alias, the first when `name` is empty, and otherwise a 404 with code model_not_found in
// `api`'s terms (ApiError).
ServedModel& pick_model(const State& st, const std::string& name, Api api);

// One structured log line: a JSON object (--log-format json) or "msg key=value ...".
void log_line(const State& st, spdlog::level::level_enum level, const std::string& msg, const nlohmann::json& fields);

}  // namespace sfcl::server
