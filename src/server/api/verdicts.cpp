#include "server/api/verdicts.h"

#include "report/report.h"

namespace sfcl::server {

nlohmann::json final_sfcl(const decode::Result& r, decode::Mode mode, bool with_anchors, const SigningKey* key,
                          const SignContext& context) {
  nlohmann::json j = report::summary_json(r, mode);
  if (with_anchors || key != nullptr) j["anchors"] = report::anchors_json(r);
  if (key != nullptr) {
    const nlohmann::json fields = {{"v", 2},
                                   {"request_id", context.request_id},
                                   {"model", context.model},
                                   {"created", context.created},
                                   {"stop_reason", std::string(decode::stop_reason_name(r.stop_reason))},
                                   {"status", j["status"]},
                                   {"prompt_tokens", r.prompt_tokens},
                                   {"output_tokens", r.output_tokens},
                                   {"content_sha256", sha256_hex(canonical_json(nlohmann::json::array({r.text})))},
                                   {"sfcl_sha256", sha256_hex(canonical_json(j))},
                                   {"request_sha256", context.request_sha256}};
    j["request_id"] = context.request_id;
    j["signed"] = fields;
    j["signature"] = sign_base64(*key, signed_message(fields));
  }
  return j;
}

nlohmann::json request_digest_json(const GenerationRequest& req) {
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& m : req.messages) messages.push_back({m.role, m.content});
  return {{"messages", messages}, {"prompt", req.raw_prompt}, {"prefill", req.prefill}, {"sources", req.extra_sources}};
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
