// Checking a saved, signed response (what `sfcl verify` runs): the signature over `sfcl.signed`,
// then each signed field against the response as delivered — content, verdicts, model, stop
// reason, usage, status header — and, given the request, the request digest. Works on a JSON
// body or an SSE stream of either API, with or without the HTTP headers (curl -si / -sN).
#pragma once
#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sfcl::server {

struct SignatureCheck {
  std::string what;     // "signature", "content", "verdicts", "model", ...
  bool checked = true;  // false: nothing to compare it with (said in detail); does not fail
  bool ok = false;
  std::string detail;
};

// `request`: the request body that was sent, when the caller has it.
std::vector<SignatureCheck> check_signed_response(const std::string& saved, const std::array<unsigned char, 32>& key,
                                                  const std::optional<nlohmann::json>& request);

}  // namespace sfcl::server
