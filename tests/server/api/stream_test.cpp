// A streamed answer's SSE as stream_step writes it, driven by a real decode-side thread: pings
// keep an idle stream alive, then the text and the close; a client that is gone cancels the job.
#include "server/api/stream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <string_view>
#include <thread>

#include "support/wait.h"

namespace sfcl::server {
namespace {

// What the transport would send, kept (written by the HTTP thread only).
class KeptSink : public http::StreamSink {
 public:
  bool write(const char* data, size_t size) override {
    if (fail_after_ >= 0 && writes_ >= fail_after_) return false;
    ++writes_;
    text_.append(data, size);
    if (std::string_view(data, size).find("event: ping") != std::string_view::npos) ++pings;
    return true;
  }
  void done() override { done_ = true; }
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] bool finished() const { return done_; }
  void fail_after(int writes) { fail_after_ = writes; }
  std::atomic<int> pings{0};  // read by the decode-side thread

 private:
  std::string text_;
  int writes_ = 0;
  int fail_after_ = -1;
  bool done_ = false;
};

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
  return n;
}

std::shared_ptr<Stream> make_stream() {
  auto s = std::make_shared<Stream>();
  s->job = std::make_shared<Job>();
  s->job->prompt = {1, 2, 3};
  s->dialect = &anthropic_dialect();
  s->info = ResponseInfo{"msg_test", "demo", 0, false};
  s->ping_ms = 40;
  return s;
}

JobEvent text(const std::string& t) {
  JobEvent e;
  e.text = t;
  return e;
}

// The handler's loop (server/http/server.cpp): stream_step until it says stop or the body is done.
void drive(Stream& s, KeptSink& sink) {
  while (!sink.finished() && stream_step(s, sink)) {
  }
}

TEST(ServerStream, AnIdleStreamIsPingedThenGetsItsTextAndClose) {
  auto s = make_stream();
  KeptSink sink;
  std::thread decode([job = s->job, &sink] {
    job->channel.mark_admitted(0);
    // A long prompt, a backtrack: nothing to send until two pings have gone out.
    EXPECT_TRUE(test::wait_until([&] { return sink.pings.load() >= 2; }));
    job->channel.push_event(text("Hello"));
    job->channel.push_event(text(" world"));
    decode::Result r;
    r.text = "Hello world";
    job->channel.finish(std::move(r));
  });
  drive(*s, sink);
  decode.join();
  const std::string out = sink.text();
  EXPECT_TRUE(sink.finished());
  EXPECT_EQ(s->phase, StreamPhase::done);
  EXPECT_GE(count(out, "event: ping"), 2U) << out;
  const size_t hello = out.find("Hello");
  ASSERT_NE(hello, std::string::npos) << out;
  EXPECT_LT(out.find("event: message_start"), out.find("event: ping"));
  EXPECT_LT(hello, out.find(" world"));
  EXPECT_LT(out.find(" world"), out.find("event: message_stop"));
  EXPECT_EQ(count(out, "event: message_stop"), 1U);
}

TEST(ServerStream, AClientThatIsGoneCancelsTheJob) {
  auto s = make_stream();
  KeptSink sink;
  sink.fail_after(2);  // the head and one delta go out, then the client is gone
  std::thread decode([job = s->job] {
    job->channel.mark_admitted(0);
    for (int i = 0; i < 1000 && !job->channel.cancelled(); ++i) {
      job->channel.push_event(text("x"));
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    job->channel.finish({});
  });
  drive(*s, sink);
  decode.join();
  EXPECT_FALSE(sink.finished());
  EXPECT_TRUE(s->job->channel.cancelled());
  EXPECT_TRUE(s->job->channel.wait_finished().cancelled);
}

}  // namespace
}  // namespace sfcl::server
