// Halves of a unit of time in Chinese: "半年", "半小时", "半个月" alone, and after a count
// ("一年半", "两个半小时", "1年半").
#include <string>
#include <string_view>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "util/utf8.h"

namespace sfcl::anchor::lex {

size_t cn_and_a_half(Src& src, size_t e, std::string_view unit, const std::string& norm, double value, Anchor& a) {
  if (norm.find('.') != std::string::npos || !src.match(e, "半")) return 0;
  std::string_view duration = unit;
  size_t end = e + 3;
  if (unit == "个") {  // 两个半小时, 三个半月
    if (src.match(end, "月")) {
      duration = "month";
      end += 3;
    } else if (size_t d = duration_suffix(src, end, duration, false)) {
      end = d;
    } else {
      return 0;
    }
    if (duration == "day") return 0;  // 三个半天: three half-days
  } else if (const auto d = src.cp(end); d.length > 0 && is_han(d.cp)) {
    // The 半 ends the duration: not 一年半载 ("a year or so"), 5年半导体 (semiconductors), 两年半岛
    // (peninsula), 5天半价 (half price).
    static constexpr std::u32string_view kAfter = U"的后前内里了时多以左来，。、；";
    if (kAfter.find(d.cp) == std::u32string_view::npos) return 0;
  }
  set_norm(a, Type::duration, norm + ".5 " + std::string(duration));
  a.value = value + 0.5;
  return end;
}

// "半年", "半小时", "半个月", "半天": half of one unit. Not 上半年, 下半年, 前半天 (a part of a period),
// 大半年 (most of a year), nor 半年报, 半年度 (a report, a reporting period).
size_t scan_cn_half(Src& src, size_t p, Anchor& a) {
  if (p >= 3) {
    const std::string_view before = src.s.substr(p - 3, 3);
    for (std::string_view w : {"上", "下", "前", "后", "大", "多"}) {
      if (before == w) return 0;
    }
  }
  std::string_view unit;
  const size_t e = duration_suffix(src, p + 3, unit, true);
  if (e == 0 || unit == "second" || src.match(e, "报") || src.match(e, "度") || src.match(e, "刊")) return 0;
  set_norm(a, Type::duration, "0.5 " + std::string(unit));
  a.value = 0.5;
  return e;
}

}  // namespace sfcl::anchor::lex
