// sfcl::server — `sfcl serve`: Anthropic Messages and OpenAI APIs over the check loop.
// Never includes llama.h: it talks to the model through engine/ and decode/.
// The public header of the app layer, and of the server as a whole: what src/cli and src/gateway
// use (the layers below through their own public headers, which it includes).
#pragma once
#include "server/api/api.h"
#include "server/app/process.h"
#include "server/app/routes.h"
#include "server/app/signed_response.h"
#include "server/app/state.h"
#include "server/http/http.h"
#include "server/runtime/runtime.h"

namespace sfcl::server {

// Loads the models, listens and serves until SIGTERM/SIGINT; returns the process exit code.
int serve(const ServerOptions& options);

}  // namespace sfcl::server
