// Signed verdicts: Ed25519 (libsodium) over
//   "sfcl-signature-v1\n" + request id + "\n" + X-SFCL-Status + "\n" + hex(SHA-256(anchors JSON))
// where the anchors JSON is the response's `sfcl.anchors` array serialised compactly with sorted
// keys (nlohmann::json::dump()). A gateway can recompute and check it with the public key.
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
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

std::string signed_message(const std::string& request_id, const std::string& status, const std::string& anchors_json);
std::string sign_base64(const SigningKey& key, const std::string& message);
bool verify_base64(const std::array<unsigned char, 32>& public_key, const std::string& message,
                   const std::string& sig_b64);
std::string to_hex(const unsigned char* data, size_t n);
bool from_hex(const std::string& hex, unsigned char* out, size_t n);

}  // namespace sfcl::server
