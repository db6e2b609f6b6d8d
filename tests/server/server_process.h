// Starts the real `sfcl serve` binary on a free 127.0.0.1 port for integration tests. The server
// binds `--port 0` and the test reads the port it printed: a port picked by the test and bound later
// by the server could be picked by a test running beside it too (two servers, one port, and each
// test talking to the other's server).
#pragma once
#include <gtest/gtest.h>
#include <httplib.h>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "support/test_model.h"
#include "support/wait.h"

namespace sfcl::test {

inline int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  const int port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

// The port that process `pid` printed in `log` once it was listening ("listening on
// http://HOST:PORT"), or 0 when it exited first or printed nothing within `timeout_s`. The child is
// left waitable (WNOWAIT): a test may still collect its exit status.
inline int wait_listening_port(pid_t pid, const std::filesystem::path& log, int timeout_s = 120) {
  static const std::regex listening(R"(listening on http://\S*:(\d+))");
  for (int i = 0; i < timeout_s * 50; ++i) {
    std::ifstream in(log);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::smatch m;
    if (std::regex_search(text, m, listening)) return std::stoi(m[1].str());
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
      return 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return 0;
}

// A temporary file name no other test process uses at the same time.
inline std::filesystem::path unique_temp_path(const std::string& stem, const std::string& ext = ".log") {
  static std::atomic<int> counter{0};
  return std::filesystem::temp_directory_path() /
         (stem + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ext);
}

// A temporary log for a process a test spawns itself, removed when the test passed (it explains a
// failure otherwise).
class TempLog {
 public:
  explicit TempLog(const std::string& stem) : path_(unique_temp_path(stem)) {}
  ~TempLog() {
    std::error_code ec;
    if (!::testing::Test::HasFailure()) std::filesystem::remove(path_, ec);
  }
  TempLog(const TempLog&) = delete;
  TempLog& operator=(const TempLog&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

class ServerProcess {
 public:
  explicit ServerProcess(std::vector<std::string> args, bool wait_ready = true,
                         std::vector<std::pair<std::string, std::string>> env = {}, bool set_port = true,
                         bool tiny_model = true) {
    const char* bin = std::getenv("SFCL");
    if (bin == nullptr) throw std::runtime_error("SFCL (path of the sfcl binary) is not set");
    log_ = unique_temp_path("sfcl-server");
    std::vector<std::string> argv = {bin, "serve", "--threads", "1"};
    if (tiny_model) argv.insert(argv.begin() + 2, {"--model", tiny_model_path().string()});
    if (set_port) {
      argv.push_back("--port");
      argv.push_back("0");
    }
    argv.insert(argv.end(), args.begin(), args.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      const int fd = ::open(log_.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
      std::vector<char*> cargv;
      for (auto& s : argv) cargv.push_back(s.data());
      cargv.push_back(nullptr);
      ::execv(bin, cargv.data());
      ::_exit(127);
    }
    if (set_port) learn_port();
    if (wait_ready) wait_healthy();
  }
  // Reads the port the server printed (after `--port 0`, or a config file's `port = 0`); stays 0
  // when the server exited before listening.
  void learn_port() { port_ = wait_listening_port(pid_, log_); }
  ~ServerProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    // The server's log is kept only when the test failed (it explains the failure).
    std::error_code ec;
    if (!::testing::Test::HasFailure()) std::filesystem::remove(log_, ec);
  }
  void wait_healthy() {
    if (port_ == 0) throw std::runtime_error("the server is not listening: see " + log_.string());
    httplib::Client c("127.0.0.1", port_);
    for (int i = 0; i < 1200; ++i) {  // up to 60 s on a loaded machine
      auto r = c.Get("/health");
      if (r && r->status == 200) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    throw std::runtime_error("server did not become healthy");
  }
  // SIGTERM and wait; returns the exit status (or -1 on a signal death).
  int terminate(int timeout_s = 30) {
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < timeout_s * 20; ++i) {
      int st = 0;
      if (::waitpid(pid_, &st, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -2;
  }
  // /health's slots_busy (-1 when it does not answer): what a test waits on to know that a request
  // is generating.
  [[nodiscard]] int slots_busy() const {
    httplib::Client c("127.0.0.1", port_);
    auto r = c.Get("/health");
    if (!r || r->status != 200) return -1;
    return nlohmann::json::parse(r->body).value("slots_busy", -1);
  }
  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] const std::filesystem::path& log() const { return log_; }
  [[nodiscard]] pid_t pid() const { return pid_; }
  [[nodiscard]] httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(120, 0);
    return c;
  }

 private:
  int port_ = 0;
  pid_t pid_ = -1;
  std::filesystem::path log_;
};

// POSTs `body` as JSON; the reply's JSON with its HTTP status as "_status".
inline nlohmann::json post_json(httplib::Client& c, const std::string& path, const nlohmann::json& body,
                                const httplib::Headers& headers = {}) {
  auto r = c.Post(path, headers, body.dump(), "application/json");
  if (!r) throw std::runtime_error("no response from " + path);
  nlohmann::json j = nlohmann::json::parse(r->body);
  j["_status"] = r->status;
  return j;
}

// SSE events of a response body: (event name, data).
inline std::vector<std::pair<std::string, std::string>> parse_sse(const std::string& body) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string event;
  size_t pos = 0;
  while (pos < body.size()) {
    size_t nl = body.find('\n', pos);
    if (nl == std::string::npos) nl = body.size();
    const std::string line = body.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.rfind("event: ", 0) == 0) {
      event = line.substr(7);
    } else if (line.rfind("data: ", 0) == 0) {
      out.emplace_back(event, line.substr(6));
      event.clear();
    }
  }
  return out;
}

}  // namespace sfcl::test
