// Units of measure and how they convert (docs/ANCHORS.md, "Checking"): "0.5 g" is the sources'
// "500 mg", "14 days" their "2 weeks", "98.6°F" their "37°C". Only units with a fixed ratio within
// one dimension: days and months, business days and days, or kilobytes and kibibytes have none, nor
// units whose size depends on where they are written (a short or a metric ton, a fluid ounce).
#include <array>

#include "anchor/anchor.h"

namespace sfcl::anchor {

namespace {
struct Scale {
  std::string_view unit;
  std::string_view dimension;
  double factor;
  double offset;
};
constexpr std::array<Scale, 34> kScales = {{
    {"bp", "rate", 0.01, 0},  // basis points of a percentage point
    {"pp", "rate", 1, 0},
    {"mcg", "mass", 1e-6, 0},
    {"mg", "mass", 1e-3, 0},
    {"g", "mass", 1, 0},
    {"kg", "mass", 1e3, 0},
    {"jin", "mass", 500, 0},  // 斤, the market catty
    {"lb", "mass", 453.59237, 0},
    {"ml", "volume", 1, 0},
    {"dl", "volume", 100, 0},
    {"l", "volume", 1000, 0},
    {"mm", "length", 1e-3, 0},
    {"cm", "length", 1e-2, 0},
    {"m", "length", 1, 0},
    {"km", "length", 1e3, 0},
    {"mile", "length", 1609.344, 0},
    {"ft", "length", 0.3048, 0},
    {"inch", "length", 0.0254, 0},
    {"m2", "area", 1, 0},
    {"km2", "area", 1e6, 0},
    {"ha", "area", 1e4, 0},
    {"sqft", "area", 0.09290304, 0},
    {"acre", "area", 4046.8564224, 0},
    {"sqmi", "area", 2589988.110336, 0},
    {"亩", "area", 10000.0 / 15.0, 0},
    {"degC", "temperature", 1, 0},
    {"degF", "temperature", 5.0 / 9.0, -160.0 / 9.0},
    {"second", "time", 1, 0},
    {"minute", "time", 60, 0},
    {"hour", "time", 3600, 0},
    {"day", "time", 86400, 0},
    {"week", "time", 604800, 0},
    {"month", "calendar", 1, 0},
    {"year", "calendar", 12, 0},
}};
}  // namespace

bool unit_scale(std::string_view unit, UnitScale& out) {
  for (const auto& s : kScales) {
    if (s.unit == unit) {
      out = {s.dimension, s.factor, s.offset};
      return true;
    }
  }
  return false;
}

}  // namespace sfcl::anchor
