// llama-server's POST /infill (fill-in-the-middle for code editors): its body read into a native
// /completion request, and the prompt built as llama-server builds it (tools/server/
// server-common.cpp, format_prompt_infill): the repo-level FIM pattern
//   [FIM_REP]myproject\n [FIM_SEP]filename\n extra text ... [FIM_SEP]filename\n
//   [FIM_PRE]prefix [FIM_SUF]suffix [FIM_MID]prompt
// with the prefix's last 3/4 of a batch and the suffix's first 1/4 kept, and the extra files'
// last tokens filling what the context leaves.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "engine/engine.h"
#include "server/api/options.h"
#include "server/api/types.h"

namespace sfcl::server {

// input_prefix, input_suffix (strings), input_extra ([{"filename": string, "text": string}]) and
// prompt (a string, may be empty) with every /completion field; 400s as /completion's, naming
// the field.
GenerationRequest parse_infill_request(const nlohmann::json& body, const ServerOptions& server, const ModelSpec& model);

// The prompt's tokens; ApiError 501 (not_supported_error, llama-server's words) when the model's
// vocabulary has no FIM prefix, suffix or middle token.
std::vector<engine::Token> infill_tokens(const engine::Model& model, const InfillInput& in);

}  // namespace sfcl::server
