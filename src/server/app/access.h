// Who may use the server and how a request must be framed, decided from the headers alone
// (before the body is read or `100 Continue` is sent): Content-Encoding, Host (DNS rebinding),
// Origin (CORS), API key, Content-Type. docs/OPERATIONS.md, "Requests".
#pragma once
#include "server/app/state.h"
#include "server/http/message.h"

namespace sfcl::server {

// True when `res` is the answer: a refusal in the API's error shape, or a CORS preflight.
bool screen_request(const State& st, const http::Request& req, http::Response& res);

// Access-Control-* headers when the request comes from an allowed cross origin.
void add_cors_headers(const State& st, const http::Request& req, http::Response& res);

// The API error answer for `status` with `message`, in the shape of the API the path speaks;
// 429 and 503 carry Retry-After.
void send_api_error(http::Response& res, const std::string& path, int status, const std::string& type,
                    const std::string& message);

}  // namespace sfcl::server
