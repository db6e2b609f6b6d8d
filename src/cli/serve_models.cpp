#include "cli/serve_models.h"

#include <filesystem>
#include <map>
#include <sstream>

#include "cli/commands.h"
#include "cli/option_flags.h"

namespace sfcl::cli {

namespace {

// The flags' storage: CLI11 keeps every occurrence's value in order (results()); these only give
// the options somewhere to write.
struct Sink {
  std::vector<std::string> models, ids, aliases, modes, templates, template_files;
};

CLI::Option* per_model(CLI::Option* opt) {
  return opt->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->allow_extra_args(false);
}

server::ModelSpec spec_of(const std::string& path) {
  server::ModelSpec spec;
  spec.path = path;
  return spec;
}

std::string template_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw UsageError("--chat-template-file: no such file: " + path);
  return path;
}

}  // namespace

ModelFlags add_per_model_flags(CLI::App& cmd) {
  auto storage = std::make_shared<Sink>();
  Sink& sink = *storage;
  ModelFlags f;
  f.storage = storage;
  f.model = per_model(cmd.add_option("-m,--model", sink.models,
                                     "GGUF model file (default: the installed demo model). Repeat it to serve several "
                                     "models; --model-id, --alias, --sfcl, --chat-template and --chat-template-file "
                                     "given after a --model are that model's"));
  f.id = per_model(cmd.add_option("--model-id", sink.ids, "Model id in the API (default: file name without .gguf)"));
  f.alias = per_model(cmd.add_option("-a,--alias", sink.aliases,
                                     "Another name of the model in the API (repeatable or comma-separated). With one "
                                     "model, any name a "
                                     "request gives is answered by it; with several, a request's model picks one by id "
                                     "or alias"));
  f.mode = per_model(cmd.add_option("--sfcl", sink.modes,
                                    "Check mode: off, anchor or per-token (default anchor). After a --model: that "
                                    "model's; before the first: every model's default"))
               ->check(CLI::IsMember(choice_names(decode::mode_names())));
  f.chat_template =
      per_model(cmd.add_option("--chat-template", sink.templates,
                               "Chat template instead of the model's own: a llama.cpp template name, a Jinja file or "
                               "Jinja text (per model, like --sfcl)"));
  f.chat_template_file = per_model(cmd.add_option("--chat-template-file", sink.template_files,
                                                  "Jinja chat template file instead of the model's own (per model)"));
  return f;
}

void assign_model_flags(const CLI::App& cmd, const ModelFlags& flags, const std::string& default_path,
                        server::ServerOptions& o) {
  std::map<const CLI::Option*, size_t> seen;
  const auto value = [&](const CLI::Option* opt) { return opt->results().at(seen[opt]++); };
  const bool several = flags.model->count() > 1;
  // With one model every flag is its own, wherever it stands, and the server-wide defaults carry
  // the mode and the template (as before there could be several).
  if (!several) o.models.push_back(spec_of(flags.model->count() == 1 ? flags.model->results().front() : default_path));
  for (const CLI::Option* opt : cmd.parse_order()) {
    if (opt == flags.model) {
      if (several) o.models.push_back(spec_of(value(opt)));
      continue;
    }
    const bool for_model = several && !o.models.empty();
    if (opt == flags.mode) {
      decode::Mode mode = decode::Mode::anchor;
      decode::parse_mode(value(opt), mode);
      if (for_model) {
        o.models.back().mode = mode;
      } else {
        o.checks.mode = mode;
      }
    } else if (opt == flags.chat_template || opt == flags.chat_template_file) {
      std::string spec = value(opt);
      if (opt == flags.chat_template_file) spec = template_file(spec);
      (for_model ? o.models.back().chat_template : o.chat_template) = spec;
    } else if (opt == flags.id || opt == flags.alias) {
      if (o.models.empty()) {
        throw UsageError(opt->get_name() +
                         " before the first --model: with several models, each --model-id and --alias follows the "
                         "--model it names");
      }
      server::ModelSpec& m = o.models.back();
      if (opt == flags.id) {
        m.id = value(opt);
      } else {
        // llama-server's -a takes a comma-separated list; split here, one occurrence at a time,
        // because results() must keep one value per occurrence for the count above.
        std::stringstream list(value(opt));
        for (std::string a; std::getline(list, a, ',');) {
          if (!a.empty()) m.aliases.push_back(a);
        }
      }
    }
  }
}

}  // namespace sfcl::cli
