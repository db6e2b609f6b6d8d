// The command-line side of the option families (util::OptionSpec): the check options
// (decode::check_options()) and the sampling options (engine::sampling_options()). Each command
// names the fields it takes; the family's table gives their flags, help, ranges, choices, and the
// bound struct's values are the defaults --help prints.
#pragma once
#include <CLI/CLI.hpp>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "decode/decode.h"

namespace sfcl::cli {

// Adds the flags of the options named in `fields`, each writing into `o` (which must outlive the
// parse). `defaults_of_requests`: the help says that a request may override the flag (sfcl serve,
// sfcl gateway). A field outside the family's table throws std::logic_error.
void add_option_flags(CLI::App& cmd, decode::Options& o, std::initializer_list<std::string_view> fields,
                      bool defaults_of_requests = false);
void add_option_flags(CLI::App& cmd, engine::SamplingOptions& o, std::initializer_list<std::string_view> fields,
                      bool defaults_of_requests = false);

// A choice option's names, for CLI11's IsMember.
std::vector<std::string> choice_names(std::span<const std::string_view> names);

}  // namespace sfcl::cli
