// A cpp-httplib server on 127.0.0.1 serving from a thread of its own: the fake backends of the
// gateway tests. Routes go on `routes` before start(). Declare it as the owner's last member, so it
// stops (and no handler runs) before the state its handlers use is destroyed.
#pragma once
#include <httplib.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>

namespace sfcl::test {

class LocalHttpServer {
 public:
  LocalHttpServer() = default;
  ~LocalHttpServer() {
    if (!thread_.joinable()) return;
    routes.stop();
    thread_.join();
  }
  LocalHttpServer(const LocalHttpServer&) = delete;
  LocalHttpServer& operator=(const LocalHttpServer&) = delete;

  void start() {
    port_ = routes.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { routes.listen_after_bind(); });
    // stop() before the loop runs would be lost, and the join would wait for ever.
    while (!routes.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  httplib::Server routes;

 private:
  int port_ = 0;
  std::thread thread_;
};

// A handler that answers with what `url` answers the same request (GET or a JSON POST), 502 when it
// does not; `edit` may change the body on its way (a fake backend in front of a real one).
inline httplib::Server::Handler forward_to(std::string url,
                                           std::function<void(const httplib::Request&, std::string&)> edit = {}) {
  return [url = std::move(url), edit = std::move(edit)](const httplib::Request& req, httplib::Response& res) {
    httplib::Client c(url);
    auto r = req.method == "GET" ? c.Get(req.path) : c.Post(req.path, req.body, "application/json");
    if (!r) {
      res.status = 502;
      return;
    }
    res.status = r->status;
    std::string body = r->body;
    if (edit) edit(req, body);
    res.set_content(body, "application/json");
  };
}

}  // namespace sfcl::test
