// The check options' table (decode.h, CheckOption): an option added here has a request field, a CLI
// flag where a command asks for it, validation and --help at once.
#include <array>

#include "decode/decode.h"

namespace sfcl::decode {

namespace {

using Kind = util::OptionKind;

constexpr std::array<CheckOption, 6> kOptions = {{
    {.field = "mode",
     .flag = "--sfcl",
     .help = "Check mode: off, anchor or per-token",
     .kind = Kind::choice,
     .choices = mode_names,
     .get = [](const Options& o) { return static_cast<double>(o.mode); },
     .set = [](Options& o, double v) { o.mode = static_cast<Mode>(v); },
     // The mode's parser also takes the C++ enumerator's spelling (per_token).
     .parse = [](Options& o, std::string_view name) { return parse_mode(name, o.mode); }},
    {.field = "threshold",
     .flag = "--threshold",
     .help = "Confidence an anchor needs to be confirmed",
     .kind = Kind::number,
     .lo = 0.0,
     .hi = 1.0,
     .get = [](const Options& o) { return static_cast<double>(o.checker.threshold); },
     .set = [](Options& o, double v) { o.checker.threshold = static_cast<float>(v); }},
    {.field = "max_backtracks",
     .flag = "--max-backtracks",
     .help = "Backtracks per unsupported anchor before its fallback",
     .kind = Kind::integer,
     .lo = 0,
     .hi = 16,
     .get = [](const Options& o) { return static_cast<double>(o.max_backtracks); },
     .set = [](Options& o, double v) { o.max_backtracks = static_cast<int32_t>(v); }},
    {.field = "fallback",
     .flag = "--fallback",
     .help = "After the last backtrack: constrain, flag or abstain",
     .kind = Kind::choice,
     .choices = fallback_names,
     .get = [](const Options& o) { return static_cast<double>(o.fallback); },
     .set = [](Options& o, double v) { o.fallback = static_cast<Fallback>(v); }},
    {.field = "strict",
     .flag = "--strict",
     .help = "With no source text at all, anchors are unsupported, not unverifiable",
     .kind = Kind::boolean,
     .get = [](const Options& o) { return o.checker.strict ? 1.0 : 0.0; },
     .set = [](Options& o, double v) { o.checker.strict = v != 0; }},
    {.field = "derived",
     .flag = "--no-derived",
     .help = "Values computed from source values (sums, date differences, ...) are unsupported, not derived",
     .kind = Kind::boolean,
     .flag_sets = false,
     .get = [](const Options& o) { return o.checker.derived ? 1.0 : 0.0; },
     .set = [](Options& o, double v) { o.checker.derived = v != 0; }},
}};

}  // namespace

std::span<const CheckOption> check_options() { return kOptions; }

}  // namespace sfcl::decode
