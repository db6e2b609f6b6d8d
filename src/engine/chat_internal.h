// Private to src/engine: the split between chat.cpp (prompt assembly, tokenising pieces, the JSON
// tool-call format) and chat_common.cpp, the one file that includes llama.cpp's common headers.
// Those headers carry llama.cpp's vendored nlohmann-json (a different version from sfcl's), so
// only plain strings and sfcl types cross this boundary.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/render_cache.h"

namespace sfcl::engine {

namespace detail {

struct CommonRendered {
  std::string prompt;
  GrammarSpec grammar;
  std::vector<std::string> stops;
  std::string format;  // llama.cpp's chat format, as a number
  std::string parser;  // the PEG parser's saved state
  std::string generation_prompt;
  bool supports_thinking = false;  // the template has a reasoning block the parser can split off
};

}  // namespace detail

struct ChatTemplates {
  std::string kind;              // "jinja", "builtin" or "plain"
  std::string builtin_name;      // builtin: the name llama_chat_apply_template knows
  std::shared_ptr<void> common;  // jinja: llama.cpp's common_chat_templates
  // jinja: llama.cpp analyses a template (its markers, thinking block, extra stops) inside every
  // common_chat_templates_apply. What that analysis gives a request without tools or prefill
  // depends on the template alone, so it is learnt at load; such requests then render the template
  // without it. False where llama.cpp handles the template itself (its specialised formats).
  bool analysis_known = false;
  bool supports_thinking = false;  // the template has a reasoning block the parser can split off
  std::vector<std::string> stops;  // stop strings the analysis adds to every prompt
  // jinja: renders by conversation shape (render_cache.h), kept where the template reads no clock
  // finer than the day (llama.cpp's strftime_now can print seconds); the day is part of the key.
  // Guarded by llama.cpp's common lock, as the template itself. Its renders hold token ids of
  // the model these templates were made for (grammar triggers): one ChatTemplates per model.
  bool cacheable = false;
  mutable RenderCache<detail::CommonRendered> renders{};
};

namespace detail {

// The template render_chat uses for `model`: the override (file, name or Jinja source) or the
// model's own. Throws EngineError when a Jinja template does not parse, or without `jinja` when
// an override is none of llama.cpp's built-in templates.
// `reuse_analysis`: learn ChatTemplates::analysis_known and what goes with it. `render_cache`:
// how many conversation shapes' renders are kept (0 = none).
std::shared_ptr<const ChatTemplates> make_chat_templates(llama_model* model, const std::string& override_spec,
                                                         bool jinja, bool reuse_analysis = true,
                                                         size_t render_cache = 0);

// Renders with the Jinja template; messages hold placeholders instead of their content. A prefill
// is the open final assistant message (continue_final_message).
// `shareable`: the render may be kept for other requests of the same shape (false for salted
// placeholders, whose keys no other request has).
CommonRendered common_render(const ChatTemplates& templates, const llama_vocab* vocab, const ChatInput& input,
                             bool shareable = true);
// Renders common_render took from the cache so far (read under the same lock).
size_t render_cache_hits(const ChatTemplates& templates);
// Tool calls of a native reply (common_chat_parse); `partial`: of a reply still being written.
ParsedReply common_parse(const std::string& text, const ChatPrompt& prompt, bool partial = false);
// JSON objects {"name": ..., "arguments": {...}} in `text`, from the first one on.
ParsedReply parse_json_tool_calls(const std::string& text);
// The JSON text of `s` as a JSON string (quoted, escaped).
std::string json_quote(const std::string& s);
// JSON text written again with only the escapes JSON needs ("\u003c" becomes "<"), as a template
// that parses and prints it would; `text` itself when it is not JSON.
std::string json_unescaped(const std::string& text);

}  // namespace detail
}  // namespace sfcl::engine
