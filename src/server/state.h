// What every part of a running `sfcl serve` shares: options, model, scheduler, metrics, flags.
#pragma once
#include <spdlog/spdlog.h>

#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "anchor/anchor.h"
#include "metrics/metrics.h"
#include "server/scheduler.h"
#include "server/server.h"
#include "server/signing.h"

namespace sfcl::server {

struct State {
  ServerOptions opt;
  std::unique_ptr<engine::Model> model;
  std::unique_ptr<JobRunner> scheduler;  // the local Scheduler, or the gateway's remote one
  // The knowledge base, indexed once at startup; each request's index starts from it without
  // copying it (re-indexing every entry per request is what BM_RequestIndexWithKnowledge measures).
  std::shared_ptr<const anchor::SourceIndex> kb;
  std::atomic<bool> ready{false};
  std::atomic<bool> draining{false};
  std::atomic<int32_t> in_flight{0};
  std::shared_ptr<std::vector<engine::Token>> script;  // test hook, see ServerOptions
  std::unique_ptr<metrics::Metrics> metrics;
  std::optional<SigningKey> key;
  std::atomic<bool> was_degraded{false};
};

// One structured log line: a JSON object (--log-format json) or "msg key=value ...".
void log_line(const State& st, spdlog::level::level_enum level, const std::string& msg, const nlohmann::json& fields);

}  // namespace sfcl::server
