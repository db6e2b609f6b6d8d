#include "server/verdicts.h"

#include "report/report.h"

namespace sfcl::server {

nlohmann::json final_sfcl(const decode::Result& r, decode::Mode mode, bool with_anchors, const SigningKey* key,
                          const std::string& id) {
  nlohmann::json j = report::summary_json(r, mode);
  if (with_anchors || key != nullptr) j["anchors"] = report::anchors_json(r);
  if (key != nullptr) {
    j["request_id"] = id;
    j["signature"] = sign_base64(*key, signed_message(id, j["status"].get<std::string>(), j["anchors"].dump()));
  }
  return j;
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
