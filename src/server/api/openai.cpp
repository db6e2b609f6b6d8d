// The OpenAI dialects (chat completions and legacy completions): completion objects, data-only
// SSE chunks ending in [DONE], OpenAI error shapes. SFCL events ride in ordinary chunks as an
// "sfcl" extension field, so SDK loops that read choices[0].delta keep working.
#include "engine/engine.h"
#include "server/api/dialect.h"
#include "server/api/logprobs.h"
#include "server/api/tools.h"
#include "server/http/http_util.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

class OpenAI final : public Dialect {
 public:
  explicit OpenAI(bool completions) : completions_(completions) {}
  [[nodiscard]] const char* id_prefix() const override { return completions_ ? "cmpl-" : "chatcmpl-"; }
  [[nodiscard]] const ErrorTypes& errors() const override {
    static const ErrorTypes kTypes{"server_error", "server_error", "invalid_request_error", "invalid_request_error"};
    return kTypes;
  }
  [[nodiscard]] json error_body(const ApiError& e) const override {
    json err = {{"message", e.what()}, {"type", e.type}, {"param", nullptr}, {"code", nullptr}};
    if (!e.param.empty()) err["param"] = e.param;
    if (!e.code.empty()) err["code"] = e.code;
    return {{"error", err}};
  }
  [[nodiscard]] json usage(const decode::Result& r, int32_t cached) const override {
    return {{"prompt_tokens", r.prompt_tokens},
            {"completion_tokens", r.output_tokens},
            {"total_tokens", r.prompt_tokens + r.output_tokens},
            {"prompt_tokens_details", {{"cached_tokens", cached}}}};
  }
  [[nodiscard]] json response(const ResponseInfo& info, const decode::Result& r, int32_t cached) const override {
    if (info.shape && !completions_) return openai_tool_response(info, r, usage(r, cached));
    json choice = {{"index", info.choice},
                   {"logprobs", logprobs(r.logprobs, r.token_logprobs)},
                   {"finish_reason", finish_reason(r)}};
    if (completions_) {
      choice["text"] = r.text;
    } else {
      choice["message"] = {{"role", "assistant"}, {"content", r.text}, {"refusal", nullptr}};
    }
    return {{"id", info.id},
            {"object", completions_ ? "text_completion" : "chat.completion"},
            {"created", info.created},
            {"model", info.model},
            {"system_fingerprint", engine::llama_build()},
            {"choices", json::array({std::move(choice)})},
            {"usage", usage(r, cached)}};
  }
  [[nodiscard]] std::string stream_open(const ResponseInfo& info, int32_t, int32_t) const override {
    if (completions_) return {};
    return sse_data(chunk(info, {{"role", "assistant"}, {"content", ""}}, nullptr));
  }
  [[nodiscard]] std::string stream_text(const ResponseInfo& info, const std::string& text) const override {
    if (info.shape && !completions_) return openai_tool_stream_text(info, text);
    return text_chunk(info, text);
  }
  [[nodiscard]] std::string stream_tokens(const ResponseInfo& info, const std::string& text,
                                          std::span<const decode::TokenLogprob> entries) const override {
    if (info.shape && !completions_) return stream_text(info, text);  // logprobs come at the end
    json c = chunk(info, {{"content", text}}, nullptr);
    c["choices"][0]["logprobs"] = logprobs(0, entries);
    return sse_data(c);
  }
  [[nodiscard]] std::string stream_event(const ResponseInfo& info, const json& event) const override {
    json c = chunk(info, json::object(), nullptr);
    c["sfcl"] = event;
    return sse_data(c);
  }
  [[nodiscard]] std::string stream_ping() const override { return ": ping\n\n"; }
  [[nodiscard]] std::string stream_progress(const ResponseInfo& info, const json& progress,
                                            const json& timings) const override {
    json c = chunk(info, completions_ ? json::object() : json{{"role", "assistant"}, {"content", nullptr}}, nullptr);
    c["prompt_progress"] = progress;  // as llama-server: beside the chunk's usual fields
    if (!timings.is_null()) c["timings"] = timings;
    return sse_data(c);
  }
  [[nodiscard]] std::string stream_text_timed(const ResponseInfo& info, const std::string& text,
                                              const json& timings) const override {
    if (info.shape && !completions_) return stream_text(info, text);  // tool calls: blocks at the end
    json c = chunk(info, {{"content", text}}, nullptr);
    c["timings"] = timings;
    return sse_data(c);
  }
  [[nodiscard]] std::string stream_close(const ResponseInfo& info, const decode::Result& r, int32_t cached,
                                         json sfcl) const override {
    if (info.shape && !completions_) return openai_tool_stream_close(info, r, usage(r, cached), std::move(sfcl));
    json last = chunk(info, json::object(), finish_reason(r));
    if (info.timings) last["timings"] = llama_timings_json(r, cached);
    last["sfcl"] = std::move(sfcl);
    const std::string out = sse_data(last);
    return info.more_choices ? out : out + stream_end(info, usage(r, cached));
  }
  [[nodiscard]] std::string stream_end(const ResponseInfo& info, const json& usage) const override {
    std::string out;
    // As OpenAI does: usage only when asked for, in one more chunk whose choices are empty.
    if (info.include_usage) {
      json tail = chunk(info, json::object(), nullptr);
      tail["choices"] = json::array();
      tail["usage"] = usage;
      out += sse_data(tail);
    }
    return out + "data: [DONE]\n\n";
  }
  [[nodiscard]] std::string stream_error(const std::string& message) const override {
    return sse_data(
        {{"error", {{"message", message}, {"type", "server_error"}, {"param", nullptr}, {"code", nullptr}}}});
  }

 private:
  // The choice's "logprobs": null unless asked for (`requested` >= 0).
  [[nodiscard]] json logprobs(int32_t requested, std::span<const decode::TokenLogprob> entries) const {
    if (requested < 0) return nullptr;
    return completions_ ? completion_logprobs(entries) : chat_logprobs(entries);
  }
  static const char* finish_reason(const decode::Result& r) {
    return r.stop_reason == decode::StopReason::max_tokens ? "length" : "stop";
  }
  // What sse_data(chunk(info, {{"content", text}}, nullptr)) writes, byte for byte (keys in
  // nlohmann's order), without building the JSON tree: this is the per-token path.
  [[nodiscard]] std::string text_chunk(const ResponseInfo& info, const std::string& text) const {
    std::string out;
    out.reserve(208 + text.size() + info.id.size() + info.model.size() + engine::llama_build().size());
    out += R"(data: {"choices":[{)";
    if (!completions_) {
      out += R"("delta":{"content":)";
      append_json_string(out, text);
      out += "},";
    }
    out += R"("finish_reason":null,"index":)";
    out += std::to_string(info.choice);
    out += R"(,"logprobs":null)";
    if (completions_) {
      out += R"(,"text":)";
      append_json_string(out, text);
    }
    out += R"(}],"created":)";
    out += std::to_string(info.created);
    out += R"(,"id":)";
    append_json_string(out, info.id);
    out += R"(,"model":)";
    append_json_string(out, info.model);
    out += completions_ ? R"(,"object":"text_completion")" : R"(,"object":"chat.completion.chunk")";
    out += R"(,"system_fingerprint":)";
    append_json_string(out, engine::llama_build());
    out += "}\n\n";
    return out;
  }
  // One stream chunk; `delta` is the chat delta (its "content" is the completions "text").
  [[nodiscard]] json chunk(const ResponseInfo& info, const json& delta, const json& finish) const {
    json choice = {{"index", info.choice}, {"logprobs", nullptr}, {"finish_reason", finish}};
    if (completions_) {
      choice["text"] = delta.value("content", "");
    } else {
      choice["delta"] = delta;
    }
    return {{"id", info.id},
            {"object", completions_ ? "text_completion" : "chat.completion.chunk"},
            {"created", info.created},
            {"model", info.model},
            {"system_fingerprint", engine::llama_build()},
            {"choices", json::array({std::move(choice)})}};
  }
  bool completions_;
};

}  // namespace

const Dialect& openai_chat_dialect() {
  static const OpenAI kDialect(false);
  return kDialect;
}
const Dialect& openai_completions_dialect() {
  static const OpenAI kDialect(true);
  return kDialect;
}

}  // namespace sfcl::server
