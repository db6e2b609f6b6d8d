#include "server/app/lora.h"

#include <mutex>
#include <string>

#include "server/api/dialect.h"
#include "server/api/params.h"

namespace sfcl::server {

using nlohmann::json;

namespace {
// The first model holds the adapters (--lora applies to it; docs/API.md, 'LoRA adapters').
ServedModel& lora_model(const State& st) {
  if (!st.ready || st.models.empty() || !st.models.front()->model) {
    throw ApiError(503, openai_chat_dialect().errors().unavailable, "model is loading");
  }
  return *st.models.front();
}

std::vector<float> scales_of(const ServedModel& model, const std::vector<LoraScale>& entries, const char* param) {
  const size_t n = model.model->lora_adapters().size();
  std::vector<float> out(n, 0.0F);
  for (size_t i = 0; i < entries.size(); ++i) {
    const LoraScale& e = entries[i];
    if (static_cast<size_t>(e.id) >= n) {
      const std::string where = std::string(param) + "[" + std::to_string(i) + "].id";
      throw ApiError(400, "invalid_request_error",
                     where + ": " + std::to_string(e.id) + " names no adapter; " +
                         (n == 0 ? std::string("this server has no LoRA adapters (sfcl serve --lora FILE loads one)")
                                 : "this server has " + std::to_string(n) + " (GET /lora-adapters lists them)"),
                     where);
    }
    out[static_cast<size_t>(e.id)] = e.scale;  // a later entry for the same id wins, as in llama-server
  }
  return out;
}
}  // namespace

json lora_adapters(const State& st) {
  const ServedModel& m = lora_model(st);
  const auto& adapters = m.model->lora_adapters();
  std::lock_guard lock(m.lora_mu);
  json out = json::array();
  for (size_t i = 0; i < adapters.size(); ++i) {
    out.push_back({{"id", i},
                   {"path", adapters[i].path},
                   {"scale", m.lora_scales[i]},
                   {"task_name", adapters[i].task_name},
                   {"prompt_prefix", adapters[i].prompt_prefix}});
  }
  return out;
}

json set_lora_adapters(State& st, const json& body) {
  ServedModel& m = lora_model(st);
  if (!body.is_array()) {
    throw ApiError(400, "invalid_request_error", "the body must be an array of {\"id\": N, \"scale\": X}");
  }
  std::vector<float> scales = scales_of(m, lora_of(body, "body"), "body");
  std::lock_guard lock(m.lora_mu);
  m.lora_scales = std::move(scales);
  return {{"success", true}};
}

std::vector<float> lora_scales_for(const ServedModel& model, const std::vector<LoraScale>& request) {
  if (!request.empty()) return scales_of(model, request, "lora");
  std::lock_guard lock(model.lora_mu);
  return model.lora_scales;
}

}  // namespace sfcl::server
