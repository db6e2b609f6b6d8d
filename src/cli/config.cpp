#include "cli/config.h"

#include <toml++/toml.h>
#include <algorithm>
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
// One [[model]] table of a config file: --model PATH, then its per-model flags.
void append_model_table(const toml::table& model, std::vector<std::string>& out) {
  const auto* path = model.get("path");
  if (path == nullptr || !path->is_string()) throw std::runtime_error("config [[model]]: path (a GGUF file) required");
  out.insert(out.end(), {"--model", *path->value<std::string>()});
  static const std::vector<std::string> kPerModel = {"model-id", "alias", "sfcl", "chat-template",
                                                     "chat-template-file"};
  for (const auto& [k, node] : model) {
    const std::string key(k.str());
    if (key == "path") continue;
    if (std::find(kPerModel.begin(), kPerModel.end(), key) == kPerModel.end()) {
      throw std::runtime_error(
          "config [[model]]: " + key +
          " is not a per-model setting (model-id, alias, sfcl, chat-template, chat-template-file)");
    }
    if (const auto* arr = node.as_array()) {
      for (const auto& v : *arr) out.insert(out.end(), {"--" + key, scalar(v, key)});
    } else {
      out.insert(out.end(), {"--" + key, scalar(node, key)});
    }
  }
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
  // Several --model flags serve several models, so the models the command line names replace the
  // environment's, which replace the file's, instead of joining them (flag > env > file). The
  // models come after the file's and the environment's other flags: a per-model flag follows its
  // --model, and the others are every model's defaults.
  bool given_model = false;
  for (const auto& a : given) {
    given_model = given_model || a == "-m" || a == "--model" || a.rfind("--model=", 0) == 0 || a.rfind("-m=", 0) == 0;
  }
  std::vector<std::string> out = {args[0], args[1]};
  std::vector<std::string> file_models;
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
      std::vector<std::string>& to = key == "model" ? file_models : out;
      const std::string flag = "--" + key;
      if (auto b = node.value<bool>(); b && node.is_boolean()) {
        if (*b) to.push_back(flag);
      } else if (const auto* arr = node.as_array()) {
        for (const auto& v : *arr) {
          if (const auto* model = v.as_table(); model != nullptr && key == "model") {
            append_model_table(*model, to);
          } else {
            to.insert(to.end(), {flag, scalar(v, key)});
          }
        }
      } else {
        to.insert(to.end(), {flag, scalar(node, key)});
      }
    }
  }
  std::vector<std::string> env_models;
  for (const auto& [env, flag] : serve_env_flags()) {
    if (const char* v = std::getenv(env.c_str()); v != nullptr && *v != '\0') {
      std::vector<std::string>& to = flag == "--model" ? env_models : out;
      to.insert(to.end(), {flag, v});
    }
  }
  if (!given_model) {
    const std::vector<std::string>& models = env_models.empty() ? file_models : env_models;
    out.insert(out.end(), models.begin(), models.end());
  }
  out.insert(out.end(), given.begin(), given.end());
  return out;
}

}  // namespace sfcl::cli
