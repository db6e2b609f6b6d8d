// How much parsed JSON a request body may become. A body of many tiny values ({"role":"user",
// "content":"a"} repeated over 8 MiB) is ten times its size as a JSON tree, and more again once it is
// copied into a request, so the values are counted in one pass that builds nothing, before the
// tree is built (docs/OPERATIONS.md, 'Requests').
#pragma once
#include <cstddef>
#include <string>

namespace sfcl::server {

// Values (objects, arrays, strings, numbers, literals) a request body may hold.
inline constexpr size_t kMaxJsonValues = 100000;

// Objects and arrays nested in one another: a tool's JSON schema or a structured output's is
// turned into a grammar by recursion (llama.cpp's json_schema_to_grammar, whose memory also grows
// with the square of the depth), and a JSON tree is written back by recursion, so a body nested
// thousands deep would take the server's stack. Real schemas nest a dozen levels or so.
inline constexpr size_t kMaxJsonDepth = 64;

// Throws ApiError 413 when `body` holds more than kMaxJsonValues values, 400 when it nests deeper
// than kMaxJsonDepth; says nothing of syntax (the parser that follows reports that).
void check_json_values(const std::string& body);

}  // namespace sfcl::server
