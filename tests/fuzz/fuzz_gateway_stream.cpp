// Fuzzes the gateway's reader of a backend's stream (src/gateway/completion_stream.h): the SSE
// splitter, fed the input in chunks whose sizes the input's first byte picks, and the event
// parser on every payload. A backend is another process: whatever it sends, the reader must
// neither crash nor hold more than its event bound, and every span it hands out must lie inside
// what it parsed.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gateway/completion_stream.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sfcl::gateway;
  if (size == 0) return 0;
  const size_t chunk = 1 + data[0] % 64;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  constexpr size_t kBound = 4096;
  SseSplitter sse(kBound);
  CompletionEventParser parser;
  CompletionEvent ev;
  size_t events = 0;
  const auto on_data = [&](std::string_view payload) {
    ++events;
    if (payload.size() > bytes.size()) std::abort();
    if (parser.parse(payload, ev)) {
      for (const PositionProbs& p : ev.positions) {
        if (p.top_begin > p.top_end || p.top_end > ev.all_top.size()) std::abort();
      }
      if (ev.text.size() > payload.size()) std::abort();  // unescaping never lengthens the text
    }
    return true;
  };
  for (size_t at = 0; at < bytes.size(); at += chunk) {
    if (!sse.feed(bytes.substr(at, chunk), on_data)) {
      if (!sse.overflowed()) std::abort();  // on_data never stops it
      break;
    }
  }
  if (events > bytes.size()) std::abort();
  return 0;
}
