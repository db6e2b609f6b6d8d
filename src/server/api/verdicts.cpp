#include "server/api/verdicts.h"

#include <cmath>

#include "report/report.h"

namespace sfcl::server {

nlohmann::json final_sfcl(const decode::Result& r, decode::Mode mode, bool with_anchors, const SigningKey* key,
                          const SignContext& context) {
  nlohmann::json j = report::summary_json(r, mode);
  if (with_anchors || key != nullptr) j["anchors"] = report::anchors_json(r);
  if (key != nullptr) {
    // Without blocks from the caller the reply is one text block (no tools, no reasoning split).
    const nlohmann::json blocks =
        context.blocks.is_array() ? context.blocks : nlohmann::json::array({{{"type", "text"}, {"text", r.text}}});
    const nlohmann::json fields = {
        {"v", 3},
        {"request_id", context.request_id},
        {"model", context.model},
        {"created", context.created},
        {"stop_reason", std::string(decode::stop_reason_name(r.stop_reason))},
        {"stop_sequence", r.stop_sequence.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.stop_sequence)},
        {"status", j["status"]},
        {"prompt_tokens", r.prompt_tokens},
        {"output_tokens", r.output_tokens},
        {"content_sha256", sha256_hex(canonical_json(blocks))},
        {"sfcl_sha256", sha256_hex(canonical_json(j))},
        {"request_sha256", context.request_sha256}};
    nlohmann::json signed_fields = fields;
    if (context.choices > 1) {  // each choice of n signs for itself, and says how many there are
      signed_fields["choice"] = context.choice;
      signed_fields["choices"] = context.choices;
    }
    j["request_id"] = context.request_id;
    j["signed"] = signed_fields;
    j["signature"] = sign_base64(*key, signed_message(signed_fields));
  }
  return j;
}

namespace {

nlohmann::json anthropic_body_blocks(const nlohmann::json& content) {
  nlohmann::json blocks = nlohmann::json::array();
  for (const auto& b : content) {
    const std::string type = b.value("type", "");
    if (type == "text") {
      blocks.push_back({{"type", "text"}, {"text", b["text"]}});
    } else if (type == "tool_use") {
      blocks.push_back({{"type", "tool_use"}, {"id", b["id"]}, {"name", b["name"]}, {"input", b["input"]}});
    } else if (type == "thinking") {
      blocks.push_back({{"type", "thinking"}, {"thinking", b["thinking"]}});
    }
  }
  return blocks;
}

nlohmann::json openai_body_blocks(const nlohmann::json& choice) {
  if (!choice.contains("message")) return nlohmann::json::array({{{"type", "text"}, {"text", choice["text"]}}});
  const nlohmann::json& m = choice["message"];
  nlohmann::json calls = nlohmann::json::array();
  for (const auto& c : m.value("tool_calls", nlohmann::json::array())) {
    calls.push_back({{"type", "tool_use"},
                     {"id", c["id"]},
                     {"name", c["function"]["name"]},
                     {"input", tool_input(c["function"]["arguments"].get<std::string>())}});
  }
  return neutral_blocks(m.value("reasoning_content", nlohmann::json()), m["content"], std::move(calls));
}

// Responses output items: reasoning, the message's text, function calls (call_id is the call's id).
nlohmann::json responses_body_blocks(const nlohmann::json& output) {
  nlohmann::json reasoning;
  nlohmann::json text;
  nlohmann::json calls = nlohmann::json::array();
  for (const auto& item : output) {
    const std::string type = item.value("type", "");
    if (type == "reasoning") {
      reasoning = item["content"][0]["text"];
    } else if (type == "message") {
      std::string t;
      for (const auto& part : item["content"]) t += part.value("text", "");
      text = t;
    } else if (type == "function_call") {
      calls.push_back({{"type", "tool_use"},
                       {"id", item["call_id"]},
                       {"name", item["name"]},
                       {"input", tool_input(item["arguments"].get<std::string>())}});
    }
  }
  return neutral_blocks(reasoning, text.is_null() ? nlohmann::json("") : text, std::move(calls));
}

}  // namespace

nlohmann::json body_blocks(const nlohmann::json& response, size_t choice) {
  if (response.value("type", "") == "message") return anthropic_body_blocks(response["content"]);
  if (response.value("object", "") == "response") return responses_body_blocks(response["output"]);
  if (!response.contains("choices")) {  // llama-server's native /completion: its content
    return nlohmann::json::array({{{"type", "text"}, {"text", response.value("content", "")}}});
  }
  return openai_body_blocks(response["choices"][choice]);
}

namespace {

nlohmann::json message_json(const engine::ChatMessage& m) {
  nlohmann::json calls = nlohmann::json::array();
  for (const auto& c : m.tool_calls) calls.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
  return {{"role", m.role},
          {"content", m.content},
          {"tool_calls", calls},
          {"tool_call_id", m.tool_call_id},
          {"tool_name", m.tool_name}};
}

const char* tool_choice_name(engine::ToolChoice c) {
  switch (c) {
    case engine::ToolChoice::required:
      return "required";
    case engine::ToolChoice::none:
      return "none";
    case engine::ToolChoice::automatic:
      break;
  }
  return "auto";
}

// What decides the tokens besides the prompt: a reply to the same prompt sampled otherwise, checked
// otherwise or cut elsewhere is another answer to another request.
nlohmann::json generation_json(const GenerationRequest& req) {
  const decode::Options& o = req.options;
  const engine::SamplingOptions& s = o.sampling;
  nlohmann::json bias = nlohmann::json::array();
  for (const auto& [token, b] : req.logit_bias) bias.push_back({token, std::isfinite(b) ? nlohmann::json(b) : "-inf"});
  for (const auto& [text, b] : req.logit_bias_text)
    bias.push_back({text, std::isfinite(b) ? nlohmann::json(b) : "-inf"});
  nlohmann::json out = {{"max_tokens", o.max_tokens},
                        {"stop", o.stop},
                        {"temperature", s.temperature},
                        {"top_k", s.top_k},
                        {"top_p", s.top_p},
                        {"min_p", s.min_p},
                        {"seed", s.seed},
                        {"logit_bias", bias},
                        {"logprobs", o.logprobs},
                        {"n", req.n},
                        {"sfcl",
                         {{"mode", std::string(decode::mode_name(o.mode))},
                          {"threshold", o.checker.threshold},
                          {"strict", o.checker.strict},
                          {"derived", o.checker.derived},
                          {"max_backtracks", o.max_backtracks},
                          {"fallback", std::string(decode::fallback_name(o.fallback))},
                          {"abstain_marker", {o.abstain_marker, o.abstain_marker_zh}}}}};
  if (req.ignore_eos) out["ignore_eos"] = true;  // only when set: digests of other requests are unchanged
  if (!req.lora.empty()) {
    nlohmann::json lora = nlohmann::json::array();
    for (const LoraScale& l : req.lora) lora.push_back({{"id", l.id}, {"scale", l.scale}});
    out["lora"] = lora;
  }
  return out;
}

}  // namespace

nlohmann::json request_digest_json(const GenerationRequest& req) {
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& m : req.messages) messages.push_back(message_json(m));
  nlohmann::json tools = nlohmann::json::array();
  for (const auto& t : req.tools) {
    tools.push_back({{"name", t.name}, {"description", t.description}, {"parameters", t.parameters}});
  }
  nlohmann::json kwargs = nlohmann::json::object();
  for (const auto& [k, v] : req.template_kwargs) kwargs[k] = v;
  // The model is not here: the served model answers for the name asked, and the signed "model"
  // field says which did.
  nlohmann::json digest = {{"messages", messages},
                           {"prompt", req.raw_prompt},
                           {"raw", req.raw},
                           {"prefill", req.prefill},
                           {"sources", req.extra_sources},
                           {"tools", tools},
                           {"tool_choice", tool_choice_name(req.tool_choice)},
                           {"parallel_tool_calls", req.parallel_tool_calls},
                           {"json_schema", req.json_schema},
                           {"grammar", req.grammar},
                           {"chat_template_kwargs", kwargs},
                           {"enable_thinking", req.enable_thinking},
                           {"reasoning_format", req.reasoning_format},
                           {"generation", generation_json(req)}};
  if (req.infill) {  // only on /infill, so every other request's digest stays as it was
    nlohmann::json extra = nlohmann::json::array();
    for (const auto& [name, text] : req.infill->extra) extra.push_back({{"filename", name}, {"text", text}});
    digest["infill"] = {
        {"input_prefix", req.infill->prefix}, {"input_suffix", req.infill->suffix}, {"input_extra", extra}};
  }
  return digest;
}

std::string layer_status(decode::Mode mode) { return mode == decode::Mode::anchor ? "zeroed-v2" : "legacy"; }

std::string stream_status(decode::Mode mode, bool has_sources) {
  if (mode == decode::Mode::off) return "off";
  return has_sources ? "pending" : "inactive";
}

void set_status_headers(http::Response& res, bool compat_headers, decode::Mode mode, const std::string& status) {
  res.set_header("X-SFCL-Status", status);
  if (compat_headers) {
    res.set_header("x-anthropic-layer-status", layer_status(mode));
    res.set_header("X-Anthropic-SFCL-Status", status);
  }
}

}  // namespace sfcl::server
