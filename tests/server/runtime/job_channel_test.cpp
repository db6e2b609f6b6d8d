// The HTTP<->scheduler protocol, driven from two real threads (run under TSan by .ci/run).
#include "server/runtime/job_channel.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace sfcl::server
