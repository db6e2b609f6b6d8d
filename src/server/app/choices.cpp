#include "server/app/choices.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "server/api/params.h"
#include "server/api/stream.h"
#include "server/api/tool_stream.h"
#include "server/api/tools.h"
#include "server/api/verdicts.h"
#include "server/http/http_util.h"

namespace sfcl::server {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

// How long a stream waits on one choice before looking at the others again.
constexpr std::chrono::milliseconds kPollInterval{20};

// Choice `index` of the request `first` was made for: the same prompt, sources and hooks; a fixed
// seed moves by the index so sampled choices differ (greedy ones do not).
std::shared_ptr<Job> choice_job(const Job& first, int32_t index) {
  auto job = std::make_shared<Job>();
  job->prompt = first.prompt;
  job->options = first.options;
  if (job->options.sampling.seed != engine::SamplingOptions{}.seed) {
    job->options.sampling.seed += static_cast<uint32_t>(index);
  }
  job->sources = first.sources;
  job->want_events = first.want_events;
  job->request_sha256 = first.request_sha256;
  job->metrics = first.metrics;
  job->shape = first.shape;
  job->logit_bias = first.logit_bias;
  job->lora = first.lora;
  return job;
}

ResponseInfo choice_info(const ResponseInfo& info, int32_t index, bool more) {
  ResponseInfo i = info;
  i.choice = index;
  i.more_choices = more;
  return i;
}

// Usage of all choices: the prompt once, the completions summed.
json total_usage(const Dialect& dialect, const std::vector<const JobOutcome*>& outcomes, int32_t cached) {
  json usage = dialect.usage(outcomes.front()->result, cached);
  int64_t completion = 0;
  for (const JobOutcome* o : outcomes) completion += o->result.output_tokens;
  usage["completion_tokens"] = completion;
  usage["total_tokens"] = outcomes.front()->result.prompt_tokens + completion;
  return usage;
}

void log_choices(const State& st, const std::string& id, const std::string& endpoint, bool stream,
                 const std::vector<std::shared_ptr<Job>>& jobs, Clock::time_point start) {
  int64_t output = 0;
  int64_t backtracks = 0;
  int32_t prompt = 0;
  bool failed = false;
  bool cancelled = false;
  for (const auto& job : jobs) {
    if (!job->channel.is_finished()) {
      cancelled = true;
      continue;
    }
    const JobOutcome& o = job->channel.wait_finished();
    failed = failed || !o.error.empty();
    cancelled = cancelled || o.cancelled;
    prompt = o.result.prompt_tokens;
    output += o.result.output_tokens;
    backtracks += o.result.stats.backtracks;
  }
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  const char* outcome = failed ? "error" : (cancelled ? "cancelled" : "ok");
  log_line(st, failed ? spdlog::level::err : spdlog::level::info, "request",
           {{"id", id},
            {"endpoint", endpoint},
            {"stream", stream},
            {"choices", jobs.size()},
            {"outcome", outcome},
            {"prompt_tokens", prompt},
            {"output_tokens", output},
            {"backtracks", backtracks},
            {"latency_ms", static_cast<int64_t>(ms)}});
}

// The stream of n choices: every choice's chunks as its job produces them, each with its index.
struct ChoicesStream {
  std::vector<std::shared_ptr<Job>> jobs;
  std::vector<bool> closed;
  std::vector<ResponseInfo> infos;  // each choice's (its index, its tool stream)
  const Dialect* dialect = nullptr;
  ResponseInfo info;
  decode::Mode mode = decode::Mode::anchor;
  bool opened = false;
  bool done = false;
  int ping_ms = 10000;
  const SigningKey* key = nullptr;
  Clock::time_point last_write = Clock::now();
  Clock::time_point start = Clock::now();
};

bool write(http::StreamSink& sink, const std::string& s) { return s.empty() || sink.write(s.data(), s.size()); }

std::string choice_events(const ChoicesStream& s, const ResponseInfo& info, const JobChannel::Batch& batch) {
  std::string out;
  for (const JobEvent& e : batch.events) {
    if (e.kind == JobEvent::Kind::progress) {
      out += s.dialect->stream_progress(info, e.data, nullptr);
    } else if (e.kind != JobEvent::Kind::text) {
      out += s.dialect->stream_event(info, e.data);
    } else if (!e.logprobs.empty()) {
      out += s.dialect->stream_tokens(info, e.text, e.logprobs);
    } else if (!e.text.empty()) {
      out += s.dialect->stream_text(info, e.text);
    }
  }
  return out;
}

bool choices_step(ChoicesStream& s, http::StreamSink& sink) {
  if (s.done) return false;
  std::string out;
  const auto n = static_cast<int32_t>(s.jobs.size());
  if (!s.opened) {
    // The opening chunks need no slot (OpenAI's carry the role only): all of them at once.
    for (int32_t i = 0; i < n; ++i) out += s.dialect->stream_open(s.infos[static_cast<size_t>(i)], 0, 0);
    s.opened = true;
  }
  // Wait on the first open choice a little, then take whatever every choice has.
  bool waited = false;
  bool failed = false;
  for (int32_t i = 0; i < n; ++i) {
    if (s.closed[static_cast<size_t>(i)]) continue;
    JobChannel& ch = s.jobs[static_cast<size_t>(i)]->channel;
    const JobChannel::Batch batch = ch.wait_events(waited ? std::chrono::milliseconds(0) : kPollInterval);
    waited = true;
    const ResponseInfo& info = s.infos[static_cast<size_t>(i)];
    out += choice_events(s, info, batch);
    if (batch.outcome == nullptr) continue;
    s.closed[static_cast<size_t>(i)] = true;
    if (!batch.outcome->error.empty()) {
      out += s.dialect->stream_error(batch.outcome->error);
      failed = true;
      break;
    }
    const decode::Result& r = batch.outcome->result;
    // Each choice signs its own blocks, counts and verdicts, and says which of how many it is.
    SignContext sign{s.info.id, s.info.model, s.info.created, s.jobs[0]->request_sha256};
    sign.choice = i;
    sign.choices = n;
    if (s.key != nullptr) sign.blocks = tool_stream_blocks(*s.dialect, info, r);
    out += s.dialect->stream_close(info, r, ch.cached_tokens(), final_sfcl(r, s.mode, false, s.key, sign));
  }
  const bool all_closed = std::all_of(s.closed.begin(), s.closed.end(), [](bool c) { return c; });
  if (all_closed && !failed) {
    std::vector<const JobOutcome*> outcomes;
    for (const auto& job : s.jobs) outcomes.push_back(&job->channel.wait_finished());
    out += s.dialect->stream_end(s.info, total_usage(*s.dialect, outcomes, s.jobs[0]->channel.cached_tokens()));
  }
  // Nothing new for a while (long prompts, backtracking): keep the connection alive.
  if (out.empty() && Clock::now() - s.last_write >= std::chrono::milliseconds(s.ping_ms)) {
    out = s.dialect->stream_ping();
  }
  if (!write(sink, out)) {
    for (const auto& job : s.jobs) job->channel.cancel();
    return false;
  }
  if (!out.empty()) s.last_write = Clock::now();
  if (all_closed || failed) {
    s.done = true;
    sink.done();
  }
  return true;
}

void start_choices_stream(State& st, const Dialect& dialect, const Admitted& a, std::vector<std::shared_ptr<Job>> jobs,
                          ResponseInfo info, const std::string& endpoint, http::Response& res) {
  res.logged = true;
  const decode::Mode mode = a.req.options.mode;
  set_status_headers(res, st.opt.compat_headers, mode, stream_status(mode, !a.job->sources->empty()));
  res.set_header("Cache-Control", "no-cache");
  auto s = std::make_shared<ChoicesStream>();
  s->closed.assign(jobs.size(), false);
  for (size_t i = 0; i < jobs.size(); ++i) {
    s->infos.push_back(choice_info(info, static_cast<int32_t>(i), true));
    if (info.shape || dialect.keeps_stream_state()) s->infos.back().tool_stream = std::make_shared<ToolStream>();
  }
  s->jobs = std::move(jobs);
  s->dialect = &dialect;
  s->info = std::move(info);
  s->mode = mode;
  s->ping_ms = st.opt.ping_interval_ms;
  s->key = st.key ? &*st.key : nullptr;
  // A client that leaves gives its queue places back at once, not at the next write or ping.
  res.on_client_gone = [jobs = s->jobs] {
    for (const auto& job : jobs) job->channel.cancel();
  };
  res.set_chunked_content_provider(
      "text/event-stream", [s](http::StreamSink& sink) { return choices_step(*s, sink); },
      [s, stp = &st, endpoint](bool) {
        for (const auto& job : s->jobs) {
          if (!job->channel.is_finished()) job->channel.cancel();
        }
        log_choices(*stp, s->info.id, endpoint, true, s->jobs, s->start);
        --stp->in_flight;
      });
}

}  // namespace

ApiError outcome_error(const Dialect& dialect, const JobOutcome& outcome) {
  const bool unavailable = outcome.status == 503;
  return {outcome.status, unavailable ? dialect.errors().unavailable : dialect.errors().server, outcome.error};
}

void handle_choices(State& st, const Dialect& dialect, Admitted& a, const http::Request& http, http::Response& res) {
  // Progress and timings are one stream's (docs/API.md, fields): a stream of choices has neither.
  a.job->return_progress = false;
  a.job->timings_per_token = false;
  std::vector<std::shared_ptr<Job>> jobs{a.job};
  for (int32_t i = 1; i < a.req.n; ++i) jobs.push_back(choice_job(*a.job, i));
  for (const auto& job : jobs) {
    if (a.model->scheduler->submit(job)) continue;
    for (const auto& j : jobs) j->channel.cancel();  // the ones already queued end unanswered
    throw ApiError(429, "rate_limit_error",
                   "the request queue cannot take " + std::to_string(jobs.size()) + " choices now (" +
                       std::to_string(st.opt.scheduler.queue_limit) + " waiting at most); retry later");
  }
  const auto start = Clock::now();
  ResponseInfo info{random_id(dialect.id_prefix()), a.req.model, unix_now(), a.req.include_usage};
  if (&dialect == &llama_completion_dialect()) {
    info.settings =
        std::make_shared<const nlohmann::json>(llama_generation_settings(a.req, a.job->logit_bias, a.job->lora));
  }
  info.shape = a.job->shape;
  ++st.in_flight;
  if (a.req.stream) {
    start_choices_stream(st, dialect, a, std::move(jobs), std::move(info), http.path, res);
    return;
  }
  struct Guard {
    State& st;
    ~Guard() { --st.in_flight; }
  } guard{st};
  std::vector<const JobOutcome*> outcomes;
  for (const auto& job : jobs) {
    const JobOutcome* done = nullptr;
    while ((done = job->channel.wait_finished_for(std::chrono::milliseconds(100))) == nullptr) {
      if (!http.client_gone()) continue;
      for (const auto& j : jobs) j->channel.cancel();
      res.status = 499;
      res.logged = true;
      log_choices(st, info.id, http.path, false, jobs, start);
      return;
    }
    if (!done->error.empty()) {
      for (const auto& j : jobs) j->channel.cancel();
      throw outcome_error(dialect, *done);
    }
    outcomes.push_back(done);
  }
  const decode::Mode mode = a.req.options.mode;
  const int32_t cached = jobs[0]->channel.cached_tokens();
  // Each choice's sfcl is signed on its own (its blocks as built, its counts, which of how many);
  // the top-level sfcl and the signature header are choice 0's.
  const auto choice_sfcl = [&](size_t i, const json& response) {
    SignContext sign{info.id, info.model, info.created, a.job->request_sha256};
    sign.blocks = body_blocks(response, 0);
    sign.choice = static_cast<int32_t>(i);
    sign.choices = static_cast<int32_t>(outcomes.size());
    return final_sfcl(outcomes[i]->result, mode, true, st.key ? &*st.key : nullptr, sign);
  };
  json out = dialect.response(info, outcomes[0]->result, cached);
  out["choices"][0]["sfcl"] = choice_sfcl(0, out);
  for (size_t i = 1; i < outcomes.size(); ++i) {
    const ResponseInfo ci = choice_info(info, static_cast<int32_t>(i), false);
    json one = dialect.response(ci, outcomes[i]->result, jobs[i]->channel.cached_tokens());
    json sfcl = choice_sfcl(i, one);  // before the choice is moved out of its response
    json choice = std::move(one["choices"][0]);
    choice["sfcl"] = std::move(sfcl);
    out["choices"].push_back(std::move(choice));
  }
  out["usage"] = total_usage(dialect, outcomes, cached);
  out["sfcl"] = out["choices"][0]["sfcl"];
  set_status_headers(res, st.opt.compat_headers, mode, out["sfcl"]["status"].get<std::string>());
  if (st.key) {
    res.set_header("X-SFCL-Signature", out["sfcl"]["signature"].get<std::string>());
    res.set_header("X-SFCL-Request-Id", info.id);
  }
  set_json(res, 200, out);
  res.logged = true;
  log_choices(st, info.id, http.path, false, jobs, start);
}

}  // namespace sfcl::server
