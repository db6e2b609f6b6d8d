// The HTTP routes of `sfcl serve`: generation (both dialects), count_tokens, models, health,
// metrics, public key; errors in each API's shape. Transport-neutral (server/http/message.h).
#pragma once
#include <chrono>

#include "server/app/state.h"
#include "server/http/message.h"
#include "server/http/router.h"

namespace sfcl::server {

void install_routes(http::Router& svr, State& st);

// Runs the route for `req` (404 / 405 with Allow when there is none) and adds CORS headers.
void dispatch(const http::Router& routes, State& st, const http::Request& req, http::Response& res);

// One log line per request (unless the handler wrote its own) and the request metric.
void log_http(State& st, const http::Request& req, const http::Response& res, std::chrono::steady_clock::duration took);

}  // namespace sfcl::server
