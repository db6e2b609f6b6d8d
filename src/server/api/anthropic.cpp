// The Anthropic Messages dialect: message objects, named SSE events, Anthropic error shapes.
#include "server/api/dialect.h"
#include "server/api/tools.h"
#include "server/http/http_util.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

json stop_sequence_of(const decode::Result& r) {
  return r.stop_sequence.empty() ? json(nullptr) : json(r.stop_sequence);
}

class Anthropic final : public Dialect {
 public:
  [[nodiscard]] const char* id_prefix() const override { return "msg_"; }
  [[nodiscard]] const ErrorTypes& errors() const override {
    static const ErrorTypes kTypes{"api_error", "overloaded_error", "authentication_error", "request_too_large"};
    return kTypes;
  }
  [[nodiscard]] json error_body(const ApiError& e) const override {
    return {{"type", "error"}, {"error", {{"type", e.type}, {"message", e.what()}}}};
  }
  [[nodiscard]] json usage(const decode::Result& r, int32_t cached) const override {
    return usage_of(r.prompt_tokens, r.output_tokens, cached);
  }
  [[nodiscard]] json response(const ResponseInfo& info, const decode::Result& r, int32_t cached) const override {
    if (info.shape) return anthropic_tool_response(info, r, usage(r, cached));
    return {{"id", info.id},
            {"type", "message"},
            {"role", "assistant"},
            {"model", info.model},
            {"content", json::array({{{"type", "text"}, {"text", r.text}}})},
            {"stop_reason", std::string(decode::stop_reason_name(r.stop_reason))},
            {"stop_sequence", stop_sequence_of(r)},
            {"usage", usage(r, cached)}};
  }
  [[nodiscard]] std::string stream_open(const ResponseInfo& info, int32_t prompt_tokens,
                                        int32_t cached) const override {
    const json msg = {{"id", info.id},
                      {"type", "message"},
                      {"role", "assistant"},
                      {"model", info.model},
                      {"content", json::array()},
                      {"stop_reason", nullptr},
                      {"stop_sequence", nullptr},
                      {"usage", usage_of(prompt_tokens, 0, cached)}};
    // With tools the blocks come when the turn ends (server/api/tool_reply.cpp).
    if (info.shape) return sse("message_start", {{"type", "message_start"}, {"message", msg}}) + stream_ping();
    return sse("message_start", {{"type", "message_start"}, {"message", msg}}) +
           sse("content_block_start",
               {{"type", "content_block_start"}, {"index", 0}, {"content_block", {{"type", "text"}, {"text", ""}}}}) +
           stream_ping();
  }
  [[nodiscard]] std::string stream_text(const ResponseInfo& info, const std::string& text) const override {
    if (info.shape) return anthropic_tool_stream_text(info, text);
    // What sse() writes for the JSON tree {"type","index","delta":{"type","text"}}, byte for byte
    // (keys in nlohmann's order), without building it: this is the per-token path.
    std::string out;
    out.reserve(112 + text.size());
    out += R"(event: content_block_delta
data: {"delta":{"text":)";
    append_json_string(out, text);
    out += R"(,"type":"text_delta"},"index":0,"type":"content_block_delta"})";
    out += "\n\n";
    return out;
  }
  // The SSE event name is also the data's "type" (what the SDKs dispatch on); the anchor's own
  // type is "anchor_type".
  [[nodiscard]] std::string stream_event(const ResponseInfo&, const json& event) const override {
    json data = event;
    const std::string name = event.value("event", "sfcl");
    data["type"] = name;
    return sse(name, data);
  }
  [[nodiscard]] std::string stream_ping() const override { return sse("ping", {{"type", "ping"}}); }
  [[nodiscard]] std::string stream_close(const ResponseInfo& info, const decode::Result& r, int32_t cached,
                                         json sfcl) const override {
    if (info.shape) return anthropic_tool_stream_close(info, r, usage(r, cached), std::move(sfcl));
    return sse("content_block_stop", {{"type", "content_block_stop"}, {"index", 0}}) +
           sse("message_delta", {{"type", "message_delta"},
                                 {"delta",
                                  {{"stop_reason", std::string(decode::stop_reason_name(r.stop_reason))},
                                   {"stop_sequence", stop_sequence_of(r)}}},
                                 {"usage", usage(r, cached)},
                                 {"sfcl", std::move(sfcl)}}) +
           sse("message_stop", {{"type", "message_stop"}});
  }
  [[nodiscard]] std::string stream_error(const std::string& message) const override {
    return sse("error", {{"type", "error"}, {"error", {{"type", "api_error"}, {"message", message}}}});
  }

 private:
  static json usage_of(int32_t prompt_tokens, int32_t output_tokens, int32_t cached) {
    return {{"input_tokens", prompt_tokens - cached},
            {"output_tokens", output_tokens},
            {"cache_read_input_tokens", cached},
            {"cache_creation_input_tokens", 0}};
  }
};

}  // namespace

const Dialect& anthropic_dialect() {
  static const Anthropic kDialect;
  return kDialect;
}

}  // namespace sfcl::server
