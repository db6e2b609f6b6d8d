// llama-server's LoRA endpoints and per-request adapters: GET /lora-adapters lists the first
// model's adapters with their current scales, POST /lora-adapters sets those scales (the ones a
// request that names no adapters runs under), and a request's "lora" picks its own
// (docs/API.md, 'LoRA adapters').
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "server/app/state.h"

namespace sfcl::server {

// [{"id", "path", "scale", "task_name", "prompt_prefix"}, ...], as llama-server lists them.
nlohmann::json lora_adapters(const State& st);
// POST /lora-adapters' body [{"id": N, "scale": X}, ...]: every adapter not listed goes to 0, as
// llama-server's. {"success": true}; a 400 (ApiError) naming an entry that is malformed or names
// no adapter, and the scales are then unchanged.
nlohmann::json set_lora_adapters(State& st, const nlohmann::json& body);
// The scale of each of `model`'s adapters for a request: its "lora" (others at 0), or the current
// scales when it names none. A 400 (ApiError) when an id names no adapter.
std::vector<float> lora_scales_for(const ServedModel& model, const std::vector<LoraScale>& request);

}  // namespace sfcl::server
