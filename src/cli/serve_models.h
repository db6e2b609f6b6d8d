// The per-model flags of `sfcl serve` (--model, --model-id, --alias, --sfcl, --chat-template,
// --chat-template-file): each one given after a --model belongs to that model, so one server can
// serve several (`--model a.gguf --alias fast --sfcl off --model b.gguf --alias careful`).
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "server/api/api.h"

namespace sfcl::cli {

// The options the per-model flags were declared on (each takes one value per occurrence).
struct ModelFlags {
  CLI::Option* model = nullptr;
  CLI::Option* id = nullptr;
  CLI::Option* alias = nullptr;
  CLI::Option* mode = nullptr;
  CLI::Option* chat_template = nullptr;
  CLI::Option* chat_template_file = nullptr;
  std::shared_ptr<void> storage;  // where CLI11 writes the values (they are read from results())
};

// Declares the flags on `cmd`.
ModelFlags add_per_model_flags(CLI::App& cmd);

// Turns the parsed flags into o.models, o.checks.mode and o.chat_template. With one --model (or none:
// `default_path`) every per-model flag is that model's wherever it stands, as before. With several,
// a flag belongs to the --model before it; --sfcl and --chat-template before the first --model are
// the defaults of every model, --model-id and --alias there are a UsageError.
void assign_model_flags(const CLI::App& cmd, const ModelFlags& flags, const std::string& default_path,
                        server::ServerOptions& o);

}  // namespace sfcl::cli
