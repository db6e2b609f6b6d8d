#include "server/api/stream.h"

#include "server/api/tool_stream.h"
#include "server/api/tools.h"
#include "server/api/verdicts.h"

namespace sfcl::server {

namespace {
bool write(http::StreamSink& sink, const std::string& s) { return s.empty() || sink.write(s.data(), s.size()); }
nlohmann::json timings_json(const JobTimings& t) {
  return llama_timings_json(t.cache_n, t.prompt_n, t.prompt_ms, t.predicted_n, t.predicted_ms);
}
}  // namespace

bool stream_step(Stream& s, http::StreamSink& sink) {
  JobChannel& channel = s.job->channel;
  switch (s.phase) {
    case StreamPhase::waiting_for_slot: {
      if (s.info.shape || s.dialect->keeps_stream_state()) s.info.tool_stream = std::make_shared<ToolStream>();
      const int32_t cached = channel.wait_admitted();
      s.phase = StreamPhase::streaming;
      if (!write(sink, s.dialect->stream_open(s.info, static_cast<int32_t>(s.job->prompt.size()), cached))) {
        channel.cancel();
        return false;
      }
      return true;
    }
    case StreamPhase::streaming:
      break;
    case StreamPhase::done:
      return false;
  }
  JobChannel::Batch batch = channel.wait_events(std::chrono::milliseconds(s.ping_ms));
  std::string out;
  for (const JobEvent& e : batch.events) {
    if (e.kind == JobEvent::Kind::text) {
      // With tools the text goes out as blocks when the turn ends (server/api/tool_reply.cpp).
      if (!e.logprobs.empty()) {
        out += s.dialect->stream_tokens(s.info, e.text, e.logprobs);
      } else if (!e.text.empty() && e.timings.set) {
        out += s.dialect->stream_text_timed(s.info, e.text, timings_json(e.timings));
      } else if (!e.text.empty()) {
        out += s.dialect->stream_text(s.info, e.text);
      }
    } else if (e.kind == JobEvent::Kind::progress) {
      out += s.dialect->stream_progress(s.info, e.data, e.timings.set ? timings_json(e.timings) : nlohmann::json());
    } else {
      out += s.dialect->stream_event(s.info, e.data);
    }
  }
  const JobOutcome* outcome = batch.outcome;
  // Nothing new for a while (long prompt, backtracking): keep the connection alive.
  // (Text held back with tools is no reason for a ping of its own.)
  if (out.empty() && outcome == nullptr && (batch.events.empty() || !s.info.shape)) out = s.dialect->stream_ping();
  if (outcome != nullptr) {
    if (!outcome->error.empty()) {
      out += s.dialect->stream_error(outcome->error);
    } else {
      SignContext sign{s.info.id, s.info.model, s.info.created, s.job->request_sha256};
      // Tool calls and thinking: the blocks the stream delivers, its last ones included.
      if (s.key != nullptr) sign.blocks = tool_stream_blocks(*s.dialect, s.info, outcome->result);
      out += s.dialect->stream_close(s.info, outcome->result, channel.cached_tokens(),
                                     final_sfcl(outcome->result, s.mode, false, s.key, sign));
    }
  }
  if (!write(sink, out)) {
    channel.cancel();  // client gone: the scheduler frees the slot
    return false;
  }
  if (outcome != nullptr) {
    s.phase = StreamPhase::done;
    sink.done();
  }
  return true;
}

}  // namespace sfcl::server
