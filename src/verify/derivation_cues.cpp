// Whether the words before a value say it was computed (docs/ANCHORS.md, "Checking"): "47960元" that
// happens to be the sum of two source amounts is a miscopy unless the answer speaks of a total. A
// computed value follows the word that names the computation in its clause, in either language:
// "the total is $3,000", "$3,000 in total", "two years younger", "合计3000元", "比去年增加了20万元". Read in
// the value's sentence, before and after it, where the sentence is known (see Checker::check).
#include <algorithm>
#include <array>
#include <string_view>

#include "verify/derived.h"
#include "verify/verify.h"

namespace sfcl::verify {
namespace {

constexpr size_t kClauseReach = 160;  // bytes looked back for the clause

constexpr std::array<std::string_view, 22> kSumEn = {
    "total", "sum",     "combined", "altogether", "overall", "in all", "together", "aggregate",
    "add",   "plus",    "amount to", "amounts to", "comes to", "come to", "totaling", "totalling",
    "grand", "whole",   "entire",   "cumulative", "including", "inclusive"};
// 已达/达到/增至: a running total reached ("补刻后，碑上中国烈士已达1468名").
constexpr std::array<std::string_view, 14> kSumZh = {"合计", "共", "总",   "累计", "合共", "加上", "总额",
                                                     "总计", "含", "包括", "全部", "已达", "达到", "增至"};
constexpr std::array<std::string_view, 41> kDiffEn = {
    "other",       "without", "do not",  "more",   "less",     "fewer",   "increase", "decrease", "rose",
    "fell",        "grew",    "dropped", "drop",   "differ",   "remain",  "balance",  "left",     "higher",
    "lower",       "saving",  "saved",   "save",   "discount", "net",     "minus",    "reduc",    "deduct",
    "outstanding", "rest",    "gap",     "exceed", "up by",    "down by", "margin",   "lead of",  "won by",
    "lost by",     "ahead",   "behind",  "faster", "slower"};
// 跌: 下跌.
constexpr std::array<std::string_view, 25> kDiffZh = {"差",   "增",   "减", "多",   "少",   "剩",   "余", "比", "降",
                                                      "涨",   "升",   "扣", "优惠", "节省", "低",   "高", "快", "慢",
                                                      "领先", "落后", "胜", "幅",   "超",   "缩小", "跌"};
// The rest of a whole ("仅占33.5%…其余66.5%没有", "the other 60% did not").
constexpr std::array<std::string_view, 9> kRestEn = {"the other", "the rest", "remaining", "did not", "do not",
                                                     "didn't",    "don't",    "without",   "not "};
constexpr std::array<std::string_view, 7> kRestZh = {"其余", "其他", "剩下", "剩余", "没有", "尚未", "未能"};
constexpr std::array<std::string_view, 16> kPercentEn = {"%",     "percent", "per cent", "tax",     "vat",
                                                         "discount", "fee",  "interest", "commission", "deposit",
                                                         "rate",  "share",   "portion",  "of",       "tip",
                                                         "surcharge"};
constexpr std::array<std::string_view, 10> kPercentZh = {"%", "％", "百分之", "税", "折", "利息", "佣金", "定金", "比例",
                                                         "费"};
constexpr std::array<std::string_view, 28> kDateDiffEn = {
    "between", "after",  "before", "later",  "earlier", "from",  "since",   "until",    "till",   "within",
    "apart",   "period", "term",   "lasted", "took",    "span",  "elapsed", "duration", "passed", "ago",
    "younger", "older",  "long",   "for ",   "runs",    "lasts", "valid",   "expires"};
constexpr std::array<std::string_view, 12> kDateDiffZh = {"间", "后", "前", "内", "相隔", "距", "历时", "期", "经过", "起", "小", "大"};
constexpr std::array<std::string_view, 6> kDueEn = {"due", "deadline", "expir", "ends", "end on", "by "};
constexpr std::array<std::string_view, 5> kDueZh = {"截止", "到期", "届满", "最迟", "止"};
constexpr std::array<std::string_view, 5> kOpenEn = {"open", "a day", "daily", "shift", "hours a"};
constexpr std::array<std::string_view, 5> kOpenZh = {"营业", "每天", "每日", "开放", "全天"};
constexpr std::array<std::string_view, 3> kShareEn = {"rate", "proportion", "out of"};
constexpr std::array<std::string_view, 3> kShareZh = {"率", "占", "其中"};
constexpr std::array<std::string_view, 7> kRatioEn = {"times", "twice", "ratio", "per", "fold", "double", "triple"};
constexpr std::array<std::string_view, 2> kRatioZh = {"倍", "比"};
constexpr std::array<std::string_view, 7> kAverageEn = {"per ",   "average", "each",   "apiece",
                                                        "a head", "a game",  "a match"};
constexpr std::array<std::string_view, 2> kAverageZh = {"均", "每"};

// The clause the value is written in: from the last sentence end (". ", "\n", "。", "；", "!", "?")
// within kClauseReach bytes.
std::string_view clause_of(std::string_view before) {
  if (before.size() > kClauseReach) before.remove_prefix(before.size() - kClauseReach);
  size_t from = 0;
  for (std::string_view end : {". ", "\n", "。", "；", "! ", "? ", "; "}) {
    const size_t i = before.rfind(end);
    if (i != std::string_view::npos) from = std::max(from, i + end.size());
  }
  return before.substr(from);
}

// The rest of the value's sentence: up to the next sentence end within kClauseReach bytes.
std::string_view rest_of(std::string_view after) {
  if (after.size() > kClauseReach) after = after.substr(0, kClauseReach);
  size_t to = after.size();
  for (std::string_view end : {". ", "\n", "。", "；", "! ", "? ", "; "}) {
    const size_t i = after.find(end);
    if (i != std::string_view::npos) to = std::min(to, i);
  }
  return after.substr(0, to);
}

bool has_word(std::string_view clause, std::string_view w) {
  for (size_t i = clause.find(w); i != std::string_view::npos; i = clause.find(w, i + 1)) {
    // English cues start a word (ASCII case folded by the caller); stems may end inside one.
    if (static_cast<unsigned char>(w[0]) >= 0x80 || w[0] == '%' || i == 0 ||
        !std::isalpha(static_cast<unsigned char>(clause[i - 1]))) {
      return true;
    }
  }
  return false;
}

template <size_t N, size_t M>
bool any_cue(std::string_view clause, const std::array<std::string_view, N>& en, const std::array<std::string_view, M>& zh) {
  return std::any_of(en.begin(), en.end(), [&](std::string_view w) { return has_word(clause, w); }) ||
         std::any_of(zh.begin(), zh.end(), [&](std::string_view w) { return has_word(clause, w); });
}

}  // namespace

bool Checker::derivation_cued(Derivation d, std::string_view before, std::string_view after) {
  cue_scratch_.assign(clause_of(before));
  cue_scratch_.push_back(' ');  // the value itself stands here: cues on either side stay apart
  cue_scratch_.append(rest_of(after));
  std::string_view clause;
  for (char& c : cue_scratch_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  clause = cue_scratch_;
  switch (d) {
    case Derivation::sum:
      return any_cue(clause, kSumEn, kSumZh);
    case Derivation::difference:
      return any_cue(clause, kDiffEn, kDiffZh) || any_cue(clause, kSumEn, kSumZh);
    case Derivation::percent_change:  // "rose 50%", "上涨了50%"
      return any_cue(clause, kDiffEn, kDiffZh);
    case Derivation::percent_of:
      return any_cue(clause, kPercentEn, kPercentZh);
    case Derivation::date_difference:
      return any_cue(clause, kDateDiffEn, kDateDiffZh);
    case Derivation::time_span:  // "lasted two hours", "open 12 hours a day", 每天营业12小时
      return any_cue(clause, kDateDiffEn, kDateDiffZh) || any_cue(clause, kOpenEn, kOpenZh);
    case Derivation::date_shift:  // "due 30 days after", "the deadline is", 截止, 到期
      return any_cue(clause, kDateDiffEn, kDateDiffZh) || any_cue(clause, kDueEn, kDueZh);
    case Derivation::ratio:
      return any_cue(clause, kRatioEn, kRatioZh);
    case Derivation::proportion:  // "合格率约为95.3%", "占…的", "a pass rate of 95.3%"
      return any_cue(clause, kPercentEn, kPercentZh) || any_cue(clause, kShareEn, kShareZh);
    case Derivation::remainder:
      return any_cue(clause, kRestEn, kRestZh);
    case Derivation::average:  // "人均194元", "场均0.4球", "$50 per person", "an average of"
      return any_cue(clause, kAverageEn, kAverageZh);
    case Derivation::list_count:
    case Derivation::share_of:  // the source names the computation ("half of the 40 staff")
    case Derivation::none:
      return true;
  }
  return true;
}

// A one-step computation over source values (cued by its sentence where that is known).
bool Checker::confirm_derived(const anchor::Anchor& a, std::string_view before, std::string_view after,
                              CheckResult& r) {
  Derived d;
  const bool found =
      derived_ && (a.type == anchor::Type::date ? derived_->find_date(a, d) : derived_->find(a, d, before, after));
  if (!found) return false;
  if (after.data() == nullptr) {
    // In a stream the words after the value are not written yet, so a computation is taken uncued,
    // except those that almost any value is one of (an average of any amount over any count, the rest
    // of any percentage, a bare number from any unit's counts): their cue must come before it.
    const bool loose = d.kind == Derivation::average || d.any_unit || d.kind == Derivation::remainder;
    if (loose && !derivation_cued(d.kind, before, after)) return false;
  } else if (d.kind != Derivation::ratio && !derivation_cued(d.kind, before, after) &&
             !(d.kind == Derivation::sum && derivation_cued(Derivation::difference, before, after) &&
               derived_->operands_around(d, before, after))) {
    // A multiple is written with its computation's own word (4倍): it needs no other. A sum is also
    // the larger side of a difference whose other side and amount the answer writes around it
    // ("收于3312元，比前结算价3411元下跌99元").
    return false;
  }
  r.verdict = Verdict::derived;
  r.confidence = 1.0F;
  r.derivation = d.kind;
  r.operands = d.operands;
  r.support = d.operands[0];
  cite(r);
  return true;
}

}  // namespace sfcl::verify
