// The flags of the API side that `sfcl serve` and `sfcl gateway` share: where it listens, the
// transport limits, browser access, the SFCL and sampling defaults of requests, admission limits,
// auth, signing, logs and the drain. Each command adds its engine's flags beside them.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "server/api/api.h"

namespace sfcl::cli {

// What CLI11 writes that is not an option field itself; read by apply_api_flags after parsing.
struct ApiFlags {
  std::shared_ptr<std::string> key_file = std::make_shared<std::string>();
  std::shared_ptr<bool> no_compat = std::make_shared<bool>(false);
  std::shared_ptr<bool> keep_zero_width = std::make_shared<bool>(false);
};

// Declares the flags on `cmd`, bound to `o` (which must outlive the parse).
ApiFlags add_api_flags(CLI::App& cmd, const std::shared_ptr<server::ServerOptions>& o);

// After parsing: the header and zero-width switches, and the keys of --api-key-file
// (a UsageError when it cannot be read).
void apply_api_flags(const ApiFlags& flags, server::ServerOptions& o);

}  // namespace sfcl::cli
