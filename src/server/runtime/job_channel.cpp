#include "server/runtime/job_channel.h"

namespace sfcl::server {

void JobChannel::mark_admitted(int32_t cached_tokens) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    admitted_ = true;
    cached_tokens_ = cached_tokens;
  }
  cv_.notify_all();
}

void JobChannel::push_event(JobEvent event) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (finished_) return;
    events_.push_back(std::move(event));
  }
  cv_.notify_all();
}

void JobChannel::end(JobOutcome outcome) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (finished_) return;
    outcome.cancelled = cancelled();
    outcome_ = std::move(outcome);
    finished_ = true;
  }
  cv_.notify_all();
}

void JobChannel::finish(decode::Result result) {
  JobOutcome o;
  o.result = std::move(result);
  end(std::move(o));
}

void JobChannel::fail(std::string error, int32_t status) {
  JobOutcome o;
  o.error = std::move(error);
  o.status = status;
  end(std::move(o));
}

int32_t JobChannel::wait_admitted() {
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [&] { return admitted_ || finished_; });
  return cached_tokens_;
}

JobChannel::Batch JobChannel::wait_events(std::chrono::milliseconds timeout) {
  Batch b;
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait_for(lk, timeout, [&] { return finished_ || !events_.empty(); });
  b.events.swap(events_);
  if (finished_) b.outcome = &outcome_;  // never written again once finished
  return b;
}

const JobOutcome& JobChannel::wait_finished() {
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [&] { return finished_; });
  return outcome_;
}

const JobOutcome* JobChannel::wait_finished_for(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lk(mu_);
  return cv_.wait_for(lk, timeout, [&] { return finished_; }) ? &outcome_ : nullptr;
}

bool JobChannel::is_finished() const {
  std::lock_guard<std::mutex> lk(mu_);
  return finished_;
}

int32_t JobChannel::cached_tokens() const {
  std::lock_guard<std::mutex> lk(mu_);
  return cached_tokens_;
}

}  // namespace sfcl::server
