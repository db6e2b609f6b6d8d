// Field-level validation shared by the request parsers: range-checked integers, logit_bias,
// stream_options, NUL-free text, and a 400 naming each parameter this server does not implement.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "server/api/options.h"
#include "server/api/types.h"
#include "util/option_spec.h"

namespace sfcl::server {

// A 400 invalid_request_error naming `param`.
ApiError bad_param(const std::string& message, const std::string& param = {});

// body[key] as an integer in [lo, hi]; `fallback` when absent or null. A float, a string or a value
// out of range (2^31 for an int32 field) is a 400 naming prefix + key, never a silent wrap.
int64_t integer_in(const nlohmann::json& body, const char* key, int64_t lo, int64_t hi, int64_t fallback,
                   const std::string& prefix = {});

// o["type"] when it is a string; "" when `o` is not an object or has no type (or null); a 400 naming
// where + ".type" when it is another JSON type.
std::string type_of(const nlohmann::json& o, const std::string& where);

// An option family's value at body[key] (util::OptionSpec): a number or an integer within
// [lo, hi], a boolean as 0/1; a 400 naming prefix + key otherwise. Not for choices.
double option_value(const nlohmann::json& body, const char* key, util::OptionKind kind, double lo, double hi,
                    const std::string& prefix);
// The 400 naming `name` that lists the choices it takes.
[[noreturn]] void bad_choice(std::span<const std::string_view> choices, const std::string& name);

// Sets in `o` each option of `table` that `body` holds (a null one is absent), validated as its
// entry says; a 400 naming prefix + field otherwise.
template <typename Options>
void parse_options(const nlohmann::json& body, std::span<const util::OptionSpec<Options>> table, Options& o,
                   const std::string& prefix = {}) {
  for (const util::OptionSpec<Options>& spec : table) {
    const std::string key(spec.field);
    if (!body.contains(key) || body[key].is_null()) continue;
    if (spec.kind != util::OptionKind::choice) {
      spec.set(o, option_value(body, key.c_str(), spec.kind, spec.lo, spec.hi, prefix));
    } else if (!body[key].is_string() || !util::set_choice(spec, o, body[key].template get<std::string>())) {
      bad_choice(spec.choices(), prefix + key);
    }
  }
}

// Refuses text the model and the checker would read differently: a NUL cuts the C string the chat
// template sees, while the checker would index what follows it.
void check_text(const std::string& text, const std::string& where);

// OpenAI's {"token id": bias} or llama-server's [[id, bias], ...]; a bias of false bans the token.
// llama-server also takes text for an id ({"text": bias}, [["text", bias]]): each of the text's
// tokens gets the bias, once the model has tokenised it (server/app/admission.cpp).
struct LogitBias {
  std::vector<std::pair<engine::Token, float>> ids;
  std::vector<std::pair<std::string, float>> texts;
};
LogitBias logit_bias_of(const nlohmann::json& value);
// llama-server's "lora" (and POST /lora-adapters' body): [{"id": N, "scale": X}, ...], ids >= 0,
// finite scales, at most 64 entries; null = none. Throws ApiError (400) naming the entry.
std::vector<LoraScale> lora_of(const nlohmann::json& value, const std::string& param = "lora");

// Choices a request may ask for per slot of the server: more would only queue behind each other.
inline constexpr int32_t kChoicesPerSlot = 4;

// OpenAI n: the request's `n` (1 when absent); a 400 naming `n` outside 1..slots x kChoicesPerSlot.
int32_t choices_of(const nlohmann::json& body, const ServerOptions& server);

// stream_options.include_usage (false when absent).
bool include_usage_of(const nlohmann::json& body);

// 400 naming the first parameter of `body` that would change the answer and that this server
// does not implement (echo, best_of, suffix, penalties, logprobs, audio, ...), or metadata of the
// wrong shape. Harmless hints (user, store, service_tier) pass.
void refuse_unsupported(Api api, const nlohmann::json& body);

// 400 "unknown parameter 'X'" (with a "did you mean" for a near miss) for a field of `body` that
// neither the official API of `api`, nor llama-server, nor sfcl defines; also inside "sfcl"
// (server/api/fields.cpp).
void refuse_unknown_fields(Api api, const nlohmann::json& body);
// The fields of a request's "sfcl" object, as the parser reads them (docs/API.md, "The `sfcl`
// request options" lists each; tests/server/api/request_params_test.cpp holds the two together).
std::span<const std::string_view> sfcl_option_names();
// The same against an endpoint's own list (llama-server's /tokenize, /detokenize).
void refuse_unknown_fields(const nlohmann::json& body, const std::vector<std::string_view>& known);

}  // namespace sfcl::server
