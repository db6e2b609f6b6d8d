// Fuzzes batch extraction, incremental extraction with a data-driven split (must equal batch),
// the number and Chinese-numeral normalisers, field labels (both scopes agree with their contracts),
// and the checker, with field binding, against the input as its source.
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
  anchor::LineFieldScanner lines(text);
  for (const auto& a : batch) {
    const std::string_view field = anchor::field_label(text, a.start);
    const std::string_view line = lines.label_at(a.start);
    // A label is a view into the text, before the anchor.
    for (std::string_view l : {field, line}) {
      if (!l.empty() && (l.data() < text.data() || l.data() + l.size() > text.data() + a.start)) std::abort();
    }
    // The forward scanner equals the single-call form.
    if (line != anchor::field_label(text, a.start, anchor::FieldScope::line)) std::abort();
    const auto r = checker.check(a, field);
    if (r.confidence < 0.0F || r.confidence > 1.0001F) std::abort();
    if (r.other_field && r.verdict != verify::Verdict::unsupported) std::abort();
  }
  return 0;
}
