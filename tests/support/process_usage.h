// What a process of the tests (a server, a gateway) uses, read from /proc: the hostile-input tests
// bound a victim's memory and CPU, which a loaded machine does not change the way it does latency.
#pragma once
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace sfcl::test {

// A /proc/PID/status field in MB ("VmRSS", "VmHWM"); -1 when unreadable.
inline double rss_mb(int pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(field + ":", 0) == 0) return std::stod(line.substr(field.size() + 1)) / 1024.0;
  }
  return -1.0;
}

// User plus system CPU seconds the process has used; -1 when unreadable.
inline double cpu_seconds(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = stat.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return -1.0;
  std::istringstream rest(stat.substr(close + 2));
  std::string field;
  double utime = 0;
  double stime = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) utime = std::stod(field);
    if (i == 15) stime = std::stod(field);
  }
  return (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

}  // namespace sfcl::test
