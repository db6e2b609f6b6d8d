#include "server/api/logprobs.h"

#include "server/api/params.h"
#include "util/utf8.h"

namespace sfcl::server {

using nlohmann::json;

namespace {
bool present(const json& body, const char* key) { return body.contains(key) && !body[key].is_null(); }

// A token's text as a JSON string: a piece that ends inside a UTF-8 character shows U+FFFD there
// (its exact bytes are in "bytes").
std::string token_text(const std::string& piece) { return utf8::valid(piece) ? piece : utf8::sanitize(piece); }

json bytes_of(const std::string& piece) {
  json out = json::array();
  for (const char c : piece) out.push_back(static_cast<unsigned char>(c));
  return out;
}
}  // namespace

int32_t logprobs_of(Api api, const json& body) {
  if (api == Api::anthropic) return -1;
  if (api == Api::openai_completions) {
    if (present(body, "logprobs") && body["logprobs"].is_boolean()) {
      throw bad_param("logprobs: an integer from 0 to " + std::to_string(decode::TokenLogprob::kMaxTop) +
                          " (the alternatives per token)",
                      "logprobs");
    }
    // The legacy API has no top_logprobs (logprobs is the count): only its neutral values pass.
    if (present(body, "top_logprobs") && !(body["top_logprobs"].is_number_integer() && body["top_logprobs"] == 0)) {
      throw bad_param("top_logprobs is not a completions field; logprobs is the number of alternatives per token",
                      "top_logprobs");
    }
    return static_cast<int32_t>(integer_in(body, "logprobs", 0, decode::TokenLogprob::kMaxTop, -1));
  }
  bool on = false;
  if (present(body, "logprobs")) {
    if (!body["logprobs"].is_boolean()) throw bad_param("logprobs must be a boolean", "logprobs");
    on = body["logprobs"].get<bool>();
  }
  const auto top = static_cast<int32_t>(integer_in(body, "top_logprobs", 0, decode::TokenLogprob::kMaxTop, 0));
  if (present(body, "top_logprobs") && !on) {
    throw bad_param("top_logprobs: logprobs must be true when top_logprobs is set", "top_logprobs");
  }
  return on ? top : -1;
}

json chat_logprobs(std::span<const decode::TokenLogprob> entries) {
  json content = json::array();
  for (const decode::TokenLogprob& e : entries) {
    json top = json::array();
    for (const auto& alt : e.top) {
      top.push_back({{"token", token_text(alt.piece)}, {"logprob", alt.logprob}, {"bytes", bytes_of(alt.piece)}});
    }
    content.push_back({{"token", token_text(e.piece)},
                       {"logprob", e.logprob},
                       {"bytes", bytes_of(e.piece)},
                       {"top_logprobs", std::move(top)}});
  }
  return {{"content", std::move(content)}, {"refusal", nullptr}};
}

json completion_logprobs(std::span<const decode::TokenLogprob> entries) {
  json tokens = json::array();
  json token_logprobs = json::array();
  json top_logprobs = json::array();
  json text_offset = json::array();
  for (const decode::TokenLogprob& e : entries) {
    tokens.push_back(token_text(e.piece));
    token_logprobs.push_back(e.logprob);
    json top = json::object();
    for (const auto& alt : e.top) top[token_text(alt.piece)] = alt.logprob;
    top_logprobs.push_back(std::move(top));
    text_offset.push_back(e.offset);
  }
  return {{"tokens", std::move(tokens)},
          {"token_logprobs", std::move(token_logprobs)},
          {"top_logprobs", std::move(top_logprobs)},
          {"text_offset", std::move(text_offset)}};
}

}  // namespace sfcl::server
