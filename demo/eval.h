// The fidelity evaluation (docs/FIDELITY.md): runs a grounded-QA set through the check loop in each mode.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "corpus.h"
#include "decode/decode.h"

namespace sfcl::demo {

struct EvalItem {
  std::string id;
  std::string lang;
  std::string document;
  std::string question;
  std::string answer;
  std::vector<std::string> gold_values;  // norms of every anchor in the document
  // False: the document does not state the asked fact; the right answer abstains (says the value is
  // not in the sources) and invents nothing.
  bool answerable = true;
};

// Writes n items (JSONL) generated from one split of the corpus (the eval split is the shipped set;
// the train split measures what the model learned on its own templates).
// `on_item` runs after each item written (progress).
void write_eval_set(const std::filesystem::path& path, uint64_t seed, int n, Split split = Split::eval,
                    const std::function<void()>& on_item = {});
std::vector<EvalItem> load_eval_set(const std::filesystem::path& path);

struct EvalOptions {
  int limit = 0;  // 0 = all items
  int max_tokens = 96;
  int threads = 0;
  decode::Fallback fallback = decode::Fallback::constrain;
  int max_backtracks = 2;
  bool keep_examples = true;
  std::function<void()> on_answer;  // after each item in each mode (progress)
};

struct EvalExample {
  std::string id;
  std::string text;
  std::vector<std::string> events;  // JSON lines of backtrack / fallback events
};

struct EvalResult {
  decode::Mode mode = decode::Mode::off;
  int items = 0;
  int exact = 0;             // answer's entity anchors equal the gold answer's (or it abstains where the gold does)
  int unanswerable = 0;      // items whose gold answer abstains
  int abstained = 0;         // ... whose output abstains (an abstention marker, nothing invented)
  int output_anchors = 0;    // entity anchors in outputs
  int hallucinated = 0;      // ... whose norm is not among the item's gold values
  int correct_anchors = 0;   // ... whose norm is among the gold answer's anchors
  int false_flags = 0;       // correct anchors that were backtracked or flagged
  int field_backtracks = 0;  // backtracks of a source value written under another field's label
  int64_t backtracks = 0;
  int64_t regenerated_tokens = 0;
  int corrected_anchors = 0;  // anchors that needed a backtrack and ended confirmed or constrained
  int64_t decoded_tokens = 0;
  double seconds = 0.0;
  std::vector<EvalExample> examples;  // per item, when keep_examples
  [[nodiscard]] double exact_match() const { return items ? 100.0 * exact / items : 0.0; }
  [[nodiscard]] double abstention_accuracy() const { return unanswerable ? 100.0 * abstained / unanswerable : 0.0; }
  [[nodiscard]] double hallucination_rate() const {
    return output_anchors ? 100.0 * hallucinated / output_anchors : 0.0;
  }
  [[nodiscard]] double false_flag_rate() const {
    return correct_anchors + false_flags ? 100.0 * false_flags / (correct_anchors + false_flags) : 0.0;
  }
};

std::vector<EvalResult> run_eval(const std::filesystem::path& model, const std::vector<EvalItem>& items,
                                 const std::vector<decode::Mode>& modes, const EvalOptions& options);

}  // namespace sfcl::demo
