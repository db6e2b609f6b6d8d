#include "server/http/body_read.h"

#include <algorithm>
#include <boost/asio.hpp>
#include <string_view>

namespace sfcl::server::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;

namespace {

constexpr size_t kReadSize = 64 * size_t{1024};

// What the parser left unread while it waits for more of a chunked body is a chunk-size line or
// trailer lines (the CRLF that ends a chunk's data may open it). A LF in it that no CR precedes can
// never become the CRLF the parser waits for; the line being received is bounded by kMaxChunkLine,
// all of it by kMaxChunkLeft (the trailers), so each look is a bounded scan.
bool framing_broken(const beast::flat_buffer& buf) {
  const std::string_view left(static_cast<const char*>(buf.data().data()), buf.size());
  if (left.size() > kMaxChunkLeft) return true;
  for (size_t i = left.find('\n'); i != std::string_view::npos; i = left.find('\n', i + 1)) {
    if (i == 0 || left[i - 1] != '\r') return true;
  }
  const size_t line = left.rfind('\n');
  return left.size() - (line == std::string_view::npos ? 0 : line + 1) > kMaxChunkLine;
}

}  // namespace

asio::awaitable<BodyRead> read_rest_of_body(beast::tcp_stream& stream, beast::flat_buffer& buf, BodyParser& parser) {
  constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);
  parser.eager(true);
  for (;;) {
    beast::error_code ec;
    while (!parser.is_done() && buf.size() > 0 && !ec) buf.consume(parser.put(buf.data(), ec));
    if (parser.is_done()) co_return BodyRead{};
    if (ec && ec != bhttp::error::need_more) co_return BodyRead{BodyEnd::refused, ec};
    if (parser.chunked() && framing_broken(buf)) co_return BodyRead{BodyEnd::bad_framing, {}};
    auto [e, n] = co_await stream.async_read_some(buf.prepare(kReadSize), kTuple);
    if (e) co_return BodyRead{BodyEnd::gone, e};
    buf.commit(n);
  }
}

}  // namespace sfcl::server::http
