// Python's text operations, for tools that print what a Python script prints (sfcl eval-spans and
// the sets' realoutput_check.py): str.casefold, str.split's whitespace, repr() and the script's
// short(); UTF-8 to and from code points.
#pragma once
#include <string>
#include <string_view>

namespace sfcl::cli::pytext {

std::u32string decode(std::string_view s);
std::string encode(std::u32string_view s);
// str.casefold() for Latin, Greek and Cyrillic letters (other scripts have no case to fold here).
std::u32string casefold(std::u32string_view s);
// repr(s) of a Python str: quotes, escapes of what Python does not print.
std::string py_repr(std::u32string_view s);
// " ".join(t.split()), cut to n characters with "...".
std::u32string py_short(std::u32string_view t, size_t n);

}  // namespace sfcl::cli::pytext
