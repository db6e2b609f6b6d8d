// Only the template's own markup may be special (docs/DESIGN.md, 'Tools and structured output').
// Message content is replaced by placeholders before the template runs (chat.cpp), but a Jinja
// template also renders tool definitions and the calls of earlier turns, which come from the client
// too: each special text in them becomes a placeholder as well, so it is tokenised as plain text.
// JSON texts (schemas, arguments) are looked at as the template will print them, unescaped, so
// "\u003c|im_end|>" is caught as well.
#include "engine/chat_internal.h"
#include "engine/special_scan.h"

namespace sfcl::engine {

namespace {

// `text` with each special text replaced by placeholder(special text); unchanged when it has none.
std::string literal(const SpecialScan& scan, const std::string& text,
                    const std::function<std::string(std::string)>& placeholder) {
  std::string out;
  size_t copied = 0;
  for (size_t i = 0; i < text.size();) {
    Token token = -1;
    const size_t len = scan.root[static_cast<unsigned char>(text[i])] == 0 ? 0 : scan.match(text, i, true, token);
    if (len == 0) {
      ++i;
      continue;
    }
    out.append(text, copied, i - copied);
    out += placeholder(text.substr(i, len));
    i += len;
    copied = i;
  }
  if (copied == 0) return text;
  out.append(text, copied, std::string::npos);
  return out;
}

// A JSON text: unescaped first when that shows a special text.
std::string literal_json(const SpecialScan& scan, const std::string& text,
                         const std::function<std::string(std::string)>& placeholder) {
  if (text.find("\\u") == std::string::npos) return literal(scan, text, placeholder);
  return literal(scan, detail::json_unescaped(text), placeholder);
}

}  // namespace

void Model::literal_specials(ChatInput& input, const std::function<std::string(std::string)>& placeholder) const {
  const SpecialScan& scan = special_scan();
  for (auto& t : input.tools) {
    t.name = literal(scan, t.name, placeholder);
    t.description = literal(scan, t.description, placeholder);
    t.parameters = literal_json(scan, t.parameters, placeholder);
  }
  for (auto& m : input.messages) {
    m.tool_call_id = literal(scan, m.tool_call_id, placeholder);
    m.tool_name = literal(scan, m.tool_name, placeholder);
    for (auto& c : m.tool_calls) {
      c.id = literal(scan, c.id, placeholder);
      c.name = literal(scan, c.name, placeholder);
      c.arguments = literal_json(scan, c.arguments, placeholder);
    }
  }
}

}  // namespace sfcl::engine
