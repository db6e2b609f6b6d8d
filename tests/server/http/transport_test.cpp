// The HTTP transport under hostile or careless clients (docs/OPERATIONS.md): framing, limits,
// deadlines, connection cap, browser access, keep-alive, logging, shutdown. The real server on
// 127.0.0.1; the long versions (2,000 connections, full-size bombs) are `make attack`.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "server/raw_http.h"
#include "server/server_process.h"
#include "support/process_usage.h"

namespace sfcl::test {
namespace {

using nlohmann::json;
using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point t) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}

std::string small_message(int max_tokens = 2, bool stream = false) {
  return json{{"model", "sfcl"},
              {"max_tokens", max_tokens},
              {"stream", stream},
              {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}}
      .dump();
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

constexpr const char* kKey = "transport-test-key";

class ServerTransport : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new ServerProcess({"--max-body", "65536", "--header-timeout", "2", "--idle-timeout", "3",
                                 "--max-connections", "400", "--cors-origin", "http://app.example", "--cors-origin",
                                 "localhost", "--api-key", kKey, "--log-format", "json"},
                                false);
    // /health needs no key, so the usual readiness wait works.
    server_->wait_healthy();
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static int port() { return server_->port(); }
  static std::string auth() { return std::string("x-api-key: ") + kKey + "\r\n"; }
  static ServerProcess* server_;
};
ServerProcess* ServerTransport::server_ = nullptr;

// Item 1: compressed bodies are refused, never inflated.
TEST_F(ServerTransport, ContentEncodingIs415) {
  const std::string r =
      exchange(port(), post_request("/v1/messages", "\x1f\x8b garbage", auth() + "Content-Encoding: gzip\r\n"));
  EXPECT_EQ(status_of(r), 415) << r;
  const std::string d =
      exchange(port(), post_request("/v1/messages", small_message(), auth() + "Content-Encoding: deflate\r\n"));
  EXPECT_EQ(status_of(d), 415) << d;
}

// Item 2: the body limit holds for chunked bodies; a POST with no length at all gets 411.
TEST_F(ServerTransport, BodyLimitHoldsForChunkedAndLengthIsRequired) {
  std::string req = "POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + auth() +
                    "Transfer-Encoding: chunked\r\n\r\n";
  const std::string chunk(16384, 'a');
  for (int i = 0; i < 8; ++i) req += "4000\r\n" + chunk + "\r\n";  // 128 KB > --max-body 64 KB
  req += "0\r\n\r\n";
  const std::string r = exchange(port(), req);
  EXPECT_EQ(status_of(r), 413) << r.substr(0, 200);
  const std::string nolen = exchange(
      port(), "POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + auth() + "\r\n");
  EXPECT_EQ(status_of(nolen), 411) << nolen;
  // A declared length over the limit is refused before the body is read.
  const std::string big = exchange(port(),
                                   "POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                   "application/json\r\n" +
                                       auth() + "Content-Length: 1000000\r\n\r\n");
  EXPECT_EQ(status_of(big), 413) << big;
  // Refused before the body is read, the error still takes the shape of the path's API.
  const std::string openai = exchange(port(),
                                      "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                      "application/json\r\n" +
                                          auth() + "Content-Length: 1000000\r\n\r\n");
  EXPECT_EQ(status_of(openai), 413) << openai;
  EXPECT_NE(openai.find("{\"error\":{\"code\":null"), std::string::npos) << openai;  // OpenAI's, not Anthropic's
  EXPECT_EQ(big.find("\"param\""), std::string::npos) << big;                        // Anthropic's
}

// Item 3: idle and one-byte-a-second connections cost a socket each, not a worker: /health
// keeps answering fast, and the slow ones are closed at the header deadline.
TEST_F(ServerTransport, SlowAndIdleConnectionsDoNotBlockOthers) {
  std::vector<RawConn> idle;
  std::vector<RawConn> slow;
  for (int i = 0; i < 200; ++i) idle.emplace_back(port());
  for (int i = 0; i < 50; ++i) {
    slow.emplace_back(port());
    slow.back().send("G");
  }
  double worst = 0;
  const auto start = clock_type::now();
  for (int second = 0; second < 4; ++second) {
    for (auto& c : slow) c.send("E");
    const auto t = clock_type::now();
    const std::string r = exchange(port(), "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    worst = std::max(worst, ms_since(t));
    EXPECT_EQ(status_of(r), 200) << r;
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  }
  EXPECT_LT(worst, 500.0);
  // --header-timeout 2: by now every slow sender was answered with a close.
  int closed = 0;
  for (auto& c : slow) {
    c.read_all(100);
    closed += c.closed_by_peer() ? 1 : 0;
  }
  EXPECT_EQ(closed, 50) << "after " << ms_since(start) << " ms";
}

// Item 7: header count and total size are capped before anything else happens.
TEST_F(ServerTransport, HeaderCountAndSizeAre431) {
  std::string many = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  for (int i = 0; i < 120; ++i) many += "X-Filler-" + std::to_string(i) + ": 1\r\n";
  EXPECT_EQ(status_of(exchange(port(), many + "\r\n")), 431);
  const std::string huge = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + std::string(70000, 'a') + "\r\n\r\n";
  EXPECT_EQ(status_of(exchange(port(), huge)), 431);
}

// The header limits are flags: --max-headers and --max-header-bytes move the 431s.
TEST(ServerLifecycle, HeaderLimitFlags) {
  ServerProcess s({"--max-headers", "10", "--max-header-bytes", "4096"});
  auto with_fillers = [](int n) {
    std::string r = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (int i = 0; i < n; ++i) r += "X-Filler-" + std::to_string(i) + ": 1\r\n";
    return r + "\r\n";
  };
  EXPECT_EQ(status_of(exchange(s.port(), with_fillers(8))), 200);
  const std::string many = exchange(s.port(), with_fillers(12));
  EXPECT_EQ(status_of(many), 431);
  EXPECT_NE(many.find("more than 10 headers"), std::string::npos) << many;
  const std::string big =
      exchange(s.port(), "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + std::string(5000, 'a') + "\r\n\r\n");
  EXPECT_EQ(status_of(big), 431);
  EXPECT_NE(big.find("larger than 4096 bytes"), std::string::npos) << big;
  // Its shape is the path's API's: OpenAI's on an OpenAI path.
  const std::string openai = exchange(
      s.port(), "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + std::string(5000, 'a') + "\r\n\r\n");
  EXPECT_EQ(status_of(openai), 431);
  EXPECT_NE(openai.find("{\"error\":{\"code\":null"), std::string::npos) << openai;
  EXPECT_EQ(status_of(exchange(
                s.port(), "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + std::string(3000, 'a') + "\r\n\r\n")),
            200);
}

// Item 18: malformed framing is a 400; 100-continue only after auth; pipelining answers all.
TEST_F(ServerTransport, MalformedFramingIs400AndPipeliningWorks) {
  for (const std::string cl : {"abc", "1e3", "-1"}) {
    const std::string r = exchange(port(),
                                   "POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                   "application/json\r\n" +
                                       auth() + "Content-Length: " + cl + "\r\n\r\n");
    EXPECT_EQ(status_of(r), 400) << cl << ": " << r;
  }
  const std::string dup = exchange(port(),
                                   "POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                   "application/json\r\n" +
                                       auth() + "Content-Length: 5\r\nContent-Length: 6\r\n\r\n{}");
  EXPECT_EQ(status_of(dup), 400) << dup;
  // Without the key the answer is 401 at once, never "100 Continue".
  const std::string no_key = exchange(port(),
                                      "POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                      "application/json\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n");
  EXPECT_EQ(status_of(no_key), 401) << no_key;
  const std::string too_big = exchange(port(),
                                       "POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                       "application/json\r\n" +
                                           auth() + "Expect: 100-continue\r\nContent-Length: 100000\r\n\r\n");
  EXPECT_EQ(status_of(too_big), 413) << too_big;
  RawConn ok(port());
  ok.send("POST /v1/messages/count_tokens HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + auth() +
          "Expect: 100-continue\r\nContent-Length: 2\r\n\r\n");
  EXPECT_EQ(status_of(ok.read_response()), 100);
  const std::string get = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  RawConn piped(port());
  piped.send(get + get + get);
  const std::string three = piped.read_all(1000);
  size_t count = 0;
  for (size_t p = three.find("HTTP/1.1 200"); p != std::string::npos; p = three.find("HTTP/1.1 200", p + 1)) ++count;
  EXPECT_EQ(count, 3U) << three;
}

// A chunked body's lines end in CRLF (RFC 9112, 7.1). One that ends them in a bare LF, or sends a
// chunk line without end, is a 400 at once, not a connection held open to the body deadline; a
// well-framed chunked body, extensions and a trailer included, is read and the next pipelined
// request after it is answered.
TEST_F(ServerTransport, ChunkLinesWithoutCrlfAre400AtOnce) {
  const std::string head =
      "POST /v1/messages/count_tokens HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
      "application/json\r\n" +
      auth() + "Transfer-Encoding: chunked\r\n\r\n";
  const std::string body = R"({"model":"sfcl","messages":[{"role":"user","content":"hi"}]})";
  std::ostringstream size;
  size << std::hex << body.size();
  // exchange() gives up after 3 s of silence: an answer at all is one before the 60 s deadline.
  const std::string bare = exchange(port(), head + size.str() + "\n" + body + "\n0\n\n");
  EXPECT_EQ(status_of(bare), 400) << bare;
  EXPECT_NE(bare.find("CRLF"), std::string::npos) << bare;
  const std::string endless = exchange(port(), head + std::string(5000, '1'));
  EXPECT_EQ(status_of(endless), 400) << endless;
  // ... and a later chunk's line, or trailers, without end
  const std::string later = exchange(port(), head + "2\r\n{}\r\n5;" + std::string(10000, 'x'));
  EXPECT_EQ(status_of(later), 400) << later;
  const std::string trailers = exchange(port(), head + "0\r\nX-T: " + std::string(10000, 'x'));
  EXPECT_EQ(status_of(trailers), 400) << trailers;
  RawConn piped(port());
  piped.send(head + size.str() + ";ext=1\r\n" + body + "\r\n0\r\nX-Trailer: 1\r\n\r\n" +
             "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  const std::string both = piped.read_all(1000);
  EXPECT_EQ(status_of(both), 200) << both;
  EXPECT_NE(both.find("input_tokens"), std::string::npos) << both;
  EXPECT_NE(both.find("HTTP/1.1 200", 1), std::string::npos) << "the pipelined GET is answered: " << both;
}

// Item 13: JSON endpoints want application/json; Host is checked on loopback; cross-origin
// only from --cors-origin, whose preflight is answered before auth.
TEST_F(ServerTransport, ContentTypeHostAndCors) {
  const std::string plain = exchange(port(), "POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth() +
                                                 "Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_EQ(status_of(plain), 415) << plain;
  const std::string rebound =
      exchange(port(), "GET /v1/models HTTP/1.1\r\nHost: attacker.example:8080\r\n" + auth() + "\r\n");
  EXPECT_EQ(status_of(rebound), 403) << rebound;
  // A second Host cannot slip past the check, and HTTP/1.1 needs one (RFC 9112); HTTP/1.0 may omit it.
  const std::string twice =
      exchange(port(), "GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: attacker.example\r\n" + auth() + "\r\n");
  EXPECT_EQ(status_of(twice), 400) << twice;
  EXPECT_NE(twice.find("more than one Host"), std::string::npos) << twice;
  const std::string none = exchange(port(), "GET /v1/models HTTP/1.1\r\n" + auth() + "\r\n");
  EXPECT_EQ(status_of(none), 400) << none;
  const std::string old = exchange(port(), "GET /v1/models HTTP/1.0\r\n" + auth() + "\r\n");
  EXPECT_EQ(status_of(old), 200) << old;
  const std::string other = exchange(
      port(), "GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth() + "Origin: http://evil.example\r\n\r\n");
  EXPECT_EQ(status_of(other), 403) << other;
  const std::string preflight = exchange(
      port(),
      "OPTIONS /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://app.example\r\n"
      "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type, x-api-key\r\n\r\n");
  EXPECT_EQ(status_of(preflight), 200) << preflight;
  EXPECT_NE(preflight.find("Access-Control-Allow-Origin: http://app.example"), std::string::npos) << preflight;
  EXPECT_NE(preflight.find("Access-Control-Allow-Headers: content-type, x-api-key"), std::string::npos);
  const std::string cross = exchange(
      port(), "GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth() + "Origin: http://app.example\r\n\r\n");
  EXPECT_EQ(status_of(cross), 200) << cross;
  EXPECT_NE(cross.find("Access-Control-Allow-Origin: http://app.example"), std::string::npos) << cross;
  // "localhost": a page of this machine on any port, and nothing that only looks like one.
  for (const char* local :
       {"http://localhost", "http://localhost:5173", "https://127.0.0.1:3000", "http://[::1]:8080"}) {
    const std::string r =
        exchange(port(), "OPTIONS /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: " + std::string(local) +
                             "\r\nAccess-Control-Request-Method: POST\r\n\r\n");
    EXPECT_EQ(status_of(r), 200) << r;
    EXPECT_NE(r.find("Access-Control-Allow-Origin: " + std::string(local) + "\r\n"), std::string::npos) << r;
  }
  for (const char* lookalike : {"http://localhost.evil.com", "http://notlocalhost", "http://localhost:80x",
                                "ftp://localhost", "http://127.0.0.1.evil.com:80"}) {
    const std::string r =
        exchange(port(), "OPTIONS /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: " + std::string(lookalike) +
                             "\r\nAccess-Control-Request-Method: POST\r\n\r\n");
    // The preflight is answered as llama-server answers it, without the headers that would let the
    // browser send the request; the request itself is refused.
    EXPECT_EQ(status_of(r), 200) << lookalike << ": " << r;
    EXPECT_EQ(r.find("Access-Control-Allow-"), std::string::npos) << r;
    const std::string sent = exchange(port(), "GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth() +
                                                  "Origin: " + std::string(lookalike) + "\r\n\r\n");
    EXPECT_EQ(status_of(sent), 403) << lookalike << ": " << sent;
  }
}

// A Host header of another form than host[:port] (RFC 9110 7.2) names no host: 400, however its
// start looks; HEAD is answered as GET without the body.
TEST_F(ServerTransport, MalformedHostIs400AndHeadIsGetWithoutBody) {
  for (const char* host : {"[::1]anything", "127.0.0.1:80x", ":8080", "127.0.0.1:123456", "user@localhost"}) {
    const std::string r =
        exchange(port(), "GET /v1/models HTTP/1.1\r\nHost: " + std::string(host) + "\r\n" + auth() + "\r\n");
    EXPECT_EQ(status_of(r), 400) << host << ": " << r;
  }
  const std::string empty = exchange(port(), "GET /v1/models HTTP/1.1\r\nHost:\r\n" + auth() + "\r\n");
  EXPECT_EQ(status_of(empty), 400) << empty;
  for (const char* host : {"[::1]:8080", "localhost", "127.0.0.1:80"}) {
    const std::string r =
        exchange(port(), "GET /v1/models HTTP/1.1\r\nHost: " + std::string(host) + "\r\n" + auth() + "\r\n");
    EXPECT_EQ(status_of(r), 200) << host << ": " << r;
  }
  const std::string get = exchange(port(), "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  const std::string head = exchange(port(), "HEAD /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status_of(head), 200) << head;
  ASSERT_NE(get.find("\r\n\r\n"), std::string::npos);
  EXPECT_EQ(head, get.substr(0, get.find("\r\n\r\n") + 4));  // the same head, no body
}

// A header value with CR LF (here an operator's --model-id; a gateway backend's model name goes
// the same way) cannot start a header line of its own.
TEST(ServerLifecycle, HeaderValuesCannotStartAnotherHeader) {
  ServerProcess s({"--model-id", "demo\r\nX-Injected: 1"});
  const std::string r = exchange(s.port(),
                                 post_request("/v1/chat/completions",
                                              json{{"model", "demo\r\nX-Injected: 1"},
                                                   {"max_tokens", 2},
                                                   {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}}
                                                  .dump(),
                                              ""),
                                 30000);
  EXPECT_EQ(status_of(r), 200) << r;
  EXPECT_EQ(r.find("\r\nX-Injected"), std::string::npos) << r;
  EXPECT_NE(r.find("X-SFCL-Model: demo  X-Injected: 1\r\n"), std::string::npos) << r;
}

// --max-client-work: a client with as many requests in preparation as the limit gets 429 for the
// next, while another client address is served; the place comes back when the preparation ends.
TEST(ServerLifecycle, OneClientsPreparationsAreBoundedAndOthersAreServed) {
  ServerProcess s({"--max-client-work", "1", "--max-prompt-bytes", "4000000", "--max-body", "8000000"});
  // Tokenising 2 MB of text keeps one preparation of 127.0.0.1 busy for a while (seconds).
  std::string text;
  while (text.size() < 2000000) text += "The fee is 1,200 dollars, due on 2024-06-15. ";
  const std::string heavy = post_request("/tokenize", json{{"content", text}}.dump());
  // Once the heavy request is in preparation (while it is being read, small ones still pass), the
  // next one of the same client is refused; then another address is served at once. A small
  // request in preparation just when the heavy one's begins takes the place first (the heavy one
  // is then the 429): that round is run again.
  const std::string small = post_request("/tokenize", json{{"content", "hi"}}.dump());
  std::string refused;
  std::string seen;  // the statuses the requests got, for a failure's message
  std::string first;
  std::string other;
  for (int round = 0; round < 5; ++round) {
    auto heavy_reply = std::async(std::launch::async, [&] { return exchange(s.port(), heavy, 120000); });
    ASSERT_TRUE(test::wait_until([&] {
      refused = exchange(s.port(), small, 10000, INADDR_LOOPBACK);
      seen += std::to_string(status_of(refused)) + " ";
      return status_of(refused) == 429 || heavy_reply.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    })) << seen;
    other = exchange(s.port(), small, 10000, INADDR_LOOPBACK + 1);  // 127.0.0.2, while the place is held
    first = heavy_reply.get();
    seen += "(heavy " + std::to_string(status_of(first)) + ") ";
    if (status_of(first) != 429) break;
  }
  EXPECT_EQ(status_of(first), 200) << "requests got: " << seen;
  EXPECT_EQ(status_of(refused), 429) << "requests got: " << seen << "\n" << refused;
  EXPECT_NE(refused.find("--max-client-work"), std::string::npos) << refused;
  EXPECT_NE(refused.find("Retry-After: 1"), std::string::npos) << refused;
  EXPECT_EQ(status_of(other), 200) << other;
  EXPECT_EQ(status_of(exchange(s.port(), small, 10000, INADDR_LOOPBACK)), 200);  // its place came back
}

// #18: routes without /v1, 405 with Allow.
TEST_F(ServerTransport, RoutesWithoutV1And405WithAllow) {
  const std::string models = exchange(port(), "GET /models HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth() + "\r\n");
  EXPECT_EQ(status_of(models), 200) << models;
  const std::string chat = exchange(
      port(),
      post_request("/chat/completions",
                   json{{"max_tokens", 2}, {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}}.dump(),
                   auth()),
      30000);
  EXPECT_EQ(status_of(chat), 200) << chat;
  EXPECT_NE(chat.find("chat.completion"), std::string::npos);
  const std::string wrong = exchange(port(), "GET /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth() + "\r\n");
  EXPECT_EQ(status_of(wrong), 405) << wrong;
  EXPECT_NE(wrong.find("Allow: POST"), std::string::npos) << wrong;
}

// Item 15: the second request on a keep-alive connection is as fast as the first (no Nagle
// stall), and there is no cap on requests per connection.
TEST_F(ServerTransport, KeepAliveRequestsStayFast) {
  RawConn c(port());
  const std::string req = post_request("/v1/messages/count_tokens", small_message(), auth());
  std::vector<double> took;
  for (int i = 0; i < 12; ++i) {
    const auto t = clock_type::now();
    ASSERT_TRUE(c.send(req));
    const std::string r = c.read_response();
    took.push_back(ms_since(t));
    ASSERT_EQ(status_of(r), 200) << "request " << i << ": " << r;
  }
  // A Nagle / delayed-ACK stall holds every exchange about 40 ms, so even the fastest of requests
  // 2-12 shows it; load on a shared machine only adds to the others.
  EXPECT_LT(*std::min_element(took.begin() + 1, took.end()), 20.0) << "fastest of requests 2-12 on one connection";
}

// Item 17: every request has a log line, refused ones included; no key or body in it.
TEST_F(ServerTransport, RejectedRequestsAreLogged) {
  exchange(port(), "GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: wrong-secret-key\r\n\r\n");
  exchange(port(), post_request("/v1/messages", "{\"secret_body\": 1}", "x-api-key: wrong-secret-key\r\n"));
  // Both lines are written once the responses have gone out.
  std::string log;
  EXPECT_TRUE(test::wait_until([&] {
    log = read_file(server_->log());
    return log.find("\"path\":\"/v1/models\"") != std::string::npos &&
           log.find("\"path\":\"/v1/messages\"") != std::string::npos;
  }));
  EXPECT_NE(log.find("\"status\":401"), std::string::npos) << log;
  EXPECT_NE(log.find("\"path\":\"/v1/models\""), std::string::npos);
  EXPECT_EQ(log.find("wrong-secret-key"), std::string::npos);
  EXPECT_EQ(log.find(kKey), std::string::npos);
  EXPECT_EQ(log.find("secret_body"), std::string::npos);
}

// Item 3: over the connection cap a client gets a clean 503 with Retry-After, then a close.
TEST(ServerLifecycle, ConnectionCapRefusesCleanly) {
  ServerProcess s({"--max-connections", "20"});
  std::vector<RawConn> held;
  for (int i = 0; i < 20; ++i) held.emplace_back(s.port());
  // Once the server has accepted the 20, the next connection gets the 503.
  const std::string health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  std::string r;
  EXPECT_TRUE(test::wait_until([&] {
    r = exchange(s.port(), health);
    return status_of(r) == 503;
  }));
  EXPECT_NE(r.find("Retry-After: 1"), std::string::npos) << r;
  held.clear();
  // Once it has seen them close, there is room again.
  EXPECT_TRUE(test::wait_until([&] { return status_of(exchange(s.port(), health)) == 200; }));
}

// Item 6: a non-stream request whose client hangs up stops generating; item #18: 429 says
// when to retry.
TEST(ServerLifecycle, NonStreamDisconnectCancelsAnd429HasRetryAfter) {
  ServerProcess s({"--parallel", "1", "--queue", "0", "--ctx", "8192", "--test-script", std::string(8500, 'x')});
  json body = json::parse(small_message(8000));
  body["sfcl"] = {{"mode", "off"}};
  {
    RawConn c(s.port());
    c.send(post_request("/v1/messages", body.dump()));
    ASSERT_TRUE(test::wait_until([&] { return s.slots_busy() == 1; }));
    // While it runs, the only slot is taken and nothing may queue: 429 with Retry-After.
    const std::string busy = exchange(s.port(), post_request("/v1/messages", small_message()));
    EXPECT_EQ(status_of(busy), 429) << busy;
    EXPECT_NE(busy.find("Retry-After: 1"), std::string::npos) << busy;
  }  // hang up
  const auto t = clock_type::now();
  auto c = s.client();
  int busy_slots = -1;
  while (busy_slots != 0 && ms_since(t) < 3000) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    busy_slots = json::parse(c.Get("/health")->body)["slots_busy"].get<int>();
  }
  EXPECT_EQ(busy_slots, 0);
  EXPECT_LT(ms_since(t), 1000.0) << "the slot should be free within a few decode steps";
}

// A stream whose client leaves while nothing is being written (with tools the text goes out when
// the turn ends; the next ping is 10 s away) is cancelled when the client closes, not at the next
// write: the slot is free again and the job ended early, cancelled.
TEST(ServerLifecycle, StreamDisconnectDuringHoldBackFreesTheSlot) {
  ServerProcess s(
      {"--parallel", "1", "--ctx", "8192", "--log-format", "json", "--test-script", std::string(8500, 'x')});
  json body = json::parse(small_message(8000, true));
  body["sfcl"] = {{"mode", "off"}};
  body["tools"] =
      json::array({{{"name", "lookup"},
                    {"description", "Look a thing up"},
                    {"input_schema", {{"type", "object"}, {"properties", {{"q", {{"type", "string"}}}}}}}}});
  auto c = s.client();
  {
    RawConn conn(s.port());
    conn.send(post_request("/v1/messages", body.dump()));
    const std::string head = conn.read_until("message_start", 60000);
    ASSERT_NE(head.find("message_start"), std::string::npos) << head;
    EXPECT_EQ(json::parse(c.Get("/health")->body)["slots_busy"].get<int>(), 1);
  }  // the client closes while the reply is held back
  int busy_slots = 1;
  for (int i = 0; i < 3000 && busy_slots != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    busy_slots = json::parse(c.Get("/health")->body)["slots_busy"].get<int>();
  }
  EXPECT_EQ(busy_slots, 0);
  // The request's log line: cancelled, well before its 8,000 tokens.
  std::string line;
  for (int i = 0; i < 100 && line.empty(); ++i) {
    std::istringstream log(read_file(s.log()));
    for (std::string l; std::getline(log, l);) {
      if (l.find("\"endpoint\":\"/v1/messages\"") != std::string::npos) line = l;
    }
    if (line.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_FALSE(line.empty()) << read_file(s.log());
  const json entry = json::parse(line.substr(line.find('{')));
  EXPECT_EQ(entry["outcome"], "cancelled") << line;
  EXPECT_LT(entry["output_tokens"].get<int>(), 8000) << line;
}

// Peak RSS per request is bounded (docs/OPERATIONS.md, 'Requests'): 100 maximal rejected requests
// (8 MiB bodies: not JSON, a JSON tree of many tiny values cut off at the end, one 8 MiB prompt, a
// long array of numbers) leave the peak within 64 MB of the idle server's, and nothing of them
// stays afterwards.
TEST(ServerLifecycle, MaximalRejectedRequestsKeepRssWithinBudget) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's allocator holds freed memory (quarantine, shadow): the budget is the release build's";
#endif
  ServerProcess s({});
  const double idle = rss_mb(s.pid(), "VmRSS");
  ASSERT_GT(idle, 0.0);
  constexpr size_t kMax = 8U << 20;
  const std::string message = R"({"role":"user","content":"a"},)";
  std::string tiny = R"({"model":"m","max_tokens":4,"messages":[)";
  while (tiny.size() + message.size() < kMax) tiny += message;
  std::string numbers = R"({"model":"m","stop":[)";
  while (numbers.size() + 2 < kMax) numbers += "1,";
  const std::string prompt = json{{"model", "m"},
                                  {"max_tokens", 4},
                                  {"messages", {{{"role", "user"}, {"content", std::string(kMax - 100, 'z')}}}}}
                                 .dump();
  const std::vector<std::pair<std::string, int>> shapes = {
      {std::string(kMax, 'x'), 400}, {tiny, 413}, {prompt, 413}, {numbers, 413}};
  for (int i = 0; i < 100; ++i) {
    const auto& [body, status] = shapes[static_cast<size_t>(i) % shapes.size()];
    const std::string r = exchange(s.port(), post_request("/v1/messages", body), 60000);
    ASSERT_EQ(status_of(r), status) << r.substr(0, 400);
  }
  const double peak = rss_mb(s.pid(), "VmHWM");
  const double after = rss_mb(s.pid(), "VmRSS");
  std::cout << "RSS idle " << idle << " MB, peak " << peak << " MB, after " << after << " MB\n";
  EXPECT_LT(peak - idle, 64.0) << "idle " << idle << " MB";
  EXPECT_LT(after - idle, 16.0) << "idle " << idle << " MB";
}

// Item 8: a file that is not GGUF is refused before the port is bound.
TEST(ServerLifecycle, BadModelFailsBeforeListening) {
  const auto bad = std::filesystem::temp_directory_path() / "sfcl-not-a-model.gguf";
  std::ofstream(bad) << "this is not a model";
  ServerProcess s({"--model", bad.string()}, false);
  int rc = -3;
  for (int i = 0; i < 100 && rc == -3; ++i) {
    int st = 0;
    if (::waitpid(s.pid(), &st, WNOHANG) == s.pid()) rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const std::string log = read_file(s.log());
  EXPECT_EQ(rc, 2) << log;
  EXPECT_EQ(log.find("listening"), std::string::npos) << log;
  EXPECT_NE(log.find("not a GGUF model file"), std::string::npos) << log;
}

// Item 9: a second server on a busy port fails with a clear error and exit 2.
TEST(ServerLifecycle, BusyPortFailsWithExit2) {
  ServerProcess first({});
  ServerProcess second({"--port", std::to_string(first.port())}, false, {}, false);
  int rc = -3;
  for (int i = 0; i < 200 && rc == -3; ++i) {
    int st = 0;
    if (::waitpid(second.pid(), &st, WNOHANG) == second.pid()) rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const std::string log = read_file(second.log());
  EXPECT_EQ(rc, 2) << log;
  EXPECT_NE(log.find("cannot listen on 127.0.0.1:" + std::to_string(first.port())), std::string::npos) << log;
  EXPECT_NE(log.find("in use"), std::string::npos) << log;
  auto c = first.client();
  EXPECT_EQ(c.Get("/health")->status, 200);
}

// Item 10: SIGTERM with a stream that would outlast --drain-timeout: the process exits by the
// deadline and the stream ends with the API's error event, not a silent close.
TEST(ServerLifecycle, DrainDeadlineEndsStreamsWithAnErrorEvent) {
  ServerProcess s(
      {"--parallel", "2", "--ctx", "8192", "--drain-timeout", "1.5", "--test-script", std::string(8500, 'x')});
  json anthropic = json::parse(small_message(8000, true));
  anthropic["sfcl"] = {{"mode", "off"}};
  json openai = {{"model", "sfcl"},
                 {"max_tokens", 8000},
                 {"stream", true},
                 {"sfcl", {{"mode", "off"}}},
                 {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}};
  RawConn a(s.port());
  RawConn o(s.port());
  a.send(post_request("/v1/messages", anthropic.dump()));
  o.send(post_request("/v1/chat/completions", openai.dump()));
  // Both streams deliver text before the signal (a fixed wait is too short on a loaded machine).
  const std::string a_head = a.read_until("content_block_delta", 60000);
  const std::string o_head = o.read_until("\"content\"", 60000);
  ASSERT_NE(a_head.find("content_block_delta"), std::string::npos) << a_head;
  ASSERT_NE(o_head.find("\"content\""), std::string::npos) << o_head;
  auto a_body = std::async(std::launch::async, [&] { return a_head + a.read_all(5000); });
  auto o_body = std::async(std::launch::async, [&] { return o_head + o.read_all(5000); });
  const auto t = clock_type::now();
  const int rc = s.terminate(10);
  const double took = ms_since(t);
  EXPECT_GE(rc, 0);
  // The deadline, plus the process's own teardown (longer under the sanitizers).
  EXPECT_LT(took, 2500.0) << "--drain-timeout 1.5";
  const std::string ab = a_body.get();
  const std::string ob = o_body.get();
  EXPECT_NE(ab.find("event: error"), std::string::npos) << ab.substr(ab.size() > 300 ? ab.size() - 300 : 0);
  EXPECT_NE(ob.find("\"error\""), std::string::npos) << ob.substr(ob.size() > 300 ? ob.size() - 300 : 0);
  EXPECT_NE(ab.find("0\r\n\r\n"), std::string::npos) << "the chunked body is terminated";
}

}  // namespace
}  // namespace sfcl::test
