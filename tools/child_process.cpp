#include "tools/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

namespace sfcl::tools {

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::filesystem::path& log) : log_(log) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + log.string());
  pid_ = ::fork();
  if (pid_ < 0) {
    ::close(fd);
    throw std::runtime_error("fork failed");
  }
  if (pid_ == 0) {
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::close(fd);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(fd);
}

ChildProcess::~ChildProcess() { stop(); }

double ChildProcess::peak_rss_mib() const {
  if (pid_ <= 0) return 0;
  std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // "VmHWM:  12345 kB"
  }
  return 0;
}

bool ChildProcess::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    pid_ = -1;
    return false;
  }
  return true;
}

void ChildProcess::stop() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  for (int i = 0; i < 100; ++i) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

std::filesystem::path self_executable() { return std::filesystem::read_symlink("/proc/self/exe"); }

}  // namespace sfcl::tools
