// A child process for benchmarks: started with argv, output to a log file, stopped (SIGTERM, then
// SIGKILL) when the object goes away so no server outlives the command.
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace sfcl::tools {

class ChildProcess {
 public:
  ChildProcess(const std::vector<std::string>& argv, const std::filesystem::path& log);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  [[nodiscard]] bool running();
  void stop();
  [[nodiscard]] const std::filesystem::path& log() const { return log_; }
  // Peak resident memory of the process so far (VmHWM), MiB; 0 when it is not running.
  [[nodiscard]] double peak_rss_mib() const;

 private:
  pid_t pid_ = -1;
  std::filesystem::path log_;
};

// Path of the running executable (/proc/self/exe).
std::filesystem::path self_executable();

}  // namespace sfcl::tools
