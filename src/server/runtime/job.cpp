#include "server/runtime/job.h"

#include <algorithm>

#include "report/report.h"

namespace sfcl::server {

void drop_cancelled(std::deque<std::shared_ptr<Job>>& queue) {
  std::erase_if(queue, [](const std::shared_ptr<Job>& j) {
    if (!j->channel.cancelled()) return false;
    j->channel.finish({});
    return true;
  });
}

namespace {
double ms_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}
}  // namespace

decode::EventSink job_event_sink(const std::shared_ptr<Job>& job) {
  return [job](const decode::Event& e) {
    JobEvent ev;
    using K = decode::Event::Kind;
    switch (e.kind) {
      case K::token: {
        ev.kind = JobEvent::Kind::text;
        ev.text = std::string(e.text);
        ev.logprobs.assign(e.logprobs.begin(), e.logprobs.end());
        const auto now = std::chrono::steady_clock::now();
        if (job->metrics != nullptr) {
          if (job->first_text == std::chrono::steady_clock::time_point{}) {
            job->metrics->first_token(std::chrono::duration<double>(now - job->enqueued).count());
          } else {
            job->metrics->inter_token(std::chrono::duration<double>(now - job->last_text).count());
          }
        }
        if (job->first_text == std::chrono::steady_clock::time_point{}) job->first_text = now;
        job->last_text = now;
        if (job->timings_per_token && job->sequence != nullptr) {
          ev.timings = {true,
                        job->progress_cache,
                        static_cast<int32_t>(job->prompt.size()) - job->progress_cache,
                        ms_between(job->admitted_at, job->first_text),
                        static_cast<int32_t>(job->sequence->output_tokens().size()),
                        ms_between(job->first_text, now)};
        }
        break;
      }
      case K::fallback:
        if (job->metrics != nullptr) job->metrics->fallback(e.policy);
        [[fallthrough]];
      case K::anchor_confirmed:
      case K::anchor_checked:
      case K::backtrack:
        if (!job->want_events) return;
        ev.kind = e.kind == K::anchor_confirmed ? JobEvent::Kind::anchor_confirmed
                  : e.kind == K::anchor_checked ? JobEvent::Kind::anchor_checked
                  : e.kind == K::backtrack      ? JobEvent::Kind::backtrack
                                                : JobEvent::Kind::fallback;
        ev.data = report::event_json(e);
        break;
    }
    job->channel.push_event(std::move(ev));
  };
}

void report_prompt_progress(Job& job, int32_t processed) {
  if (!job.return_progress || processed <= job.progress_processed) return;
  job.progress_processed = processed;
  JobEvent ev;
  ev.kind = JobEvent::Kind::progress;
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - job.admitted_at);
  ev.data = {
      {"total", job.prompt.size()}, {"cache", job.progress_cache}, {"processed", processed}, {"time_ms", ms.count()}};
  if (job.timings_per_token) {  // nothing predicted yet; the first report has processed nothing
    const int32_t fed = processed - job.progress_cache;
    const double prompt_ms = fed > 0 ? ms_between(job.admitted_at, std::chrono::steady_clock::now()) : 0.0;
    ev.timings = {true, job.progress_cache, fed, prompt_ms, 0, 0.0};
  }
  job.channel.push_event(std::move(ev));
}

}  // namespace sfcl::server
