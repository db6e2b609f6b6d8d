// Roles of values in Chinese text (docs/ANCHORS.md, "Roles"): a field word before a link (合计为,
// 联系电话：, 出院日期：), the verb after a value that opens a clause (，2005年上市), and for an answer's
// value the verb after 于 or 在 or the word before 定于 and 安排在.
#include <string_view>

#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

namespace {
// Chinese role words written right before a value (after 为/是/：...): the field names of invoices,
// forms and notices.
constexpr std::string_view kCnRoles[] = {"联系电话", "电话",   "手机", "传真", "合计", "总计", "小计", "总额", "总价",
                                         "应付",     "实付",   "已付", "余额", "押金", "定金", "税额", "单价", "编号",
                                         "发票号",   "订单号", "账号", "出生", "成立", "逮捕", "截至", "罚款", "赔偿",
                                         "违约金",   "保证金", "首付", "月租", "租金", "工资", "年薪", "月薪", "报价"};
constexpr std::string_view kCnLinks[] = {"为", "是", "：", "达", "约", "共", "于"};
// Two characters before a link that name no field: how a value changed, is split or is qualified.
constexpr std::string_view kCnNoRole[] = {
    "分别", "同比", "环比", "其中", "目前", "现在", "已经", "大约", "总共", "一共", "增长", "下降", "提高", "降低",
    "增加", "减少", "上涨", "下跌", "达到", "超过", "不足", "至少", "最多", "仅仅", "只有", "均为", "都是", "还是",
    "就是", "也是", "可能", "应该", "大概", "估计", "预计", "预期", "计划", "认为", "表示", "指出"};

// Two characters of the main CJK block, the first one in `first`: the field names and verbs read
// around Chinese values.
constexpr size_t kTwoHan = 6;
bool two_han(std::string_view s, char32_t& first) {
  if (s.size() < kTwoHan) return false;
  for (size_t k = 0; k < kTwoHan; k += 3) {
    const auto d = utf8::decode(s, k);
    if (d.length != 3 || !(d.cp >= 0x4E00 && d.cp <= 0x9FFF)) return false;
    if (k == 0) first = d.cp;
  }
  return true;
}

// The two characters before `end` as a role: not a number, an ordinal or a word that names no field.
// A head that says only what kind of value follows (出院日期：, 付款金额为, 期末考试：) names the field
// by the two characters before it.
std::string_view cn_word_before(std::string_view text, size_t end) {
  // Heads may stack (期末考试时间：); none is stripped after a word that only points or totals
  // (本次总费用为, 手术的费用为: the field is then the head's own).
  for (int stacked = 0; stacked < 2; ++stacked) {
    bool stripped = false;
    for (std::string_view head : {"日期", "时间", "金额", "数额", "号码", "考试", "费用"}) {
      char32_t lead = 0;
      if (end < 2 * kTwoHan || text.substr(end - kTwoHan, kTwoHan) != head) continue;
      const std::string_view pair = text.substr(end - 2 * kTwoHan, kTwoHan);
      if (!two_han(pair, lead) || is_cn_numeral(lead)) continue;
      const bool pointing =
          std::u32string_view(U"的总该本此各全其次这那每").find(utf8::decode(pair, 3).cp) != std::u32string_view::npos;
      if (!pointing) {
        end -= kTwoHan;
        stripped = true;
      }
      break;
    }
    if (!stripped) break;
  }
  if (end < kTwoHan) return {};
  const std::string_view two = text.substr(end - kTwoHan, kTwoHan);
  char32_t first = 0;
  if (!two_han(two, first) || is_cn_numeral(first) || first == U'第') return {};
  for (std::string_view w : kCnNoRole) {
    if (two == w) return {};
  }
  return two;
}

}  // namespace

std::string_view cn_role_before(std::string_view text, size_t end) {
  // A century before a decade qualifies the value, not its role (成立于上世纪九十年代).
  for (std::string_view q : {"上个世纪", "上世纪", "本世纪"}) {
    if (end >= q.size() && text.substr(end - q.size(), q.size()) == q) {
      end -= q.size();
      break;
    }
  }
  bool linked_any = false;
  bool by_yu = false;  // 于 follows subjects too (该公司于2005年): only the listed field words then
  bool after_colon = false;
  for (int links = 0; links < 2; ++links) {
    bool linked = false;
    for (std::string_view l : kCnLinks) {
      // Before a colon, 达 and 于 may end the label's word ("送达：", "抵达：", "位于："); not in
      // "成立于：", "出生于：", where they link.
      if (after_colon && (l == "达" || l == "于") && end >= 6 &&
          std::u32string_view(U"送抵到直传下位属等处").find(utf8::decode(text, end - 6).cp) !=
              std::u32string_view::npos) {
        continue;
      }
      if (end >= l.size() && text.substr(end - l.size(), l.size()) == l) {
        end -= l.size();
        linked = true;
        linked_any = true;
        by_yu = by_yu || l == "于";
        after_colon = l == "：";
        break;
      }
    }
    if (!linked) break;
  }
  for (std::string_view r : kCnRoles) {
    if (end >= r.size() && text.substr(end - r.size(), r.size()) == r) return text.substr(end - r.size(), r.size());
  }
  // Any other field name before a link: its last two characters ("责任上限为", "月费为", "客户经理："),
  // as the other side writes the same field; not words that say how the value changed or is split.
  if (!linked_any || by_yu || end < kTwoHan) return {};
  // An item of an enumeration ("报销比例为85%；二级为75%"): the field is the list's, not "二级".
  return cn_word_before(text, end);
}

// A Chinese clause opens right before the value: after ，。；、 or a line break, or at the start.
bool opens_cn_clause(std::string_view before) {
  if (before.empty() || before.back() == '\n') return true;
  for (std::string_view p : {"，", "。", "；", "、"}) {
    if (before.ends_with(p)) return true;
  }
  return false;
}

namespace {
// Characters that start no verb of the value's clause right after it: particles, prepositions and
// the adverbs they start (由双方代表签署, 依法作出, 全额支付, 被抓获), words of time or range (2005年的,
// 3月起, 30日内, 1998年至今), and the unit of an age or a number that the value reads bare (32岁的她:
// 岁的 is no verb; 2号种子).
constexpr std::u32string_view kCnNotVerbAfter =
    U"的起以至前后内左右和与及或中间底初末是为在就也都还又才共约达之到时年月日岁号由依全被经向对将把从";
}  // namespace

// The verb right after a value that opens a Chinese clause: "，2005年上市" → 上市, past an adverb
// ("，2024年5月3日正式开业" → 开业).
std::string_view cn_role_after(std::string_view after) {
  for (std::string_view adverb : {"正式", "首次", "首度", "重新", "再次", "成功", "先后", "相继", "分别", "已经",
                                  "率先", "同时", "共同", "顺利", "最终", "开始"}) {
    if (after.starts_with(adverb)) {
      after.remove_prefix(adverb.size());
      break;
    }
  }
  char32_t first = 0;
  if (!two_han(after, first) || kCnNotVerbAfter.find(first) != std::u32string_view::npos) return {};
  return after.substr(0, kTwoHan);
}

std::string_view cn_answer_role(std::string_view before, std::string_view after) {
  if (!after.empty() && static_cast<unsigned char>(after.front()) >= 0x80) {
    if (const std::string_view verb = cn_role_after(after); !verb.empty()) return verb;
  }
  // "复诊定于6月3日", "复诊安排在6月3日": what is set for a time is the word before. Not where 在 or
  // 定 ends another word (存在, 现在, 正在; 规定于, 决定于, 稳定于, 约定于).
  for (std::string_view set : {"定于", "定在", "安排在", "安排于", "是在", "在"}) {
    if (!before.ends_with(set)) continue;
    const size_t end = before.size() - set.size();
    if (end < 3) return {};
    const char32_t prev = utf8::decode(before, end - 3).cp;
    const std::u32string_view not_set = set == "在" ? U"存现正所实还不都也就仍只已均全各总" : U"规决确稳约限制鉴否特指";
    if (set != "安排在" && set != "安排于" && set != "是在" && not_set.find(prev) != std::u32string_view::npos)
      return {};
    return cn_word_before(before, end);
  }
  return {};
}

}  // namespace sfcl::anchor
