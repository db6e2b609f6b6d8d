// The SFCL verdict a response carries: X-SFCL-Status headers and the final "sfcl" object.
#pragma once
#include "server/http/message.h"

#include <nlohmann/json.hpp>
#include <string>

#include "decode/decode.h"
#include "server/api/signing.h"
#include "server/api/types.h"

namespace sfcl::server {

// The final "sfcl" object: the summary (report::summary_json), the anchors when asked for or when
// signed, and with a signing key the request id, the signed fields and the signature
// (server/api/signing.h).
nlohmann::json final_sfcl(const decode::Result& r, decode::Mode mode, bool with_anchors, const SigningKey* key,
                          const SignContext& context);

// The content blocks of a non-stream response as built (choice `choice` of an OpenAI one), in the
// neutral form content_sha256 covers: what the body delivers is what is signed, tool call ids
// and all.
nlohmann::json body_blocks(const nlohmann::json& response, size_t choice);

// What a signature says of the request: everything that shaped the prompt and the tokens, as the
// model and the checker got them (after the server's defaults and zero-width stripping):
// messages with their tool calls and results, prompt, prefill, sources, tools, tool_choice,
// structured output, chat template kwargs and reasoning options, sampling, stops, max_tokens and
// the sfcl options.
nlohmann::json request_digest_json(const GenerationRequest& req);

// "zeroed-v2" in anchor mode, else "legacy" (x-anthropic-layer-status).
std::string layer_status(decode::Mode mode);

// A stream's X-SFCL-Status: its headers leave before generation, so it is "pending" (the final
// status is in the last event), or "off" / "inactive" when that is known up front.
std::string stream_status(decode::Mode mode, bool has_sources);

void set_status_headers(http::Response& res, bool compat_headers, decode::Mode mode, const std::string& status);

}  // namespace sfcl::server
