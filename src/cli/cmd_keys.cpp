// sfcl keygen: an Ed25519 key for signed verdicts. sfcl verify: checks a saved response.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "server/signing.h"

namespace sfcl::cli {

namespace {

struct KeygenOpts {
  std::string out;
};

void add_flags(CLI::App& cmd, KeygenOpts& o) {
  cmd.add_option("out", o.out, "Secret key file to write (mode 0600)")->required();
}

int run(const KeygenOpts& o) {
  const auto key = server::generate_signing_key();
  server::save_signing_key(o.out, key);
  std::printf("%s\n", server::to_hex(key.public_key.data(), key.public_key.size()).c_str());
  std::fprintf(stderr, "wrote %s and %s.pub\n", o.out.c_str(), o.out.c_str());
  return 0;
}

struct VerifyOpts {
  std::string response;
  std::string public_key;
};

void add_flags(CLI::App& cmd, VerifyOpts& o) {
  cmd.add_option("response", o.response, "File with the response's headers and body (curl -si URL > FILE)")->required();
  cmd.add_option("--public-key", o.public_key, "Public key: hex, or a file holding it (FILE.pub from keygen)")
      ->required();
}

int run(const VerifyOpts& o) {
  std::array<unsigned char, 32> pk{};
  std::string hex = o.public_key;
  if (std::ifstream f(o.public_key); f) std::getline(f, hex);
  if (!server::from_hex(hex, pk.data(), pk.size()))
    throw UsageError("--public-key is not 64 hex digits or such a file");
  std::ifstream in(o.response, std::ios::binary);
  if (!in) throw UsageError("cannot read " + o.response);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string raw = ss.str();
  size_t split = raw.find("\r\n\r\n");
  size_t skip = 4;
  if (split == std::string::npos) {
    split = raw.find("\n\n");
    skip = 2;
  }
  if (split == std::string::npos) throw UsageError("no header/body separator: save the response with curl -si");
  std::string signature;
  std::string status;
  std::istringstream headers(raw.substr(0, split));
  for (std::string line; std::getline(headers, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string value = line.substr(line.find_first_not_of(' ', colon + 1));
    if (name == "x-sfcl-signature") signature = value;
    if (name == "x-sfcl-status") status = value;
  }
  if (signature.empty()) throw UsageError("the response has no X-SFCL-Signature header");
  nlohmann::json body;
  try {
    body = nlohmann::json::parse(raw.substr(split + skip));
  } catch (const std::exception& e) {
    throw UsageError(std::string("body is not JSON: ") + e.what());
  }
  const std::string id = body.value("id", "");
  const std::string anchors =
      body.contains("sfcl") ? body["sfcl"].value("anchors", nlohmann::json::array()).dump() : "[]";
  const bool ok = server::verify_base64(pk, server::signed_message(id, status, anchors), signature);
  std::printf("%s\n", ok ? "signature OK" : "signature INVALID");
  return ok ? 0 : 1;
}

}  // namespace

Runner register_keygen(CLI::App& app) {
  return add_command<KeygenOpts>(app, "keygen",
                                 "Write an Ed25519 signing key (FILE, and FILE.pub with the public key)");
}

Runner register_verify(CLI::App& app) {
  return add_command<VerifyOpts>(app, "verify", "Check the X-SFCL-Signature of a saved response (curl -si output)");
}

}  // namespace sfcl::cli
