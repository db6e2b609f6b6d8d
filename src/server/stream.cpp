#include "server/stream.h"

#include "server/tool_stream.h"
#include "server/verdicts.h"

namespace sfcl::server {

namespace {

bool write(http::StreamSink& sink, const std::string& s) { return s.empty() || sink.write(s.data(), s.size()); }

// Writes a batch of the job's events (and its close once it ended); false when the client is gone.
bool deliver(Stream& s, http::StreamSink& sink, const JobChannel::Batch& batch, bool timed_out) {
  if (s.gone) return false;
  std::string out;
  for (const JobEvent& e : batch.events) {
    if (e.kind == JobEvent::Kind::text) {
      // With tools the text goes out as blocks when the turn ends (server/tool_reply.cpp).
      if (!e.logprobs.empty()) {
        out += s.dialect->stream_tokens(s.info, e.text, e.logprobs);
      } else if (!e.text.empty()) {
        out += s.dialect->stream_text(s.info, e.text);
      }
    } else {
      out += s.dialect->stream_event(s.info, e.data);
    }
  }
  const JobOutcome* outcome = batch.outcome;
  // Nothing new for a while (long prompt, backtracking): keep the connection alive.
  if (timed_out && out.empty() && outcome == nullptr) out = s.dialect->stream_ping();
  if (outcome != nullptr) {
    if (!outcome->error.empty()) {
      out += s.dialect->stream_error(outcome->error);
    } else {
      out += s.dialect->stream_close(s.info, outcome->result, s.job->channel.cached_tokens(),
                                     final_sfcl(outcome->result, s.mode, false, s.key,
                                                {s.info.id, s.info.model, s.info.created, s.job->request_sha256}));
    }
  }
  if (!write(sink, out)) {
    s.gone = true;
    return false;
  }
  if (!out.empty()) s.last_write = std::chrono::steady_clock::now();
  if (outcome != nullptr) {
    s.phase = StreamPhase::done;
    sink.done();
  }
  return true;
}

// The job's thread writes; this one wakes at the end, or to ping when nothing went out for a while.
// Returns once the stream is over: until then the job's thread may be using the sink.
bool wait_direct(Stream& s, http::StreamSink& sink) {
  JobChannel& channel = s.job->channel;
  const auto ping = std::chrono::milliseconds(s.ping_ms);
  const JobOutcome* ended = nullptr;
  while (true) {
    auto held = channel.hold_deliveries();
    bool ok = true;
    if (ended != nullptr && s.phase != StreamPhase::done) {
      ok = deliver(s, sink, {{}, ended}, false);  // the job's thread wrote its close already (end())
    } else if (std::chrono::steady_clock::now() - s.last_write >= ping && s.phase != StreamPhase::done) {
      ok = deliver(s, sink, {}, true);
      s.last_write = std::chrono::steady_clock::now();  // also when the dialect's ping is empty
    }
    if (!ok || s.phase == StreamPhase::done) {
      channel.detach();
      if (!ok) channel.cancel();  // client gone: the job ends at its next step
      return false;
    }
    const auto next_ping = s.last_write + ping;
    held.unlock();
    ended = channel.wait_finished_for(
        std::chrono::duration_cast<std::chrono::milliseconds>(next_ping - std::chrono::steady_clock::now()) +
        std::chrono::milliseconds(1));
  }
}

}  // namespace

bool stream_step(Stream& s, http::StreamSink& sink) {
  JobChannel& channel = s.job->channel;
  switch (s.phase) {
    case StreamPhase::waiting_for_slot: {
      if (s.info.shape) s.info.tool_stream = std::make_shared<ToolStream>();
      const int32_t cached = channel.wait_admitted();
      s.phase = StreamPhase::streaming;
      if (!write(sink, s.dialect->stream_open(s.info, static_cast<int32_t>(s.job->prompt.size()), cached))) {
        channel.cancel();
        return false;
      }
      s.last_write = std::chrono::steady_clock::now();
      // From here the job's thread may write the events as they come (the gateway's).
      s.direct = channel.attach([&s, &sink](JobChannel::Batch& b) { return deliver(s, sink, b, false); });
      return true;
    }
    case StreamPhase::streaming:
      break;
    case StreamPhase::done:
      return false;
  }
  if (s.direct) return wait_direct(s, sink);
  JobChannel::Batch batch = channel.wait_events(std::chrono::milliseconds(s.ping_ms));
  // (Text held back with tools is no reason for a ping of its own.)
  const bool timed_out = batch.events.empty() || !s.info.shape;
  if (!deliver(s, sink, batch, timed_out)) {
    channel.cancel();  // client gone: the scheduler frees the slot
    return false;
  }
  return true;
}

}  // namespace sfcl::server
