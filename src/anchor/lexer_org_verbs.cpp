// Verbs that end the words before an organisation's name (docs/ANCHORS.md, the name row): a Chinese
// name without spaces ends where a clause's verb, a placing or a match's verb stands.
#include <algorithm>
#include <string_view>

#include "anchor/lexer_internal.h"
#include "util/utf8.h"

namespace sfcl::anchor {

namespace {
constexpr size_t kHan = 3;  // bytes of one character of U+4E00..U+9FFF
// A clause's verb before the suffix, or one whose second half starts it: "网贷机构选择银行作为存管机构"
// is an institution choosing a bank, "通过中国银行" no "过中国银行"; and a placing before the side it is
// of (小组头名江汉大学).
constexpr std::string_view kVerbs[] = {"选择", "要求", "通过", "成为", "作为", "进入", "委托", "指定", "允许", "禁止",
                                       "包括", "曾任", "现任", "出任", "担任", "兼任", "历任", "租下", "头名", "榜首"};
// A match's verb between two sides: after a team ("东北电力大学队力压江汉大学队") inside a run, and
// anywhere as the start of one ("力压江汉大学" is no name); inside a name it may be a word of it
// (上海战胜影业有限公司).
constexpr std::string_view kMatchVerbs[] = {"力压", "击败", "战胜", "负于", "不敌", "淘汰", "压倒", "战平", "逼平"};
}  // namespace

bool holds_verb(std::string_view s) {
  if (std::any_of(std::begin(kVerbs), std::end(kVerbs), [&](auto v) { return s.find(v) != std::string_view::npos; })) {
    return true;
  }
  for (size_t at = s.find("队"); at != std::string_view::npos; at = s.find("队", at + kHan)) {
    const std::string_view next = s.substr(at + kHan);
    if (std::any_of(std::begin(kMatchVerbs), std::end(kMatchVerbs), [&](auto v) { return next.starts_with(v); })) {
      return true;
    }
  }
  return false;
}
// A run that starts inside a verb (`two`: the character before it and its first) or with a match's verb.
// Run at every Han character: the match verbs are compared only after their first character.
bool starts_in_verb(std::string_view two, std::string_view rest) {
  // Two characters hold a verb of two only as that verb: compared whole, not searched.
  if (std::any_of(std::begin(kVerbs), std::end(kVerbs), [&](auto v) { return two == v; })) return true;
  static constexpr std::u32string_view kMatchFirst = U"力击战负不淘压逼";  // kMatchVerbs' first characters
  const auto match_verb_at = [](std::string_view s) {
    if (s.size() < 2 * kHan || kMatchFirst.find(utf8::decode(s, 0).cp) == std::u32string_view::npos) return false;
    return std::any_of(std::begin(kMatchVerbs), std::end(kMatchVerbs), [&](auto v) { return s.starts_with(v); });
  };
  return match_verb_at(two) || match_verb_at(rest);
}

}  // namespace sfcl::anchor
