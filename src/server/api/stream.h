// The SSE stream of one response: a small state machine driven by the transport's chunked provider.
#pragma once
#include "server/http/message.h"

#include <chrono>
#include <memory>

#include "server/api/dialect.h"
#include "server/api/signing.h"
#include "server/runtime/job.h"

namespace sfcl::server {

enum class StreamPhase : uint8_t {
  waiting_for_slot,  // headers sent; the opening chunks follow once a slot took the job
  streaming,         // text and events as the decode thread produces them
  done,              // the closing chunks (or the error) were written
};

struct Stream {
  std::shared_ptr<Job> job;
  const Dialect* dialect = nullptr;
  ResponseInfo info;
  decode::Mode mode = decode::Mode::anchor;
  StreamPhase phase = StreamPhase::waiting_for_slot;
  int ping_ms = 10000;
  const SigningKey* key = nullptr;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

// Writes the stream's next piece; false when the stream is over or the client went away (then
// the job is cancelled and the scheduler frees its slot).
bool stream_step(Stream& s, http::StreamSink& sink);

}  // namespace sfcl::server
