// A Chinese name written as a surname and a title ("郭部长", "李教授", "王先生") where the sources
// write the full name with that title ("公安部部长郭声琨", "郭声琨部长"): the answer's usual short
// form of a name it has given, confirmed at 0.9 (docs/ANCHORS.md, "Written another way").
#include <algorithm>
#include <array>
#include <string_view>

#include "verify/verify.h"

namespace sfcl::verify {

namespace {
constexpr std::array<std::string_view, 34> kTitles = {
    "部长", "主任", "先生", "女士", "教授",   "局长",   "市长", "省长", "县长",   "总统", "主席", "总理",
    "书记", "院长", "校长", "经理", "董事长", "总经理", "老师", "医生", "警官",   "队长", "教练", "大使",
    "博士", "委员", "厅长", "处长", "科长",   "司令",   "将军", "会长", "理事长", "指导"};
constexpr size_t kHan = 3;  // bytes of one Han character
}  // namespace

bool Checker::surname_with_title(anchor::TextSpan& span) const {
  const std::string_view name = folded_;
  for (std::string_view title : kTitles) {
    if (!name.ends_with(title) || name.size() != title.size() + kHan) continue;  // a one-character surname
    const std::string_view surname = name.substr(0, kHan);
    const auto& all = index_.anchors();
    for (uint32_t i : names_) {
      const std::string_view full = all[i].anchor.norm;
      // A person's full name: the surname and one or two given-name characters.
      if (!full.starts_with(surname) || full.size() < 2 * kHan || full.size() > 3 * kHan) continue;
      scratch_.assign(full).append(title);
      if (index_.find_verbatim(scratch_, span)) return true;
      scratch_.assign(title).append(full);
      if (index_.find_verbatim(scratch_, span)) return true;
    }
    return false;
  }
  return false;
}

}  // namespace sfcl::verify
