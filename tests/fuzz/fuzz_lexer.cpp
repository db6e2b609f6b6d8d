// Fuzzes batch extraction, incremental extraction with a data-driven split (must equal batch),
// the number and Chinese-numeral normalisers, and the checker against the input as its source.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "verify/verify.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sfcl;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto batch = anchor::extract(text);
  anchor::Incremental inc;
  std::vector<anchor::Anchor> got;
  size_t step = size > 0 ? 1 + data[0] % 7 : 1;
  for (size_t i = 0; i < size; i += step) inc.feed(text.substr(i, std::min(step, size - i)), got);
  inc.finish(got);
  if (got.size() != batch.size()) std::abort();
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i].start != batch[i].start || got[i].end != batch[i].end || got[i].norm != batch[i].norm) std::abort();
    if (batch[i].end > size || batch[i].start >= batch[i].end) std::abort();
  }
  std::string out;
  (void)anchor::normalize_number(text, out);
  uint64_t v = 0;
  (void)anchor::parse_chinese_numeral(text, v);
  anchor::SourceIndex idx;
  idx.add_source(text.substr(0, size / 2));
  verify::Checker checker(idx, {});
  for (const auto& a : batch) {
    const auto r = checker.check(a);
    if (r.confidence < 0.0F || r.confidence > 1.0001F) std::abort();
  }
  return 0;
}
