#include "server/app/signed_response.h"

#include <algorithm>
#include <ctime>
#include <map>
#include <sstream>

#include "server/api/request.h"
#include "server/api/signing.h"
#include "server/api/verdicts.h"
#include "server/app/delivered.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

void split_http(const std::string& saved, std::string& headers, std::string& body) {
  if (saved.rfind("HTTP/", 0) != 0) {
    body = saved;
    return;
  }
  size_t split = saved.find("\r\n\r\n");
  size_t skip = 4;
  if (split == std::string::npos) {
    split = saved.find("\n\n");
    skip = 2;
  }
  if (split == std::string::npos) throw std::runtime_error("no header/body separator in the saved response");
  headers = saved.substr(0, split);
  body = saved.substr(split + skip);
}

std::string header_value(const std::string& headers, const std::string& wanted) {
  std::istringstream in(headers);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == wanted) {
      const size_t start = line.find_first_not_of(' ', colon + 1);
      return start == std::string::npos ? "" : line.substr(start);
    }
  }
  return {};
}

std::string utc(int64_t unix_seconds) {
  const std::time_t t = unix_seconds;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

SignatureCheck same(const std::string& what, const json& signed_value, const json& delivered) {
  const bool ok = canonical_json(signed_value) == canonical_json(delivered);
  return {what, true, ok,
          ok ? "signed and delivered: " + canonical_json(delivered)
             : "signed " + canonical_json(signed_value) + ", delivered " + canonical_json(delivered)};
}

std::string block_summary(const json& blocks) {
  std::map<std::string, int> n;
  for (const auto& b : blocks) ++n[b.value("type", "")];
  std::string out;
  for (const auto& [type, count] : n) out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + type;
  return out.empty() ? "no blocks" : out;
}

bool has_tool_use(const json& blocks) {
  for (const auto& b : blocks) {
    if (b.value("type", "") == "tool_use") return true;
  }
  return false;
}

// A stream's check events against what was signed: each anchor event is one of the signed anchors,
// and there are as many backtrack and fallback events as the signed counts say.
SignatureCheck check_events(const DeliveredChoice& c, const std::string& what) {
  const json anchors = c.sfcl.value("anchors", json::array());
  int64_t backtracks = 0;
  int64_t fallbacks = 0;
  for (const auto& e : c.events) {
    const std::string name = e.value("event", "");
    if (name == "backtrack") {
      ++backtracks;
    } else if (name == "fallback") {
      ++fallbacks;
    } else {
      json anchor = e;
      anchor.erase("event");
      if (std::find(anchors.begin(), anchors.end(), anchor) == anchors.end()) {
        return {what, true, false, "a " + name + " event names no signed anchor: " + canonical_json(anchor)};
      }
    }
  }
  // A stream carries check events only when the client asked for them (X-SFCL-Events): without
  // any there is nothing to count, and the signed counts are in the final sfcl object anyway.
  if (!c.events.empty() &&
      (backtracks != c.sfcl.value("backtracks", int64_t{0}) || fallbacks != c.sfcl.value("fallbacks", int64_t{0}))) {
    return {what, true, false,
            std::to_string(backtracks) + " backtrack and " + std::to_string(fallbacks) +
                " fallback event(s), the signed counts say otherwise"};
  }
  return {what, true, true, std::to_string(c.events.size()) + " check event(s), each a signed anchor or count"};
}

bool is_signed(const json& sfcl) {
  return sfcl.is_object() && sfcl.contains("signature") && sfcl.contains("signed") && sfcl["signed"].is_object() &&
         sfcl["signature"].is_string();
}

SignatureCheck check_unsigned(const Delivered& d) {
  if (d.unsigned_parts.empty()) return {"unsigned", true, true, "nothing in the response is outside what was signed"};
  std::string list;
  for (size_t i = 0; i < d.unsigned_parts.size() && i < 5; ++i) list += (i ? "; " : "") + d.unsigned_parts[i];
  if (d.unsigned_parts.size() > 5) list += "; and " + std::to_string(d.unsigned_parts.size() - 5) + " more";
  return {"unsigned", true, false, "not covered by the signature: " + list};
}

// The checks of one choice against its own signature, named "<prefix>what" ("choice 1 content",
// or plain "content" when the response has one choice). False when its signature is not v3.
bool check_choice(const Delivered& d, size_t i, const std::array<unsigned char, 32>& key, const std::string& prefix,
                  std::vector<SignatureCheck>& out) {
  const DeliveredChoice& c = d.choices[i];
  if (!is_signed(c.sfcl)) {
    out.push_back({prefix + "signature", true, false, "this choice carries no signed sfcl object"});
    return true;
  }
  const json& fields = c.sfcl["signed"];
  const bool valid = verify_base64(key, signed_message(fields), c.sfcl["signature"].get<std::string>());
  const json created = fields.value("created", json(0));
  const int64_t made = created.is_number_integer() ? created.get<int64_t>() : 0;
  out.push_back({prefix + "signature", true, valid,
                 valid ? "Ed25519 over the signed fields, made " + utc(made) + " (" + std::to_string(made) + ")"
                       : "does not match the signed fields for this key"});
  if (fields.value("v", json()) != 3) {
    out.push_back({prefix + "version", true, false,
                   "signature v" + fields.value("v", json()).dump() + ": this sfcl checks v3 (docs/OPERATIONS.md)"});
    return false;
  }
  // n > 1: each signature says which choice of how many it is, so none can be dropped, added or moved.
  const size_t n = d.choices.size();
  if (n > 1 || fields.contains("choice") || fields.contains("choices")) {
    out.push_back(same(prefix + "choice",
                       {{"choice", fields.value("choice", json(0))}, {"of", fields.value("choices", json(1))}},
                       {{"choice", i}, {"of", n}}));
  }
  out.push_back(same(prefix + "request id", fields.value("request_id", json("")), d.id));
  out.push_back(same(prefix + "model", fields.value("model", json("")), d.model));
  if (!d.created.is_null()) out.push_back(same(prefix + "created", created, d.created));
  SignatureCheck content =
      same(prefix + "content", fields.value("content_sha256", json("")), sha256_hex(canonical_json(c.blocks)));
  content.detail = (content.ok ? "SHA-256 of the delivered content matches (" : "the delivered content differs (") +
                   block_summary(c.blocks) + (d.stream ? ", assembled from the stream)" : ", body)");
  out.push_back(content);
  json verdicts = c.sfcl;
  for (const char* k : {"request_id", "signed", "signature"}) verdicts.erase(k);
  SignatureCheck v =
      same(prefix + "verdicts", fields.value("sfcl_sha256", json("")), sha256_hex(canonical_json(verdicts)));
  v.detail = v.ok ? "anchors, verdict counts and status in sfcl match" : "sfcl (anchors, counts or status) differs";
  out.push_back(v);
  if (d.stream) out.push_back(check_events(c, prefix + "events"));
  const std::string stop =
      fields.value("stop_reason", json("")).is_string() ? fields["stop_reason"].get<std::string>() : "";
  const bool tools = has_tool_use(c.blocks);
  const std::string expected = d.anthropic ? (tools ? "tool_use" : stop)
                                           : (tools                  ? "tool_calls"
                                              : stop == "max_tokens" ? "length"
                                                                     : "stop");
  out.push_back(same(prefix + "stop reason", expected, c.stop));
  if (d.anthropic)
    out.push_back(same(prefix + "stop sequence", fields.value("stop_sequence", json()), c.stop_sequence));
  if (i > 0) {  // every choice answers the request choice 0 answered
    SignatureCheck r = same(prefix + "request", d.choices[0].sfcl["signed"].value("request_sha256", json("")),
                            fields.value("request_sha256", json("")));
    r.detail = r.ok ? "the same request as choice 0" : "another request than choice 0's";
    out.push_back(r);
  }
  return true;
}

// What the response says once for all its choices (headers, usage) against choice 0's signature
// and the signed counts of every choice.
void check_whole(const Delivered& d, const std::string& headers, std::vector<SignatureCheck>& out) {
  const json& fields = d.choices[0].sfcl["signed"];
  const std::string status_header = header_value(headers, "x-sfcl-status");
  if (d.stream && !status_header.empty()) {
    // "pending", or "inactive" / "off" announced from the request alone: not the final status.
    out.push_back(
        {"status header", false, true, status_header + ": a stream's headers leave before its status is known"});
  } else if (!status_header.empty()) {
    out.push_back(same("status header", fields.value("status", json("")), status_header));
  } else {
    out.push_back({"status header", false, true, "not in the saved response (save it with curl -si to check it)"});
  }
  // The signature and request id headers of a body, when saved, say what choice 0's sfcl says.
  for (const auto& [name, value] : {std::pair<const char*, json>{"x-sfcl-signature", d.choices[0].sfcl["signature"]},
                                    std::pair<const char*, json>{"x-sfcl-request-id", json(d.id)}}) {
    const std::string got = header_value(headers, name);
    if (!got.empty()) out.push_back(same(std::string(name) + " header", value, got));
  }
  if (!d.usage.is_object()) {
    out.push_back({"usage", false, true, "the response has none (OpenAI streams: stream_options.include_usage)"});
    return;
  }
  // The prompt once, the output of every choice summed (as the server adds them for n > 1).
  int64_t output = 0;
  for (const auto& c : d.choices) {
    output += is_signed(c.sfcl) ? c.sfcl["signed"].value("output_tokens", int64_t{0}) : 0;
  }
  const json delivered =
      d.anthropic
          ? json{{"prompt", d.usage.value("input_tokens", 0) + d.usage.value("cache_read_input_tokens", 0)},
                 {"output", d.usage.value("output_tokens", 0)}}
          : json{{"prompt", d.usage.value("prompt_tokens", 0)}, {"output", d.usage.value("completion_tokens", 0)}};
  out.push_back(same("usage", {{"prompt", fields.value("prompt_tokens", 0)}, {"output", output}}, delivered));
}

std::vector<SignatureCheck> checks_of(const std::string& saved, const std::array<unsigned char, 32>& key,
                                      const std::optional<json>& request) {
  std::string headers;
  std::string body;
  split_http(saved, headers, body);
  const Delivered d = read_delivered(body);
  if (!is_signed(d.choices[0].sfcl)) {
    throw std::runtime_error(
        "the response carries no sfcl.signature / sfcl.signed (was the server run with --sign-key?)");
  }
  std::vector<SignatureCheck> out;
  const size_t n = d.choices.size();
  for (size_t i = 0; i < n; ++i) {
    if (!check_choice(d, i, key, n > 1 ? "choice " + std::to_string(i) + " " : "", out)) return out;
  }
  check_whole(d, headers, out);
  out.push_back(check_unsigned(d));
  const json& fields = d.choices[0].sfcl["signed"];
  if (request) {
    const Api api = d.anthropic                   ? Api::anthropic
                    : request->contains("input")  ? Api::openai_responses
                    : request->contains("prompt") ? Api::openai_completions
                                                  : Api::openai_chat;
    static const ServerOptions kDefaults;  // a named object: GCC 12 misreads a temporary's strings
    const GenerationRequest req = parse_request(api, *request, kDefaults);
    SignatureCheck r =
        same("request", fields.value("request_sha256", json("")), sha256_hex(canonical_json(request_digest_json(req))));
    r.detail = r.ok ? "the given request (messages, tools, options, sampling) is the one signed"
                    : "the given request is not the one this response answered (or the server's defaults differ)";
    out.push_back(r);
  } else {
    out.push_back({"request", false, true, "not checked (pass --request FILE with the request body sent)"});
  }
  return out;
}

}  // namespace

std::vector<SignatureCheck> check_signed_response(const std::string& saved, const std::array<unsigned char, 32>& key,
                                                  const std::optional<json>& request) {
  try {
    return checks_of(saved, key, request);
  } catch (const json::exception& e) {
    // A signed field of another type than the server writes: not a response it signed.
    throw std::runtime_error(std::string("malformed signed response: ") + e.what());
  }
}

}  // namespace sfcl::server
