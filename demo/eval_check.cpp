#include "eval_check.h"

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "util/lines.h"

namespace sfcl::demo {

using nlohmann::json;

std::vector<CheckItem> load_check_set(const std::vector<std::filesystem::path>& files) {
  std::vector<CheckItem> items;
  for (const auto& path : files) {
    util::for_each_line(path, "check set", [&](std::string_view line) {
      const json p = json::parse(line);
      const std::string id = p.at("id").get<std::string>();
      size_t q = 0;
      for (const auto& qa : p.at("qa")) {
        CheckItem it;
        it.id = id + "/" + std::to_string(++q);
        it.lang = p.value("lang", "en");
        it.passage = p.at("passage").get<std::string>();
        it.question = qa.value("question", "");
        it.right = qa.at("right").get<std::string>();
        it.wrong = qa.at("wrong").get<std::string>();
        it.wrong_kind = qa.at("wrong_kind").get<std::string>();
        it.wrong_value = qa.at("wrong_value").get<std::string>();
        if (it.wrong.find(it.wrong_value) == std::string::npos) {
          throw std::runtime_error("wrong_value is not part of wrong in " + it.id);
        }
        items.push_back(std::move(it));
      }
    });
  }
  return items;
}

KindCount CheckReport::invented() const {
  KindCount k;
  for (const auto& [kind, c] : by_kind) {
    if (kind == "other_field") continue;
    k.items += c.items;
    k.caught += c.caught;
  }
  return k;
}

namespace {
struct Checked {
  anchor::Anchor anchor;
  verify::CheckResult result;
};

std::vector<Checked> check_text(verify::Checker& checker, const std::string& text, CheckReport& rep) {
  std::vector<Checked> out;
  for (const auto& a : anchor::extract(text)) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto r =
        checker.check(a, anchor::field_label(text, a.start), std::string_view(text).substr(a.start, a.end - a.start),
                      std::string_view(text).substr(0, a.start), std::string_view(text).substr(a.end));
    rep.check_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++rep.checks;
    out.push_back({a, r});
  }
  return out;
}

std::string describe(const std::string& text, const std::vector<Checked>& anchors, size_t from, size_t to) {
  std::string s;
  for (const auto& c : anchors) {
    if (c.anchor.end <= from || c.anchor.start >= to) continue;
    if (!s.empty()) s += "; ";
    s += text.substr(c.anchor.start, c.anchor.end - c.anchor.start) + ": " +
         std::string(verify::verdict_name(c.result.verdict));
    if (c.result.reason != verify::Reason::none) s += " (" + std::string(verify::reason_name(c.result.reason)) + ")";
  }
  return s.empty() ? "no anchor" : s;
}
}  // namespace

CheckReport run_check_set(const std::vector<CheckItem>& items, const verify::CheckerOptions& options) {
  CheckReport rep;
  for (const auto& it : items) {
    anchor::SourceIndex index;
    index.add_source(it.passage);
    verify::Checker checker(index, options);
    ++rep.right;
    const auto right = check_text(checker, it.right, rep);
    for (const auto& c : right) {
      if (c.result.verdict != verify::Verdict::unsupported) continue;
      ++rep.right_flagged;
      rep.misses.push_back({it.id, "false_flag", it.right,
                            it.right.substr(c.anchor.start, c.anchor.end - c.anchor.start),
                            describe(it.right, right, c.anchor.start, c.anchor.end)});
      break;
    }
    const auto wrong = check_text(checker, it.wrong, rep);
    const size_t from = it.wrong.find(it.wrong_value);
    const size_t to = from + it.wrong_value.size();
    bool caught = false;
    for (const auto& c : wrong) {
      caught =
          caught || (c.result.verdict == verify::Verdict::unsupported && c.anchor.start < to && c.anchor.end > from);
    }
    auto& k = rep.by_kind[it.wrong_kind];
    ++k.items;
    if (it.wrong_kind != "other_field") {
      ++rep.by_lang[it.lang].items;
      if (caught) ++rep.by_lang[it.lang].caught;
    }
    if (caught) {
      ++k.caught;
    } else {
      rep.misses.push_back({it.id, it.wrong_kind, it.wrong, it.wrong_value, describe(it.wrong, wrong, from, to)});
    }
  }
  return rep;
}

}  // namespace sfcl::demo
