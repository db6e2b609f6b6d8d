// A raw HTTP/1.1 client on one TCP connection, for tests that need exact bytes on the wire
// (malformed framing, slow senders, pipelining, keep-alive timing).
#pragma once
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>

namespace sfcl::test {

class RawConn {
 public:
  // `from`: the loopback address to connect from (host order; 0 = the system's choice), so a test
  // can be two clients (127.0.0.1 and 127.0.0.2).
  explicit RawConn(int port, uint32_t from = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (from != 0) {
      sockaddr_in src{};
      src.sin_family = AF_INET;
      src.sin_addr.s_addr = htonl(from);
      ::bind(fd_, reinterpret_cast<sockaddr*>(&src), sizeof src);
    }
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    const int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~RawConn() { close(); }
  RawConn(const RawConn&) = delete;
  RawConn& operator=(const RawConn&) = delete;
  RawConn(RawConn&& o) noexcept : fd_(o.fd_), connected_(o.connected_) { o.fd_ = -1; }

  [[nodiscard]] bool connected() const { return connected_; }
  bool send(const std::string& bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
  }
  // Everything received until the peer closes or `timeout_ms` passes without a byte.
  std::string read_all(int timeout_ms = 3000) {
    std::string out;
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, timeout_ms) <= 0) return out;
      char buf[65536];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        closed_by_peer_ = true;
        return out;
      }
      out.append(buf, static_cast<size_t>(n));
    }
  }
  // What is received until it holds `marker` (or the peer closes, or `timeout_ms` passes).
  std::string read_until(const std::string& marker, int timeout_ms) {
    std::string out;
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (out.find(marker) == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
      pollfd p{fd_, POLLIN, 0};
      if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) return out;
      char buf[4096];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        closed_by_peer_ = true;
        return out;
      }
      out.append(buf, static_cast<size_t>(n));
    }
    return out;
  }
  // One response with a Content-Length body (keep-alive use); what there is on timeout or close.
  std::string read_response(int timeout_ms = 3000) {
    for (;;) {
      const size_t end = pending_.find("\r\n\r\n");
      if (end != std::string::npos) {
        size_t length = 0;
        const size_t cl = pending_.find("Content-Length: ");
        if (cl != std::string::npos && cl < end) length = std::stoul(pending_.substr(cl + 16));
        if (pending_.size() >= end + 4 + length) {
          std::string r = pending_.substr(0, end + 4 + length);
          pending_.erase(0, end + 4 + length);
          return r;
        }
      }
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, timeout_ms) <= 0) return std::exchange(pending_, {});
      char buf[65536];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        closed_by_peer_ = true;
        return std::exchange(pending_, {});
      }
      pending_.append(buf, static_cast<size_t>(n));
    }
  }
  [[nodiscard]] bool closed_by_peer() const { return closed_by_peer_; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
  bool closed_by_peer_ = false;
  std::string pending_;
};

// The status code of a raw response ("HTTP/1.1 415 ..." -> 415), 0 when there is none.
inline int status_of(const std::string& response) {
  if (response.rfind("HTTP/1.", 0) != 0 || response.size() < 12) return 0;
  return std::stoi(response.substr(9, 3));
}

// One request on a fresh connection; its response (or what came before a close or timeout).
inline std::string exchange(int port, const std::string& request, int timeout_ms = 3000, uint32_t from = 0) {
  RawConn c(port, from);
  c.send(request);
  return c.read_response(timeout_ms);
}

inline std::string post_request(const std::string& path, const std::string& body, const std::string& extra = {}) {
  return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + extra +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace sfcl::test
