// Whether two roles name one thing (docs/ANCHORS.md, "Roles"): the same word by its stem, or words
// that name one event, in either language ("founded", "established", 成立).
#include <array>

#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

namespace {
// Role words that name one event, in either language: "founded" = "established" = 成立.
constexpr size_t kGroupWords = 8;
constexpr std::array<std::array<std::string_view, kGroupWords>, 13> kRoleGroups = {{
    {"founded", "established", "formed", "incorporated", "成立", "创立", "创办", "组建"},
    {"born", "出生", "", "", "", "", "", ""},
    {"died", "去世", "逝世", "", "", "", "", ""},
    {"arrested", "detained", "逮捕", "被捕", "", "", "", ""},
    {"public", "上市", "", "", "", "", "", ""},
    {"signed", "签署", "签订", "", "", "", "", ""},
    {"married", "结婚", "", "", "", "", "", ""},
    {"elected", "当选", "", "", "", "", "", ""},
    {"opened", "开业", "开幕", "", "", "", "", ""},
    {"released", "发布", "上映", "发行", "", "", "", ""},
    {"earn", "paid", "salary", "wage", "工资", "薪", "", ""},  // pay: "earn about $32 per hour", "paid $32 an hour"
    {"worth", "价值", "", "", "", "", "", ""},
    {"start", "began", "begun", "commenced", "commencement", "开工", "", ""},
}};
// Words a sentence may write for a role that are never read as one (phrases, words that say nothing
// alone): searched for in the sources' sentences (SourceIndex::sentence_writes), never compared.
// "pay" is any pay's (overtime pay, holiday pay): a sentence that writes it may state a wage.
// "birth" and "death" are nouns of labels too ("Mother's date of birth"): the same event only in
// the sentence of a value.
constexpr std::array<std::array<std::string_view, 3>, 5> kSentenceWords = {{
    {"born", "birth", ""},
    {"died", "death", "dead"},
    {"released", "came out", "comes out"},
    {"worth", "valued", "value"},
    {"paid", "pay", ""},
}};

template <typename Stem>
int role_group(std::string_view w, const Stem& stem) {
  for (size_t g = 0; g < kRoleGroups.size(); ++g) {
    for (std::string_view m : kRoleGroups[g]) {
      if (!m.empty() && ieq_ascii(stem(w), stem(m))) return static_cast<int>(g);
    }
  }
  return -1;
}
}  // namespace

std::string_view role_stem(std::string_view w) {
  for (std::string_view s : {"ing", "ed", "es", "s", "d"}) {
    if (w.size() >= s.size() + 4 && ieq_ascii(w.substr(w.size() - s.size()), s)) {
      w.remove_suffix(s.size());
      break;
    }
  }
  if (w.size() >= 5 && (w.back() == 'e' || w.back() == 'E')) w.remove_suffix(1);  // "approve" = "approv(ed)"
  return w;
}

std::array<std::string_view, kRoleWords> role_words(std::string_view role) {
  std::array<std::string_view, kRoleWords> words{role};
  size_t n = 1;
  auto add = [&](std::string_view w) {
    if (!w.empty() && !ieq_ascii(w, role) && n < words.size()) words[n++] = w;
  };
  if (const int g = role_group(role, role_stem); g >= 0) {
    for (std::string_view m : kRoleGroups[static_cast<size_t>(g)]) add(m);
  }
  for (const auto& row : kSentenceWords) {
    if (same_role(row[0], role)) {
      for (size_t k = 1; k < row.size(); ++k) add(row[k]);
    }
  }
  return words;
}

// Roles compare case-insensitively, by stem ("arrested" = "arrest" = "arrests") and by the words
// that name one event (kRoleGroups).
bool same_role(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return false;
  if (ieq_ascii(role_stem(a), role_stem(b))) return true;
  const int ga = role_group(a, role_stem);
  return ga >= 0 && ga == role_group(b, role_stem);
}

}  // namespace sfcl::anchor
