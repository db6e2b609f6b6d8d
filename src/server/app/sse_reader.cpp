#include "server/app/sse_reader.h"

namespace sfcl::server {

std::vector<SseEvent> parse_sse(std::string_view body) {
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);  // a leading BOM is not data
  std::vector<SseEvent> out;
  SseEvent pending;
  bool has_data = false;
  size_t pos = 0;
  while (pos < body.size()) {
    const size_t end = body.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) break;  // an unterminated last line: the event never ends
    const std::string_view line = body.substr(pos, end - pos);
    pos = end + (body[end] == '\r' && end + 1 < body.size() && body[end + 1] == '\n' ? 2 : 1);
    if (line.empty()) {
      if (has_data) {
        pending.data.pop_back();  // the "\n" after the last data line
        out.push_back(std::move(pending));
      }
      pending = SseEvent{};
      has_data = false;
      continue;
    }
    if (line.front() == ':') continue;  // a comment (the server's keep-alive pings)
    const size_t colon = line.find(':');
    const std::string_view field = line.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view{} : line.substr(colon + 1);
    if (value.starts_with(' ')) value.remove_prefix(1);
    if (field == "data") {
      pending.data.append(value).push_back('\n');
      has_data = true;
    } else if (field == "event") {
      pending.event = value.empty() ? "message" : std::string(value);
      pending.named = !value.empty();
    }
    // id, retry and unknown fields carry nothing a response is made of.
  }
  return out;
}

}  // namespace sfcl::server
