// sfcl keygen: an Ed25519 key for signed verdicts. sfcl verify: checks a saved response.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "server/signing.h"

namespace sfcl::cli {

Runner register_keys(CLI::App& app) {
  auto* gen = app.add_subcommand("keygen", "Write an Ed25519 signing key (FILE, and FILE.pub with the public key)");
  auto out = std::make_shared<std::string>();
  gen->add_option("out", *out, "Secret key file to write (mode 0600)")->required();
  auto* ver = app.add_subcommand("verify", "Check the X-SFCL-Signature of a saved response (curl -si output)");
  auto response = std::make_shared<std::string>();
  auto pub = std::make_shared<std::string>();
  ver->add_option("response", *response, "File with the response's headers and body (curl -si URL > FILE)")->required();
  ver->add_option("--public-key", *pub, "Public key: hex, or a file holding it (FILE.pub from keygen)")->required();
  return [gen, ver, out, response, pub]() -> int {
    if (gen->parsed()) {
      const auto key = server::generate_signing_key();
      server::save_signing_key(*out, key);
      std::printf("%s\n", server::to_hex(key.public_key.data(), key.public_key.size()).c_str());
      std::fprintf(stderr, "wrote %s and %s.pub\n", out->c_str(), out->c_str());
      return 0;
    }
    std::array<unsigned char, 32> pk{};
    std::string hex = *pub;
    if (std::ifstream f(*pub); f) std::getline(f, hex);
    if (!server::from_hex(hex, pk.data(), pk.size()))
      throw UsageError("--public-key is not 64 hex digits or such a file");
    std::ifstream in(*response, std::ios::binary);
    if (!in) throw UsageError("cannot read " + *response);
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
  };
}

}  // namespace sfcl::cli
