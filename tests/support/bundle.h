// Tests that read the pinned llama.cpp source bundle (.deps, written by scripts/bootstrap: its chat
// templates and ggml-vocab-*.gguf files). Without it such a test is skipped on a developer's
// machine, and fails under CI (CI=true), where bootstrap always provides it: a bundle that went
// missing must not turn into silently skipped coverage.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

namespace sfcl::test {

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) != "" && std::string_view(ci) != "false" && std::string_view(ci) != "0";
}

}  // namespace sfcl::test

// In a test body or a fixture's SetUp: skips (or, under CI, fails) the test when `missing`.
#define SFCL_NEEDS_BUNDLE(missing, what)                              \
  if (missing) {                                                      \
    if (::sfcl::test::in_ci()) {                                      \
      FAIL() << "the llama.cpp bundle is missing under CI: " << what; \
    } else {                                                          \
      GTEST_SKIP() << what;                                           \
    }                                                                 \
  }
