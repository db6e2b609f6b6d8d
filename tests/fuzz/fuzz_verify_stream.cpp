// Fuzzes the saved-response reader of `sfcl verify`: the SSE parser (an event's data and name are
// pieces of the input's lines, so they never hold more than it) and the strict reader of bodies and
// streams of both APIs, which must take any input apart without throwing: what it cannot read is
// named in unsigned_parts. Seeded with tests/data/signed/responses (real bodies and streams, whole
// and tampered with), mutations reach the chunk and block readers.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "server/app/delivered.h"
#include "server/app/sse_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sfcl::server;
  std::string text(reinterpret_cast<const char*>(data), size);
  // Saved with its headers (curl -si), as the seeds are: the body is what is read.
  if (text.starts_with("HTTP/")) {
    const size_t split = text.find("\r\n\r\n");
    text = split == std::string::npos ? std::string() : text.substr(split + 4);
  }
  size = text.size();
  size_t bytes = 0;
  for (const auto& e : parse_sse(text)) bytes += e.data.size();
  if (bytes > size) std::abort();
  const Delivered d = read_delivered(text);  // throws nothing: a throw ends the run as a crash
  if (d.choices.empty()) std::abort();
  for (const auto& c : d.choices) {
    if (!c.blocks.is_array()) std::abort();
  }
  // A stream with no event is nothing a server sent.
  if (d.stream && parse_sse(text).empty() && d.unsigned_parts.empty()) std::abort();
  return 0;
}
