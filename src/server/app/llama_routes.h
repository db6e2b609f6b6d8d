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
// POST /slots/{id_slot}?action=save|restore|erase[&model=name] with {"filename": name} (save and
// restore): llama-server's answer ({"id_slot", "filename", "n_saved"|"n_restored",
// "n_written"|"n_read", "timings"} or {"id_slot", "n_erased"}), once the slot has no request.
// 501 without --slot-save-path; 400 for another action, a slot id out of range, a file name with a
// directory in it, or a file that is not this model's slot file.
nlohmann::json slot_action(const State& st, const std::string& id_slot, const std::string& target,
                           const std::string& body);

// Each within the limits of a generation request's prompt (--max-prompt-bytes, 413 past it): the
// text given and the text made. Each answers the JSON text itself: with_pieces is written as it
// goes rather than as a tree of an object per token.
// {"content": text, "add_special": false, "parse_special": true, "with_pieces": false} -> {"tokens": [...]}
std::string tokenize(const State& st, const nlohmann::json& body);
// {"tokens": [ids]} -> {"content": text}
std::string detokenize(const State& st, const nlohmann::json& body);
// An OpenAI chat body -> {"prompt": the text the request's prompt would be (template, tools, prefill)}
std::string apply_template(const State& st, const nlohmann::json& body);

// The prompt tokens a generation body would make: Anthropic's count_tokens ({"input_tokens"}),
// and llama-server's /chat/completions/input_tokens and /responses/input_tokens (also with
// "object": "response.input_tokens", as OpenAI's Responses endpoint answers).
nlohmann::json count_input_tokens(const State& st, Api api, const nlohmann::json& body);

using JsonRoute = std::string (*)(const State&, const nlohmann::json&);
// The POST routes above with their paths, for registration.
const std::vector<std::pair<const char*, JsonRoute>>& llama_post_routes();

}  // namespace sfcl::server
