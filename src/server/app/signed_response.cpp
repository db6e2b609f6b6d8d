#include "server/app/signed_response.h"

#include <ctime>
#include <sstream>

#include "server/api/request.h"
#include "server/api/signing.h"
#include "server/api/verdicts.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

// What a response says, whichever API and framing it came in.
struct Delivered {
  bool anthropic = false;
  bool stream = false;
  std::string id;
  std::string model;
  json texts = json::array();  // the text of every content block
  std::string stop;            // Anthropic stop_reason or OpenAI finish_reason
  json usage;                  // null when the response has none (an OpenAI stream without include_usage)
  json sfcl;
  std::string status_header;
};

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

void read_json_body(const json& b, Delivered& d) {
  d.id = b.value("id", "");
  d.model = b.value("model", "");
  d.usage = b.value("usage", json());
  d.sfcl = b.value("sfcl", json());
  if (b.value("type", "") == "message") {
    d.anthropic = true;
    for (const auto& block : b.value("content", json::array())) {
      if (block.value("type", "") == "text") d.texts.push_back(block.value("text", ""));
    }
    d.stop = b.value("stop_reason", json()).is_string() ? b["stop_reason"].get<std::string>() : "";
    return;
  }
  const json choice = b.contains("choices") && !b["choices"].empty() ? b["choices"][0] : json::object();
  if (choice.contains("message")) {
    d.texts.push_back(choice["message"].value("content", json("")).is_string() ? choice["message"]["content"] : "");
  } else {
    d.texts.push_back(choice.value("text", ""));
  }
  d.stop = choice.value("finish_reason", json()).is_string() ? choice["finish_reason"].get<std::string>() : "";
}

// Assembles a stream: Anthropic named events or OpenAI data-only chunks.
void read_stream(const std::string& body, Delivered& d) {
  d.stream = true;
  std::string text;
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("data: ", 0) != 0 || line == "data: [DONE]") continue;
    const json e = json::parse(line.substr(6), nullptr, false);
    if (e.is_discarded() || !e.is_object()) continue;
    const std::string type = e.value("type", "");
    if (type == "message_start") {
      d.anthropic = true;
      d.id = e["message"].value("id", "");
      d.model = e["message"].value("model", "");
    } else if (type == "content_block_delta" && e["delta"].value("type", "") == "text_delta") {
      text += e["delta"].value("text", "");
    } else if (type == "message_delta") {
      d.stop = e["delta"].value("stop_reason", json()).is_string() ? e["delta"]["stop_reason"].get<std::string>() : "";
      d.usage = e.value("usage", json());
      d.sfcl = e.value("sfcl", json());
    } else if (e.contains("choices")) {
      d.id = e.value("id", d.id);
      d.model = e.value("model", d.model);
      if (e.contains("usage") && e["usage"].is_object()) d.usage = e["usage"];
      if (e.contains("sfcl") && e["sfcl"].contains("signature")) d.sfcl = e["sfcl"];
      if (e["choices"].empty()) continue;
      const json& c = e["choices"][0];
      if (c.contains("delta") && c["delta"].contains("content") && c["delta"]["content"].is_string()) {
        text += c["delta"]["content"].get<std::string>();
      } else if (c.contains("text") && c["text"].is_string()) {
        text += c["text"].get<std::string>();
      }
      if (c.value("finish_reason", json()).is_string()) d.stop = c["finish_reason"].get<std::string>();
    }
  }
  d.texts.push_back(text);
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

}  // namespace

std::vector<SignatureCheck> check_signed_response(const std::string& saved, const std::array<unsigned char, 32>& key,
                                                  const std::optional<json>& request) {
  std::string headers;
  std::string body;
  split_http(saved, headers, body);
  Delivered d;
  d.status_header = header_value(headers, "x-sfcl-status");
  const json parsed = json::parse(body, nullptr, false);
  if (!parsed.is_discarded() && parsed.is_object()) {
    read_json_body(parsed, d);
  } else {
    read_stream(body, d);
  }
  if (!d.sfcl.is_object() || !d.sfcl.contains("signature") || !d.sfcl.contains("signed")) {
    throw std::runtime_error(
        "the response carries no sfcl.signature / sfcl.signed (was the server run with --sign-key?)");
  }
  const json& fields = d.sfcl["signed"];
  std::vector<SignatureCheck> out;
  const bool valid = verify_base64(key, signed_message(fields), d.sfcl.value("signature", ""));
  out.push_back({"signature", true, valid,
                 valid ? "Ed25519 over the signed fields, made " + utc(fields.value("created", int64_t{0})) + " (" +
                             std::to_string(fields.value("created", int64_t{0})) + ")"
                       : "does not match the signed fields for this key"});
  out.push_back(same("request id", fields.value("request_id", ""), d.id));
  out.push_back(same("model", fields.value("model", ""), d.model));
  SignatureCheck content = same("content", fields.value("content_sha256", ""), sha256_hex(canonical_json(d.texts)));
  content.detail = (content.ok ? "SHA-256 of the delivered text matches (" : "the delivered text differs (") +
                   std::to_string(d.texts.size()) + " block(s), " + (d.stream ? "assembled from the stream)" : "body)");
  out.push_back(content);
  json verdicts = d.sfcl;
  for (const char* k : {"request_id", "signed", "signature"}) verdicts.erase(k);
  SignatureCheck v = same("verdicts", fields.value("sfcl_sha256", ""), sha256_hex(canonical_json(verdicts)));
  v.detail = v.ok ? "anchors, verdict counts and status in sfcl match" : "sfcl (anchors, counts or status) differs";
  out.push_back(v);
  const std::string stop = fields.value("stop_reason", "");
  out.push_back(same("stop reason", d.anthropic ? json(stop) : json(stop == "max_tokens" ? "length" : "stop"), d.stop));
  if (d.stream && d.status_header == "pending") {
    out.push_back({"status header", false, true, "pending: a stream's headers leave before its status is known"});
  } else if (!d.status_header.empty()) {
    out.push_back(same("status header", fields.value("status", ""), d.status_header));
  } else {
    out.push_back({"status header", false, true, "not in the saved response (save it with curl -si to check it)"});
  }
  if (d.usage.is_object()) {
    const json delivered =
        d.anthropic
            ? json{{"prompt", d.usage.value("input_tokens", 0) + d.usage.value("cache_read_input_tokens", 0)},
                   {"output", d.usage.value("output_tokens", 0)}}
            : json{{"prompt", d.usage.value("prompt_tokens", 0)}, {"output", d.usage.value("completion_tokens", 0)}};
    out.push_back(same("usage",
                       {{"prompt", fields.value("prompt_tokens", 0)}, {"output", fields.value("output_tokens", 0)}},
                       delivered));
  } else {
    out.push_back({"usage", false, true, "the response has none (OpenAI streams: stream_options.include_usage)"});
  }
  if (request) {
    const Api api =
        d.anthropic ? Api::anthropic : (request->contains("prompt") ? Api::openai_completions : Api::openai_chat);
    static const ServerOptions kDefaults;  // a named object: GCC 12 misreads a temporary's strings
    const GenerationRequest req = parse_request(api, *request, kDefaults);
    SignatureCheck r =
        same("request", fields.value("request_sha256", ""), sha256_hex(canonical_json(request_digest_json(req))));
    r.detail = r.ok ? "the given request's messages, prompt and sources are the ones signed"
                    : "the given request is not the one this response answered";
    out.push_back(r);
  } else {
    out.push_back({"request", false, true, "not checked (pass --request FILE with the request body sent)"});
  }
  return out;
}

}  // namespace sfcl::server
