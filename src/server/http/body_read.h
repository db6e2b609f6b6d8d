// Reading a request body after its head, for server.cpp only.
#pragma once
#include <boost/asio/awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace sfcl::server::http {

using BodyParser = boost::beast::http::request_parser<boost::beast::http::string_body>;

enum class BodyEnd {
  done,         // the body is in the parser
  refused,      // the parser refused it (`error` says why: a body over the limit, a bad chunk size)
  bad_framing,  // a chunked body whose lines do not end in CRLF, or a chunk line over kMaxChunkLine
  gone,         // the client left, went quiet past the deadline, or ended the body early
};

struct BodyRead {
  BodyEnd end = BodyEnd::done;
  boost::beast::error_code error;
};

// A chunk-size line with its extensions (RFC 9112, 7.1.1) longer than this is refused, and so are
// trailer fields (7.1.2) longer than kMaxChunkLeft in all.
inline constexpr size_t kMaxChunkLine = 4096;
inline constexpr size_t kMaxChunkLeft = 8192;

// The rest of `parser`'s body from `buf` and `stream`, within the stream's deadline. Beast's own
// read waits for a CRLF that a chunk line ending in a bare LF never sends, until the deadline;
// this one answers such a body at once (RFC 9112, 7.1: chunk lines end in CRLF).
boost::asio::awaitable<BodyRead> read_rest_of_body(boost::beast::tcp_stream& stream, boost::beast::flat_buffer& buf,
                                                   BodyParser& parser);

}  // namespace sfcl::server::http
