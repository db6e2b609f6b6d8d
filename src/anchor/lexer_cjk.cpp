// Chinese: numerals with units and suffixes, percent (百分之), clause numbers (第三条), logic words
// and organisation names ending in a suffix (有限公司, 银行).
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "anchor/lexer_words.h"
#include "anchor/org_chars.h"
#include "util/utf8.h"

namespace sfcl::anchor::lex {

size_t cn_numeral_run(Src& src, size_t i) {
  size_t j = i;
  while (true) {
    const auto d = src.cp(j);
    if (d.length == 0 || !is_cn_numeral(d.cp)) break;
    j += static_cast<size_t>(d.length);
  }
  return j;
}

bool cn_value(std::string_view s, uint64_t& v) { return parse_chinese_numeral(s, v); }

namespace {

bool has_cn_unit(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto d = utf8::decode(s, i);
    if (cn_unit(d.cp) > 0) return true;
    i += static_cast<size_t>(d.length);
  }
  return false;
}

constexpr char32_t decode3(std::string_view w) {  // a 3-byte UTF-8 character (every Han keyword)
  return static_cast<char32_t>(((static_cast<unsigned char>(w[0]) & 0x0F) << 12) |
                               ((static_cast<unsigned char>(w[1]) & 0x3F) << 6) |
                               (static_cast<unsigned char>(w[2]) & 0x3F));
}
constexpr std::array<char32_t, kZhLogic.size()> kZhLogicFirst = [] {
  std::array<char32_t, kZhLogic.size()> f{};
  for (size_t i = 0; i < kZhLogic.size(); ++i) f[i] = decode3(kZhLogic[i].text);
  return f;
}();
constexpr bool zh_logic_first(char32_t c) {
  for (char32_t f : kZhLogicFirst) {
    if (f == c) return true;
  }
  return false;
}
static_assert(zh_logic_first(U'如') && zh_logic_first(U'保') && !zh_logic_first(U'的'));

// What a Han character can be, one byte per code point of the main CJK block (computed on the fly
// outside it): the org-name scan and scan_han ask this once per character.
class HanClass {
 public:
  static constexpr uint8_t kPlain = 1;    // starts no keyword or numeral: only an org name
  static constexpr uint8_t kStop = 2;     // ends an org name (org_stop)
  static constexpr uint8_t kSuffix = 4;   // may start an org suffix
  static constexpr uint8_t kNumeral = 8;  // a Chinese numeral
  HanClass() {
    for (char32_t c = kFirst; c <= kLast; ++c) table_[c - kFirst] = compute(c);
  }
  [[nodiscard]] uint8_t operator()(char32_t c) const {
    return c >= kFirst && c <= kLast ? table_[c - kFirst] : compute(c);
  }

 private:
  static uint8_t compute(char32_t c) {
    const bool numeral = is_cn_numeral(c);
    const bool plain = !zh_logic_first(c) && c != U'人' && c != U'百' && c != U'第' && c != U'半' && !numeral;
    return static_cast<uint8_t>((plain ? kPlain : 0) | (org_stop(c) ? kStop : 0) | (org_suffix_start(c) ? kSuffix : 0) |
                                (numeral ? kNumeral : 0));
  }
  static constexpr char32_t kFirst = 0x4E00;
  static constexpr char32_t kLast = 0x9FFF;
  std::array<uint8_t, kLast - kFirst + 1> table_{};
};
const HanClass& han_class() {
  static const HanClass table;
  return table;
}

namespace {
// 一家造船公司, 两所大学, 那间医院: a count's or a demonstrative's measure word opens a description
// of no one in particular, not a name.
constexpr size_t kHan = 3;  // bytes of one character of U+4E00..U+9FFF

bool count_and_measure(const Src& src, size_t at) {
  constexpr std::string_view kCount[] = {"一", "二", "两", "三", "四", "五", "六", "七",
                                         "八", "九", "十", "几", "某", "每", "这", "那"};
  constexpr std::string_view kMeasure[] = {"家", "所", "间", "座", "个"};
  const std::string_view count = src.s.substr(at, kHan);
  const std::string_view measure = src.s.substr(at + kHan, kHan);
  return std::find(std::begin(kCount), std::end(kCount), count) != std::end(kCount) &&
         std::find(std::begin(kMeasure), std::end(kMeasure), measure) != std::end(kMeasure);
}

// Where a scan from p starts inside such a description (at the count, or at its measure word).
bool in_count_and_measure(const Src& src, size_t p) {
  return count_and_measure(src, p) || (p >= kHan && count_and_measure(src, p - kHan));
}

// Right after one ("一家" + "造船公司"): only a legal form names a company there.
bool after_count_and_measure(const Src& src, size_t p) { return p >= 2 * kHan && count_and_measure(src, p - 2 * kHan); }

// A numeral with a unit above ten (十二万, 一百二十): 分 after it is no count of points.
bool above_ten(std::string_view run) {
  constexpr int kTen = 10;
  for (size_t i = 0; i < run.size();) {
    const auto d = utf8::decode(run, i);
    if (cn_unit(d.cp) > kTen) return true;
    i += static_cast<size_t>(d.length);
  }
  return false;
}

// A numeral after a word of the clock or of hours (一小时二十分, 八点二十分): its 分 are minutes.
bool clock_before(const Src& src, size_t p) {
  if (p < kHan) return false;
  const std::string_view prev = src.s.substr(p - kHan, kHan);
  return prev == "时" || prev == "点" || prev == "头" || prev == "钟";
}

bool legal_form(std::string_view suffix) { return suffix.ends_with("有限公司") || suffix == "有限责任公司"; }
}  // namespace

// 和 at j joins two names where the word before it ends in a noun of people or bodies ("营员和清华大
// 学学生", "政府和联合国"); inside a name it follows other characters (北京协和医院, 共和国).
bool joins_names(Src& src, size_t j) {
  if (j < 3) return false;
  static constexpr std::u32string_view kNounEnds = U"员生者们众民府界士师";
  const char32_t prev = utf8::decode(src.s, j - 3).cp;
  return kNounEnds.find(prev) != std::u32string_view::npos;
}

size_t scan_org_name(Src& src, size_t p, Anchor& a) {
  constexpr int kMaxChars = 16;
  if (in_count_and_measure(src, p)) return 0;
  // No name starts with a conjunction or adverb ("但田管中心", "虽", "而") or a verb's second half (要求银行).
  static constexpr std::u32string_view kNoStart = U"但而虽且却又也就才求让把被令等";
  const char32_t first = src.cp(p).cp;
  if (kNoStart.find(first) != std::u32string_view::npos ||
      starts_in_verb(p >= kHan ? src.s.substr(p - kHan, 2 * kHan) : std::string_view{}, src.s.substr(p))) {
    return 0;
  }
  // 和 after a closing bracket or a digit joins what comes before: "叶玉如（2004年）和香港大学".
  if (first == U'和' && p > 0 &&
      (src.s[p - 1] == ')' || is_digit(src.s[p - 1]) || src.s.substr(0, p).ends_with("）"))) {
    return 0;
  }
  const bool described = after_count_and_measure(src, p);
  // Inside a failed scan's span: this scan would look at a subset of the same characters (a
  // suffix check at a position does not depend on the start) and stop at the same one, so it
  // fails too; it reports the earlier scan's reach, which covers what it would have read.
  if (p > src.org_from && p < src.org_to) {
    src.max_read = std::max(src.max_read, src.org_reach);
    return 0;
  }
  const HanClass& han = han_class();
  size_t j = p;
  bool plain = true;
  for (int n = 0; n < kMaxChars; ++n) {
    const auto d = src.cp(j);
    const uint8_t k = d.length > 0 ? han(d.cp) : 0;
    if (n >= 1 && (k & HanClass::kSuffix) != 0) {
      for (std::string_view suf : kOrgSuffixes) {
        if (src.match(j, suf)) {
          if (described && !legal_form(suf)) {  // and no scan from inside it names one either
            src.org_from = p;
            src.org_to = j + suf.size();
            src.org_reach = src.max_read;
            src.org_plain = false;  // each start inside still runs its other scans
            return 0;
          }
          if (holds_verb(src.s.substr(p, j - p))) return 0;  // a later start may still name one
          const size_t e = j + suf.size();
          // The centre of a city is no body; a longer name may still end later (洛阳市中心医院).
          if (src.s.substr(p, e - p).ends_with("市中心")) break;
          set_norm(a, Type::name, std::string(src.s.substr(p, e - p)));
          return e;
        }
      }
    }
    if (d.length == 0 || !is_han(d.cp) || (k & (HanClass::kStop | HanClass::kNumeral)) != 0 ||
        (d.cp == U'和' && joins_names(src, j))) {
      if (d.length > 0) {  // stopped by a character, not by the end of the text seen so far
        src.org_from = p;
        src.org_to = j;
        src.org_reach = src.max_read;
        src.org_plain = plain;
      }
      return 0;
    }
    if (n >= 1) plain = plain && (k & HanClass::kPlain) != 0;
    j += static_cast<size_t>(d.length);
  }
  return 0;
}

// The fraction of a Chinese decimal after its whole part ending at j: "点" and digit numerals
// ("三点五": 五), as ASCII digits in `frac`. Returns the end, or j when there is none ("一点点").
size_t cn_fraction(Src& src, size_t j, std::string& frac) {
  frac.clear();
  if (!src.match(j, "点")) return j;
  size_t k = j + 3;
  for (auto d = src.cp(k); d.length > 0 && cn_digit(d.cp) >= 0; d = src.cp(k)) {
    frac += static_cast<char>('0' + cn_digit(d.cp));
    k += static_cast<size_t>(d.length);
  }
  return frac.empty() ? j : k;
}

// "百分之二十", "百分之三点五", "百分之20", "百分之3.5" at p.
size_t scan_cn_percent(Src& src, size_t p, Anchor& a) {
  const size_t k = p + 9;
  size_t j = cn_numeral_run(src, k);
  uint64_t v = 0;
  std::string frac;
  if (j > k && cn_value(src.s.substr(k, j - k), v)) {
    j = cn_fraction(src, j, frac);
    set_norm(a, Type::percent, canonical_decimal(std::to_string(v), frac, 0) + "%");
  } else {
    j = digits_end(src, k);
    bool ok = false;
    std::string norm = j > k ? number_norm(src.s.substr(k, j - k), 0, ok) : std::string();
    if (!ok) return 0;
    set_norm(a, Type::percent, norm + "%");
  }
  a.value = std::strtod(a.norm.c_str(), nullptr);
  return j;
}

// After the whole part of a Chinese numeral ending at j: its fraction ("点五") and a magnitude
// after it ("三点五亿": 亿), as `frac` and a power of ten. Returns the end (j when no fraction);
// npos for "十一点五十", whose 五十 is a time's minutes: a fraction is digits only.
size_t cn_decimal_tail(Src& src, size_t j, std::string& frac, int& shift) {
  shift = 0;
  size_t m = cn_fraction(src, j, frac);
  if (m == j) return j;
  if (const auto d = src.cp(m); d.length > 0 && cn_unit(d.cp) > 0 && d.cp != U'万' && d.cp != U'亿') {
    return std::string_view::npos;
  }
  for (const auto& [word, power] : {std::pair<std::string_view, int>{"万亿", 12}, {"亿", 8}, {"万", 4}}) {
    if (src.match(m, word)) {
      shift = power;
      return m + word.size();
    }
  }
  return m;
}

// 第三款, 第二项 right after an article (at e): appended to its number as "(3)", "(2)".
size_t cn_clause_parts(Src& src, size_t e, std::string& num) {
  for (std::string_view part : {"款", "项"}) {
    if (!src.match(e, "第")) break;
    const size_t k = e + 3;
    size_t j = src.digits(k);
    uint64_t v = 0;
    if (j > k) {
      v = static_cast<uint64_t>(src.number_at(k, j));
    } else {
      j = cn_numeral_run(src, k);
      if (j == k || !cn_value(src.s.substr(k, j - k), v)) break;
    }
    if (!src.match(j, part)) break;
    num += "(" + std::to_string(v) + ")";
    e = j + part.size();
  }
  return e;
}

// "第3条", "第三款" (a clause), "第12位", "第三名" (an ordinal) at p.
size_t scan_cn_ordinal(Src& src, size_t p, Anchor& a) {
  const size_t k = p + 3;
  size_t j = src.digits(k);
  std::string num;
  if (j > k) {
    while (src.at(j) == '.' && is_digit(src.at(j + 1))) j = src.digits(j + 1);
    num = std::string(src.s.substr(k, j - k));
    const size_t nz = num.find_first_not_of('0');
    if (nz != std::string::npos && nz > 0) num.erase(0, nz);
  } else {
    j = cn_numeral_run(src, k);
    uint64_t v = 0;
    if (j == k || !cn_value(src.s.substr(k, j - k), v)) return 0;
    num = std::to_string(v);
  }
  for (std::string_view unit : kClauseUnitsZh) {
    if (src.match(j, unit)) {
      size_t e = j + unit.size();
      // 第十二条第三款第二项: the paragraph and item of the article, as English writes them ("12(3)(2)").
      if (unit == "条") e = cn_clause_parts(src, e, num);
      set_norm(a, Type::clause, num);
      return e;
    }
  }
  // An ordinal with its measure word: 第12位, 第三名, 第23次.
  std::string_view unit;
  if (size_t e = quantity_suffix(src, j, unit); e > j && num.find('.') == std::string::npos) {
    set_ordinal(a, num);
    return e;
  }
  // In digits an ordinal needs no measure word (一个第8, 排名第8): as 第8名. Not in numerals: 第一
  // begins words (第一时间: "at once").
  // After a word of ranking a numeral is a rank too: 排名第三, 位列第五.
  if (j == cn_numeral_run(src, k) && j > k && rank_word_before(src, p) && !is_han(src.cp(j).cp)) {
    set_ordinal(a, num);
    return j;
  }
  std::string_view span_unit;
  Anchor last;  // 第21、48和85分钟: minutes, as 第57分钟 is
  if (j > k && is_digit(src.at(k)) && num.find('.') == std::string::npos && !is_alnum(src.at(j)) &&
      (src.at(j) != kEnd || src.final) && duration_suffix(src, j, span_unit, true) == 0 &&
      !(cn_list_last(src, j, last) && last.type == Type::duration)) {  // 第57分钟: a minute
    set_ordinal(a, num);
    return j;
  }
  return 0;
}

// After 一 at m (lead: the text before it): whether 天, 日 or 年 there says which day or year, or the
// period of a rate, rather than a span of one. Waits (true) while a stream has not written the
// character after the unit.
bool one_unit_names_no_span(Src& src, std::string_view lead, size_t m) {
  const bool day = src.match(m, "天") || src.match(m, "日");
  if (!day && !src.match(m, "年")) return false;
  for (std::string_view w : {"同", "这", "那", "每", "某"}) {
    if (day && lead.ends_with(w)) return true;
  }
  if ((lead.ends_with("前") && !lead.ends_with("提前")) || lead.ends_with("最后")) return true;
  // "in a year" only where it opens its clause: 过去一年中, 近一年里 are the span of the past year.
  const bool opens_clause = lead.empty() || lead.ends_with("，") || lead.ends_with("。") || lead.ends_with("；") ||
                            lead.ends_with("\n") || lead.ends_with("：");
  if (!opens_clause) return false;
  const auto next = src.cp(m + 3);
  if (next.length == 0) return !src.final;
  return next.cp == U'中' || next.cp == U'里';
}

// Whether a run of numerals at p is a word or states no value: 万一 ("in case"), 数千名 ("several
// thousand").
bool cn_run_states_no_value(const Src& src, size_t p, std::string_view run) {
  // 万一 ("in case"), 万万, 亿万: a run that opens with 万 or 亿 is a word, but 万亿 is a trillion,
  // and 亿 or 万 alone after a bound is one of it ("超过亿元", "逾万人": 1亿, 1万).
  if ((run.starts_with("万") && !run.starts_with("万亿")) || run.starts_with("亿")) {
    const std::string_view lead = src.s.substr(0, p);
    // Only after the words the rounding rule reads (rounded.cpp): 上万, 过亿, 成千上万 are idioms.
    const bool bound = lead.ends_with("超过") || lead.ends_with("逾") || lead.ends_with("近") || lead.ends_with("约") ||
                       lead.ends_with("超");
    if (run.size() != 3 || !bound) return true;
  }
  // 数千名, 几百人, 十几个: "several thousand", "some hundreds", "ten-odd" state no value.
  const char32_t before = p >= 3 ? utf8::decode(src.s, p - 3).cp : 0;
  if ((before == U'数' || before == U'几') &&
      (run.starts_with("十") || run.starts_with("百") || run.starts_with("千"))) {
    return true;
  }
  return false;
}

// A run of Chinese numerals at p with what follows it: 元 (an amount), a duration, a measure word,
// or a bare number of two characters or more with a unit; 0 when none of them.
size_t scan_cn_numeral(Src& src, size_t p, Anchor& a) {
  // Inside a run whose start read as no value ("三五天", three to five days): no value from its
  // tail either.
  // ... except after a weekday (周一三点, 星期三五点: Monday, three o'clock).
  if (p >= 3 && is_cn_numeral(utf8::decode(src.s, p - 3).cp)) {
    const char32_t before = p >= 6 ? utf8::decode(src.s, p - 6).cp : 0;
    if (before != U'周' && before != U'期' && before != U'拜') return 0;
  }
  const size_t j = cn_numeral_run(src, p);
  uint64_t v = 0;
  const std::string_view run = src.s.substr(p, j - p);
  if (cn_run_states_no_value(src, p, run)) return 0;
  if (src.match(j, "几")) return 0;
  if (j > p && !cn_value(run, v)) return scan_cn_range_amount(src, run, j, a);
  if (j <= p) return 0;
  if (size_t e = scan_cn_numeral_date(src, p, j, v, a)) return e;
  if (size_t e = scan_cn_time(src, p, j, v, a)) return e;
  std::string frac;
  int shift = 0;
  size_t m = cn_decimal_tail(src, j, frac, shift);  // "三点五亿": 3.5 x 10^8
  if (m == std::string_view::npos) m = j;           // "十一点五十": the whole part alone
  const bool decimal = m > j;
  std::string norm = decimal ? canonical_decimal(std::to_string(v), frac, shift) : std::to_string(v);
  a.value = std::strtod(norm.c_str(), nullptr);
  if (!decimal) {
    if (size_t e = scan_cn_tenths(src, j, v, a)) return e;
  }
  std::string_view unit;
  if (size_t e = currency_suffix(src, m, unit); e > 0 && src.at(m) != ' ') {  // 五百元, 三亿美元
    set_norm(a, Type::amount, norm + " " + std::string(unit));
    return e;
  }
  // N日 is a span after a word of duration (一连三日, 为期五日), elsewhere a day of the month as often.
  const std::string_view lead = src.s.substr(0, p);
  const bool span_word = lead.ends_with("一连") || lead.ends_with("连续") || lead.ends_with("为期") ||
                         lead.ends_with("历时") || lead.ends_with("长达") || lead.ends_with("接连");
  // 同一天, 这一天, 每一天: which day, or every day, not a span of one; nor 前一天, 此前一天, 最后一年 (the
  // one before, the last), though 提前一天 is; nor 一年中, 一天里 opening a clause ("in a year", a rate's
  // period).
  if (run == "一" && one_unit_names_no_span(src, lead, m)) return 0;
  if (size_t e = duration_suffix(src, m, unit, true);
      e > 0 && (!src.match(m, "日") || (!decimal && run.size() > 3) || span_word)) {
    if (size_t h = cn_and_a_half(src, e, unit, norm, a.value, a)) return h;  // 一年半
    set_norm(a, Type::duration, norm + " " + std::string(unit));
    return e;
  }
  // A count with its measure word (两名, 三家, 十二台); not 一 alone (一个, 一次 are mostly words)
  // nor 分 after one character (十分: "very"; 几分), nor 十二分的 ("with all one's"): 落后十一分 is points.
  const size_t counted = quantity_suffix(src, m, unit);
  if (counted > 0 && unit == "个") {
    if (size_t h = cn_and_a_half(src, counted, unit, norm, a.value, a)) return h;  // 两个半小时, 一个半月
    if (size_t h = cn_count_and_more(src, counted, unit, norm, a)) return h;       // 七个多月
  }
  const bool points = unit == "分" && run.size() >= 2 * kHan && !above_ten(run) &&
                      !(run == "十二" && src.match(counted, "的")) && !clock_before(src, p) &&
                      !src.match(counted, "秒") && !src.match(counted, "钟");
  if (size_t e = counted; e > 0 && (decimal || run != "一") && (unit != "分" || points) && unit != "字") {
    if (!decimal && (second_ordinal(src, p, m) || rank_without_ordinal(src, p, m))) {  // 分列第二、三名
      set_ordinal(a, norm);
      return e;
    }
    set_norm(a, Type::quantity, norm + " " + std::string(unit));
    return e;
  }
  // A decimal, or at least two characters with a unit (三千五百): a number on its own.
  if (decimal || (run.size() >= 6 && has_cn_unit(run))) {
    set_norm(a, Type::number, std::move(norm));
    return m;
  }
  return 0;
}

}  // namespace

// At a Han character c0 (complete, at p): the keyword matchers run only for their first characters.
size_t scan_han(Src& src, size_t p, char32_t c0, Anchor& a) {
  if (c0 == U'半') {
    if (size_t e = scan_cn_half(src, p, a)) return e;
  }
  if ((han_class()(c0) & HanClass::kPlain) != 0) return scan_org_name(src, p, a);
  if (zh_logic_first(c0)) {
    for (const auto& w : kZhLogic) {
      if (src.match(p, w.text)) {
        set_norm(a, Type::logic, std::string(w.norm));
        return p + w.text.size();
      }
    }
  }
  if (c0 == U'人' && src.match(p, "人民币")) {
    if (size_t e = scan_prefixed_amount(src, p, a)) return e;
  }
  if (c0 == U'百' && src.match(p, "百分之")) return scan_cn_percent(src, p, a);
  if (c0 == U'第') return scan_cn_ordinal(src, p, a);
  if (is_cn_numeral(c0)) {
    if (size_t e = scan_cn_numeral(src, p, a)) return e;
  }
  return scan_org_name(src, p, a);
}

}  // namespace sfcl::anchor::lex
