// The transport's streamed writes, in process on 127.0.0.1: what the socket takes at once is sent
// from the worker, the rest waits on the connection's thread; either way the client gets every
// byte, in order, framed as chunks.
#include <httplib.h>
#include <sys/socket.h>

#include <gtest/gtest.h>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "server/http/server.h"

namespace sfcl::server::http {
namespace {

// Chunk `i` of the stream: its number, then filler, so a lost, repeated or reordered byte shows.
std::string chunk_text(int i, size_t size) {
  std::string s = std::to_string(i) + ":";
  s.resize(size, static_cast<char>('a' + i % 26));
  return s;
}

Hooks stream_hooks(int chunks, size_t chunk_size, std::atomic<bool>& completed) {
  Hooks h;
  h.handle = [chunks, chunk_size, &completed](Request&, Response& res) {
    auto next = std::make_shared<int>(0);
    res.set_chunked_content_provider(
        "text/plain",
        [next, chunks, chunk_size](StreamSink& sink) {
          const std::string s = chunk_text((*next)++, chunk_size);
          if (!sink.write(s.data(), s.size())) return false;
          if (*next == chunks) sink.done();
          return true;
        },
        [&completed](bool done) { completed = done; });
  };
  h.reject = [](const Request&, int status, const std::string& why) {
    Response r;
    r.status = status;
    r.set_content(why, "text/plain");
    return r;
  };
  return h;
}

std::string expected_body(int chunks, size_t chunk_size) {
  std::string out;
  for (int i = 0; i < chunks; ++i) out += chunk_text(i, chunk_size);
  return out;
}

// More than the kernel buffers on both ends hold (tcp_wmem's maximum is 4 MiB by default) while
// the client does not read: the worker's writes find the socket full and wait for the client.
TEST(HttpStream, ClientThatReadsLateGetsEveryByteInOrder) {
  constexpr int kChunks = 1600;
  constexpr size_t kChunkSize = 6000;
  std::atomic<bool> completed{false};
  Limits limits;
  limits.workers = 2;
  Server server(limits, stream_hooks(kChunks, kChunkSize, completed));
  const int port = server.bind("127.0.0.1", 0);
  server.start();

  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30, 0);
  client.set_socket_options([](auto sock) {
    const int small = 4096;
    ::setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  });
  std::string body;
  bool waited = false;
  auto res = client.Get("/", [&](const char* data, size_t len) {
    if (!waited) {  // the server fills its socket meanwhile
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      waited = true;
    }
    body.append(data, len);
    return true;
  });
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(body.size(), kChunks * kChunkSize);
  EXPECT_TRUE(body == expected_body(kChunks, kChunkSize));  // not EXPECT_EQ: 9.6 MB in a failure message
  server.stop();
  EXPECT_TRUE(completed.load());
}

// Small chunks read at once, as a stream's deltas are: the same bytes, and the connection stays
// usable for the next request.
TEST(HttpStream, SmallChunksArriveWholeAndTheConnectionIsKeptAlive) {
  constexpr int kChunks = 200;
  constexpr size_t kChunkSize = 40;
  std::atomic<bool> completed{false};
  Server server(Limits{}, stream_hooks(kChunks, kChunkSize, completed));
  const int port = server.bind("127.0.0.1", 0);
  server.start();
  httplib::Client client("127.0.0.1", port);
  client.set_keep_alive(true);
  int connections = 0;
  client.set_socket_options([&connections](auto) { ++connections; });
  for (int round = 0; round < 2; ++round) {
    auto res = client.Get("/");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->body, expected_body(kChunks, kChunkSize));
  }
  EXPECT_EQ(connections, 1);
  server.stop();
  EXPECT_TRUE(completed.load());
}

}  // namespace
}  // namespace sfcl::server::http
