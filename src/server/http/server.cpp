#include "server/http/server.h"

#include <malloc.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <cerrno>
#include <future>
#include <stdexcept>
#include <thread>

#include "server/http/body_read.h"

namespace sfcl::server::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;
using asio::awaitable;
using asio::use_awaitable;

namespace {

constexpr auto kTuple = asio::as_tuple(use_awaitable);
using Parser = BodyParser;
constexpr size_t kLargeBody = 1U << 20;

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

// RFC 9110 5.1: a field name is a token.
bool header_name_ok(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
}

// Header values are written here only, so a value that came from elsewhere (a backend's model
// name, a client's request id) cannot end the header line and start another (RFC 9110 5.5: no CR,
// LF or NUL in a field value): every control character but HTAB is written as a space.
void append_header(std::string& s, std::string_view name, std::string_view value) {
  if (!header_name_ok(name)) return;
  s += name;
  s += ": ";
  for (const char c : value) {
    const auto u = static_cast<unsigned char>(c);
    s += (u < 0x20 && c != '\t') || u == 0x7F ? ' ' : c;
  }
  s += "\r\n";
}

std::string head(const Response& r, bool keep_alive, bool chunked) {
  std::string s = "HTTP/1.1 " + std::to_string(r.status) + " " +
                  std::string(bhttp::obsolete_reason(bhttp::int_to_status(static_cast<unsigned>(r.status)))) + "\r\n";
  for (const auto& [k, v] : r.headers) append_header(s, k, v);
  if (chunked) {
    s += "Transfer-Encoding: chunked\r\n";
  } else if (r.status != 204 && r.status >= 200) {  // 1xx and 204 carry no length (RFC 9110)
    s += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
  }
  if (!keep_alive) s += "Connection: close\r\n";
  s += "\r\n";
  return s;
}

// The peer closed its end or the connection broke (checked without reading: pipelined bytes
// stay where the parser will find them).
bool peer_gone(int fd) {
  char c = 0;
  const ssize_t n = ::recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
  return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

}  // namespace

struct Server::Impl {
  // Declared before the io_context: coroutine frames it still holds at destruction use them.
  Limits limits;
  Hooks hooks;
  std::atomic<int32_t> connections{0};
  std::atomic<bool> stopped{false};
  asio::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  asio::thread_pool pool;
  std::thread io_thread;

  Impl(const Limits& l, Hooks h)
      : limits(l), hooks(std::move(h)), pool(static_cast<size_t>(std::max<int32_t>(1, l.workers))) {}

  // Hands `data` to the socket from a worker thread and waits for the write (or the deadline).
  // What the socket's buffer takes at once is sent from here, without waking the connection's
  // thread (a stream's deltas are small, so nearly all of them); only the rest waits there for
  // the client to read. The worker is the stream's only writer, so the bytes stay in order.
  bool write_from_worker(beast::tcp_stream& stream, std::string data) {
    if (stopped.load()) return false;  // stop() ends streams, also those whose client keeps reading
    const int fd = stream.socket().native_handle();
    size_t sent = 0;
    while (sent < data.size()) {
      const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n > 0) {
        sent += static_cast<size_t>(n);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        break;
      } else {
        return false;  // reset or shut down by the client
      }
    }
    if (sent == data.size()) return true;
    data.erase(0, sent);
    auto done = std::make_shared<std::promise<beast::error_code>>();
    auto result = done->get_future();
    auto buf = std::make_shared<std::string>(std::move(data));
    asio::post(stream.get_executor(), [this, &stream, buf, done] {
      stream.expires_after(seconds(limits.write_timeout_s));
      asio::async_write(stream, asio::buffer(*buf), [buf, done](beast::error_code ec, size_t) { done->set_value(ec); });
    });
    while (result.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout) {
      if (stopped.load()) return false;
    }
    return !result.get();
  }

  class Sink : public StreamSink {
   public:
    Sink(Impl& impl, beast::tcp_stream& stream) : impl_(impl), stream_(stream) {}
    bool write(const char* data, size_t size) override {
      if (size == 0) return ok_;
      char len[20];
      const int n = std::snprintf(len, sizeof len, "%zx\r\n", size);
      std::string chunk(len, static_cast<size_t>(n));
      chunk.append(data, size);
      chunk += "\r\n";
      return raw(std::move(chunk));
    }
    void done() override { finished_ = true; }
    bool raw(std::string bytes) {
      if (ok_) ok_ = impl_.write_from_worker(stream_, std::move(bytes));
      return ok_;
    }
    [[nodiscard]] bool finished() const { return finished_; }
    [[nodiscard]] bool ok() const { return ok_; }

   private:
    Impl& impl_;
    beast::tcp_stream& stream_;
    bool ok_ = true;
    bool finished_ = false;
  };

  // A large body's memory (and what the handler built from it) goes back to the system once the
  // handler is done with it: freed blocks otherwise stay with the worker thread's malloc arena, and
  // with one arena per worker a server's RSS would climb to workers x the largest request's peak
  // (docs/OPERATIONS.md, 'Requests').
  static void release_large_body(Request& req) {
    if (req.body.size() < kLargeBody) return;
    std::string().swap(req.body);
    ::malloc_trim(0);
  }

  // Watches a streaming connection for the client's EOF or reset (docs/OPERATIONS.md, 'Work').
  // Lives on the connection's thread; `active` is cleared there when the stream ends.
  struct GoneWatch {
    bool active = true;
    std::function<void()> on_gone;
  };

  static void watch_gone(beast::tcp_stream& stream, int fd, const std::shared_ptr<GoneWatch>& watch) {
    stream.socket().async_wait(tcp::socket::wait_read, [fd, watch](beast::error_code ec) {
      // Readable but not closed means pipelined bytes: the next write finds a gone client then.
      if (ec || !watch->active || !peer_gone(fd)) return;
      watch->active = false;
      watch->on_gone();
    });
  }

  // Worker thread: the handler, and for a streamed answer the whole stream. True when the
  // connection may carry another request; `watch` is set when the stream was watched.
  bool handle(beast::tcp_stream& stream, int fd, Request& req, Response& res, bool keep_alive,
              std::shared_ptr<GoneWatch>& watch) {
    try {
      hooks.handle(req, res);
    } catch (const std::exception&) {
      res = hooks.reject(req, 500, "internal error");
    }
    release_large_body(req);
    if (!res.stream) return true;
    if (res.on_client_gone) {
      watch = std::make_shared<GoneWatch>();
      watch->on_gone = res.on_client_gone;
      // Started on the connection's thread, unless the stream already ended (then `stream` may be gone).
      asio::post(stream.get_executor(), [&stream, fd, w = watch] {
        if (w->active) watch_gone(stream, fd, w);
      });
    }
    Sink sink(*this, stream);
    sink.raw(head(res, keep_alive, true));
    while (sink.ok() && !sink.finished()) {
      bool more = false;
      try {
        more = res.stream(sink);
      } catch (const std::exception&) {
        more = false;
      }
      if (!more) break;
    }
    const bool completed = sink.finished() && sink.ok() && sink.raw("0\r\n\r\n");
    if (res.on_stream_end) res.on_stream_end(completed);
    return completed;
  }

  // Runs `f` on the worker pool; the coroutine resumes on its connection's thread afterwards.
  template <typename F>
  awaitable<void> on_worker(F& f) {
    co_await asio::async_initiate<decltype(use_awaitable), void()>(
        [this, &f](auto handler) {
          asio::post(pool, [&f, handler = std::move(handler)]() mutable {
            f();
            auto ex = asio::get_associated_executor(handler);
            asio::dispatch(ex, std::move(handler));
          });
        },
        use_awaitable);
  }

  awaitable<void> send(beast::tcp_stream& stream, const Request& req, const Response& res, bool keep_alive,
                       std::chrono::steady_clock::time_point start) {
    // A HEAD answer is the GET's head, its Content-Length included, without the body.
    const std::string bytes = head(res, keep_alive, false) + (req.method == "HEAD" ? std::string() : res.body);
    stream.expires_after(seconds(limits.write_timeout_s));
    co_await asio::async_write(stream, asio::buffer(bytes), kTuple);
    if (hooks.log) hooks.log(req, res, std::chrono::steady_clock::now() - start);
  }

  awaitable<void> refuse(beast::tcp_stream& stream, const Request& req, int status, const std::string& why,
                         std::chrono::steady_clock::time_point start) {
    Response res = hooks.reject(req, status, why);
    co_await send(stream, req, res, false, start);
  }

  // A request whose head could not be read: the error it gets, if any (a client that left or went
  // quiet gets none).
  awaitable<void> refuse_unread(beast::tcp_stream& stream, const Parser& parser, Request& req, beast::error_code e1,
                                std::chrono::steady_clock::time_point start) {
    // The request line is parsed before the header limit or a declared body size can fail it:
    // its path picks the error's shape (OpenAI's or Anthropic's).
    req.target = std::string(parser.get().target());
    req.path = req.target.substr(0, req.target.find('?'));
    if (e1 == bhttp::error::body_limit) {  // a declared Content-Length over the limit
      co_await refuse(
          stream, req, 413,
          "the request body is larger than this server's limit (" + std::to_string(limits.max_body) + " bytes)", start);
    } else if (e1 == bhttp::error::header_limit) {
      co_await refuse(stream, req, 431,
                      "the request headers are larger than " + std::to_string(limits.max_header_bytes) + " bytes",
                      start);
    } else if (e1 != beast::error::timeout && e1 != bhttp::error::end_of_stream && e1 != asio::error::eof &&
               e1 != asio::error::connection_reset && e1 != asio::error::operation_aborted) {
      co_await refuse(stream, req, 400, "malformed request: " + e1.message(), start);
    }
  }

  // The limits and rules a request's head must meet before its body is read; true: refused (and
  // the connection closes).
  awaitable<bool> refused_head(beast::tcp_stream& stream, const Parser& parser, const Request& req,
                               std::chrono::steady_clock::time_point start) {
    if (req.headers.size() > limits.max_headers) {
      co_await refuse(stream, req, 431, "the request has more than " + std::to_string(limits.max_headers) + " headers",
                      start);
      co_return true;
    }
    // RFC 9112, 3.2: exactly one Host in HTTP/1.1, at most one before. With two, the Host
    // checks (--allowed-host) would see only the first.
    const auto hosts = std::count_if(parser.get().begin(), parser.get().end(),
                                     [](const auto& f) { return f.name() == bhttp::field::host; });
    if (hosts > 1 || (hosts == 0 && parser.get().version() >= 11)) {
      co_await refuse(
          stream, req, 400,
          hosts > 1 ? "the request has more than one Host header" : "an HTTP/1.1 request needs a Host header", start);
      co_return true;
    }
    if (parser.get().method() == bhttp::verb::post && !parser.content_length() && !parser.chunked()) {
      co_await refuse(stream, req, 411, "a POST needs Content-Length or Transfer-Encoding: chunked", start);
      co_return true;
    }
    if (parser.content_length() && *parser.content_length() > limits.max_body) {
      co_await refuse(
          stream, req, 413,
          "the request body is larger than this server's limit (" + std::to_string(limits.max_body) + " bytes)", start);
      co_return true;
    }
    co_return false;
  }

  // The rest of the body (after a 100 Continue when the client asked for one); false: the
  // connection ends (an error answered, or the client left).
  awaitable<bool> read_body(beast::tcp_stream& stream, beast::flat_buffer& buf, Parser& parser, const Request& req,
                            std::chrono::steady_clock::time_point start) {
    if (iequals(req.get_header_value("Expect"), "100-continue")) {
      stream.expires_after(seconds(limits.write_timeout_s));
      static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
      auto [e, n] = co_await asio::async_write(stream, asio::buffer(kContinue), kTuple);
      if (e) co_return false;
    }
    stream.expires_after(seconds(limits.body_timeout_s));
    const BodyRead got = co_await read_rest_of_body(stream, buf, parser);
    if (got.end == BodyEnd::refused && got.error == bhttp::error::body_limit) {
      co_await refuse(
          stream, req, 413,
          "the request body is larger than this server's limit (" + std::to_string(limits.max_body) + " bytes)", start);
    } else if (got.end == BodyEnd::refused) {
      co_await refuse(stream, req, 400, "malformed request body: " + got.error.message(), start);
    } else if (got.end == BodyEnd::bad_framing) {
      co_await refuse(stream, req, 400,
                      "malformed request body: a chunk line must end in CRLF and be at most " +
                          std::to_string(kMaxChunkLine) + " bytes, trailers at most " + std::to_string(kMaxChunkLeft) +
                          " (RFC 9112, 7.1)",
                      start);
    }
    co_return got.end == BodyEnd::done;
  }

  awaitable<void> session(tcp::socket socket) {
    struct Count {
      std::atomic<int32_t>& n;
      ~Count() { --n; }
    } count{connections};
    beast::error_code ec;
    socket.set_option(tcp::no_delay(true), ec);  // headers and body leave in one write anyway
    const auto peer = socket.remote_endpoint(ec);
    const std::string remote = ec ? "-" : peer.address().to_string() + ":" + std::to_string(peer.port());
    const int fd = socket.native_handle();
    beast::tcp_stream stream(std::move(socket));
    beast::flat_buffer buf;
    bool first = true;
    for (;;) {
      if (buf.size() == 0) {  // between requests: the idle deadline (the first waits as for headers)
        stream.expires_after(seconds(first ? limits.header_timeout_s : limits.idle_timeout_s));
        auto [e, n] = co_await stream.async_read_some(buf.prepare(4096), kTuple);
        if (e) break;
        buf.commit(n);
      }
      first = false;
      stream.expires_after(seconds(limits.header_timeout_s));
      Parser parser;
      parser.header_limit(limits.max_header_bytes);
      parser.body_limit(limits.max_body);
      auto [e1, n1] = co_await bhttp::async_read_header(stream, buf, parser, kTuple);
      const auto start = std::chrono::steady_clock::now();
      Request req;
      req.remote = remote;
      if (e1) {
        co_await refuse_unread(stream, parser, req, e1, start);
        break;
      }
      const auto& h = parser.get();
      req.method = std::string(h.method_string());
      req.target = std::string(h.target());
      req.path = req.target.substr(0, req.target.find('?'));
      for (const auto& f : h) req.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
      if (co_await refused_head(stream, parser, req, start)) break;
      Response early;
      if (hooks.before_body && hooks.before_body(req, early)) {
        // The connection goes on only when there was no body left unread (a preflight, a GET).
        const bool reuse = parser.is_done() && parser.keep_alive() && !stopped.load();
        co_await send(stream, req, early, reuse, start);
        if (reuse) continue;
        break;
      }
      if (!parser.is_done() && !co_await read_body(stream, buf, parser, req, start)) break;
      req.body = std::move(parser.get().body());
      req.client_gone = [fd] { return peer_gone(fd); };
      bool keep_alive = parser.keep_alive() && !stopped.load();
      Response res;
      bool reusable = true;
      std::shared_ptr<GoneWatch> watch;
      auto work = [&] { reusable = handle(stream, fd, req, res, keep_alive, watch); };
      co_await on_worker(work);
      if (watch) {  // back on the connection's thread: no write is pending, only the watch
        watch->active = false;
        stream.socket().cancel(ec);
      }
      if (!res.stream) {
        co_await send(stream, req, res, keep_alive, start);
      } else if (hooks.log) {
        hooks.log(req, res, std::chrono::steady_clock::now() - start);
      }
      if (!keep_alive || !reusable || stopped.load()) break;
    }
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream.close();
  }

  // Over the connection cap: a short 503 (a deadline of one second for it), then close.
  awaitable<void> refuse_connection(tcp::socket socket) {
    beast::tcp_stream stream(std::move(socket));
    Request req;
    Response res = hooks.reject(req, 503, "too many open connections; retry later");
    res.set_header("Retry-After", "1");
    const std::string bytes = head(res, false, false) + res.body;
    stream.expires_after(std::chrono::seconds(1));
    co_await asio::async_write(stream, asio::buffer(bytes), kTuple);
    beast::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    if (hooks.log) hooks.log(req, res, std::chrono::steady_clock::duration{});
  }

  awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, socket] = co_await acceptor.async_accept(kTuple);
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
      if (ec) {  // out of descriptors and the like: wait a little rather than spin
        asio::steady_timer t(ioc, std::chrono::milliseconds(50));
        co_await t.async_wait(kTuple);
        continue;
      }
      if (connections.load() >= limits.max_connections) {
        asio::co_spawn(ioc, refuse_connection(std::move(socket)), asio::detached);
        continue;
      }
      ++connections;
      asio::co_spawn(ioc, session(std::move(socket)), asio::detached);
    }
  }
};

Server::Server(const Limits& limits, Hooks hooks) : impl_(std::make_unique<Impl>(limits, std::move(hooks))) {
  // Blocks of a megabyte or more (request bodies and what is parsed from them) are mapped and
  // unmapped on their own, never kept in a worker's malloc arena after a request.
  ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(kLargeBody));
}

Server::~Server() {
  try {
    stop();
  } catch (...) {  // NOLINT(bugprone-empty-catch): nothing is left to tell at destruction
  }
}

int Server::bind(const std::string& host, int port) {
  auto& a = impl_->acceptor;
  const std::string where = host + ":" + std::to_string(port);
  beast::error_code ec;
  tcp::resolver resolver(impl_->ioc);
  const auto found = resolver.resolve(host, std::to_string(port), tcp::resolver::passive, ec);
  if (ec || found.empty()) throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
  const tcp::endpoint ep = found.begin()->endpoint();
  // SO_REUSEADDR only (restarts while old connections linger in TIME_WAIT); never SO_REUSEPORT,
  // so a second server on a busy port fails here instead of sharing its traffic.
  a.open(ep.protocol(), ec);
  if (!ec) a.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) a.bind(ep, ec);
  if (!ec) a.listen(impl_->limits.max_connections, ec);
  if (ec) {
    beast::error_code ignored;
    a.close(ignored);
    throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
  }
  return a.local_endpoint().port();
}

void Server::start() {
  asio::co_spawn(impl_->ioc, impl_->accept_loop(), asio::detached);
  impl_->io_thread = std::thread([this] { impl_->ioc.run(); });
}

void Server::stop() {
  if (impl_->stopped.exchange(true)) return;
  asio::post(impl_->ioc, [this] {
    beast::error_code ec;
    impl_->acceptor.close(ec);
  });
  impl_->ioc.stop();
  if (impl_->io_thread.joinable()) impl_->io_thread.join();
  impl_->pool.join();
}

int32_t Server::open_connections() const { return impl_->connections.load(); }

}  // namespace sfcl::server::http
