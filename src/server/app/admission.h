// Admission of a generation request: parse, build the job (sources, prompt, hooks), and refuse
// what this server does not take (decision points, prompt size, context size) with a 400.
#pragma once
#include "server/http/message.h"

#include <memory>
#include <vector>

#include "server/api/request.h"
#include "server/app/state.h"

namespace sfcl::server {

struct Admitted {
  std::shared_ptr<Job> job;
  GenerationRequest req;
  ServedModel* model = nullptr;  // the one that answers (pick_model)
};

// Throws ApiError (in the API's terms) when the request is malformed or refused.
Admitted admit_request(State& st, Api api, const http::Request& http);

// Bytes of the request's text that the prompt is rendered from (messages, tool definitions and
// calls, prefill, raw prompt, schema, grammar), each message, call and tool counted 64 bytes more
// for its markup; `sfcl.sources` are not part of it.
size_t prompt_text_bytes(const GenerationRequest& req);
// Throws a 413 in the API's error shape when that is over --max-prompt-bytes.
void check_prompt_bytes(const State& st, Api api, const GenerationRequest& req);
// A place for the request's client among those preparing requests (--max-client-work), held
// while the lease lives; a 429 (rate_limit_error in both APIs) when the client has as many in
// preparation. `api`: the route's, whose error shape the caller writes.
ClientWork::Lease client_work_lease(State& st, Api api, const http::Request& http);

// The prompt tokens of a request (chat template + prefill, or the raw prompt).
std::vector<engine::Token> tokenize_request(const engine::Model& model, const GenerationRequest& req);

}  // namespace sfcl::server
