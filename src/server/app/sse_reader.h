// Server-sent events as a client reads them (WHATWG HTML, "Parsing an event stream"), so that what
// `sfcl verify` checks is what an SDK shows: lines end in CRLF, LF or CR; "field: value" with one
// optional space after the colon; data lines of one event joined with "\n"; comments (":") and
// unknown fields ignored; an event is dispatched at a blank line, and one still open at the end of
// the stream is dropped, as the SDKs drop it.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace sfcl::server {

struct SseEvent {
  std::string event = "message";  // the `event:` field, "message" when none
  std::string data;
  bool named = false;  // an `event:` field was given
};

std::vector<SseEvent> parse_sse(std::string_view body);

}  // namespace sfcl::server
