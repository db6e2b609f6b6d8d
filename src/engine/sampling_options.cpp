// The sampling options' table (engine.h, SamplingOption): the request fields every dialect shares
// (temperature and top_p are the official APIs', top_k, min_p and seed llama-server's) and the flags
// of sfcl serve and sfcl generate.
#include <array>
#include <limits>

#include "engine/engine.h"

namespace sfcl::engine {

namespace {

using Kind = util::OptionKind;
constexpr uint32_t kRandomSeed = 0xFFFFFFFFU;

constexpr std::array<SamplingOption, 5> kOptions = {{
    {.field = "temperature",
     .flag = "--temp,--temperature",
     .help = "Temperature (0 = greedy)",
     .kind = Kind::number,
     .lo = 0.0,
     .hi = 2.0,
     .get = [](const SamplingOptions& o) { return static_cast<double>(o.temperature); },
     .set = [](SamplingOptions& o, double v) { o.temperature = static_cast<float>(v); }},
    {.field = "top_k",
     .flag = "--top-k",
     .help = "Sample from the k most likely tokens (0 = off)",
     .kind = Kind::integer,
     .lo = 0,
     .hi = std::numeric_limits<int32_t>::max(),
     .get = [](const SamplingOptions& o) { return static_cast<double>(o.top_k); },
     .set = [](SamplingOptions& o, double v) { o.top_k = static_cast<int32_t>(v); }},
    {.field = "top_p",
     .flag = "--top-p",
     .help = "Nucleus sampling: the most likely tokens up to this probability mass (1 = off)",
     .kind = Kind::number,
     .lo = 0.0,
     .hi = 1.0,
     .get = [](const SamplingOptions& o) { return static_cast<double>(o.top_p); },
     .set = [](SamplingOptions& o, double v) { o.top_p = static_cast<float>(v); }},
    {.field = "min_p",
     .flag = "--min-p",
     .help = "Drop tokens less likely than this fraction of the most likely one (0 = off)",
     .kind = Kind::number,
     .lo = 0.0,
     .hi = 1.0,
     .get = [](const SamplingOptions& o) { return static_cast<double>(o.min_p); },
     .set = [](SamplingOptions& o, double v) { o.min_p = static_cast<float>(v); }},
    // -1 is llama-server's "random"; anything outside the uint32 range would wrap.
    {.field = "seed",
     .flag = "-s,--seed",
     .help = "Sampling seed (-1 = random)",
     .kind = Kind::integer,
     .lo = -1,
     .hi = std::numeric_limits<uint32_t>::max(),
     .get = [](const SamplingOptions& o) { return o.seed == kRandomSeed ? -1.0 : static_cast<double>(o.seed); },
     .set = [](SamplingOptions& o, double v) { o.seed = v < 0 ? kRandomSeed : static_cast<uint32_t>(v); }},
}};

}  // namespace

std::span<const SamplingOption> sampling_options() { return kOptions; }

}  // namespace sfcl::engine
