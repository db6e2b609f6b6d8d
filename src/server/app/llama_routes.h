// llama-server's utility endpoints (POST /tokenize, /detokenize, /apply-template, GET /props) and
// model lookup (GET /v1/models/{id}): each a function from parsed input to the JSON answered, so
// the HTTP layer only registers them. Errors are ApiError (OpenAI's error shape).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "server/app/state.h"

namespace sfcl::server {

// With several models served, each route takes the model to use from the body's "model" (POST)
// or the query's ?model= (GET /props), by id or alias; the first model when none is named.

// The model as /v1/models lists it (id, owner, SFCL mode, aliases).
nlohmann::json model_object(const State& st, const ServedModel& model);
// GET /v1/models/{id}: the served model by its id or an alias; 404 otherwise.
nlohmann::json model_by_id(const State& st, const std::string& id);
// GET /props[?model=name]: the server's defaults, slots, model path and chat template, as llama-server's.
nlohmann::json props(const State& st, const std::string& target);
// GET /slots[?model=name][&fail_on_no_slot=1]: the model's slots (id, n_ctx, is_processing, the
// sampling defaults), as llama-server's; 501 with --no-slots, 503 with fail_on_no_slot=1 while
// every slot is busy.
nlohmann::json slots(const State& st, const std::string& target);

// Each within the limits of a generation request's prompt (--max-prompt-bytes, 413 past it): the
// text given and the text made. Each answers the JSON text itself: with_pieces is written as it
// goes rather than as a tree of an object per token.
// {"content": text, "add_special": false, "parse_special": true, "with_pieces": false} -> {"tokens": [...]}
std::string tokenize(const State& st, const nlohmann::json& body);
// {"tokens": [ids]} -> {"content": text}
std::string detokenize(const State& st, const nlohmann::json& body);
// An OpenAI chat body -> {"prompt": the text the request's prompt would be (template, tools, prefill)}
std::string apply_template(const State& st, const nlohmann::json& body);

using JsonRoute = std::string (*)(const State&, const nlohmann::json&);
// The POST routes above with their paths, for registration.
const std::vector<std::pair<const char*, JsonRoute>>& llama_post_routes();

}  // namespace sfcl::server
