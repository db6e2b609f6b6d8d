// Values a bare number would split: a count or measure with its unit or measure word ("6台",
// "6 units", "3.1万吨"), an ordinal ("12th", "第12位"), a score ("27-24", "3比1", "17胜6负"). Each
// is compared as one value: its number alone is often stated elsewhere in the same text.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "anchor/lexer_words.h"

namespace sfcl::anchor::lex {

namespace {
// Which English units start with each letter (either case), two 64-bit masks in table order, and
// the first character of each Chinese one: a number is followed by one of a few candidates at most.
using EnMask = std::array<uint64_t, 2>;
constexpr std::array<EnMask, 26> kEnFirst = [] {
  static_assert(kQuantityUnitsEn.size() <= 128);
  std::array<EnMask, 26> m{};
  for (size_t i = 0; i < kQuantityUnitsEn.size(); ++i) {
    const int c = to_lower(static_cast<unsigned char>(kQuantityUnitsEn[i].text[0]));
    m[static_cast<size_t>(c - 'a')][i / 64] |= uint64_t{1} << (i % 64);
  }
  return m;
}();
// Which units of measure start with each byte (case-sensitive, as they are matched).
constexpr std::array<uint64_t, 256> kMeasureFirst = [] {
  static_assert(kMeasureUnitsEn.size() <= 64);
  std::array<uint64_t, 256> m{};
  for (size_t i = 0; i < kMeasureUnitsEn.size(); ++i) {
    m[static_cast<unsigned char>(kMeasureUnitsEn[i].text[0])] |= uint64_t{1} << i;
  }
  return m;
}();
constexpr char32_t first_char(std::string_view w) {  // a 3-byte character
  return static_cast<char32_t>(((static_cast<unsigned char>(w[0]) & 0x0F) << 12) |
                               ((static_cast<unsigned char>(w[1]) & 0x3F) << 6) |
                               (static_cast<unsigned char>(w[2]) & 0x3F));
}
constexpr std::array<char32_t, kQuantityUnitsZh.size()> kZhFirst = [] {
  std::array<char32_t, kQuantityUnitsZh.size()> f{};
  for (size_t i = 0; i < f.size(); ++i) f[i] = first_char(kQuantityUnitsZh[i].text);
  return f;
}();
}  // namespace

size_t measure_suffix(Src& src, size_t j, std::string_view& unit) {
  size_t k = j;
  if (src.at(k) == ' ') k = src.skip_spaces(k);
  const int c = src.at(k);
  if (c == kEnd) return 0;
  // Table order is kept (a longer unit before the one it begins with): the mask keeps it.
  for (uint64_t bits = kMeasureFirst[static_cast<size_t>(c)]; bits != 0; bits &= bits - 1) {
    const auto& u = kMeasureUnitsEn[static_cast<size_t>(std::countr_zero(bits))];
    // A one-letter unit stands apart ("5 g", "2 L"): glued it is a name ("4g network", "27L").
    if ((k == j && u.text.size() == 1) || !src.match(k, u.text)) continue;
    const size_t e = k + u.text.size();
    // "5 m" but not "5 meetings"; a symbol may end in a non-letter ("37.5°C").
    if (src.word_end(e)) {
      unit = u.unit;
      return e;
    }
  }
  return 0;
}

namespace {
// Whether `w` is written at e: yes, no, or wait (a stream has not written enough to tell).
Compared written_at(Src& src, size_t e, std::string_view w) {
  for (size_t i = 0; i < w.size(); ++i) {
    const int c = src.at(e + i);
    if (c == kEnd) return src.final ? Compared::no : Compared::wait;
    if (to_lower(c) != static_cast<unsigned char>(w[i])) return Compared::no;
  }
  return Compared::yes;
}

// "as large as", "the runner-up's": a word between two fixed words at e (`w` then a word then `end`).
Compared word_between(Src& src, size_t e, std::string_view w, std::string_view end) {
  const Compared first = written_at(src, e, w);
  if (first != Compared::yes) return first;
  size_t k = e + w.size();
  while (is_alpha(src.at(k)) || src.at(k) == '-') ++k;
  if (k == e + w.size()) return src.at(k) == kEnd && !src.final ? Compared::wait : Compared::no;
  if (src.at(k) == kEnd && !src.final) return Compared::wait;
  return written_at(src, k, end);
}
}  // namespace

Compared times_compared(Src& src, size_t e) {
  Compared how = word_between(src, e, " as ", " as");  // "as large as"
  if (how == Compared::yes) return how;
  bool wait = how == Compared::wait;
  // "3 times the runner-up's", "twice the city's": a multiple of what someone has.
  for (std::string_view end : {"'s", "\u2019s"}) {
    how = word_between(src, e, " the ", end);
    if (how == Compared::yes) return how;
    wait = wait || how == Compared::wait;
  }
  for (std::string_view w :
       {" as many",  " as much",     " more than", " larger",  " higher",   " greater",    " bigger",     " faster",
        " longer",   " smaller",     " lower",     " that of", " the size", " the number", " the amount", " the level",
        " the rate", " the average", " the value", " what ",   " its ",     " their "}) {
    how = written_at(src, e, w);
    if (how == Compared::yes) return how;
    wait = wait || how == Compared::wait;
  }
  return wait ? Compared::wait : Compared::no;
}

size_t quantity_suffix(Src& src, size_t j, std::string_view& unit) {
  if (size_t e = measure_suffix(src, j, unit)) return e;
  const int c = src.at(j);
  if (c == ' ' || c == '-') {  // "4 stars", and the compound "4-star", "26-point"
    const size_t k = c == ' ' ? src.skip_spaces(j) : j + 1;
    const int l = src.at(k);
    if (!is_alpha(l)) return 0;
    const EnMask& mask = kEnFirst[static_cast<size_t>(to_lower(l) - 'a')];
    for (size_t half = 0; half < 2; ++half) {
      for (uint64_t bits = mask[half]; bits != 0; bits &= bits - 1) {
        const auto& u = kQuantityUnitsEn[half * 64 + static_cast<size_t>(std::countr_zero(bits))];
        if (src.match_ci(k, u.text) && src.word_end(k + u.text.size())) {
          unit = u.unit;
          // "3 times as much", "3 times the size": a multiple, as 3倍 is, not how often.
          if (unit == "次") {
            const Compared how = times_compared(src, k + u.text.size());
            if (how == Compared::wait) return 0;
            if (how == Compared::yes) unit = "倍";
          }
          return k + u.text.size();
        }
      }
    }
    return 0;
  }
  if (c < 0xE0) return 0;  // every measure word is Han (a 3-byte character)
  const auto d = src.cp(j);
  if (d.length != 3) return 0;
  for (size_t i = 0; i < kQuantityUnitsZh.size(); ++i) {
    if (kZhFirst[i] != d.cp) continue;
    const auto& u = kQuantityUnitsZh[i];
    if (!src.match(j, u.text)) continue;
    const size_t e = j + u.text.size();
    // minutes, fractions, and 分别 ("以0：2分别负于": "respectively")
    // ... but 3分之差 is a margin of 3 points; 3分球 is a kind of shot (a three-pointer), no points.
    if (u.text == "分" && (src.match(e, "钟") || (src.match(e, "之") && !src.match(e, "之差")) || src.match(e, "别") ||
                           src.match(e, "球"))) {
      return 0;
    }
    // 克 after a number is grams, not the first character of 克拉 (carats), 克隆, 克服, 克里斯.
    if (u.text == "克" && (src.match(e, "拉") || src.match(e, "隆") || src.match(e, "服") || src.match(e, "里"))) {
      return 0;
    }
    // 升 after a number is litres, unless it is the verb "rise" (3升至5, 升为, 升到).
    if (u.text == "升" && (src.match(e, "至") || src.match(e, "为") || src.match(e, "到") || src.match(e, "高") ||
                           src.match(e, "级") || src.match(e, "值") || src.match(e, "幅"))) {
      return 0;
    }
    // 球 counts goals, not the first character of 球迷 (fans), 球队, 球员, 球场, 球星 ...
    if (u.text == "球") {
      static constexpr std::u32string_view kBallWords = U"迷队员场星衣票鞋赛拍馆技风会";
      const auto n = src.cp(e);
      if (n.length > 0 && kBallWords.find(n.cp) != std::u32string_view::npos) return 0;
    }
    // 环 counts the rings an archer or shooter scores (射出17环), not 环节, 环境, 环保, 环比, 二环路.
    if (u.text == "环") {
      static constexpr std::u32string_view kRingWords = U"节境保比球线路绕卫形";
      const auto n = src.cp(e);
      if (n.length > 0 && kRingWords.find(n.cp) != std::u32string_view::npos) return 0;
    }
    // 口 counts people (一家五口, 三口之家), not wells or pots (3口井, 两口锅).
    if (u.text == "口") {
      static constexpr std::u32string_view kThingWords = U"井锅缸棺袋箱罐池塘钟气水";
      const auto n = src.cp(e);
      if (n.length > 0 && kThingWords.find(n.cp) != std::u32string_view::npos) return 0;
    }
    unit = u.unit;
    return e;
  }
  return 0;
}

namespace {
// Whole number of at most three digits from i: its end, or i.
size_t small_integer(Src& src, size_t i) {
  const size_t e = src.digits(i);
  return e > i && e - i <= 3 ? e : i;
}
}  // namespace

size_t scan_score(Src& src, size_t p, Anchor& a) {
  const size_t n1 = small_integer(src, p);
  if (n1 == p) return 0;
  size_t sep = 0;
  std::string_view kind;
  if (is_dash_at(src, n1, sep)) {
    // Ages ("aged 45–85", "ages 18-30") are a range of two numbers, not a score.
    const std::string_view lead = src.s.substr(0, p);
    for (std::string_view w : {"aged ", "Aged ", "ages ", "Ages ", "age ", "Age "}) {
      if (lead.ends_with(w)) return 0;
    }
  } else {
    if (src.match(n1, "胜")) {
      kind = "负";  // a record: 17胜6负
    } else if (src.at(n1) == ':' && is_digit(src.at(n1 + 1))) {  // "109:87": a time there is read first
      sep = 1;
    } else if (!src.match(n1, "比") && !src.match(n1, "：")) {  // 3比1, 65：76
      return 0;
    }
    if (sep == 0) sep = 3;
  }
  const size_t n2 = small_integer(src, n1 + sep);
  if (n2 == n1 + sep || is_digit(src.at(n2))) return 0;
  size_t end = n2;
  if (!kind.empty()) {
    if (!src.match(n2, kind)) return 0;
    end = n2 + kind.size();
  } else {
    // A range of values with a unit ("3-5 years", "10–20%", "12–15 June"), a decimal, or a longer
    // chain ("1-800-555") is not a score.
    const int c = src.at(n2);
    size_t len = 0;
    if (c == '%' || is_alpha(c) || is_dash_at(src, n2, len) || c == ':') return 0;
    if ((c == '.' || c == ',') && is_digit(src.at(n2 + 1))) return 0;
    if (c == kEnd && !src.final) return 0;
    std::string_view unit;
    if (duration_suffix(src, n2, unit, true) != 0 || quantity_suffix(src, n2, unit) != 0 ||
        percent_suffix(src, n2) != 0 || multiplier(src, n2).end != n2) {
      return 0;
    }
    std::string_view code;
    if (currency_suffix(src, n2, code) != 0) return 0;
    if (src.match(n2, "月") || src.match(n2, "日") || src.match(n2, "号")) return 0;  // 1—8月份: months
    int month = 0;
    if (src.at(n2) == ' ' && month_name(src, src.skip_spaces(n2), month) != 0) return 0;
  }
  // A side with a leading zero ("Measure 24-07") is a code, not a score: kept whole, as written.
  const bool code = (n1 - p > 1 && src.s[p] == '0') || (n2 - n1 - sep > 1 && src.s[n1 + sep] == '0');
  if (code && kind.empty()) {
    set_norm(a, Type::identifier, std::string(src.s.substr(p, n2 - p)));
    return n2;
  }
  std::string norm(src.s.substr(p, n1 - p));
  norm += '-';
  norm += src.s.substr(n1 + sep, n2 - n1 - sep);
  if (!kind.empty()) norm += " w-l";
  set_norm(a, Type::score, std::move(norm));
  return end;
}

// Whether ordinals after one "第" stand right before p, each followed by "、" or a joining word
// ("第二、三名", "第1、2和3名").
bool ordinal_list_before(const Src& src, size_t p) {
  constexpr size_t kMaxDigits = 4;
  constexpr int kMaxItems = 12;
  size_t k = p;
  for (int item = 0; item < kMaxItems; ++item) {
    size_t sep = 0;
    for (std::string_view w : {"、", "和", "与", "及"}) {
      if (k >= w.size() && src.s.substr(k - w.size(), w.size()) == w) sep = w.size();
    }
    if (sep == 0) return false;
    k -= sep;
    const size_t item_end = k;
    for (size_t n = 0; n < kMaxDigits && k > 0; ++n) {
      if (is_digit(src.s[k - 1])) {
        --k;
      } else if (k >= 3 && is_cn_numeral(utf8::decode(src.s, k - 3).cp)) {
        k -= 3;
      } else {
        break;
      }
    }
    if (k == item_end) return false;
    if (k >= 3 && src.s.substr(k - 3, 3) == "第") return true;
  }
  return false;
}

bool second_ordinal(const Src& src, size_t p, size_t measure_at) {
  // Rank words only, as written (名 reads as 人): "他获得第一、三人获得第二" counts people.
  static constexpr std::string_view kRanks[] = {"名", "位", "届", "期", "季", "轮", "等", "次", "场", "局"};
  const std::string_view measure = src.s.substr(std::min(measure_at, src.s.size()), 3);
  if (std::find(std::begin(kRanks), std::end(kRanks), measure) == std::end(kRanks)) return false;
  return ordinal_list_before(src, p);
}

// Whether a word of ranking stands right before p: "世界排名159位", "排名第三", "位列第5".
bool rank_word_before(const Src& src, size_t p) {
  const std::string_view lead = src.s.substr(0, std::min(p, src.s.size()));
  for (std::string_view w : {"排名", "位列", "名列", "排位", "列第"}) {
    // Not 安排名单 ("a list of arrangements").
    if (lead.ends_with(w) && !lead.substr(0, lead.size() - w.size()).ends_with("安")) return true;
  }
  return false;
}

// "世界排名159位": a rank written without 第 is the rank 第159位, not 159 people.
bool rank_without_ordinal(Src& src, size_t p, size_t measure_at) {
  const std::string_view measure = src.s.substr(std::min(measure_at, src.s.size()), 3);
  if ((measure != "名" && measure != "位") || !rank_word_before(src, p)) return false;
  // "排名10位以外": beyond a rank, not at it.
  for (std::string_view w : {"之后", "以后", "以外", "之外", "以内", "之内", "左右", "以下", "以上"}) {
    if (src.match(measure_at + 3, w)) return false;  // reads on as far as the text goes (a stream waits)
  }
  return true;
}

// "三成", "3成", "七成半", "三成五" after a count of tenths (1-10) ending at j: a percentage (30%, 75%,
// 35%), as the sources may write it either way. Not in words that begin with 成 (三成为, 一成不变).
size_t scan_cn_tenths(Src& src, size_t j, uint64_t tenths, Anchor& a) {
  if (tenths < 1 || tenths > 10 || !src.match(j, "成")) return 0;
  // ... nor 八成是, 九成会 ("probably").
  static constexpr std::u32string_view kWordsOf成 =
      U"为功立员本绩果就交熟长年人都分型形品效语群片批套对倍不事全名家像亲活天是会要能";
  size_t e = j + 3;
  uint64_t percent = tenths * 10;
  const auto next = src.cp(e);
  if (next.length == 0 && !src.final) return 0;  // what follows decides: wait for it
  if (kWordsOf成.find(next.cp) != std::u32string_view::npos) return 0;
  // 七成半, 三成五, where the 半 or digit ends the word (三成一线城市 is 30% of first-tier cities).
  const auto ends_word = [&](size_t at) {
    const auto d = src.cp(at);
    return d.length == 0 || !is_han(d.cp) || d.cp == U'的' || d.cp == U'以' || d.cp == U'左' || d.cp == U'上';
  };
  if (next.cp == U'半' && tenths < 10 && ends_word(e + 3)) {
    percent += 5;
    e += 3;
  } else if (const int d = cn_digit(next.cp); d > 0 && tenths < 10 && ends_word(e + static_cast<size_t>(next.length))) {
    percent += static_cast<uint64_t>(d);
    e += static_cast<size_t>(next.length);
  }
  set_norm(a, Type::percent, std::to_string(percent) + "%");
  a.value = static_cast<double>(percent);
  return e;
}

void set_ordinal(Anchor& a, std::string_view digits) {
  size_t nz = 0;
  while (nz + 1 < digits.size() && digits[nz] == '0') ++nz;
  std::string norm = "#";  // `digits` may be a view of a.norm
  norm += digits.substr(nz);
  a.type = Type::quantity;
  a.norm = std::move(norm);
  a.value = std::strtod(a.norm.c_str() + 1, nullptr);
}

namespace {
// "40万零6手": a whole number of 万 or 亿, 零, and the units below it (400006). 0 when the digits after
// 零 are not a whole number of at most four digits, or a magnitude follows them (1亿零500万 is read
// as 1亿 and 500万).
size_t magnitude_and_units(Src& src, size_t p, size_t j, const Multiplier& mult, Anchor& a) {
  constexpr size_t kMaxUnits = 4;
  constexpr size_t kMaxWhole = 8;  // digits before 万 or 亿: the value stays well inside uint64_t
  const size_t d = mult.end + std::string_view("零").size();
  const size_t e = src.digits(d);
  if (j - p > kMaxWhole || e == d || e - d > kMaxUnits || src.at(e) == '.' || src.at(e) == ',' || src.match(e, "万") ||
      src.match(e, "亿") || src.match(e, "千") || src.match(e, "百")) {
    return 0;
  }
  const double whole = src.number_at(p, j);
  const double units = src.number_at(d, e);
  a.value = whole * std::pow(10.0, mult.shift) + units;
  std::string norm = std::to_string(static_cast<uint64_t>(a.value));
  std::string_view unit;
  if (size_t c = currency_suffix(src, e, unit)) {
    set_norm(a, Type::amount, norm + " " + std::string(unit));
    return c;
  }
  if (size_t q = quantity_suffix(src, e, unit)) {
    set_norm(a, Type::quantity, norm + " " + std::string(unit));
    return q;
  }
  set_norm(a, Type::number, std::move(norm));
  return e;
}

// "80块钱", "3块45", "2块2", "3块5毛": yuan said aloud, the digits after 块 its jiao and fen (3.45元,
// 2.2元). Not 块 as a measure word ("3块蛋糕" counts pieces), nor before more digits or a unit.
size_t colloquial_yuan(Src& src, size_t p, size_t j, Anchor& a) {
  if (!src.match(j, "块")) return 0;
  std::string raw(src.s.substr(p, j - p));
  size_t e = j + 3;
  if (src.match(e, "钱")) {
    e += 3;
  } else {
    const size_t d = src.digits(e);
    std::string_view unit;
    if (d == e || d - e > 2 || src.at(d) == '.' || src.at(d) == ',' || quantity_suffix(src, d, unit) != 0) return 0;
    raw.append(".").append(src.s.substr(e, d - e));
    e = d;
    if (d - j == 4 && (src.match(e, "毛") || src.match(e, "角"))) e += 3;  // 3块5毛
  }
  bool ok = false;
  const std::string norm = number_norm(raw, 0, ok);
  if (!ok) return 0;
  set_norm(a, Type::amount, norm + " CNY");
  a.value = std::strtod(norm.c_str(), nullptr);
  return e;
}
}  // namespace

// "3万5", "1亿2": a whole number of 万 or 亿 and one more digit, said short for 3.5万 and 1.2亿, as
// 三万五 is (the digit after it is the next unit down). Not before another digit, a decimal
// point, a smaller magnitude (3万5千 is read as 3万 and 5千) or a unit of its own ("3万5人" is as
// often two numbers). Yuan said aloud too (colloquial_yuan).
size_t colloquial_magnitude(Src& src, size_t p, size_t j, const Multiplier& mult, Anchor& a) {
  if (mult.shift == 0 && src.digits(p) == j) {
    if (const size_t e = colloquial_yuan(src, p, j, a)) return e;
  }
  if ((mult.shift == 4 || mult.shift == 8) && src.digits(p) == j && src.match(mult.end, "零")) {
    return magnitude_and_units(src, p, j, mult, a);
  }
  if ((mult.shift != 4 && mult.shift != 8) || src.digits(p) != j || !is_digit(src.at(mult.end))) return 0;
  const size_t e = mult.end + 1;
  const int after = src.at(e);
  if (is_digit(after) || after == '.' || after == ',' || src.match(e, "千") || src.match(e, "百") ||
      src.match(e, "万") || src.match(e, "亿")) {
    return 0;
  }
  std::string_view unit;
  if (quantity_suffix(src, e, unit) != 0) return 0;
  std::string raw(src.s.substr(p, j - p));
  raw.push_back('.');
  raw.push_back(src.s[mult.end]);
  bool ok = false;
  const std::string norm = number_norm(raw, mult.shift, ok);
  if (!ok) return 0;
  std::string_view code;
  if (size_t c = currency_suffix(src, e, code)) {  // "3万5元"
    set_norm(a, Type::amount, norm + " " + std::string(code));
    a.value = std::strtod(norm.c_str(), nullptr);
    return c;
  }
  set_norm(a, Type::number, norm);
  a.value = std::strtod(norm.c_str(), nullptr);
  return e;
}

// "6×9cm", "6 × 9 cm", "6 x 9 mm", "6×9厘米": the first side of dimensions is a measure in the unit
// written after the last (its end stays at j: the other side is read on its own). 0 when none.
bool dimension_unit(Src& src, size_t j, std::string_view& unit) {
  size_t k = j;
  const bool spaced = src.at(k) == ' ';
  if (spaced) ++k;
  if (src.match(k, "×")) {
    k += std::string_view("×").size();
  } else if (spaced && (src.at(k) == 'x' || src.at(k) == 'X') && src.at(k + 1) == ' ') {
    ++k;
  } else {
    return false;
  }
  if (src.at(k) == ' ') ++k;
  const size_t d = digits_end(src, k);
  if (d == k || quantity_suffix(src, d, unit) == 0) return false;
  UnitScale scale;
  return unit_scale(unit, scale);  // a unit of measure, not a count ("6×9 people" states no size)
}

size_t cn_count_and_more(Src& src, size_t e, std::string_view unit, const std::string& norm, Anchor& a) {
  if (unit != "个" || !src.match(e, "多")) return 0;
  std::string_view duration;
  size_t end = e + 3;
  if (src.match(end, "月")) {
    duration = "month";
    end += 3;
  } else if (size_t d = duration_suffix(src, end, duration, false); d > 0 && duration != "day") {
    end = d;
  } else {
    return 0;
  }
  // 多 says "over": the rounding rule reads it after the count (verify/rounded.cpp).
  set_norm(a, Type::duration, norm + " " + std::string(duration));
  return end;
}

}  // namespace sfcl::anchor::lex
