// Helpers shared by the lexer's source files; not part of the public API.
#pragma once
#include <array>
#include <string>
#include <string_view>

namespace sfcl::anchor {

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_digit(int c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_upper(int c) { return c >= 'A' && c <= 'Z'; }
constexpr bool is_lower(int c) { return c >= 'a' && c <= 'z'; }
constexpr bool is_alnum(int c) { return is_alpha(c) || is_digit(c); }
constexpr bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
constexpr int to_lower(int c) { return is_upper(c) ? c + 32 : c; }
constexpr bool is_han(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || c == 0x3007;
}

// Lowercase words that join two capitalised words into one name ("Bank of China"); the source
// index splits joined names at the same words.
constexpr std::array<std::string_view, 6> kNameConnectors = {"of", "and", "&", "de", "van", "von"};
constexpr std::array<std::string_view, 6> kHonorifics = {"Mr.", "Mrs.", "Ms.", "Dr.", "Prof.", "Mx."};

// "1000.5" from integer digits, fraction digits and a decimal shift (multipliers).
std::string canonical_decimal(std::string_view int_digits, std::string_view frac_digits, int shift);
bool split_number(std::string_view text, std::string& int_digits, std::string& frac_digits);
bool is_cn_numeral(char32_t c);
int cn_unit(char32_t c);

}  // namespace sfcl::anchor
