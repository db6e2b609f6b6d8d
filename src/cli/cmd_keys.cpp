// sfcl keygen: an Ed25519 key for signed verdicts. sfcl verify: checks a saved response.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli/commands.h"
#include "server/api/api.h"
#include "server/app/app.h"

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
  std::string request;
};

void add_flags(CLI::App& cmd, VerifyOpts& o) {
  cmd.add_option("response", o.response,
                 "Saved response: JSON body or SSE stream, with its headers (curl -si / -sN -i) or without")
      ->required();
  cmd.add_option("--public-key", o.public_key, "Public key: hex, or a file holding it (FILE.pub from keygen)")
      ->required();
  cmd.add_option("--request", o.request, "The request body that was sent (JSON file): also check it was this one");
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int run(const VerifyOpts& o) {
  std::array<unsigned char, 32> pk{};
  std::string hex = o.public_key;
  if (std::ifstream f(o.public_key); f) std::getline(f, hex);
  if (!server::from_hex(hex, pk.data(), pk.size()))
    throw UsageError("--public-key is not 64 hex digits or such a file");
  std::optional<nlohmann::json> request;
  if (!o.request.empty()) {
    request = nlohmann::json::parse(read_file(o.request), nullptr, false);
    if (request->is_discarded()) throw UsageError("--request " + o.request + " is not JSON");
  }
  std::vector<server::SignatureCheck> checks;
  try {
    checks = server::check_signed_response(read_file(o.response), pk, request);
  } catch (const server::ApiError& e) {
    throw UsageError(std::string("--request: ") + e.what());
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  bool all = true;
  for (const auto& c : checks) {
    all = all && c.ok;
    std::printf("%-8s %-14s %s\n", !c.checked ? "-" : (c.ok ? "ok" : "FAILED"), c.what.c_str(), c.detail.c_str());
  }
  std::printf("%s\n", all ? "signature OK: the response is the one the server signed"
                          : "signature INVALID: the response differs from what the server signed");
  return all ? 0 : 1;
}

}  // namespace

Runner register_keygen(CLI::App& app) {
  return add_command<KeygenOpts>(app, "keygen",
                                 "Write an Ed25519 signing key (FILE, and FILE.pub with the public key)");
}

Runner register_verify(CLI::App& app) {
  return add_command<VerifyOpts>(app, "verify",
                                 "Check a saved signed response: what was signed, and that the response still says it");
}

}  // namespace sfcl::cli
