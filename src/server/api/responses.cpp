// The OpenAI Responses dialect: response objects with output items, typed SSE events (every one
// with its sequence_number) from response.created to response.completed, OpenAI error shapes. A
// reply cut by max_output_tokens is status "incomplete" (its stream ends in response.incomplete),
// as OpenAI's API does. SFCL events ride in "keepalive" events as an "sfcl" field, which the SDKs'
// stream accumulators skip; the final "sfcl" object is in the closing event's response.
#include "server/api/responses.h"
#include "server/api/dialect.h"
#include "server/api/tools.h"
#include "server/http/http_util.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

bool incomplete(const decode::Result& r) { return r.stop_reason == decode::StopReason::max_tokens; }

class Responses final : public Dialect {
 public:
  [[nodiscard]] const char* id_prefix() const override { return "resp_"; }
  [[nodiscard]] const ErrorTypes& errors() const override {
    static const ErrorTypes kTypes{"server_error", "server_error", "invalid_request_error", "invalid_request_error"};
    return kTypes;
  }
  [[nodiscard]] json error_body(const ApiError& e) const override {
    return openai_chat_dialect().error_body(e);  // the same error object as chat completions
  }
  [[nodiscard]] json usage(const decode::Result& r, int32_t cached) const override {
    return {{"input_tokens", r.prompt_tokens},
            {"input_tokens_details", {{"cached_tokens", cached}}},
            {"output_tokens", r.output_tokens},
            {"output_tokens_details", {{"reasoning_tokens", 0}}},
            {"total_tokens", r.prompt_tokens + r.output_tokens}};
  }
  [[nodiscard]] json response(const ResponseInfo& info, const decode::Result& r, int32_t cached) const override {
    json output = info.shape ? responses_tool_output(info, r)
                             : json::array({responses_message_item(message_id(info), r.text, true)});
    return object(info, &r, std::move(output), usage(r, cached));
  }
  [[nodiscard]] bool keeps_stream_state() const override { return true; }
  [[nodiscard]] std::string stream_open(const ResponseInfo& info, int32_t, int32_t) const override {
    ToolStream& ts = *info.tool_stream;
    std::string out = responses_event(ts, "response.created", {{"response", object(info, nullptr, json::array())}});
    out += responses_event(ts, "response.in_progress", {{"response", object(info, nullptr, json::array())}});
    // With tools the items open as the reply shows what it is (server/api/responses_tools.cpp).
    if (!info.shape) out += responses_open_message(ts, message_id(info));
    return out;
  }
  [[nodiscard]] std::string stream_text(const ResponseInfo& info, const std::string& text) const override {
    if (info.shape) return responses_tool_stream_text(info, text);
    ToolStream& ts = *info.tool_stream;
    // What responses_event writes for this delta, byte for byte (keys in nlohmann's order),
    // without building the JSON tree: this is the per-token path.
    std::string out;
    out.reserve(200 + text.size() + info.id.size());
    out += "event: response.output_text.delta\ndata: {\"content_index\":0,\"delta\":";
    append_json_string(out, text);
    out += ",\"item_id\":";
    append_json_string(out, message_id(info));
    out += ",\"logprobs\":[],\"output_index\":0,\"sequence_number\":";
    out += std::to_string(ts.sequence++);
    out += ",\"type\":\"response.output_text.delta\"}\n\n";
    return out;
  }
  [[nodiscard]] std::string stream_event(const ResponseInfo& info, const json& event) const override {
    return responses_event(*info.tool_stream, "keepalive", {{"sfcl", event}});
  }
  [[nodiscard]] std::string stream_ping() const override { return ": ping\n\n"; }
  [[nodiscard]] std::string stream_progress(const ResponseInfo& info, const json& progress,
                                            const json& timings) const override {
    json data = {{"response", object(info, nullptr, json::array())}, {"prompt_progress", progress}};
    if (!timings.is_null()) data["timings"] = timings;
    return responses_event(*info.tool_stream, "response.in_progress", std::move(data));
  }
  [[nodiscard]] std::string stream_text_timed(const ResponseInfo& info, const std::string& text,
                                              const json& timings) const override {
    if (info.shape) return responses_tool_stream_text(info, text);
    ToolStream& ts = *info.tool_stream;
    return responses_event(ts, "response.output_text.delta",
                           {{"content_index", 0},
                            {"delta", text},
                            {"item_id", message_id(info)},
                            {"logprobs", json::array()},
                            {"output_index", 0},
                            {"timings", timings}});
  }
  [[nodiscard]] std::string stream_close(const ResponseInfo& info, const decode::Result& r, int32_t cached,
                                         json sfcl) const override {
    ToolStream& ts = *info.tool_stream;
    std::string out;
    json output;
    if (info.shape) {
      responses_stream_finish(info, r, ts);
      out = std::exchange(ts.tail, {});
      output = responses_sent_output(info, ts);
    } else {
      out = responses_close_message(ts, message_id(info), r.text);
      output = json::array({responses_message_item(message_id(info), r.text, true)});
    }
    json done = object(info, &r, std::move(output), usage(r, cached));
    done["sfcl"] = std::move(sfcl);
    json data = {{"response", std::move(done)}};
    if (info.timings) data["timings"] = llama_timings_json(r, cached);
    out += responses_event(ts, incomplete(r) ? "response.incomplete" : "response.completed", std::move(data));
    return out;
  }
  [[nodiscard]] std::string stream_error(const std::string& message) const override {
    return sse("error", {{"type", "error"}, {"code", "server_error"}, {"message", message}, {"param", nullptr}});
  }

 private:
  static std::string message_id(const ResponseInfo& info) { return responses_item_id("msg_", info.id); }
  // The response object; `r` null while it is in progress.
  static json object(const ResponseInfo& info, const decode::Result* r, json output, json usage = nullptr) {
    const char* status = r == nullptr ? "in_progress" : (incomplete(*r) ? "incomplete" : "completed");
    json o = {{"id", info.id},
              {"object", "response"},
              {"created_at", info.created},
              {"status", status},
              {"error", nullptr},
              {"incomplete_details", nullptr},
              {"model", info.model},
              {"output", std::move(output)},
              {"previous_response_id", nullptr},
              {"store", false},
              {"usage", std::move(usage)}};
    if (r != nullptr) o["completed_at"] = unix_now();
    if (r != nullptr && incomplete(*r)) o["incomplete_details"] = {{"reason", "max_output_tokens"}};
    return o;
  }
};

}  // namespace

const Dialect& openai_responses_dialect() {
  static const Responses kDialect;
  return kDialect;
}

}  // namespace sfcl::server
