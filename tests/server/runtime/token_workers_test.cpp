// The per-token work pool: every index runs once per batch, on every thread count, batch after batch.
#include "server/runtime/token_workers.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

namespace sfcl::server {
namespace {

TEST(ServerTokenWorkers, EachIndexRunsOncePerBatch) {
  for (const int32_t threads : {1, 2, 4}) {
    TokenWorkers w(threads);
    EXPECT_EQ(w.threads(), threads);
    std::vector<std::atomic<int>> hits(37);
    for (int batch = 0; batch < 200; ++batch) {
      const size_t n = static_cast<size_t>(batch % 37) + 1;
      auto fn = [&](size_t i) { hits[i].fetch_add(1); };
      w.run(n, fn);
    }
    int total = 0;
    for (auto& h : hits) total += h.load();
    int want = 0;
    for (int batch = 0; batch < 200; ++batch) want += batch % 37 + 1;
    EXPECT_EQ(total, want) << threads << " threads";
    EXPECT_EQ(hits[0].load(), 200);  // index 0 is in every batch
  }
}

TEST(ServerTokenWorkers, HelpersShareABatchAndItEndsBeforeRunReturns) {
  TokenWorkers w(3);
  std::mutex mu;
  std::set<std::thread::id> ran_on;
  std::atomic<int> done{0};
  auto fn = [&](size_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // long enough for the helpers to join in
    {
      std::lock_guard lock(mu);
      ran_on.insert(std::this_thread::get_id());
    }
    done.fetch_add(1);
  };
  w.run(12, fn);
  EXPECT_EQ(done.load(), 12);  // all of it, before run returned
  EXPECT_GE(ran_on.size(), 2U);
  EXPECT_LE(ran_on.size(), 3U);
}

TEST(ServerTokenWorkers, AutoIsHalfTheHardwareThreadsWithinOneToEight) {
  const int32_t n = auto_check_threads();
  EXPECT_GE(n, 1);
  EXPECT_LE(n, 8);
  EXPECT_EQ(n, std::clamp(static_cast<int32_t>(std::thread::hardware_concurrency()) / 2, 1, 8));
}

}  // namespace
}  // namespace sfcl::server
