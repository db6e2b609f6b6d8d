// Parsing and validation of Anthropic and OpenAI request bodies into one shape.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "server/api/options.h"
#include "server/api/types.h"

namespace sfcl::server {

// The JSON of a request body, or a 400 that says in plain words what is wrong with it.
nlohmann::json parse_body_json(const std::string& body);

// `model` is the served model that answers (its id names the response, its mode is the default).
GenerationRequest parse_request(Api api, const nlohmann::json& body, const ServerOptions& server,
                                const ModelSpec& model = {});
// Anthropic count_tokens body: messages, system, tools and tool_choice.
GenerationRequest parse_count_tokens(const nlohmann::json& body, const ServerOptions& server,
                                     const ModelSpec& model = {});
// The body's "model" when it is a string, else "" (what pick_model is given).
std::string requested_model(const nlohmann::json& body);

}  // namespace sfcl::server
