// llama-server's native /completion: its response object (content, tokens, stop, stop_type,
// tokens_predicted / tokens_evaluated, timings) and its data-only stream of partial objects ending
// in one with "stop": true, no [DONE]. SFCL events ride in partial objects with empty content as an
// "sfcl" field; the final object carries the final "sfcl" object. docs/API.md, "llama-server's
// native endpoints".
#include "server/api/dialect.h"
#include "server/http/http_util.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

const char* stop_type(const decode::Result& r) {
  switch (r.stop_reason) {
    case decode::StopReason::max_tokens:
      return "limit";
    case decode::StopReason::stop_sequence:
      return "word";
    default:
      return "eos";
  }
}

json timings(const decode::Result& r, int32_t cached) { return llama_timings_json(r, cached); }

class LlamaCompletion final : public Dialect {
 public:
  [[nodiscard]] const char* id_prefix() const override { return "cmpl-"; }
  [[nodiscard]] const ErrorTypes& errors() const override {
    // llama-server's own types (tools/server/server-common.cpp, format_error_response).
    static const ErrorTypes kTypes{"server_error", "unavailable_error", "authentication_error",
                                   "invalid_request_error"};
    return kTypes;
  }
  [[nodiscard]] json error_body(const ApiError& e) const override {
    return openai_completions_dialect().error_body(e);  // llama-server's errors are OpenAI's shape
  }
  [[nodiscard]] json usage(const decode::Result& r, int32_t cached) const override {
    return openai_completions_dialect().usage(r, cached);
  }
  [[nodiscard]] json response(const ResponseInfo& info, const decode::Result& r, int32_t cached) const override {
    return {{"index", info.choice},
            {"content", r.text},
            {"tokens", json::array()},
            {"id_slot", -1},
            {"stop", true},
            {"model", info.model},
            {"tokens_predicted", r.output_tokens},
            {"tokens_evaluated", r.prompt_tokens},
            {"has_new_line", r.text.find('\n') != std::string::npos},
            {"truncated", false},
            {"stop_type", stop_type(r)},
            {"stopping_word", r.stop_sequence},
            {"tokens_cached", r.prompt_tokens + r.output_tokens},
            {"generation_settings", info.settings ? *info.settings : json::object()},
            {"timings", timings(r, cached)}};
  }
  [[nodiscard]] std::string stream_open(const ResponseInfo&, int32_t, int32_t) const override { return {}; }
  [[nodiscard]] std::string stream_text(const ResponseInfo& info, const std::string& text) const override {
    // What sse_data(partial(info, text)) writes (keys in nlohmann's order): the per-token path.
    std::string out;
    out.reserve(96 + text.size());
    out += R"(data: {"content":)";
    append_json_string(out, text);
    out += R"(,"id_slot":-1,"index":)";
    out += std::to_string(info.choice);
    out += R"(,"stop":false,"tokens":[]})";
    out += "\n\n";
    return out;
  }
  [[nodiscard]] std::string stream_event(const ResponseInfo& info, const json& event) const override {
    json p = partial(info, "");
    p["sfcl"] = event;
    return sse_data(p);
  }
  [[nodiscard]] std::string stream_ping() const override { return ": ping\n\n"; }
  [[nodiscard]] std::string stream_progress(const ResponseInfo& info, const json& progress,
                                            const json& timings) const override {
    json p = partial(info, "");
    p["prompt_progress"] = progress;
    if (!timings.is_null()) p["timings"] = timings;
    return sse_data(p);
  }
  [[nodiscard]] std::string stream_text_timed(const ResponseInfo& info, const std::string& text,
                                              const json& timings) const override {
    json p = partial(info, text);
    p["timings"] = timings;
    return sse_data(p);
  }
  [[nodiscard]] std::string stream_close(const ResponseInfo& info, const decode::Result& r, int32_t cached,
                                         json sfcl) const override {
    json last = response(info, r, cached);
    last["content"] = "";  // the text went out in the partial objects
    last["sfcl"] = std::move(sfcl);
    return sse_data(last);
  }
  [[nodiscard]] std::string stream_error(const std::string& message) const override {
    return openai_completions_dialect().stream_error(message);
  }

 private:
  static json partial(const ResponseInfo& info, const std::string& text) {
    return {{"content", text}, {"id_slot", -1}, {"index", info.choice}, {"stop", false}, {"tokens", json::array()}};
  }
};

}  // namespace

const Dialect& llama_completion_dialect() {
  static const LlamaCompletion kDialect;
  return kDialect;
}

json llama_timings_json(int32_t cache_n, int32_t prompt_n, double prompt_ms, int32_t predicted_n, double predicted_ms) {
  prompt_n = std::max(0, prompt_n);
  const int32_t steps = std::max(0, predicted_n - 1);
  const auto per_token = [](double ms, int32_t n) { return n > 0 ? ms / n : 0.0; };
  const auto per_second = [](double ms, int32_t n) { return ms > 0 ? 1e3 / ms * n : 0.0; };  // llama-server's order
  return {{"cache_n", cache_n},
          {"prompt_n", prompt_n},
          {"prompt_ms", prompt_ms},
          {"prompt_per_token_ms", per_token(prompt_ms, prompt_n)},
          {"prompt_per_second", per_second(prompt_ms, prompt_n)},
          {"predicted_n", predicted_n},
          {"predicted_ms", predicted_ms},
          // The first output token comes from the prompt's logits: the rate is over the steps after it.
          {"predicted_per_token_ms", per_token(predicted_ms, steps)},
          {"predicted_per_second", per_second(predicted_ms, steps)}};
}

json llama_timings_json(const decode::Result& r, int32_t cached) {
  return llama_timings_json(cached, r.prompt_tokens - cached, r.prompt_ms, r.output_tokens, r.predicted_ms);
}

json llama_response_fields(const std::vector<std::string>& paths, const json& response) {
  json out = json::object();
  for (const std::string& path : paths) {
    const json* at = &response;
    for (size_t from = 0; at != nullptr && from <= path.size();) {
      const size_t to = std::min(path.find('/', from), path.size());
      const std::string key = path.substr(from, to - from);
      at = at->is_object() && at->contains(key) ? &(*at)[key] : nullptr;
      from = to + 1;
    }
    if (at != nullptr) out[path] = *at;
  }
  return out;
}

json llama_generation_settings(const GenerationRequest& req,
                               std::span<const std::pair<engine::Token, float>> logit_bias,
                               std::span<const float> lora) {
  const engine::SamplingOptions& s = req.options.sampling;
  json bias = json::array();
  for (const auto& [token, b] : logit_bias) bias.push_back({{"bias", b}, {"token", token}});  // -inf dumps as null
  json adapters = json::array();
  for (size_t i = 0; i < lora.size(); ++i) adapters.push_back({{"id", i}, {"scale", lora[i]}});
  return {{"seed", s.seed},
          {"temperature", s.temperature},
          {"top_k", s.top_k},
          {"top_p", s.top_p},
          {"min_p", s.min_p},
          {"stop", req.options.stop},
          {"max_tokens", req.options.max_tokens},
          {"n_predict", req.options.max_tokens},
          {"ignore_eos", req.ignore_eos},
          {"stream", req.stream},
          {"logit_bias", bias},
          {"n_probs", 0},
          {"grammar", req.grammar},
          {"lora", adapters}};
}

}  // namespace sfcl::server
