// Fuzzes the request parser of every API (src/server/api/request.h): a body, whatever its bytes,
// is parsed into a request or refused with an ApiError (a 4xx the client reads), never a crash or
// another exception. The first byte picks the API. Seeded with tests/fuzz/corpus-request.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "server/api/request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sfcl::server;
  if (size == 0) return 0;
  static const Api kApis[] = {Api::anthropic, Api::openai_chat, Api::openai_completions};
  const Api api = kApis[data[0] % 3];
  const std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
  static const ServerOptions options;
  try {
    const nlohmann::json j = parse_body_json(body);
    const GenerationRequest r = parse_request(api, j, options);
    if (r.options.stop.size() > sfcl::decode::kMaxStops) std::abort();
    for (const auto& s : r.options.stop) {
      if (s.size() > sfcl::decode::kMaxStopBytes) std::abort();
    }
  } catch (const ApiError& e) {
    if (e.status < 400 || e.status >= 500) std::abort();
  }
  return 0;
}
