// The HTTP<->scheduler protocol, driven from two real threads (run under TSan by .ci/run).
#include "server/job_channel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

namespace sfcl::server {
namespace {

JobEvent text(const std::string& t) {
  JobEvent e;
  e.text = t;
  return e;
}

TEST(ServerJobChannel, EventsArriveInOrderThenTheOutcome) {
  JobChannel ch;
  std::thread decode([&] {
    ch.mark_admitted(7);
    for (int i = 0; i < 200; ++i) ch.push_event(text(std::to_string(i)));
    decode::Result r;
    r.text = "done";
    ch.finish(std::move(r));
  });
  EXPECT_EQ(ch.wait_admitted(), 7);
  std::vector<std::string> got;
  const JobOutcome* outcome = nullptr;
  while (outcome == nullptr) {
    auto batch = ch.wait_events(std::chrono::milliseconds(1000));
    for (auto& e : batch.events) got.push_back(e.text);
    outcome = batch.outcome;
  }
  decode.join();
  ASSERT_EQ(got.size(), 200U);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(got[static_cast<size_t>(i)], std::to_string(i));
  EXPECT_EQ(outcome->result.text, "done");
  EXPECT_TRUE(outcome->error.empty());
  EXPECT_FALSE(outcome->cancelled);
  EXPECT_TRUE(ch.is_finished());
  EXPECT_EQ(ch.cached_tokens(), 7);
}

TEST(ServerJobChannel, CancelFromTheClientIsSeenByTheDecodeThreadAndRecorded) {
  JobChannel ch;
  std::thread decode([&] {
    ch.mark_admitted(0);
    while (!ch.cancelled()) ch.push_event(text("x"));
    ch.finish({});
  });
  ch.wait_admitted();
  (void)ch.wait_events(std::chrono::milliseconds(100));
  ch.cancel();
  // What the stream's close callback does: look, then wait (never read state unlocked).
  const bool finished_now = ch.is_finished();
  const JobOutcome& o = ch.wait_finished();
  decode.join();
  EXPECT_TRUE(o.cancelled || finished_now);
  EXPECT_TRUE(ch.is_finished());
}

TEST(ServerJobChannel, FailWakesAWaiterThatWasNeverAdmitted) {
  JobChannel ch;
  std::thread stop([&] { ch.fail("server shutting down"); });
  EXPECT_EQ(ch.wait_admitted(), 0);
  EXPECT_EQ(ch.wait_finished().error, "server shutting down");
  stop.join();
  // A second end is ignored: the outcome never changes once a reader may hold it.
  ch.finish({});
  EXPECT_EQ(ch.wait_finished().error, "server shutting down");
}

TEST(ServerJobChannel, WaitEventsTimesOutEmpty) {
  JobChannel ch;
  const auto t0 = std::chrono::steady_clock::now();
  auto batch = ch.wait_events(std::chrono::milliseconds(30));
  EXPECT_TRUE(batch.events.empty());
  EXPECT_EQ(batch.outcome, nullptr);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(25));
}

TEST(ServerJobChannel, AnAttachedConsumerGetsEveryEventInOrderOnTheDecodeThread) {
  JobChannel ch;
  ch.allow_direct();
  std::atomic<bool> attached{false};
  std::thread decode([&] {
    // Half before the consumer is attached (queued, handed over at attach), half after.
    for (int i = 0; i < 100; ++i) ch.push_event(text(std::to_string(i)));
    ch.mark_admitted(0);
    while (!attached.load()) std::this_thread::yield();
    for (int i = 100; i < 200; ++i) ch.push_event(text(std::to_string(i)));
    decode::Result r;
    r.text = "done";
    ch.finish(std::move(r));
  });
  ch.wait_admitted();
  std::vector<std::string> got;  // written only under the channel's delivery lock
  std::string outcome_text;
  std::set<std::thread::id> threads;
  ASSERT_TRUE(ch.attach([&](JobChannel::Batch& b) {
    threads.insert(std::this_thread::get_id());
    for (auto& e : b.events) got.push_back(e.text);
    if (b.outcome != nullptr) outcome_text = b.outcome->result.text;
    return true;
  }));
  attached = true;
  const JobOutcome& o = ch.wait_finished();
  decode.join();
  auto held = ch.hold_deliveries();
  ch.detach();
  ASSERT_EQ(got.size(), 200U);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(got[static_cast<size_t>(i)], std::to_string(i));
  EXPECT_EQ(outcome_text, "done");  // the close was written before the waiter woke
  EXPECT_EQ(o.result.text, "done");
  EXPECT_EQ(threads.size(), 2U);  // the attaching thread (the queued half) and the decode thread
}

TEST(ServerJobChannel, AConsumerThatFailsCancelsTheJob) {
  JobChannel ch;
  ch.allow_direct();
  ch.mark_admitted(0);
  int calls = 0;
  ASSERT_TRUE(ch.attach([&](JobChannel::Batch&) {
    ++calls;
    return false;  // the client is gone
  }));
  EXPECT_FALSE(ch.cancelled());
  ch.push_event(text("x"));
  EXPECT_TRUE(ch.cancelled());
  ch.finish({});
  EXPECT_TRUE(ch.wait_finished().cancelled);
  EXPECT_EQ(calls, 2);  // the event, then the outcome
}

TEST(ServerJobChannel, WithoutAllowDirectAttachDoesNothingAndEventsQueue) {
  JobChannel ch;
  ch.mark_admitted(0);
  bool called = false;
  EXPECT_FALSE(ch.attach([&](JobChannel::Batch&) { return called = true; }));
  ch.push_event(text("x"));
  auto batch = ch.wait_events(std::chrono::milliseconds(100));
  ASSERT_EQ(batch.events.size(), 1U);
  EXPECT_EQ(batch.events[0].text, "x");
  EXPECT_FALSE(called);
}

TEST(ServerJobChannel, AJobThatEndedBeforeAttachIsDeliveredWhole) {
  JobChannel ch;
  ch.allow_direct();
  ch.mark_admitted(0);
  ch.push_event(text("a"));
  ch.fail("backend gone", 503);
  std::vector<std::string> got;
  std::string error;
  ASSERT_TRUE(ch.attach([&](JobChannel::Batch& b) {
    for (auto& e : b.events) got.push_back(e.text);
    if (b.outcome != nullptr) error = b.outcome->error;
    return true;
  }));
  EXPECT_EQ(got, std::vector<std::string>{"a"});
  EXPECT_EQ(error, "backend gone");
  // Nothing is attached past the end: a later push reaches no one.
  ch.push_event(text("b"));
  EXPECT_EQ(got.size(), 1U);
}

}  // namespace
}  // namespace sfcl::server
