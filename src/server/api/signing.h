// Signed verdicts: Ed25519 (libsodium) over "sfcl-signature-v2\n" + the canonical JSON of the
// response's `sfcl.signed` object, which binds the whole answer to its request and its time:
//   v (3: content blocks, stop_sequence and the full request digest; v2 signed the text alone),
//   request_id, model, created (unix seconds), stop_reason (end_turn | max_tokens |
//   stop_sequence), stop_sequence (the one that matched, or null), status (X-SFCL-Status),
//   prompt_tokens, output_tokens,
//   content_sha256  SHA-256 of the canonical JSON array of the reply's content blocks, in an
//                   API-neutral form: {"type":"text","text"}, {"type":"tool_use","id","name","input"},
//                   {"type":"thinking","thinking"} (server/app/delivered.h reads them back),
//   sfcl_sha256     of the final `sfcl` object without request_id, signed and signature (anchors,
//                   verdict counts, status),
//   request_sha256  of everything that shaped the prompt and the sampling (request_digest_json),
//   choice, choices (only when n > 1) this choice's index and how many there are: each choice of an
//                   n > 1 response is signed on its own, with its own blocks, counts and verdicts.
// Canonical JSON (canonical_json) survives re-serialisation: sorted keys, no spaces, and a number
// with an integral value written as an integer (1.0 and 1 sign the same). docs/DESIGN.md, "Signing".
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace sfcl::server {

struct SigningKey {
  std::array<unsigned char, 64> secret{};
  std::array<unsigned char, 32> public_key{};
};

SigningKey generate_signing_key();
// Key files hold the 64-byte secret key as hex; "<file>.pub" the public key as hex.
void save_signing_key(const std::filesystem::path& path, const SigningKey& key);
SigningKey load_signing_key(const std::filesystem::path& path);

// What a response's signature binds besides its own content.
struct SignContext {
  std::string request_id;
  std::string model;
  int64_t created = 0;         // unix seconds
  std::string request_sha256;  // sha256_hex(canonical_json(request_digest_json(...)))
  // The delivered content blocks (the form content_sha256 describes) when the reply was split
  // into blocks; null: one text block holding the whole reply text.
  nlohmann::json blocks = nullptr;
  int32_t choice = 0;   // n > 1: which choice this signature is for
  int32_t choices = 1;  // n: how many the response has (signed only when more than one)
};

// The neutral content blocks of a reply as OpenAI carries it: reasoning (a thinking block when it
// is a string), the text (kept when there is no call, or it is not empty), then the calls; the
// order and rule Anthropic's content follows, so both APIs sign the same reply the same way.
nlohmann::json neutral_blocks(const nlohmann::json& reasoning, const nlohmann::json& text, nlohmann::json calls);
// A tool_use block's input from a call's arguments text: the JSON it holds, or the text itself
// when it is no JSON (a call cut off by max_tokens).
nlohmann::json tool_input(const std::string& arguments);

std::string canonical_json(const nlohmann::json& j);
std::string sha256_hex(const std::string& bytes);
// The bytes signed for a `sfcl.signed` object.
std::string signed_message(const nlohmann::json& signed_fields);
std::string sign_base64(const SigningKey& key, const std::string& message);
bool verify_base64(const std::array<unsigned char, 32>& public_key, const std::string& message,
                   const std::string& sig_b64);
std::string to_hex(const unsigned char* data, size_t n);
bool from_hex(const std::string& hex, unsigned char* out, size_t n);

}  // namespace sfcl::server
