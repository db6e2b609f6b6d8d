// `sfcl serve --config FILE` (TOML, read with toml++) and SFCL_* environment variables, turned into
// flags placed before the command line's own so that the precedence is flag > env > file
// (options take the last value given).
#pragma once
#include <string>
#include <vector>

namespace sfcl::cli {

// Environment variables and the serve flags they set.
const std::vector<std::pair<std::string, std::string>>& serve_env_flags();

// Rewrites argv of `sfcl serve ...`: [sfcl, serve, <file flags>, <env flags>, <given flags>].
// Throws std::runtime_error with file:line on a bad config file.
std::vector<std::string> expand_serve_args(const std::vector<std::string>& args);

}  // namespace sfcl::cli
