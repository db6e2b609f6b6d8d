// The option families' tables (decode::check_options(), engine::sampling_options()) drive the CLI
// flags and the request fields alike: for every option, its flag and its field set the same value,
// its flag refuses what its field refuses, --help names it with its default, and docs/API.md has
// its row.
#include "cli/option_flags.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "server/api/api.h"

namespace sfcl::cli {
namespace {

using nlohmann::json;
using Kind = util::OptionKind;

// A value other than the default, as a flag's words and as a request field.
struct Setting {
  std::vector<std::string> words;
  json field;
};

// The flag's first long name ("--temp" of "--temp,--temperature").
std::string long_name(std::string_view flag) {
  for (size_t at = 0; at < flag.size();) {
    const size_t end = std::min(flag.find(',', at), flag.size());
    const std::string_view name = flag.substr(at, end - at);
    if (name.substr(0, 2) == "--") return std::string(name);
    at = end + 1;
  }
  return std::string(flag);
}

template <typename Options>
Setting non_default(const util::OptionSpec<Options>& spec, const Options& o) {
  const std::string flag = long_name(spec.flag);
  switch (spec.kind) {
    case Kind::number: {
      const double v = spec.get(o) == spec.lo ? spec.hi : spec.lo;
      return {{flag, std::to_string(v)}, v};
    }
    case Kind::integer: {
      const auto v = static_cast<int64_t>(spec.get(o) == spec.lo ? spec.lo + 1 : spec.lo);
      return {{flag, std::to_string(v)}, v};
    }
    case Kind::boolean:
      return {{flag}, spec.flag_sets};
    case Kind::choice: {
      const auto names = spec.choices();
      const std::string_view name = names[static_cast<size_t>(spec.get(o)) == 0 ? names.size() - 1 : 0];
      return {{flag, std::string(name)}, std::string(name)};
    }
  }
  return {};
}

// `words` (after the program name) parsed into fresh Options through the flag of `spec`.
template <typename Options>
Options parsed(const util::OptionSpec<Options>& spec, std::vector<std::string> words) {
  Options o;
  CLI::App app;
  add_option_flags(app, o, {spec.field});
  words.insert(words.begin(), "sfcl");
  std::vector<const char*> argv;
  for (const auto& w : words) argv.push_back(w.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
  return o;
}

json chat_body(const json& patch) {
  json body = {{"model", "m"}, {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}};
  for (const auto& [k, v] : patch.items()) body[k] = v;
  return body;
}

TEST(OptionFlags, EveryCheckOptionsFlagSetsWhatItsRequestFieldSets) {
  ASSERT_FALSE(decode::check_options().empty());
  for (const decode::CheckOption& spec : decode::check_options()) {
    const decode::Options defaults;
    const Setting s = non_default(spec, defaults);
    const decode::Options from_flag = parsed(spec, s.words);
    EXPECT_NE(spec.get(from_flag), spec.get(defaults)) << spec.flag;
    const server::ServerOptions server;
    const json body = chat_body({{"sfcl", {{std::string(spec.field), s.field}}}});
    const server::GenerationRequest r = server::parse_request(server::Api::openai_chat, body, server);
    EXPECT_EQ(spec.get(r.options), spec.get(from_flag)) << spec.field;
  }
}

TEST(OptionFlags, EverySamplingOptionsFlagSetsWhatItsRequestFieldSetsInEveryApi) {
  ASSERT_FALSE(engine::sampling_options().empty());
  for (const engine::SamplingOption& spec : engine::sampling_options()) {
    const engine::SamplingOptions defaults;
    const Setting s = non_default(spec, defaults);
    const engine::SamplingOptions from_flag = parsed(spec, s.words);
    EXPECT_NE(spec.get(from_flag), spec.get(defaults)) << spec.flag;
    const server::ServerOptions server;
    json anthropic = chat_body({{std::string(spec.field), s.field}});
    anthropic["max_tokens"] = 4;
    for (const auto& [api, body] :
         {std::pair{server::Api::openai_chat, chat_body({{std::string(spec.field), s.field}})},
          std::pair{server::Api::anthropic, anthropic}}) {
      const server::GenerationRequest r = server::parse_request(api, body, server);
      EXPECT_EQ(spec.get(r.options.sampling), spec.get(from_flag)) << spec.field;
    }
  }
}

TEST(OptionFlags, AFlagRefusesWhatItsFieldRefuses) {
  const server::ServerOptions server;
  const auto refused = [&](const json& body, const std::string& param) {
    try {
      (void)server::parse_request(server::Api::openai_chat, body, server);
    } catch (const server::ApiError& e) {
      return e.status == 400 && e.param == param;
    }
    return false;
  };
  for (const decode::CheckOption& spec : decode::check_options()) {
    if (spec.kind == Kind::boolean) continue;
    const bool choice = spec.kind == Kind::choice;
    const std::string bad = choice ? "no-such-choice" : std::to_string(static_cast<int64_t>(spec.hi) + 1);
    EXPECT_THROW(parsed(spec, {long_name(spec.flag), bad}), CLI::ParseError) << spec.flag;
    const json field = choice ? json(bad) : json(static_cast<int64_t>(spec.hi) + 1);
    EXPECT_TRUE(refused(chat_body({{"sfcl", {{std::string(spec.field), field}}}}), "sfcl." + std::string(spec.field)))
        << spec.field;
  }
  for (const engine::SamplingOption& spec : engine::sampling_options()) {
    const auto above = static_cast<int64_t>(spec.hi) + 1;
    EXPECT_THROW(parsed(spec, {long_name(spec.flag), std::to_string(above)}), CLI::ParseError) << spec.flag;
    EXPECT_TRUE(refused(chat_body({{std::string(spec.field), above}}), std::string(spec.field))) << spec.field;
  }
}

TEST(OptionFlags, HelpNamesEveryFlagWithItsDefault) {
  decode::Options check;
  engine::SamplingOptions sampling;
  CLI::App app;
  add_option_flags(app, check, {"mode", "threshold", "max_backtracks", "fallback", "strict", "derived"}, true);
  add_option_flags(app, sampling, {"temperature", "top_k", "top_p", "min_p", "seed"}, true);
  const std::string help = app.help();
  for (const decode::CheckOption& spec : decode::check_options()) {
    EXPECT_NE(help.find(long_name(spec.flag)), std::string::npos) << spec.flag;
    EXPECT_NE(help.find("sfcl." + std::string(spec.field)), std::string::npos) << spec.field;
  }
  for (const engine::SamplingOption& spec : engine::sampling_options()) {
    EXPECT_NE(help.find(long_name(spec.flag)), std::string::npos) << spec.flag;
  }
  EXPECT_NE(help.find("0.87"), std::string::npos) << help;  // the threshold's default
  EXPECT_NE(help.find("-1"), std::string::npos) << help;    // the random seed's, as the flag takes it
  EXPECT_THROW(add_option_flags(app, check, {"no_such_option"}), std::logic_error);
}

// docs/API.md has a row for every option: "| `field` | `--flag` |".
TEST(OptionFlags, TheApiReferenceHasARowForEveryOption) {
  std::ifstream in(std::string(SFCL_SOURCE_DIR) + "/docs/API.md");
  std::stringstream doc;
  doc << in.rdbuf();
  const std::string text = doc.str();
  const auto row = [](std::string_view field, std::string_view flag) {
    return "| `" + std::string(field) + "` | `" + long_name(flag) + "` |";
  };
  for (const decode::CheckOption& spec : decode::check_options()) {
    EXPECT_NE(text.find(row(spec.field, spec.flag)), std::string::npos) << row(spec.field, spec.flag);
  }
  for (const engine::SamplingOption& spec : engine::sampling_options()) {
    EXPECT_NE(text.find(row(spec.field, spec.flag)), std::string::npos) << row(spec.field, spec.flag);
  }
}

}  // namespace
}  // namespace sfcl::cli
