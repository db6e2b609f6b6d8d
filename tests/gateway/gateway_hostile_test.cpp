// A broken or hostile backend behind `sfcl gateway` (docs/SCALING.md, "Limits on a backend"): each
// failure mode of the class costs the gateway a bounded call, releases the backend's slot, and the
// answer moves to a good backend. The fake backend forwards /health, /props and /tokenize to a real
// llama-server (so it passes the startup checks) and answers /completion its own way.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <nlohmann/json.hpp>

#include "gateway/gateway_process.h"
#include "gateway/local_http_server.h"
#include "support/process_usage.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

json small_body(int max_tokens, bool stream) {
  return {{"model", "sfcl-demo"},
          {"max_tokens", max_tokens},
          {"temperature", 0},
          {"stream", stream},
          {"messages", json::array({{{"role", "user"}, {"content", "Write."}}})}};
}

class HostileBackend {
 public:
  using Completion = std::function<void(const httplib::Request&, httplib::Response&, std::atomic<bool>& stopping)>;
  // `props_alias`: when set, the model alias /props reports instead of the real one.
  HostileBackend(const LlamaServer& real, Completion completion, std::string props_alias = {})
      : real_(real.url()), completion_(std::move(completion)), alias_(std::move(props_alias)) {
    const auto forward = forward_to(real_, [this](const httplib::Request& req, std::string& body) {
      if (req.path != "/props" || alias_.empty()) return;
      json j = json::parse(body);
      j["model_alias"] = alias_;
      body = j.dump();
    });
    for (const char* path : {"/health", "/props"}) http_.routes.Get(path, forward);
    http_.routes.Post("/tokenize", forward);
    http_.routes.Post("/completion", [this](const httplib::Request& req, httplib::Response& res) {
      ++calls;
      completion_(req, res, stopping_);
    });
    http_.start();
  }
  ~HostileBackend() { stopping_ = true; }
  HostileBackend(const HostileBackend&) = delete;
  HostileBackend& operator=(const HostileBackend&) = delete;
  [[nodiscard]] std::string url() const { return http_.url(); }
  std::atomic<int> calls{0};

 private:
  std::string real_;
  Completion completion_;
  std::string alias_;
  std::atomic<bool> stopping_{false};
  LocalHttpServer http_;  // last: stops before the state its handlers read
};

// A chunked body written by `chunk` until the gateway closes the connection (or the test ends).
void endless(httplib::Response& res, int status, const char* type, std::string chunk, std::atomic<bool>& stopping,
             std::chrono::milliseconds pause = std::chrono::milliseconds(0)) {
  res.status = status;
  res.set_chunked_content_provider(type, [chunk = std::move(chunk), &stopping, pause](size_t, httplib::DataSink& sink) {
    if (stopping) return false;
    if (pause.count() > 0) std::this_thread::sleep_for(pause);
    return sink.write(chunk.data(), chunk.size());
  });
}

int outstanding(const Gateway& gw) {
  int n = 0;
  for (const auto& b : gw.backends()["backends"]) n += b["outstanding"].get<int>();
  return n;
}

// Every answer completes on the good backend, the gateway's slots all come back, and it used at
// most `max_cpu_s` CPU seconds and `max_rss_mb` of memory over it all.
void expect_answers_survive(const HostileBackend& bad, const LlamaServer& good, double max_cpu_s, double max_rss_mb) {
  Gateway gw({&good}, {"--backend", bad.url(), "--backend-slots", "1", "--max-failovers", "2"});
  for (int i = 0; i < 100 && !gw.backends()["backends"][1]["healthy"].get<bool>(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(gw.backends()["backends"][1]["healthy"].get<bool>()) << gw.backends().dump();
  const double cpu0 = cpu_seconds(gw.pid());
  std::vector<std::future<Seen>> answers;
  for (int i = 0; i < 4; ++i) {
    answers.push_back(std::async(std::launch::async, [&] {
      auto c = gw.client();
      return stream_messages(c, small_body(16, true));
    }));
  }
  for (auto& f : answers) EXPECT_TRUE(f.get().complete);
  EXPECT_GE(bad.calls.load(), 1);  // the hostile backend was called
  for (int i = 0; i < 100 && outstanding(gw) > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(outstanding(gw), 0) << gw.backends().dump();
  EXPECT_LT(cpu_seconds(gw.pid()) - cpu0, max_cpu_s);
  EXPECT_LT(rss_mb(gw.pid(), "VmHWM"), max_rss_mb);
  EXPECT_EQ(gw.log_text().find("X-Injected"), std::string::npos);
}

// Token ids past the vocabulary: the call fails (the backend is taken out), nothing indexes with
// them, and the slot is released (before, one such answer left `outstanding` held for good).
TEST(GatewayHostile, TokenIdsOutsideTheVocabularyFailTheCallAndReleaseTheSlot) {
  LlamaServer real;
  HostileBackend bad(real, [](const httplib::Request&, httplib::Response& res, std::atomic<bool>&) {
    res.set_content("data: {\"content\":\"\",\"tokens\":[999999999],\"stop\":false}\n\n", "text/event-stream");
  });
  expect_answers_survive(bad, real, 20.0, 400.0);
  // Alone, the answer fails with the gateway's words, not the library's.
  Gateway only({}, {"--backend", bad.url(), "--max-failovers", "0"});
  auto c = only.client();
  auto r = c.Post("/v1/messages", small_body(8, false).dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_GE(r->status, 500);
  EXPECT_EQ(r->body.find("range_check"), std::string::npos) << r->body;
  EXPECT_NE(only.log_text().find("outside the vocabulary"), std::string::npos) << only.log_text() << r->body;
  EXPECT_EQ(outstanding(only), 0);
}

// An error answer whose body never ends: read no further than its bound.
TEST(GatewayHostile, EndlessErrorBodyIsCutAndTheAnswerMovesOn) {
  LlamaServer real;
  HostileBackend bad(real, [](const httplib::Request&, httplib::Response& res, std::atomic<bool>& stopping) {
    endless(res, 500, "text/plain", std::string(64 << 10, 'e'), stopping);
  });
  expect_answers_survive(bad, real, 20.0, 400.0);
}

// An SSE stream that never writes the blank line ending an event: cut at the event bound, with no
// search over the same bytes again and again.
TEST(GatewayHostile, StreamWithoutEventEndIsCutAtTheEventBound) {
  LlamaServer real;
  HostileBackend bad(real, [](const httplib::Request&, httplib::Response& res, std::atomic<bool>& stopping) {
    endless(res, 200, "text/event-stream", "data: " + std::string(16 << 10, 'a') + "\n", stopping);
  });
  expect_answers_survive(bad, real, 20.0, 400.0);
}

// Keep-alive events for ever: the call ends when its client leaves (the slot comes back at once),
// and for a client that stays, at --backend-call-timeout.
TEST(GatewayHostile, KeepAlivesForeverEndWithTheClientOrTheCallTimeout) {
  LlamaServer real;
  HostileBackend bad(real, [](const httplib::Request&, httplib::Response& res, std::atomic<bool>& stopping) {
    endless(res, 200, "text/event-stream", "data: {}\n\n", stopping, std::chrono::milliseconds(50));
  });
  {
    Gateway gw({}, {"--backend", bad.url(), "--backend-slots", "1"});
    {
      auto c = gw.client();
      c.set_read_timeout(1, 0);
      auto r = c.Post("/v1/messages", small_body(16, true).dump(), "application/json");  // gives up after 1 s
    }
    bool released = false;
    for (int i = 0; i < 100 && !released; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      released = outstanding(gw) == 0;
    }
    EXPECT_TRUE(released) << gw.backends().dump();
  }
  Gateway gw({&real}, {"--backend", bad.url(), "--backend-slots", "1", "--backend-call-timeout", "2"});
  for (int i = 0; i < 100 && !gw.backends()["backends"][1]["healthy"].get<bool>(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::vector<std::future<Seen>> answers;
  for (int i = 0; i < 2; ++i) {
    answers.push_back(std::async(std::launch::async, [&] {
      auto c = gw.client();
      return stream_messages(c, small_body(16, true));
    }));
  }
  for (auto& f : answers) EXPECT_TRUE(f.get().complete);
  EXPECT_GE(gw.backends()["failovers"].get<int>(), 1);
}

// A model alias with CR LF in /props: never written into a header or the log as it is.
TEST(GatewayHostile, ModelNameWithLineBreaksIsNotUsed) {
  LlamaServer real;
  HostileBackend bad(
      real, [](const httplib::Request&, httplib::Response& res, std::atomic<bool>&) { res.status = 500; },
      "sfcl-demo\r\nX-Injected: 1");
  const TempLog log("sfcl-gateway-alias");
  const pid_t pid = spawn({std::getenv("SFCL"), "gateway", "--tokenizer", demo_model().string(), "--port", "0",
                           "--backend", bad.url(), "--startup-timeout", "5"},
                          log.path());
  int status = 0;
  bool exited = false;
  for (int i = 0; i < 200 && !exited; ++i) {
    exited = ::waitpid(pid, &status, WNOHANG) == pid;
    if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!exited) {
    // It serves: then no answer carries the injected header.
    const int port = wait_listening_port(pid, log.path());
    ASSERT_NE(port, 0) << read_text(log.path());
    httplib::Client c("127.0.0.1", port);
    auto r = c.Get("/v1/models");
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->has_header("X-Injected"));
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
  const std::string text = read_text(log.path());
  EXPECT_TRUE(exited) << text;
  EXPECT_NE(text.find("control characters"), std::string::npos) << text;
  EXPECT_EQ(text.find("\nX-Injected"), std::string::npos) << text;
}

}  // namespace
}  // namespace sfcl::test
