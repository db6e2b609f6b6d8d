// What a saved response says, read as strictly as its signature is meant: the JSON body or SSE
// stream of either API is taken apart field by field, each choice's content becomes the
// API-neutral blocks its signature's content_sha256 covers (server/api/signing.h), and every part
// no signature can vouch for (logprobs, an unknown field or event, an error, a chunk after
// [DONE], a choice without its own signed sfcl) is named in `unsigned_parts`: a signed response
// has none.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sfcl::server {

// One choice as delivered (an Anthropic response, and an OpenAI one with n = 1, have one).
struct DeliveredChoice {
  nlohmann::json blocks = nlohmann::json::array();  // text, tool_use and thinking blocks
  std::string stop;                                 // Anthropic stop_reason or OpenAI finish_reason
  nlohmann::json stop_sequence;                     // Anthropic: the delivered stop_sequence
  nlohmann::json sfcl;                              // its final sfcl object (with its signature)
  std::vector<nlohmann::json> events;               // SFCL check events of a stream, in order
};

struct Delivered {
  bool anthropic = false;
  bool stream = false;
  std::string id;
  std::string model;
  nlohmann::json created;                // OpenAI "created" (null in Anthropic responses)
  std::string fingerprint;               // OpenAI "system_fingerprint" (unsigned: the llama.cpp build)
  nlohmann::json usage;                  // null when the response has none (of all choices)
  std::vector<DeliveredChoice> choices;  // by index, never empty
  std::vector<std::string> unsigned_parts;
};

// `body`: the response without its HTTP headers; a JSON object is a body, anything else a stream.
Delivered read_delivered(const std::string& body);

}  // namespace sfcl::server
