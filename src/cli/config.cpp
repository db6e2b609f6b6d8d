#include "cli/config.h"

#include <toml++/toml.h>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace sfcl::cli {

const std::vector<std::pair<std::string, std::string>>& serve_env_flags() {
  static const std::vector<std::pair<std::string, std::string>> m = {
      {"SFCL_MODEL", "--model"},
      {"SFCL_HOST", "--host"},
      {"SFCL_PORT", "--port"},
      {"SFCL_PARALLEL", "--parallel"},
      {"SFCL_CTX", "--ctx"},
      {"SFCL_THREADS", "--threads"},
      {"SFCL_MODE", "--sfcl"},
      {"SFCL_KB", "--kb"},
      {"SFCL_API_KEY_FILE", "--api-key-file"},
      {"SFCL_SIGN_KEY", "--sign-key"},
      {"SFCL_LOG_FORMAT", "--log-format"},
      {"SFCL_QUEUE", "--queue"},
      {"SFCL_MAX_DECISION_POINTS", "--max-decision-points"}};
  return m;
}

namespace {
std::string scalar(const toml::node& n, const std::string& key) {
  if (auto s = n.value<std::string>()) return *s;
  if (n.is_integer()) return std::to_string(*n.value<int64_t>());
  if (auto d = n.value<double>()) {
    std::ostringstream o;
    o << *d;
    return o.str();
  }
  throw std::runtime_error("config key \"" + key + "\": unsupported value type");
}
}  // namespace

std::vector<std::string> expand_serve_args(const std::vector<std::string>& args) {
  if (args.size() < 2 || args[1] != "serve") return args;
  std::vector<std::string> given;
  std::string config;
  for (size_t i = 2; i < args.size(); ++i) {
    if (args[i] == "--config" && i + 1 < args.size()) {
      config = args[++i];
    } else if (args[i].rfind("--config=", 0) == 0) {
      config = args[i].substr(9);
    } else {
      given.push_back(args[i]);
    }
  }
  // Several --model flags serve several models, so a model the command line names replaces the file's
  // and the environment's instead of joining them (flag > env > file).
  bool given_model = false;
  for (const auto& a : given) {
    given_model = given_model || a == "-m" || a == "--model" || a.rfind("--model=", 0) == 0 || a.rfind("-m=", 0) == 0;
  }
  const char* env_model = std::getenv("SFCL_MODEL");
  const bool env_gives_model = env_model != nullptr && *env_model != '\0';
  std::vector<std::string> out = {args[0], args[1]};
  bool in_file = true;
  const auto push = [&](const std::string& flag, const std::string& value) {
    if (flag == "--model" && (given_model || (in_file && env_gives_model))) return;
    out.push_back(flag);
    out.push_back(value);
  };
  if (!config.empty()) {
    toml::table t;
    try {
      t = toml::parse_file(config);
    } catch (const toml::parse_error& e) {
      throw std::runtime_error("config file " + config + ":" + std::to_string(e.source().begin.line) + ": " +
                               std::string(e.description()));
    }
    for (const auto& [k, node] : t) {
      const std::string key(k.str());
      const std::string flag = "--" + key;
      if (auto b = node.value<bool>(); b && node.is_boolean()) {
        if (*b) out.push_back(flag);
      } else if (const auto* arr = node.as_array()) {
        for (const auto& v : *arr) push(flag, scalar(v, key));
      } else {
        push(flag, scalar(node, key));
      }
    }
  }
  in_file = false;
  for (const auto& [env, flag] : serve_env_flags()) {
    if (const char* v = std::getenv(env.c_str()); v != nullptr && *v != '\0') push(flag, v);
  }
  out.insert(out.end(), given.begin(), given.end());
  return out;
}

}  // namespace sfcl::cli
