// The checker alone on real prose (docs/FIDELITY.md, "Real prose"): for each passage and question,
// a right answer whose values are quoted from the passage and a wrong one with one value invented
// or altered. Counts wrong answers caught (an anchor over the wrong value is unsupported) by kind
// of error, and right answers flagged (any anchor unsupported).
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "verify/verify.h"

namespace sfcl::demo {

struct CheckItem {
  std::string id;  // passage id + question index
  std::string lang;
  std::string passage;
  std::string question;
  std::string right;
  std::string wrong;
  std::string wrong_kind;  // number, amount, ..., absent, other_field, citation
  std::string wrong_value;
};

// Reads every JSONL file (one passage per line with a "qa" array); throws with file:line.
std::vector<CheckItem> load_check_set(const std::vector<std::filesystem::path>& files);

struct KindCount {
  int items = 0;
  int caught = 0;
};

struct CheckMiss {
  std::string id;
  std::string kind;      // wrong_kind, or "false_flag"
  std::string text;      // the answer
  std::string value;     // wrong value, or the flagged anchor
  std::string verdicts;  // what the checker said of the anchors over it
};

struct CheckReport {
  int right = 0;
  int right_flagged = 0;
  std::map<std::string, KindCount> by_kind;
  std::map<std::string, KindCount> by_lang;  // invented or altered values only
  std::vector<CheckMiss> misses;             // missed wrong answers and false flags
  int64_t checks = 0;
  double check_seconds = 0.0;
  // Wrong answers whose value is invented or altered (every kind but other_field).
  [[nodiscard]] KindCount invented() const;
};

CheckReport run_check_set(const std::vector<CheckItem>& items, const verify::CheckerOptions& options);

}  // namespace sfcl::demo
