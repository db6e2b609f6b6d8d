// SFCL_ASSERT(cond, msg): a stated precondition, checked in Debug and sanitizer builds (where
// SFCL_ENABLE_ASSERTS is defined) and compiled out otherwise, so hot paths pay nothing in release.
#pragma once

#ifdef SFCL_ENABLE_ASSERTS
#include <cstdio>
#include <cstdlib>

namespace sfcl::util {
[[noreturn]] inline void assert_failed(const char* cond, const char* msg, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: assertion failed: %s (%s)\n", file, line, cond, msg);
  std::abort();
}
}  // namespace sfcl::util

#define SFCL_ASSERT(cond, msg) \
  ((cond) ? static_cast<void>(0) : ::sfcl::util::assert_failed(#cond, msg, __FILE__, __LINE__))
#else
// sizeof keeps `cond` compiled (names stay checked) without evaluating it.
#define SFCL_ASSERT(cond, msg) static_cast<void>(sizeof((cond) ? 1 : 0))
#endif
