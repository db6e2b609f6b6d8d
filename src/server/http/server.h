// The HTTP/1.1 transport of `sfcl serve`: Boost.Beast on Asio. One thread accepts and reads every
// connection asynchronously (a slow or idle peer costs a socket, never a thread), with deadlines
// and parser limits; complete requests run on a bounded worker pool, whose handlers may block
// (waiting for the decode thread) and stream their answers back through the connection.
// docs/OPERATIONS.md states each limit and what the client sees when it is hit.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "server/http/message.h"

namespace sfcl::server::http {

struct Limits {
  size_t max_body = 8U << 20;             // any framing; 413 above
  uint32_t max_header_bytes = 64U << 10;  // request line + headers; 431 above
  size_t max_headers = 100;               // 431 above
  int32_t max_connections = 4096;         // open connections; more get 503 and are closed
  double header_timeout_s = 10.0;         // from a request's first byte to the end of its headers
  double idle_timeout_s = 60.0;           // a keep-alive connection with no request is closed
  double body_timeout_s = 60.0;           // to receive the body once the headers were accepted
  double write_timeout_s = 60.0;          // for each write to the client
  int32_t workers = 16;                   // handler threads
};

struct Hooks {
  // On the connection thread, once the headers passed the transport's checks and before the body
  // is read (or `100 Continue` sent): returns true when `res` is the answer (the connection then
  // closes without reading the body). Must not block.
  std::function<bool(const Request&, Response&)> before_body;
  // On a worker thread: the answer to a complete request.
  std::function<void(Request&, Response&)> handle;
  // A refusal by the transport itself (status, plain-words message), in the API's error shape.
  std::function<Response(const Request&, int, const std::string&)> reject;
  // After each answer was written or its stream ended, refusals included.
  std::function<void(const Request&, const Response&, std::chrono::steady_clock::duration)> log;
};

class Server {
 public:
  Server(const Limits& limits, Hooks hooks);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens (backlog = the connection cap); the port actually bound. Throws
  // std::runtime_error naming the address and the reason (e.g. the port is in use).
  int bind(const std::string& host, int port);
  // Starts accepting on the transport thread.
  void start();
  // Closes the listener and every connection; joins the threads. Streams still being written
  // see their writes fail.
  void stop();
  [[nodiscard]] int32_t open_connections() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sfcl::server::http
