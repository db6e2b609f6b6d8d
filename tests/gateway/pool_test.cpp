// Routing and health of the gateway's backends, against real HTTP servers on 127.0.0.1 that answer
// /health (one can be told to fail it).
#include "gateway/pool.h"

#include "gateway/local_http_server.h"
#include "support/wait.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <set>
#include <string>
#include <thread>

namespace sfcl::gateway {
namespace {

using Clock = std::chrono::steady_clock;

class HealthServer {
 public:
  HealthServer() {
    http_.routes.Get("/health", [this](const httplib::Request&, httplib::Response& res) {
      res.status = healthy.load() ? 200 : 503;
      res.set_content("{}", "application/json");
    });
    // Every text tokenises to one id: `vocab`, so two servers differ when their vocab does.
    http_.routes.Post("/tokenize", [this](const httplib::Request&, httplib::Response& res) {
      ++probes;
      res.set_content("{\"tokens\":[" + std::to_string(vocab.load()) + "]}", "application/json");
    });
    http_.start();
  }
  [[nodiscard]] BackendAddress address() const { return parse_backend_url(http_.url()); }
  std::atomic<bool> healthy{true};
  std::atomic<int> vocab{1};
  std::atomic<int> probes{0};  // /tokenize calls answered

 private:
  test::LocalHttpServer http_;  // last: stops before the state its handlers read
};

PoolOptions fast(int32_t slots) {
  PoolOptions o;
  o.slots_per_backend = slots;
  o.health_interval_s = 0.05;
  o.backoff_min_s = 0.05;
  o.backoff_max_s = 0.1;
  o.timeout_s = 1.0;
  return o;
}

Clock::time_point soon(int ms = 200) { return Clock::now() + std::chrono::milliseconds(ms); }

TEST(GatewayPool, ParsesBackendAddresses) {
  const BackendAddress a = parse_backend_url("http://10.0.0.1:8081/");
  EXPECT_EQ(a.host, "10.0.0.1");
  EXPECT_EQ(a.port, 8081);
  EXPECT_EQ(parse_backend_url("localhost:9").url, "http://localhost:9");
  EXPECT_THROW(parse_backend_url("https://x:1"), std::invalid_argument);
  EXPECT_THROW(parse_backend_url("http://x"), std::invalid_argument);
  EXPECT_THROW(parse_backend_url("http://x:0"), std::invalid_argument);
}

TEST(GatewayPool, SamePrefixGoesToTheSameBackendWhileItIsNotBusier) {
  HealthServer a;
  HealthServer b;
  Pool pool({a.address(), b.address()}, fast(4));
  const std::vector<Token> prompt = {1, 2, 3, 4};
  const uint64_t h = prefix_hash(prompt);
  const auto first = pool.acquire(h, std::nullopt, soon());
  ASSERT_TRUE(first);
  pool.release(*first);
  for (int i = 0; i < 5; ++i) {
    const auto again = pool.acquire(h, std::nullopt, soon());
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, *first);
    pool.release(*again);
  }
  // Another prefix of the same first 64 tokens hashes the same; the affinity spreads prefixes.
  std::vector<Token> longer(100, 7);
  std::vector<Token> other(100, 7);
  other[99] = 8;
  EXPECT_EQ(prefix_hash(longer), prefix_hash(other));
  std::set<size_t> chosen;
  for (Token t = 0; t < 32; ++t) {
    const auto b2 = pool.acquire(prefix_hash(std::vector<Token>{t}), std::nullopt, soon());
    ASSERT_TRUE(b2);
    chosen.insert(*b2);
    pool.release(*b2);
  }
  EXPECT_EQ(chosen.size(), 2U);
}

TEST(GatewayPool, LeastOutstandingWinsOverAffinityBeyondTheSlack) {
  HealthServer a;
  HealthServer b;
  Pool pool({a.address(), b.address()}, fast(8));
  const uint64_t h = prefix_hash(std::vector<Token>{42});
  std::array<int, 2> count{};
  for (int i = 0; i < 8; ++i) {
    const auto got = pool.acquire(h, std::nullopt, soon());
    ASSERT_TRUE(got);
    ++count[*got];
  }
  EXPECT_LE(std::abs(count[0] - count[1]), 2);  // the preferred one leads by at most the slack (1) + 1
  const auto status = pool.status();
  EXPECT_EQ(status[0].outstanding + status[1].outstanding, 8);
}

TEST(GatewayPool, FullBackendsMakeTheCallerWaitAndAFreedSlotServesIt) {
  HealthServer a;
  Pool pool({a.address()}, fast(1));
  const auto held = pool.acquire(1, std::nullopt, soon());
  ASSERT_TRUE(held);
  EXPECT_FALSE(pool.acquire(1, std::nullopt, soon(50)));  // full: times out
  std::thread freer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    pool.release(*held);
  });
  EXPECT_TRUE(pool.acquire(1, std::nullopt, soon(2000)));
  freer.join();
  EXPECT_EQ(pool.free_slots(), 0);
}

TEST(GatewayPool, FailedBackendLeavesRotationAndReturnsWhenHealthy) {
  HealthServer a;
  HealthServer b;
  Pool pool({a.address(), b.address()}, fast(4));
  a.healthy = false;
  pool.mark_failed(0);
  for (Token t = 0; t < 16; ++t) {
    const auto got = pool.acquire(prefix_hash(std::vector<Token>{t}), std::nullopt, soon());
    ASSERT_TRUE(got);
    EXPECT_EQ(*got, 1U);
    pool.release(*got);
  }
  EXPECT_FALSE(pool.status()[0].healthy);
  EXPECT_EQ(pool.status()[0].failures, 1);
  a.healthy = true;  // the probes (with backoff) bring it back
  bool back = false;
  for (int i = 0; i < 100 && !back; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    back = pool.status()[0].healthy;
  }
  EXPECT_TRUE(back);
}

// No backend healthy: acquire answers at once instead of waiting out the deadline (the caller
// answers 503), and a healthy backend is waited for again.
TEST(GatewayPool, NoHealthyBackendFailsAtOnce) {
  HealthServer a;
  Pool pool({a.address()}, fast(4));
  EXPECT_TRUE(pool.any_healthy());
  a.healthy = false;
  pool.mark_failed(0);
  EXPECT_FALSE(pool.any_healthy());
  const auto start = Clock::now();
  EXPECT_FALSE(pool.acquire(1, std::nullopt, Clock::now() + std::chrono::seconds(30)));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));  // not the 30 s deadline
  a.healthy = true;
  bool back = false;
  for (int i = 0; i < 200 && !back; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    back = pool.any_healthy();
  }
  EXPECT_TRUE(back);
  // An answer under way waits for its backend's return instead: one failed call (its /health still
  // answers) does not end every answer on a gateway with one backend.
  pool.mark_failed(0);
  EXPECT_FALSE(pool.acquire(1, std::nullopt, Clock::now() + std::chrono::seconds(30)));
  const auto got =
      pool.acquire(1, std::nullopt, Clock::now() + std::chrono::seconds(30), Clock::now() + std::chrono::seconds(20));
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, 0U);
  pool.release(*got);
}

// A backend whose /health answers but whose calls keep failing is not put back at the next probe
// each time: the time out of rotation doubles with each call it fails in a row, up to the
// backoff's cap, and a served call ends the run.
TEST(GatewayPool, CallsFailedInARowKeepABackendOutLonger) {
  HealthServer a;
  HealthServer b;
  PoolOptions o = fast(4);
  o.backoff_min_s = 0.1;
  o.backoff_max_s = 0.8;
  Pool pool({a.address(), b.address()}, o);
  // How long backend 0 stays out after a failed call while /health keeps answering.
  const auto time_out = [&] {
    pool.mark_failed(0);
    const auto start = Clock::now();
    while (!pool.status()[0].healthy && Clock::now() - start < std::chrono::seconds(5)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  const double first = time_out();
  time_out();
  time_out();
  const double fourth = time_out();  // 0.1 s doubled three times: the 0.8 s cap
  EXPECT_GE(first, 0.09);
  EXPECT_GE(fourth, 0.75);
  pool.mark_served(0);
  EXPECT_LT(time_out(), 0.75);  // the run is over: the first backoff (0.1 s) again, not the cap
}

// With a probe set, a backend serves only once its /tokenize matches: one on another vocabulary
// never does, and one that comes back on another vocabulary after a failure stays out.
TEST(GatewayPool, BackendWithAnotherTokenizerIsKeptOutOfRotation) {
  HealthServer a;
  HealthServer b;
  b.vocab = 2;
  PoolOptions o = fast(4);
  o.probe_text = "probe";
  o.probe_tokens = {1};
  Pool pool({a.address(), b.address()}, o);
  for (Token t = 0; t < 16; ++t) {
    const auto got = pool.acquire(prefix_hash(std::vector<Token>{t}), std::nullopt, soon(2000));
    ASSERT_TRUE(got);
    EXPECT_EQ(*got, 0U);
    pool.release(*got);
  }
  EXPECT_FALSE(pool.status()[1].healthy);
  b.vocab = 1;  // fixed: the next probe brings it in
  bool in = false;
  for (int i = 0; i < 100 && !in; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    in = pool.status()[1].healthy;
  }
  EXPECT_TRUE(in);
  a.vocab = 3;  // restarted on another model after a failure
  const int probed = a.probes.load();
  pool.mark_failed(0);
  // Several probes answered with the other vocabulary, and it is still out.
  ASSERT_TRUE(test::wait_until([&] { return a.probes.load() >= probed + 3; }));
  EXPECT_FALSE(pool.status()[0].healthy);
  const auto got = pool.acquire(5, std::nullopt, soon());
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, 1U);
}

TEST(GatewayPool, AvoidedBackendIsUsedOnlyWhenNoOtherIsFree) {
  HealthServer a;
  HealthServer b;
  Pool pool({a.address(), b.address()}, fast(1));
  const auto first = pool.acquire(7, size_t{0}, soon());
  ASSERT_TRUE(first);
  EXPECT_EQ(*first, 1U);
  const auto second = pool.acquire(7, size_t{1}, soon());  // 1 is full: 0 is free
  ASSERT_TRUE(second);
  EXPECT_EQ(*second, 0U);
}

}  // namespace
}  // namespace sfcl::gateway
