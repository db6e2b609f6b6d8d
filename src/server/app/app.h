// sfcl::server — `sfcl serve`: Anthropic Messages and OpenAI APIs over the check loop.
// Never includes llama.h: it talks to the model through engine/ and decode/.
#pragma once
#include "server/api/options.h"

namespace sfcl::server {

// Loads the models, listens and serves until SIGTERM/SIGINT; returns the process exit code.
int serve(const ServerOptions& options);

}  // namespace sfcl::server
