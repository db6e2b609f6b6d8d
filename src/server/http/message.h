// Transport-neutral HTTP request and response as the route handlers see them. The connection code
// (http/server.cpp) fills a Request from the wire and writes a Response back; handlers never see
// the HTTP library's types, so the transport can change without touching them.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sfcl::server::http {

using Headers = std::vector<std::pair<std::string, std::string>>;

// Case-insensitive ASCII comparison (header names).
bool iequals(std::string_view a, std::string_view b);

// The first value of header `name` in `headers`, or "" when absent.
const std::string& header_value(const Headers& headers, std::string_view name);

struct Request {
  std::string method;
  std::string target;  // as sent, query included
  std::string path;    // target without the query
  Headers headers;
  std::string body;
  std::string remote;  // peer address, for the log
  // True once the client closed its end (or the connection broke); polled by handlers that
  // wait for the decode thread, so a request whose client left stops generating.
  std::function<bool()> client_gone = [] { return false; };

  [[nodiscard]] const std::string& get_header_value(std::string_view name) const { return header_value(headers, name); }
  [[nodiscard]] bool has_header(std::string_view name) const;
};

// Where a streamed (chunked) body goes. write() blocks until the bytes are handed to the
// socket; false when the client went away or the write deadline passed.
class StreamSink {
 public:
  virtual ~StreamSink() = default;
  virtual bool write(const char* data, size_t size) = 0;
  // The body is complete (the final chunk follows).
  virtual void done() = 0;
};

struct Response {
  int status = 200;
  Headers headers;
  std::string body;
  // Set for a streamed body: called until it returns false (or until the sink's done() was
  // called); `on_stream_end(completed)` runs once afterwards either way.
  std::function<bool(StreamSink&)> stream;
  std::function<void(bool)> on_stream_end;
  // Called once, on the connection's thread, as soon as the client is seen to close its end or
  // reset the connection while the stream runs (not only at the next write, which may be a long
  // way off while text is held back). Must not block.
  std::function<void()> on_client_gone;
  // Set by handlers that write their own request log line (the log hook then writes none).
  bool logged = false;

  void set_header(std::string name, std::string value);
  [[nodiscard]] bool has_header(std::string_view name) const;
  [[nodiscard]] const std::string& get_header_value(std::string_view name) const { return header_value(headers, name); }
  void set_content(std::string content, std::string content_type);
  void set_chunked_content_provider(std::string content_type, std::function<bool(StreamSink&)> provider,
                                    std::function<void(bool)> on_end);
};

}  // namespace sfcl::server::http
