// sfcl eval: fidelity of a model on a grounded-QA set, off / anchor / per-token side by side.
// sfcl make-eval-set: writes the eval set from the demo corpus's eval split.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "eval.h"
#include "tools/commands.h"
#include "tools/progress.h"

namespace sfcl::tools {

namespace {

struct EvalOpts {
  std::string model;
  std::vector<std::string> sets{"demo/eval.jsonl"};
  std::string modes = "off,anchor,per-token";
  std::string fallback = "constrain";
  std::string examples;
  demo::EvalOptions eval;
  bool json = false;
};

void add_flags(CLI::App& cmd, EvalOpts& o) {
  cmd.add_option("-m,--model", o.model, "GGUF model")->required();
  cmd.add_option("--set", o.sets,
                 "Eval set (JSONL: id, lang, document, question, answer, gold_values, optional answerable); "
                 "repeatable, one table per set")
      ->capture_default_str()
      ->allow_extra_args(false);
  cmd.add_option("--sfcl", o.modes, "Modes, comma-separated: off, anchor, per-token")->capture_default_str();
  cmd.add_option("--limit", o.eval.limit, "Only the first N items of each set (0 = all)")->capture_default_str();
  cmd.add_option("-n,--max-tokens", o.eval.max_tokens, "Max tokens per answer")->capture_default_str();
  cmd.add_option("--max-backtracks", o.eval.max_backtracks, "Backtracks per anchor")->capture_default_str();
  cmd.add_option("--fallback", o.fallback, "constrain, flag or abstain")
      ->capture_default_str()
      ->check(CLI::IsMember({"constrain", "flag", "abstain"}));
  cmd.add_option("-t,--threads", o.eval.threads, "CPU threads (0 = all)")->capture_default_str();
  cmd.add_option("--examples", o.examples, "Write every item's output and events per mode to this JSONL file");
  cmd.add_flag("--json", o.json, "One JSON object instead of the table");
}

nlohmann::json result_json(const demo::EvalResult& r) {
  const double regen = r.corrected_anchors ? static_cast<double>(r.regenerated_tokens) / r.corrected_anchors : 0.0;
  const double tps = r.seconds > 0 ? static_cast<double>(r.decoded_tokens) / r.seconds : 0.0;
  return {{"mode", std::string(decode::mode_name(r.mode))},
          {"items", r.items},
          {"exact_match", r.exact_match()},
          {"unanswerable", r.unanswerable},
          {"abstention_accuracy", r.abstention_accuracy()},
          {"output_anchors", r.output_anchors},
          {"hallucinated_anchors", r.hallucinated},
          {"hallucinated_per_100_anchors", r.hallucination_rate()},
          {"false_flags", r.false_flags},
          {"false_flag_rate", r.false_flag_rate()},
          {"backtracks", r.backtracks},
          {"field_backtracks", r.field_backtracks},
          {"regenerated_tokens", r.regenerated_tokens},
          {"corrected_anchors", r.corrected_anchors},
          {"regenerated_per_corrected", regen},
          {"tokens_per_second", tps}};
}

void print_table(const std::string& set, const std::vector<demo::EvalResult>& results) {
  std::printf("%s\n%-10s %6s %8s %9s %13s %12s %11s %9s %16s %8s\n", set.c_str(), "mode", "items", "exact%", "abstain%",
              "halluc/100anc", "false-flag%", "backtracks", "field-bt", "regen/corrected", "tok/s");
  for (const auto& r : results) {
    const nlohmann::json j = result_json(r);
    std::printf("%-10s %6d %8.1f %9s %13.2f %12.2f %11lld %9d %16.2f %8.0f\n", j["mode"].get<std::string>().c_str(),
                r.items, r.exact_match(),
                r.unanswerable > 0 ? std::to_string(static_cast<int>(r.abstention_accuracy() + 0.5)).c_str() : "-",
                r.hallucination_rate(), r.false_flag_rate(), static_cast<long long>(r.backtracks), r.field_backtracks,
                j["regenerated_per_corrected"].get<double>(), j["tokens_per_second"].get<double>());
  }
}

int run(const EvalOpts& o) {
  std::vector<decode::Mode> modes;
  std::stringstream ss(o.modes);
  for (std::string m; std::getline(ss, m, ',');) {
    decode::Mode mode;
    if (!decode::parse_mode(m, mode)) throw cli::UsageError("unknown mode in --sfcl: " + m);
    modes.push_back(mode);
  }
  demo::EvalOptions eval = o.eval;
  decode::parse_fallback(o.fallback, eval.fallback);
  eval.keep_examples = !o.examples.empty();
  std::ofstream ex;
  if (!o.examples.empty()) {
    ex.open(o.examples);
    if (!ex) throw cli::UsageError("cannot write --examples " + o.examples);
  }
  nlohmann::json all = nlohmann::json::array();
  for (size_t k = 0; k < o.sets.size(); ++k) {
    const auto items = demo::load_eval_set(o.sets[k]);
    const size_t n = eval.limit > 0 ? std::min(items.size(), static_cast<size_t>(eval.limit)) : items.size();
    Progress progress("eval " + std::filesystem::path(o.sets[k]).filename().string(),
                      static_cast<int64_t>(n * modes.size()), "answers");
    eval.on_answer = [&progress] { progress.advance(); };
    const auto results = demo::run_eval(o.model, items, modes, eval);
    progress.finish();
    for (const auto& r : results) {
      for (const auto& e : r.examples) {
        ex << nlohmann::json{{"set", o.sets[k]},
                             {"mode", std::string(decode::mode_name(r.mode))},
                             {"id", e.id},
                             {"text", e.text},
                             {"events", e.events}}
                  .dump()
           << "\n";
      }
    }
    if (o.json) {
      for (const auto& r : results) {
        nlohmann::json j = result_json(r);
        if (o.sets.size() > 1) j["set"] = o.sets[k];
        all.push_back(std::move(j));
      }
    } else {
      if (k > 0) std::printf("\n");
      print_table(o.sets[k], results);
    }
  }
  if (o.json) std::cout << all.dump() << "\n";
  return 0;
}

struct MakeEvalSetOpts {
  std::string out = "demo/eval.jsonl";
  int items = 600;
  uint64_t seed = 42;
  std::string split = "eval";
};

void add_flags(CLI::App& cmd, MakeEvalSetOpts& o) {
  cmd.add_option("--out", o.out, "Output JSONL")->capture_default_str();
  cmd.add_option("-n,--items", o.items, "Items")->capture_default_str();
  cmd.add_option("--seed", o.seed, "Corpus seed")->capture_default_str();
  cmd.add_option("--split", o.split, "Corpus split: eval (held-out templates and values) or train")
      ->capture_default_str()
      ->check(CLI::IsMember({"eval", "train"}));
}

int run(const MakeEvalSetOpts& o) {
  Progress progress("make-eval-set", o.items, "items");
  demo::write_eval_set(o.out, o.seed, o.items, o.split == "train" ? demo::Split::train : demo::Split::eval,
                       [&progress] { progress.advance(); });
  progress.finish();
  std::fprintf(stderr, "wrote %d items to %s\n", o.items, o.out.c_str());
  return 0;
}

}  // namespace

Runner register_eval(CLI::App& app) {
  return cli::add_command<EvalOpts>(app, "eval",
                                    "Fidelity on a grounded-QA set (exact match, hallucinated anchors, false flags)");
}

Runner register_make_eval_set(CLI::App& app) {
  return cli::add_command<MakeEvalSetOpts>(app, "make-eval-set",
                                           "Write the demo eval set (eval split of the corpus) as JSONL");
}

}  // namespace sfcl::tools
