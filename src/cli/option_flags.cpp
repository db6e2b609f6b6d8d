#include "cli/option_flags.h"

#include <cstdio>
#include <stdexcept>

namespace sfcl::cli {

namespace {

using Kind = util::OptionKind;

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

template <typename Options>
void add_one(CLI::App& cmd, Options& o, const util::OptionSpec<Options>& spec, const std::string& help) {
  const std::string flag(spec.flag);
  switch (spec.kind) {
    case Kind::number:
      cmd.add_option_function<double>(
             flag, [&o, &spec](const double& v) { spec.set(o, v); }, help)
          ->default_str(number_text(spec.get(o)))
          ->check(CLI::Range(spec.lo, spec.hi));
      return;
    case Kind::integer:
      cmd.add_option_function<int64_t>(
             flag, [&o, &spec](const int64_t& v) { spec.set(o, static_cast<double>(v)); }, help)
          ->default_str(number_text(spec.get(o)))
          ->check(CLI::Range(static_cast<int64_t>(spec.lo), static_cast<int64_t>(spec.hi)));
      return;
    case Kind::boolean:
      cmd.add_flag_callback(
          flag, [&o, &spec] { spec.set(o, spec.flag_sets ? 1.0 : 0.0); }, help);
      return;
    case Kind::choice:
      cmd.add_option_function<std::string>(
             flag, [&o, &spec](const std::string& name) { util::set_choice(spec, o, name); }, help)
          ->default_str(std::string(spec.choices()[static_cast<size_t>(spec.get(o))]))
          ->check(CLI::IsMember(choice_names(spec.choices())));
      return;
  }
}

template <typename Options>
void add_all(CLI::App& cmd, Options& o, std::span<const util::OptionSpec<Options>> table,
             std::initializer_list<std::string_view> fields, bool defaults_of_requests, std::string_view prefix) {
  for (const std::string_view field : fields) {
    const util::OptionSpec<Options>* spec = util::find_option(table, field);
    // A name outside the table is a bug of the command that asks for it, found by its first run.
    if (spec == nullptr) throw std::logic_error("no option '" + std::string(field) + "' in its family's table");
    std::string help(spec->help);
    if (defaults_of_requests)
      help += " (a request's " + std::string(prefix) + std::string(spec->field) + " overrides it)";
    add_one(cmd, o, *spec, help);
  }
}

}  // namespace

void add_option_flags(CLI::App& cmd, decode::Options& o, std::initializer_list<std::string_view> fields,
                      bool defaults_of_requests) {
  add_all(cmd, o, decode::check_options(), fields, defaults_of_requests, "sfcl.");
}

void add_option_flags(CLI::App& cmd, engine::SamplingOptions& o, std::initializer_list<std::string_view> fields,
                      bool defaults_of_requests) {
  add_all(cmd, o, engine::sampling_options(), fields, defaults_of_requests, "");
}

std::vector<std::string> choice_names(std::span<const std::string_view> names) { return {names.begin(), names.end()}; }

}  // namespace sfcl::cli
