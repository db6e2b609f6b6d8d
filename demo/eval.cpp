#include "eval.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "corpus.h"
#include "train.h"
#include "util/lines.h"

namespace sfcl::demo {

using nlohmann::json;

void write_eval_set(const std::filesystem::path& path, uint64_t seed, int n, Split split,
                    const std::function<void()>& on_item) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  for (int i = 0; i < n; ++i) {
    const Document d = make_document(seed, split, static_cast<uint64_t>(i));
    const QA& qa = d.qas[static_cast<size_t>(i) % d.qas.size()];
    json gold = json::array();
    for (const auto& a : anchor::extract(d.text)) {
      if (anchor::kind_of(a.type) == anchor::Kind::entity || a.type == anchor::Type::logic) gold.push_back(a.norm);
    }
    out << json{{"id", d.id},          {"lang", d.lang},     {"document", d.text}, {"question", qa.question},
                {"answer", qa.answer}, {"gold_values", gold}}
               .dump()
        << "\n";
    if (on_item) on_item();
  }
}

std::vector<EvalItem> load_eval_set(const std::filesystem::path& path) {
  std::vector<EvalItem> items;
  util::for_each_line(path, "eval set", [&](std::string_view line) {
    const json j = json::parse(line);
    EvalItem it;
    it.id = j.at("id").get<std::string>();
    it.lang = j.value("lang", "en");
    it.document = j.at("document").get<std::string>();
    it.question = j.at("question").get<std::string>();
    it.answer = j.at("answer").get<std::string>();
    for (const auto& v : j.at("gold_values")) it.gold_values.push_back(v.get<std::string>());
    it.answerable = j.value("answerable", true);
    items.push_back(std::move(it));
  });
  return items;
}

namespace {
std::vector<std::string> entity_norms(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& a : anchor::extract(text)) {
    if (verify::is_checkable(a)) out.push_back(a.norm);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A value the sources state: a gold value, or text written as the document or question writes it
// (the year or day of a date, a name inside a longer one), the checker's own verbatim rule.
struct Grounding {
  const EvalItem& item;
  const anchor::SourceIndex& index;
  std::string folded;
  bool operator()(const anchor::Anchor& a, std::string_view surface) {
    if (std::find(item.gold_values.begin(), item.gold_values.end(), a.norm) != item.gold_values.end()) return true;
    anchor::fold_for_match(surface, folded);
    anchor::TextSpan span;
    return index.find_verbatim(folded, span, a.type != anchor::Type::name && a.type != anchor::Type::citation);
  }
};

bool abstains(const std::string& text, const decode::Options& opt) {
  return text.find(opt.abstain_marker) != std::string::npos || text.find(opt.abstain_marker_zh) != std::string::npos;
}
}  // namespace

std::vector<EvalResult> run_eval(const std::filesystem::path& model_path, const std::vector<EvalItem>& all,
                                 const std::vector<decode::Mode>& modes, const EvalOptions& o) {
  auto model = engine::Model::load({model_path});
  engine::ContextOptions co;
  co.n_ctx = 1024;
  co.n_batch = 512;
  co.n_threads = o.threads;
  engine::Context ctx(*model, co);
  const size_t n = o.limit > 0 ? std::min<size_t>(all.size(), static_cast<size_t>(o.limit)) : all.size();
  std::vector<EvalResult> results(modes.size());
  for (size_t m = 0; m < modes.size(); ++m) results[m].mode = modes[m];
  // Items outer, modes inner: machine noise hits every mode alike.
  for (size_t i = 0; i < n; ++i) {
    const EvalItem& it = all[i];
    const auto prompt =
        model->tokenize(model->apply_chat_template({{"system", it.document}, {"user", it.question}}, true), true, true);
    anchor::SourceIndex index;
    index.add_source(it.document);
    index.add_source(it.question);
    const auto gold_answer = entity_norms(it.answer);
    for (size_t m = 0; m < modes.size(); ++m) {
      EvalResult& r = results[m];
      decode::Options opt;
      opt.mode = modes[m];
      opt.max_tokens = o.max_tokens;
      opt.sampling.temperature = 0.0F;
      opt.fallback = o.fallback;
      opt.max_backtracks = o.max_backtracks;
      EvalExample ex;
      ex.id = it.id;
      int false_flags = 0;
      // A correct anchor is one the gold answer has: a document value written under another
      // field's label is in the document, yet wrong, and catching it is not a false flag.
      const auto is_correct = [&](const std::string& norm) {
        return std::find(gold_answer.begin(), gold_answer.end(), norm) != gold_answer.end();
      };
      const auto t0 = std::chrono::steady_clock::now();
      const decode::Result res = decode::generate(ctx, prompt, opt, index, [&](const decode::Event& e) {
        if (e.kind == decode::Event::Kind::backtrack) {
          if (is_correct(e.anchor->anchor.norm)) ++false_flags;
          if (e.reason == "other_field") ++r.field_backtracks;
          if (o.keep_examples) {
            ex.events.push_back(json{
                {"event", "backtrack"},
                {"anchor_id", e.anchor->id},
                {"removed", std::string(e.text)},
                {"norm", e.anchor->anchor.norm},
                {"reason", std::string(e.reason)},
                {"attempt",
                 e.attempt}}.dump());
          }
        } else if (e.kind == decode::Event::Kind::fallback && o.keep_examples) {
          ex.events.push_back(json{{"event", "fallback"},
                                   {"anchor_id", e.anchor->id},
                                   {"text", e.anchor->text},
                                   {"policy", std::string(decode::fallback_name(e.policy))}}
                                  .dump());
        }
      });
      r.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++r.items;
      r.decoded_tokens += res.stats.decoded_tokens;
      r.backtracks += res.stats.backtracks;
      r.regenerated_tokens += res.stats.regenerated_tokens;
      for (const auto& a : res.anchors) {
        if (a.flagged && is_correct(a.anchor.norm)) ++false_flags;
        // Corrected: backtracked and delivered grounded, by the model's own retry (confirmed) or by
        // the constrain fallback (constrained, reported apart since it was written from a source).
        if (a.attempts > 0 && (a.verdict == verify::Verdict::confirmed || a.verdict == verify::Verdict::constrained)) {
          ++r.corrected_anchors;
        }
      }
      const auto out_norms = entity_norms(res.text);
      Grounding grounded{it, index, {}};
      int invented = 0;
      for (const auto& a : anchor::extract(res.text)) {
        if (!verify::is_checkable(a)) continue;
        ++r.output_anchors;
        if (!grounded(a, std::string_view(res.text).substr(a.start, a.end - a.start))) ++invented;
        if (is_correct(a.norm)) ++r.correct_anchors;
      }
      r.hallucinated += invented;
      r.false_flags += false_flags;
      if (it.answerable) {
        if (out_norms == gold_answer) ++r.exact;
      } else {
        ++r.unanswerable;
        if (abstains(res.text, opt) && invented == 0) {
          ++r.abstained;
          ++r.exact;
        }
      }
      if (o.keep_examples) {
        ex.text = res.text;
        r.examples.push_back(std::move(ex));
      }
      if (o.on_answer) o.on_answer();
    }
  }
  return results;
}

}  // namespace sfcl::demo
