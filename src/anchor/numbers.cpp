// Number normalisation: separators, decimal commas, multipliers, Chinese numerals.
#include <cstring>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "util/utf8.h"

namespace sfcl::anchor {

std::string canonical_decimal(std::string_view int_digits, std::string_view frac_digits, int shift) {
  // digits = int + frac, decimal point after (len(int) + shift) digits.
  std::string digits;
  digits.reserve(int_digits.size() + frac_digits.size() + 8);
  digits.append(int_digits);
  digits.append(frac_digits);
  long point = static_cast<long>(int_digits.size()) + shift;
  if (point < 0) {
    digits.insert(0, static_cast<size_t>(-point), '0');
    point = 0;
  }
  while (static_cast<long>(digits.size()) < point) digits.push_back('0');
  std::string ip = digits.substr(0, static_cast<size_t>(point));
  std::string fp = digits.substr(static_cast<size_t>(point));
  size_t nz = ip.find_first_not_of('0');
  ip = nz == std::string::npos ? "0" : ip.substr(nz);
  while (!fp.empty() && fp.back() == '0') fp.pop_back();
  return fp.empty() ? ip : ip + "." + fp;
}

// Splits "1,000.50" / "1.000,50" / "12,5" into integer and fraction digits.
bool split_number(std::string_view text, std::string& int_digits, std::string& frac_digits) {
  int_digits.clear();
  frac_digits.clear();
  if (text.empty() || !is_digit(text.front()) || !is_digit(text.back())) return false;
  size_t n_comma = 0;
  size_t n_dot = 0;
  size_t last_sep = std::string_view::npos;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ',') {
      ++n_comma;
      last_sep = i;
    } else if (c == '.') {
      ++n_dot;
      last_sep = i;
    } else if (!is_digit(c)) {
      return false;
    }
  }
  auto groups_of_three_after = [&](char sep, size_t until) {
    // every group after the first separator `sep` up to `until` has exactly 3 digits
    size_t first = text.find(sep);
    if (first == std::string_view::npos || first == 0 || first > 3) return false;
    size_t i = first;
    while (i < until) {
      size_t j = i + 1;
      while (j < until && is_digit(text[j])) ++j;
      if (j - i - 1 != 3) return false;
      i = j;
      if (i < until && text[i] != sep) return false;
    }
    return true;
  };
  char decimal = 0;
  if (n_comma > 0 && n_dot > 0) {
    decimal = text[last_sep];
    const char thousands = decimal == '.' ? ',' : '.';
    if (std::memchr(text.data() + last_sep + 1, thousands, text.size() - last_sep - 1) != nullptr) return false;
    if ((decimal == '.' ? n_dot : n_comma) != 1) return false;
    if (!groups_of_three_after(thousands, last_sep)) return false;
  } else if (n_comma > 0) {
    if (groups_of_three_after(',', text.size())) {
      decimal = 0;
    } else if (n_comma == 1 && text.size() - last_sep - 1 <= 2) {
      decimal = ',';  // "12,5": a decimal comma, since thousands groups have 3 digits
    } else {
      return false;
    }
  } else if (n_dot > 0) {
    if (n_dot == 1) {
      decimal = '.';
    } else if (groups_of_three_after('.', text.size())) {
      decimal = 0;  // "1.000.000"
    } else {
      return false;  // "1.2.3" is a version or clause number, not a decimal
    }
  }
  bool in_frac = false;
  for (char c : text) {
    if (is_digit(c)) {
      (in_frac ? frac_digits : int_digits).push_back(c);
    } else if (c == decimal) {
      in_frac = true;
    }
  }
  return true;
}

bool normalize_number(std::string_view text, std::string& out) {
  std::string ip;
  std::string fp;
  if (!split_number(text, ip, fp)) return false;
  out = canonical_decimal(ip, fp, 0);
  return true;
}

int cn_digit(char32_t c) {
  switch (c) {
    case U'零':
    case U'〇':
      return 0;
    case U'一':
    case U'壹':
      return 1;
    case U'二':
    case U'两':
    case U'贰':
      return 2;
    case U'三':
    case U'叁':
      return 3;
    case U'四':
    case U'肆':
      return 4;
    case U'五':
    case U'伍':
      return 5;
    case U'六':
    case U'陆':
      return 6;
    case U'七':
    case U'柒':
      return 7;
    case U'八':
    case U'捌':
      return 8;
    case U'九':
    case U'玖':
      return 9;
    default:
      return -1;
  }
}

int cn_unit(char32_t c) {
  switch (c) {
    case U'十':
    case U'拾':
      return 10;
    case U'百':
    case U'佰':
      return 100;
    case U'千':
    case U'仟':
      return 1000;
    case U'万':
      return 10000;
    case U'亿':
      return 100000000;
    default:
      return 0;
  }
}

bool is_cn_numeral(char32_t c) { return cn_digit(c) >= 0 || cn_unit(c) > 0; }

namespace {
// A run of digit characters with no unit: "二〇二四" and "一九九八" are written digit by digit
// (years, codes); two digits side by side without 〇/零 are a range ("三五天": three to five days,
// "七八个": seven or eight), which states no value.
enum class DigitRun : uint8_t { none, positional, range };

DigitRun digit_run(std::string_view text, uint64_t& out) {
  uint64_t v = 0;
  size_t n = 0;
  bool zero = false;
  for (size_t i = 0; i < text.size();) {
    const auto d = utf8::decode(text, i);
    i += static_cast<size_t>(d.length);
    const int dv = cn_digit(d.cp);
    if (dv < 0) return DigitRun::none;
    zero = zero || dv == 0;
    v = v * 10 + static_cast<uint64_t>(dv);
    ++n;
  }
  if (n < 2) return DigitRun::none;
  if (n > 18) return DigitRun::range;  // no value fits: 19 digits and more overflow
  if (n == 2 && !zero) return DigitRun::range;
  out = v;
  return DigitRun::positional;
}

// Two non-zero digits side by side before a unit ("三五百", "一二十"): a range too.
bool adjacent_digits(std::string_view text) {
  bool prev = false;
  for (size_t i = 0; i < text.size();) {
    const auto d = utf8::decode(text, i);
    i += static_cast<size_t>(d.length);
    const int dv = cn_digit(d.cp);
    if (dv > 0 && prev) return true;
    prev = dv > 0;
  }
  return false;
}
}  // namespace

bool parse_chinese_numeral(std::string_view text, uint64_t& out) {
  switch (digit_run(text, out)) {
    case DigitRun::positional:
      return true;
    case DigitRun::range:
      return false;
    case DigitRun::none:
      break;
  }
  if (adjacent_digits(text)) return false;
  uint64_t yi = 0;       // everything before the last 亿, already multiplied
  uint64_t wan = 0;      // the 万 section, already multiplied
  uint64_t section = 0;  // below 万
  uint64_t digit = 0;
  bool have_digit = false;
  bool any = false;
  uint64_t last_unit = 0;
  bool zero_since_unit = false;  // "一千零五": 1005, not 1500
  for (size_t i = 0; i < text.size();) {
    const auto d = utf8::decode(text, i);
    i += static_cast<size_t>(d.length);
    const int dv = cn_digit(d.cp);
    if (dv >= 0) {
      digit = static_cast<uint64_t>(dv);
      have_digit = true;
      any = true;
      zero_since_unit = zero_since_unit || dv == 0;
      continue;
    }
    const int unit = cn_unit(d.cp);
    if (unit == 0) return false;
    any = true;
    last_unit = static_cast<uint64_t>(unit);
    zero_since_unit = false;
    if (unit == 100000000) {
      uint64_t v = yi + wan + section + digit;
      yi = (v == 0 ? 1 : v) * 100000000ULL;
      wan = section = 0;
    } else if (unit == 10000) {
      uint64_t v = section + digit;
      wan = (v == 0 ? 1 : v) * 10000ULL;
      section = 0;
    } else {
      section += (have_digit ? digit : 1) * static_cast<uint64_t>(unit);  // "十五" = 15
    }
    digit = 0;
    have_digit = false;
  }
  if (!any) return false;
  // A last digit right after 百 and above counts in the next unit down: "三千五" is 3500, "一万五"
  // 15000, "两百五" 250, as they are said.
  if (have_digit && !zero_since_unit && last_unit >= 100) digit *= last_unit / 10;
  out = yi + wan + section + digit;
  return true;
}

}  // namespace sfcl::anchor
