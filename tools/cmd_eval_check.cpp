// sfcl eval-check: the checker alone on a real-prose set of right and wrong answers.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/option_flags.h"
#include "eval_check.h"
#include "tools/commands.h"

namespace sfcl::tools {

namespace {
struct EvalCheckOpts {
  std::vector<std::string> sets;
  decode::Options check;  // its checker part: the check options this command takes
  bool json = false;
  int show_misses = 20;
};

void add_flags(CLI::App& cmd, EvalCheckOpts& o) {
  cmd.add_option("--set", o.sets,
                 "Check set (JSONL: id, lang, passage, qa[question, right, wrong, wrong_kind, "
                 "wrong_value]); repeatable")
      ->required()
      ->allow_extra_args(false)
      ->check(CLI::ExistingFile);
  cli::add_option_flags(cmd, o.check, {"threshold", "derived"});
  cmd.add_option("--misses", o.show_misses, "Missed wrong answers and false flags to print")->capture_default_str();
  cmd.add_flag("--json", o.json, "One JSON object instead of the table");
}

double pct(int a, int b) { return b > 0 ? 100.0 * a / b : 0.0; }

int run(const EvalCheckOpts& o) {
  std::vector<std::filesystem::path> files(o.sets.begin(), o.sets.end());
  const auto items = demo::load_check_set(files);
  if (items.empty()) throw cli::UsageError("the check set has no items");
  const demo::CheckReport rep = demo::run_check_set(items, o.check.checker);
  const demo::KindCount inv = rep.invented();
  const auto wrong_total = [](const demo::CheckReport& r) {
    int n = 0;
    for (const auto& [k, c] : r.by_kind) n += c.items;
    return n;
  };
  const auto wrong_caught_total = [](const demo::CheckReport& r) {
    int n = 0;
    for (const auto& [k, c] : r.by_kind) n += c.caught;
    return n;
  };
  const double us_per_check = rep.checks > 0 ? 1e6 * rep.check_seconds / static_cast<double>(rep.checks) : 0.0;
  if (o.json) {
    nlohmann::json kinds = nlohmann::json::object();
    for (const auto& [k, c] : rep.by_kind) kinds[k] = {{"items", c.items}, {"caught", c.caught}};
    nlohmann::json langs = nlohmann::json::object();
    for (const auto& [k, c] : rep.by_lang) langs[k] = {{"items", c.items}, {"caught", c.caught}};
    nlohmann::json misses = nlohmann::json::array();
    for (const auto& m : rep.misses) {
      misses.push_back(
          {{"id", m.id}, {"kind", m.kind}, {"text", m.text}, {"value", m.value}, {"verdicts", m.verdicts}});
    }
    std::cout << nlohmann::json{{"items", rep.right},
                                {"right_flagged", rep.right_flagged},
                                {"false_flag_rate", pct(rep.right_flagged, rep.right)},
                                {"wrong_invented", inv.items},
                                {"wrong_invented_caught", inv.caught},
                                {"catch_rate", pct(inv.caught, inv.items)},
                                {"wrong_all", wrong_total(rep)},
                                {"wrong_all_caught", wrong_caught_total(rep)},
                                {"by_kind", kinds},
                                {"by_lang", langs},
                                {"checks", rep.checks},
                                {"check_us_mean", us_per_check},
                                {"misses", misses}}
                     .dump()
              << "\n";
    return 0;
  }
  // Every wrong answer counts in a headline, so that each miss listed below is in one of them: the
  // invented or altered values, and the right values written in the wrong place (other_field).
  const int wrong = wrong_total(rep);
  const int wrong_caught = wrong_caught_total(rep);
  std::printf(
      "items %d\nright answers flagged      %5d  %6.2f%%\nwrong answers caught       %5d/%d  %6.2f%%  "
      "(invented or altered values)\nall wrong answers caught   %5d/%d  %6.2f%%  (those and values in the wrong "
      "place)\n",
      rep.right, rep.right_flagged, pct(rep.right_flagged, rep.right), inv.caught, inv.items,
      pct(inv.caught, inv.items), wrong_caught, wrong, pct(wrong_caught, wrong));
  std::printf("\n%-12s %6s %7s %8s\n", "kind", "items", "caught", "caught%");
  for (const auto& [k, c] : rep.by_kind)
    std::printf("%-12s %6d %7d %7.1f%%\n", k.c_str(), c.items, c.caught, pct(c.caught, c.items));
  for (const auto& [k, c] : rep.by_lang)
    std::printf("lang %-7s %6d %7d %7.1f%%\n", k.c_str(), c.items, c.caught, pct(c.caught, c.items));
  std::printf("\nchecks %lld, mean %.2f us per check\n", static_cast<long long>(rep.checks), us_per_check);
  int shown = 0;
  for (const auto& m : rep.misses) {
    if (shown++ >= o.show_misses) break;
    std::printf("%s %s: %s | %s | %s\n", m.kind == "false_flag" ? "FLAGGED" : "MISSED", m.id.c_str(), m.kind.c_str(),
                m.value.c_str(), m.verdicts.c_str());
  }
  return 0;
}
}  // namespace

Runner register_eval_check(CLI::App& app) {
  return cli::add_command<EvalCheckOpts>(app, "eval-check",
                                         "The checker alone on right and wrong answers over real prose");
}

}  // namespace sfcl::tools
