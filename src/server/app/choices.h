// OpenAI `n` > 1: n independent choices of one request, each its own job (its own check-loop
// sequence on the scheduler), answered together: one response with choices[0..n-1], or one
// stream whose chunks carry each choice's index. The top-level `sfcl` object, the X-SFCL headers
// and the signature describe choice 0; every choice carries its own `sfcl` object too.
#pragma once
#include "server/http/message.h"

#include <nlohmann/json.hpp>

#include "server/api/dialect.h"
#include "server/app/admission.h"
#include "server/app/state.h"

namespace sfcl::server {

// The request's `n` is read by choices_of (server/api/params.h).

// Submits the request's n jobs and answers (or starts the stream). Throws ApiError: 429 when the
// queue cannot take them all (none is left running then), 500 when a choice failed.
void handle_choices(State& st, const Dialect& dialect, Admitted& a, const http::Request& http, http::Response& res);

// What a failed job's response answers when it has not started: the outcome's status (503 when no
// engine can serve it, else 500) with the dialect's error type for it.
ApiError outcome_error(const Dialect& dialect, const JobOutcome& outcome);

}  // namespace sfcl::server
