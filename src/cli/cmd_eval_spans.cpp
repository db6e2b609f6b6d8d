// sfcl eval-spans: the checker alone on real model output with human-annotated hallucination spans
// (RAGTruth, FaithBench, UHGEval rows: {"id","dataset","task_type","source","response","spans",
// "clean","ok_spans"}, span offsets in characters of "response"). Each response is checked against
// its source in-process, as `sfcl anchors check RESPONSE --source SOURCE` checks it, and the figures
// are those of the sets' realoutput_check.py, printed the same way (docs/FIDELITY.md, "Real model
// output: the checker alone").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/pytext.h"
#include "report/report.h"
#include "verify/verify.h"

namespace sfcl::cli {
namespace {

using nlohmann::json;
using pytext::casefold;
using pytext::decode;
using pytext::encode;
using pytext::py_repr;
using pytext::py_short;
using Counts = std::map<std::string, int64_t>;  // zero until counted, as Python's Counter

struct EvalSpansOpts {
  std::vector<std::string> files;
  size_t examples = 10;
  double min_recall = 95.0;
  double max_ff = 1.0;
  double max_clean_flagged = 100.0;
};

void add_flags(CLI::App& cmd, EvalSpansOpts& o) {
  cmd.add_option("files", o.files,
                 "Span-annotated sets (JSONL: id, dataset, task_type, source, response, spans, clean, "
                 "ok_spans; span offsets in characters)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd.add_option("--examples", o.examples, "Misses and false flags to print")->capture_default_str();
  cmd.add_option("--min-recall", o.min_recall, "Goal: recall over reachable spans, %")->capture_default_str();
  cmd.add_option("--max-ff", o.max_ff, "Goal: value anchors of clean responses flagged, %")->capture_default_str();
  cmd.add_option("--max-clean-flagged", o.max_clean_flagged, "Goal: clean responses with a flag, %")
      ->capture_default_str();
}

struct Span {
  size_t start = 0;
  size_t end = 0;
  std::string label;
  std::u32string text;
};

struct Row {
  std::string id, dataset, task;
  std::string source, response;
  std::u32string chars;  // the response, by character
  std::vector<Span> spans, ok_spans;
  bool clean = false;
};

// One anchor as `sfcl anchors check` prints it, with character offsets into the response.
struct Checked {
  std::u32string text;
  std::string type, verdict, reason;
  size_t start = 0;  // characters
  size_t end = 0;
  bool value = false;  // entity kind, checked
};

std::vector<Span> spans_of(const json& row, const char* key) {
  std::vector<Span> out;
  if (!row.contains(key) || !row[key].is_array()) return out;
  for (const json& s : row[key]) {
    out.push_back({s.value("start", size_t{0}), s.value("end", size_t{0}), s.value("label_type", std::string()),
                   decode(s.value("text", std::string()))});
  }
  return out;
}

std::vector<Row> load_rows(const std::vector<std::string>& files) {
  std::vector<Row> rows;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) throw UsageError("cannot read file: " + f);
    std::string line;
    for (size_t n = 1; std::getline(in, line); ++n) {
      if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
      const json j = json::parse(line, nullptr, false);
      if (!j.is_object()) throw UsageError(f + ":" + std::to_string(n) + ": not a JSON object");
      Row r;
      r.id = j.value("id", std::string());
      r.dataset = j.value("dataset", std::string());
      r.task = j.value("task_type", std::string());
      r.source = j.value("source", std::string());
      r.response = j.value("response", std::string());
      r.chars = decode(r.response);
      r.spans = spans_of(j, "spans");
      r.ok_spans = spans_of(j, "ok_spans");
      r.clean = j.contains("clean") && j["clean"].is_boolean() && j["clean"].get<bool>();
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

// Every anchor of the response with its check, as `sfcl anchors check` reports it.
std::vector<Checked> check_row(const Row& row) {
  const anchor::LexerOptions lo;
  anchor::SourceIndex index(lo);
  index.add_source(row.source);
  verify::Checker checker(index, verify::CheckerOptions{});
  const std::string& text = row.response;
  std::vector<size_t> char_at(text.size() + 1, 0);  // byte offset -> character offset
  for (size_t b = 0, c = 0; b <= text.size(); ++c) {
    char_at[b] = c;
    if (b == text.size()) break;
    const auto n = static_cast<size_t>(utf8::decode(text, b).length);
    for (size_t k = 1; k < n; ++k) char_at[b + k] = c;
    b += n;
  }
  std::vector<Checked> out;
  for (const json& j : report::check_text(text, lo, checker)) {
    out.push_back({decode(j["text"].get<std::string>()), j["anchor_type"], j["verdict"], j.value("reason", ""),
                   char_at[j["start"].get<size_t>()], char_at[j["end"].get<size_t>()],
                   j["anchor_kind"] == "entity" && j.value("checked", true)});
  }
  return out;
}

double pct(int64_t n, int64_t d) { return d != 0 ? 100.0 * static_cast<double>(n) / static_cast<double>(d) : 0.0; }

bool overlaps(const Checked& a, const Span& s) { return a.start < s.end && s.start < a.end; }

// ---- the tallies ----

struct Miss {
  const Row* row;
  const Span* span;
  std::vector<const Checked*> inside;
  bool novel;
};
struct Flag {
  const Row* row;
  const Checked* anchor;
};

struct Tally {
  Counts all;
  std::map<std::string, Counts> by_task;
  std::vector<std::string> type_order;  // first seen first: the sort below is stable
  std::map<std::string, Counts> by_type;
  std::vector<Miss> misses;
  std::vector<Flag> flags, zh_flags;

  Counts& type(const std::string& t) {
    if (!by_type.contains(t)) type_order.push_back(t);
    return by_type[t];
  }
};

void tally_spans(const Row& r, const std::vector<const Checked*>& vals, Counts& T, Tally& t) {
  const std::u32string low_src = casefold(decode(r.source));
  for (const Span& s : r.spans) {
    ++t.all["spans"];
    ++T["spans"];
    std::vector<const Checked*> inside;
    for (const Checked* a : vals) {
      if (overlaps(*a, s)) inside.push_back(a);
    }
    if (inside.empty()) {
      ++t.all["spans_no_anchor"];
      ++T["spans_no_anchor"];
      continue;
    }
    ++t.all["reach"];
    ++T["reach"];
    const bool caught = std::any_of(inside.begin(), inside.end(), [](auto* a) { return a->verdict == "unsupported"; });
    t.all["caught"] += caught;
    T["caught"] += caught;
    const bool novel = std::any_of(inside.begin(), inside.end(),
                                   [&](auto* a) { return low_src.find(casefold(a->text)) == std::u32string::npos; });
    if (novel) {
      ++t.all["reach_novel"];
      ++T["reach_novel"];
      t.all["caught_novel"] += caught;
      T["caught_novel"] += caught;
    }
    for (const Checked* a : inside) {
      ++t.all["h_anchors"];
      t.all["h_unverifiable"] += a->verdict == "unverifiable";
      Counts& B = t.type(a->type);
      ++B["h_anchors"];
      B["h_unsupported"] += a->verdict == "unsupported";
    }
    if (!caught) t.misses.push_back({&r, &s, std::move(inside), novel});
  }
}

void tally_row(const Row& r, const std::vector<Checked>& anchors, Tally& t) {
  Counts& T = t.by_task[r.dataset + "/" + r.task];
  ++T["responses"];
  std::vector<const Checked*> vals;
  for (const Checked& a : anchors) {
    if (a.value) vals.push_back(&a);
  }
  tally_spans(r, vals, T, t);
  const auto unsupported = [](const Checked* a) { return a->verdict == "unsupported"; };
  // Example level: UHGEval has no clean responses and FaithBench's benign-only rows are neither.
  if (r.dataset != "uhgeval" && (r.clean || !r.spans.empty())) {
    const bool pred = std::any_of(vals.begin(), vals.end(), unsupported);
    const bool hall = !r.clean;
    t.all["ex_tp"] += pred && hall;
    t.all["ex_fp"] += pred && !hall;
    t.all["ex_fn"] += hall && !pred;
  }
  if (r.clean) {
    const auto fl = std::count_if(vals.begin(), vals.end(), unsupported);
    const auto n = static_cast<int64_t>(vals.size());
    ++t.all["clean_resp"];
    ++T["clean_resp"];
    t.all["clean_anchors"] += n;
    T["clean_anchors"] += n;
    t.all["clean_unsupported"] += fl;
    T["clean_unsupported"] += fl;
    t.all["clean_unverifiable"] +=
        std::count_if(vals.begin(), vals.end(), [](auto* a) { return a->verdict == "unverifiable"; });
    t.all["clean_resp_flagged"] += fl > 0;
    T["clean_resp_flagged"] += fl > 0;
    for (const Checked* a : vals) {
      Counts& B = t.type(a->type);
      ++B["c_anchors"];
      B["c_unsupported"] += unsupported(a);
    }
    for (const Checked* a : vals) {
      if (unsupported(a)) t.flags.push_back({&r, a});
    }
  }
  for (const Checked* a : vals) {
    if (r.ok_spans.empty()) break;
    const auto in = [a](const std::vector<Span>& ss) {
      return std::any_of(ss.begin(), ss.end(), [a](const Span& s) { return overlaps(*a, s); });
    };
    if (!in(r.ok_spans) || in(r.spans)) continue;
    ++t.all["ok_anchors"];
    ++T["ok_anchors"];
    t.all["ok_unsupported"] += unsupported(a);
    T["ok_unsupported"] += unsupported(a);
    if (unsupported(a)) t.zh_flags.push_back({&r, a});
  }
}

// ---- the report, line for line as realoutput_check.py prints it ----

void print_figures(Counts& S) {
  std::printf("(a) annotated hallucinated spans            %lld\n", static_cast<long long>(S["spans"]));
  std::printf("    with no value anchor (out of reach)     %lld  (%.1f%%)\n",
              static_cast<long long>(S["spans_no_anchor"]), pct(S["spans_no_anchor"], S["spans"]));
  std::printf("    with a value anchor (reachable)         %lld\n", static_cast<long long>(S["reach"]));
  std::printf("    caught (an overlapping anchor unsupported) %lld/%lld  = %.1f%% recall\n",
              static_cast<long long>(S["caught"]), static_cast<long long>(S["reach"]), pct(S["caught"], S["reach"]));
  std::printf("    of which a value not written in the source: caught %lld/%lld = %.1f%%\n",
              static_cast<long long>(S["caught_novel"]), static_cast<long long>(S["reach_novel"]),
              pct(S["caught_novel"], S["reach_novel"]));
  std::printf("(b) clean responses                         %lld, value anchors %lld\n",
              static_cast<long long>(S["clean_resp"]), static_cast<long long>(S["clean_anchors"]));
  std::printf("    anchors unsupported (false flags)       %lld  = %.2f%%\n",
              static_cast<long long>(S["clean_unsupported"]), pct(S["clean_unsupported"], S["clean_anchors"]));
  std::printf("    clean responses with >=1 flag           %lld  = %.1f%%\n",
              static_cast<long long>(S["clean_resp_flagged"]), pct(S["clean_resp_flagged"], S["clean_resp"]));
  if (S["ok_anchors"] != 0) {
    std::printf("    zh (UHGEval) anchors in 合理 keywords     %lld, unsupported %lld = %.1f%%\n",
                static_cast<long long>(S["ok_anchors"]), static_cast<long long>(S["ok_unsupported"]),
                pct(S["ok_unsupported"], S["ok_anchors"]));
  }
  std::printf(
      "(c) unverifiable: %lld/%lld anchors in hallucinated spans (%.1f%%), %lld/%lld in clean responses (%.1f%%)\n",
      static_cast<long long>(S["h_unverifiable"]), static_cast<long long>(S["h_anchors"]),
      pct(S["h_unverifiable"], S["h_anchors"]), static_cast<long long>(S["clean_unverifiable"]),
      static_cast<long long>(S["clean_anchors"]), pct(S["clean_unverifiable"], S["clean_anchors"]));
}

void print_breakdowns(Tally& t) {
  std::printf(
      "\n(d) by dataset/task    resp  spans noanch  reach caught recall%%  novel caught%%   clean c.anch  flags  ff%%  "
      " "
      "resp-fl%%  zh-ok ok-ff%%\n");
  for (auto& row : t.by_task) {
    // Named apart: a structured binding cannot be captured by a lambda in every compiler tidy uses.
    const std::string& k = row.first;
    auto& T = row.second;
    const auto n = [&T](const char* key) { return static_cast<long long>(T[key]); };
    std::printf("    %-20s %5lld %6lld %6lld %6lld %6lld %7.1f %6lld %7.1f %7lld %6lld %6lld %5.2f %8.1f %6lld %6.1f\n",
                k.c_str(), n("responses"), n("spans"), n("spans_no_anchor"), n("reach"), n("caught"),
                pct(T["caught"], T["reach"]), n("reach_novel"), pct(T["caught_novel"], T["reach_novel"]),
                n("clean_resp"), n("clean_anchors"), n("clean_unsupported"),
                pct(T["clean_unsupported"], T["clean_anchors"]), pct(T["clean_resp_flagged"], T["clean_resp"]),
                n("ok_anchors"), pct(T["ok_unsupported"], T["ok_anchors"]));
  }
  std::printf("\n    by anchor type   in-span anchors  unsupported%%   clean anchors  unsupported%%\n");
  std::vector<std::string> order = t.type_order;
  const auto weight = [&t](const std::string& k) { return t.by_type[k]["h_anchors"] + t.by_type[k]["c_anchors"]; };
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) { return weight(a) > weight(b); });
  for (const auto& k : order) {
    Counts& B = t.by_type[k];
    std::printf("    %-16s %10lld %13.1f %15lld %13.2f\n", k.c_str(), static_cast<long long>(B["h_anchors"]),
                pct(B["h_unsupported"], B["h_anchors"]), static_cast<long long>(B["c_anchors"]),
                pct(B["c_unsupported"], B["c_anchors"]));
  }
}

// Deterministic and varied: round-robin over dataset/task.
template <typename T>
std::vector<const T*> spread(const std::vector<T>& xs, size_t n) {
  std::map<std::pair<std::string, std::string>, std::vector<const T*>> groups;
  for (const T& x : xs) groups[{x.row->dataset, x.row->task}].push_back(&x);
  std::map<std::pair<std::string, std::string>, size_t> next;
  std::vector<const T*> out;
  for (bool any = true; out.size() < n && any;) {
    any = false;
    for (auto& [k, g] : groups) {
      if (next[k] < g.size() && out.size() < n) {
        out.push_back(g[next[k]++]);
        any = true;
      }
    }
  }
  return out;
}

// One flag with the text around it, so that a reader can judge it without the file.
void print_flag(const Flag& f) {
  const Checked& a = *f.anchor;
  const size_t from = a.start >= 35 ? a.start - 35 : 0;
  const std::u32string_view ctx = std::u32string_view(f.row->chars).substr(from, a.end + 25 - from);
  std::printf("  %s %s %s %s: ...%s...\n", f.row->id.c_str(), py_repr(a.text).c_str(), a.type.c_str(), a.reason.c_str(),
              encode(py_short(ctx, 80)).c_str());
}

void print_examples(const Tally& t, size_t examples) {
  std::printf("\nmisses (reachable span, no overlapping anchor unsupported), %zu of %zu:\n",
              std::min(examples, t.misses.size()), t.misses.size());
  for (const Miss* m : spread(t.misses, examples)) {
    std::u32string an;
    for (size_t i = 0; i < std::min<size_t>(3, m->inside.size()); ++i) {
      const Checked& a = *m->inside[i];
      if (i > 0) an += U"; ";
      an += decode(py_repr(a.text) + " " + a.type + " " + a.verdict);
    }
    std::printf("  %s [%s%s] span %s -> %s\n", m->row->id.c_str(), m->span->label.c_str(), m->novel ? ", novel" : "",
                py_repr(py_short(m->span->text, 70)).c_str(), encode(py_short(an, 110)).c_str());
  }
  std::printf("false flags (clean response, value anchor unsupported), %zu of %zu:\n",
              std::min(examples, t.flags.size()), t.flags.size());
  for (const Flag* f : spread(t.flags, examples)) print_flag(*f);
  if (t.zh_flags.empty()) return;
  std::printf("zh flags inside 合理 keywords, %zu of %zu:\n", std::min(examples, t.zh_flags.size()), t.zh_flags.size());
  for (size_t i = 0; i < std::min(examples, t.zh_flags.size()); ++i) print_flag(t.zh_flags[i]);
}

// The closing lines; true when the goals are met.
bool print_summary(Counts& S, const EvalSpansOpts& o) {
  const double rec = pct(S["caught"], S["reach"]);
  const double ff = pct(S["clean_unsupported"], S["clean_anchors"]);
  const double cf = pct(S["clean_resp_flagged"], S["clean_resp"]);
  const auto tp = static_cast<double>(S["ex_tp"]);
  const double p = tp / static_cast<double>(std::max<int64_t>(S["ex_tp"] + S["ex_fp"], 1));
  const double r = tp / static_cast<double>(std::max<int64_t>(S["ex_tp"] + S["ex_fn"], 1));
  const double f1 = 200 * p * r / std::max(p + r, 1e-9);
  std::printf(
      "example level (English sets): precision %.1f%%, recall %.1f%%, F1 %.1f; spans caught out of all annotated: "
      "%lld/%lld = %.1f%%\n",
      100 * p, 100 * r, f1, static_cast<long long>(S["caught"]), static_cast<long long>(S["spans"]),
      pct(S["caught"], S["spans"]));
  const bool ok = rec >= o.min_recall && ff <= o.max_ff && cf <= o.max_clean_flagged;
  std::printf(
      "\nrealoutput: recall %.1f%% (%lld/%lld annotated spans with a value anchor; %lld/%lld spans have none), false "
      "flags %.2f%% (%lld/%lld anchors of %lld clean responses; %.1f%% of them flagged), unverifiable %.1f%%/%.1f%% "
      "-- goal recall>=%g%%, false flags<=%g%%, clean responses flagged<=%g%%: %s\n",
      rec, static_cast<long long>(S["caught"]), static_cast<long long>(S["reach"]),
      static_cast<long long>(S["spans_no_anchor"]), static_cast<long long>(S["spans"]), ff,
      static_cast<long long>(S["clean_unsupported"]), static_cast<long long>(S["clean_anchors"]),
      static_cast<long long>(S["clean_resp"]), cf, pct(S["h_unverifiable"], S["h_anchors"]),
      pct(S["clean_unverifiable"], S["clean_anchors"]), o.min_recall, o.max_ff, o.max_clean_flagged,
      ok ? "met" : "NOT met");
  return ok;
}

int run(const EvalSpansOpts& o) {
  const std::vector<Row> rows = load_rows(o.files);
  if (rows.empty()) throw UsageError("the sets have no rows");
  const auto t0 = std::chrono::steady_clock::now();
  Tally t;
  std::vector<std::vector<Checked>> checked;
  checked.reserve(rows.size());  // the tallies point into it
  for (const Row& r : rows) {
    checked.push_back(check_row(r));
    tally_row(r, checked.back(), t);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string names;
  for (const auto& f : o.files) names += (names.empty() ? "" : ", ") + std::filesystem::path(f).filename().string();
  std::printf("responses %zu (%s), checked in-process in %.1fs (%.0f ms/response), errors 0\n\n", rows.size(),
              names.c_str(), wall, 1000 * wall / static_cast<double>(rows.size()));
  print_figures(t.all);
  print_breakdowns(t);
  print_examples(t, o.examples);
  const bool ok = print_summary(t.all, o);
  std::fflush(stdout);
  return ok ? 0 : 1;
}

}  // namespace

Runner register_eval_spans(CLI::App& app) {
  return add_command<EvalSpansOpts>(
      app, "eval-spans",
      "The checker alone on real model output with annotated hallucination spans (the figures of "
      "realoutput_check.py, in-process); exit code 1 when a goal is not met");
}

}  // namespace sfcl::cli
