#include "server/api/tool_stream.h"

#include <nlohmann/json.hpp>

namespace sfcl::server {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

size_t skip_space(std::string_view t, size_t at) {
  while (at < t.size() && is_space(t[at])) ++at;
  return at;
}

// How text from `at` compares with `word` (after blanks): kMatch and where it ends, kPrefix when
// the text ends inside it, kNo when it differs.
enum class Fit : uint8_t { match, prefix, no };
Fit expect(std::string_view t, size_t& at, std::string_view word) {
  at = skip_space(t, at);
  const size_t n = std::min(word.size(), t.size() - at);
  if (t.substr(at, n) != word.substr(0, n)) return Fit::no;
  if (n < word.size()) return Fit::prefix;
  at += word.size();
  return Fit::match;
}

// A JSON string starting at t[at] == '"': its value, and `at` moved past it; false when the text
// ends inside it.
bool read_string(std::string_view t, size_t& at, std::string& out) {
  size_t i = at + 1;
  for (; i < t.size(); ++i) {
    if (t[i] == '\\') {
      ++i;
    } else if (t[i] == '"') {
      const auto v = nlohmann::json::parse(t.substr(at, i + 1 - at), nullptr, false);
      if (!v.is_string()) return false;
      out = v.get<std::string>();
      at = i + 1;
      return true;
    }
  }
  return false;
}

// The arguments value from t[at]: appended without blanks outside strings; true when it closed.
bool read_value(std::string_view t, size_t& at, std::string& out) {
  int depth = 0;
  bool in_string = false;
  for (; at < t.size(); ++at) {
    const char c = t[at];
    if (in_string) {
      out.push_back(c);
      if (c == '\\' && at + 1 < t.size()) {
        out.push_back(t[++at]);
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (is_space(c)) continue;
    out.push_back(c);
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      ++at;
      return true;
    }
  }
  return false;
}

// Whether a call may begin at t[at] == '{' ('{', blanks, "name", or the text ends on the way).
bool call_begins(std::string_view t, size_t at) {
  size_t p = at + 1;
  return expect(t, p, "\"name\"") != Fit::no;
}

}  // namespace

ScannedReply scan_tool_reply(std::string_view text, bool final) {
  ScannedReply out;
  size_t at = text.find('{');
  while (at != std::string_view::npos && !call_begins(text, at)) at = text.find('{', at + 1);
  if (at == std::string_view::npos) {
    out.content_end = text.size();
    // Blanks at the end may come before a call (and a reply with one has no prose of blanks).
    if (!final) {
      while (out.content_end > 0 && is_space(text[out.content_end - 1])) --out.content_end;
    }
    return out;
  }
  out.content_end = at;
  if (!final) {
    while (out.content_end > 0 && is_space(text[out.content_end - 1])) --out.content_end;
  }
  while (at < text.size()) {
    ++at;  // '{'
    ScannedCall call;
    if (expect(text, at, "\"name\"") != Fit::match || expect(text, at, ":") != Fit::match) break;
    at = skip_space(text, at);
    if (at >= text.size() || text[at] != '"' || !read_string(text, at, call.name)) break;
    out.calls.push_back(std::move(call));
    ScannedCall& c = out.calls.back();
    if (expect(text, at, ",") != Fit::match || expect(text, at, "\"arguments\"") != Fit::match ||
        expect(text, at, ":") != Fit::match) {
      break;
    }
    at = skip_space(text, at);
    if (at >= text.size() || text[at] != '{') break;
    c.arguments_done = read_value(text, at, c.arguments);
    if (!c.arguments_done || expect(text, at, "}") != Fit::match) break;
    at = skip_space(text, at);
    if (at >= text.size() || text[at] != '{' || !call_begins(text, at)) break;  // parallel calls follow
  }
  return out;
}

}  // namespace sfcl::server
