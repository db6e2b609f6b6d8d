// Runs a shell command (the real sfcl binary) and returns its stdout; rc gets the exit code.
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace sfcl::test {

inline std::string run(const std::string& cmd, int& rc) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  char buf[4096];
  while (p != nullptr && std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  rc = p != nullptr ? WEXITSTATUS(::pclose(p)) : -1;
  return out;
}

}  // namespace sfcl::test
