// Whether two roles name one thing (docs/ANCHORS.md, "Roles"): the same word by its stem, or words
// that name one event, in either language ("founded", "established", 成立).
#include <array>

#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

namespace {
// Role words that name one event, in either language: "founded" = "established" = 成立.
constexpr std::array<std::array<std::string_view, 7>, 12> kRoleGroups = {{
    {"founded", "established", "formed", "incorporated", "成立", "创立", ""},
    {"born", "birth", "出生", "", "", "", ""},
    {"died", "death", "dead", "去世", "逝世", "", ""},
    {"arrested", "detained", "逮捕", "被捕", "", "", ""},
    {"public", "上市", "", "", "", "", ""},
    {"signed", "签署", "签订", "", "", "", ""},
    {"married", "结婚", "", "", "", "", ""},
    {"elected", "当选", "", "", "", "", ""},
    {"opened", "开业", "开幕", "", "", "", ""},
    {"released", "came out", "comes out", "发布", "上映", "发行", ""},
    {"earn", "paid", "pay", "salary", "wage", "工资", "薪"},  // pay: "earn about $32 per hour", "paid $32 an hour"
    {"worth", "valued", "value", "价值", "", "", ""},         // "grants worth $500" = "valued at $500"
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

std::array<std::string_view, 8> role_words(std::string_view role) {
  std::array<std::string_view, 8> words{role};
  const int g = role_group(role, role_stem);
  if (g < 0) return words;
  size_t n = 1;
  for (std::string_view m : kRoleGroups[static_cast<size_t>(g)]) {
    if (!m.empty() && !ieq_ascii(m, role)) words[n++] = m;
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
