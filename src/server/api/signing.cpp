#include "server/api/signing.h"

#include <sodium.h>
#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace sfcl::server {

namespace {
void init() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not initialise");
}
}  // namespace

std::string to_hex(const unsigned char* data, size_t n) {
  std::string out(n * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), data, n);
  out.pop_back();
  return out;
}

bool from_hex(const std::string& hex, unsigned char* out, size_t n) {
  size_t len = 0;
  return sodium_hex2bin(out, n, hex.data(), hex.size(), " \n\r\t", &len, nullptr) == 0 && len == n;
}

SigningKey generate_signing_key() {
  init();
  SigningKey k;
  crypto_sign_keypair(k.public_key.data(), k.secret.data());
  return k;
}

void save_signing_key(const std::filesystem::path& path, const SigningKey& key) {
  {
    std::ofstream f(path, std::ios::trunc);
    if (!f) throw std::runtime_error("cannot write " + path.string());
    f << to_hex(key.secret.data(), key.secret.size()) << "\n";
  }
  ::chmod(path.c_str(), 0600);
  std::ofstream pub(path.string() + ".pub", std::ios::trunc);
  pub << to_hex(key.public_key.data(), key.public_key.size()) << "\n";
}

SigningKey load_signing_key(const std::filesystem::path& path) {
  init();
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read signing key " + path.string());
  std::string hex;
  std::getline(f, hex);
  SigningKey k;
  if (!from_hex(hex, k.secret.data(), k.secret.size())) {
    throw std::runtime_error(path.string() + ": not an Ed25519 secret key (128 hex digits; make one with sfcl keygen)");
  }
  crypto_sign_ed25519_sk_to_pk(k.public_key.data(), k.secret.data());
  return k;
}

namespace {
// Numbers with an integral value become integers, so a client that writes 1.0 as 1 (or back)
// changes nothing that is signed.
nlohmann::json canonical_numbers(const nlohmann::json& j) {
  if (j.is_object() || j.is_array()) {
    nlohmann::json out = j.is_object() ? nlohmann::json::object() : nlohmann::json::array();
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (j.is_object()) {
        out[it.key()] = canonical_numbers(it.value());
      } else {
        out.push_back(canonical_numbers(it.value()));
      }
    }
    return out;
  }
  constexpr double kExact = 9007199254740992.0;  // 2^53: larger doubles are not exact integers
  if (j.is_number_float() && std::isfinite(j.get<double>()) && std::abs(j.get<double>()) < kExact &&
      std::trunc(j.get<double>()) == j.get<double>()) {
    return static_cast<int64_t>(j.get<double>());
  }
  return j;
}
}  // namespace

std::string canonical_json(const nlohmann::json& j) {
  return canonical_numbers(j).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string sha256_hex(const std::string& bytes) {
  init();
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  return to_hex(digest, sizeof digest);
}

std::string signed_message(const nlohmann::json& signed_fields) {
  return "sfcl-signature-v2\n" + canonical_json(signed_fields);
}

std::string sign_base64(const SigningKey& key, const std::string& message) {
  unsigned char sig[crypto_sign_BYTES];
  crypto_sign_detached(sig, nullptr, reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                       key.secret.data());
  std::string out(sodium_base64_ENCODED_LEN(sizeof sig, sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), sig, sizeof sig, sodium_base64_VARIANT_ORIGINAL);
  out.resize(std::strlen(out.c_str()));
  return out;
}

bool verify_base64(const std::array<unsigned char, 32>& pk, const std::string& message, const std::string& sig_b64) {
  init();
  unsigned char sig[crypto_sign_BYTES];
  size_t len = 0;
  if (sodium_base642bin(sig, sizeof sig, sig_b64.data(), sig_b64.size(), " \r\n", &len, nullptr,
                        sodium_base64_VARIANT_ORIGINAL) != 0 ||
      len != sizeof sig) {
    return false;
  }
  return crypto_sign_verify_detached(sig, reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                                     pk.data()) == 0;
}

nlohmann::json neutral_blocks(const nlohmann::json& reasoning, const nlohmann::json& text, nlohmann::json calls) {
  nlohmann::json blocks = nlohmann::json::array();
  if (reasoning.is_string()) blocks.push_back({{"type", "thinking"}, {"thinking", reasoning}});
  const bool has_text = text.is_string() && !text.get<std::string>().empty();
  if (has_text || calls.empty()) {
    blocks.push_back({{"type", "text"}, {"text", text.is_string() ? text : nlohmann::json("")}});
  }
  for (auto& c : calls) blocks.push_back(std::move(c));
  return blocks;
}

nlohmann::json tool_input(const std::string& arguments) {
  nlohmann::json input = nlohmann::json::parse(arguments, nullptr, false);
  return input.is_discarded() ? nlohmann::json(arguments) : input;
}

}  // namespace sfcl::server
