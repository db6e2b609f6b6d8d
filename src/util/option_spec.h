// One option of a family (the check options, the sampling options), defined once: its request
// field, its command-line flag, its help, its range or choices, and where it lives in the family's
// struct. The request parser, the field lists, the CLI flags and --help all read the family's table
// (docs/API.md, "The `sfcl` request options" and "Sampling").
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>

namespace sfcl::util {

enum class OptionKind : uint8_t { number, integer, boolean, choice };

template <typename Options>
struct OptionSpec {
  std::string_view field;  // the request field
  std::string_view flag;   // CLI11 names ("--temp,--temperature"); a boolean's flag sets `flag_sets`
  std::string_view help;
  OptionKind kind = OptionKind::number;
  double lo = 0, hi = 0;                                     // number and integer: the closed range
  bool flag_sets = true;                                     // boolean
  std::span<const std::string_view> (*choices)() = nullptr;  // choice: the names, in enum order
  double (*get)(const Options&) = nullptr;                   // a boolean as 0/1, a choice as its index
  void (*set)(Options&, double) = nullptr;
  // choice: sets it from a name, spellings besides `choices` included (nullptr: the names only).
  bool (*parse)(Options&, std::string_view) = nullptr;
};

// The entry of `table` for `field`; nullptr when there is none.
template <typename Options>
const OptionSpec<Options>* find_option(std::span<const OptionSpec<Options>> table, std::string_view field) {
  const auto it =
      std::find_if(table.begin(), table.end(), [&](const OptionSpec<Options>& o) { return o.field == field; });
  return it == table.end() ? nullptr : &*it;
}

// Sets a choice option from a name; false when none fits.
template <typename Options>
bool set_choice(const OptionSpec<Options>& option, Options& o, std::string_view name) {
  if (option.kind != OptionKind::choice) return false;
  if (option.parse != nullptr) return option.parse(o, name);
  const auto names = option.choices();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return false;
  option.set(o, static_cast<double>(it - names.begin()));
  return true;
}

}  // namespace sfcl::util
