// The HTTP routes of `sfcl serve`: generation (both dialects), count_tokens, models, health,
// metrics, public key; auth before routing; errors in each API's shape.
#pragma once
#include <httplib.h>

#include "server/state.h"

namespace sfcl::server {

void install_routes(httplib::Server& svr, State& st);

}  // namespace sfcl::server
