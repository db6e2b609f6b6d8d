// A request's chat template options (llama-server's chat_template_kwargs, enable_thinking,
// reasoning_format; OpenAI's reasoning_effort; Anthropic's thinking), parsed and bounded. Private to
// the request parser (request.cpp).
#pragma once
#include <nlohmann/json.hpp>

#include "server/api/options.h"
#include "server/api/types.h"

namespace sfcl::server {

void parse_template_options(Api api, const nlohmann::json& body, const ServerOptions& server, GenerationRequest& r);

}  // namespace sfcl::server
