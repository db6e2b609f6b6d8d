// Waiting on a condition instead of sleeping for a guessed time: polls `ready` until it holds or
// `timeout` passes. A test then asserts on the result, so a slow machine only waits longer.
#pragma once
#include <chrono>
#include <thread>

namespace sfcl::test {

template <typename Ready>
bool wait_until(Ready&& ready, std::chrono::milliseconds timeout = std::chrono::seconds(30),
                std::chrono::milliseconds poll = std::chrono::milliseconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!ready()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(poll);
  }
  return true;
}

}  // namespace sfcl::test
