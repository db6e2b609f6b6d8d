// Stream text chunks (OpenAI chat and completions, Anthropic Messages), written directly on the
// per-token path, are byte for byte what the JSON tree gives, for any text (quotes, control
// characters, Chinese, bytes that are not UTF-8), id, model and choice.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/engine.h"
#include "server/api/dialect.h"
#include "server/http/http_util.h"

namespace sfcl::server {
namespace {

using nlohmann::json;

std::string tree_chunk(const ResponseInfo& info, const std::string& text, bool completions) {
  json choice = {{"index", info.choice}, {"logprobs", nullptr}, {"finish_reason", nullptr}};
  if (completions) {
    choice["text"] = text;
  } else {
    choice["delta"] = {{"content", text}};
  }
  return sse_data({{"id", info.id},
                   {"object", completions ? "text_completion" : "chat.completion.chunk"},
                   {"created", info.created},
                   {"model", info.model},
                   {"system_fingerprint", engine::llama_build()},
                   {"choices", json::array({choice})}});
}

const std::vector<std::string> kTexts = {
    "",
    " 2,400",
    "\"quoted\" \\ back",
    "tab\tnew\nline\r\x01\x1f",
    "净利润为 3.2 亿元。",
    "\xe5\x87",
    "bad \xff byte",
    "emoji \xf0\x9f\x98\x80",
    "</script><!--",
    std::string(1, '\0') + "nul",
};

TEST(OpenAIStreamChunk, TheTextChunkIsTheJsonTreesChunk) {
  ResponseInfo info;
  info.id = "chatcmpl-0123456789abcdef";
  info.model = "demo \"model\" 模型";
  info.created = 1764633600;
  for (const bool completions : {false, true}) {
    const Dialect& d = completions ? openai_completions_dialect() : openai_chat_dialect();
    for (const int32_t choice : {0, 3, 12}) {
      info.choice = choice;
      for (const std::string& text : kTexts) {
        SCOPED_TRACE(json(text).dump(-1, ' ', true, json::error_handler_t::replace));
        const std::string chunk = d.stream_text(info, text);
        EXPECT_EQ(chunk, tree_chunk(info, text, completions));
        ASSERT_TRUE(chunk.starts_with("data: ") && chunk.ends_with("\n\n"));
        const json parsed = json::parse(chunk.substr(6));
        EXPECT_EQ(parsed["choices"][0]["index"], choice);
      }
    }
  }
}

TEST(AnthropicStreamChunk, TheTextDeltaIsTheJsonTreesDelta) {
  const ResponseInfo info;
  for (const std::string& text : kTexts) {
    SCOPED_TRACE(json(text).dump(-1, ' ', true, json::error_handler_t::replace));
    EXPECT_EQ(
        anthropic_dialect().stream_text(info, text),
        sse("content_block_delta",
            {{"type", "content_block_delta"}, {"index", 0}, {"delta", {{"type", "text_delta"}, {"text", text}}}}));
  }
}

}  // namespace
}  // namespace sfcl::server
