// The JSON-object tool reply scanner behind streamed tool calls: every prefix of a reply yields
// prose and arguments that the longer text only extends.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "server/tool_stream.h"

namespace sfcl::server {
namespace {

TEST(ToolStreamScan, EveryPrefixOnlyExtendsWhatWasSeen) {
  const std::string reply =
      "Let me look. {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris \\\"Nord\\\"\", \"days\": [1, 2]}}\n"
      "{\"name\": \"get_time\", \"arguments\": {}}";
  const ScannedReply whole = scan_tool_reply(reply, true);
  ASSERT_EQ(whole.calls.size(), 2U);
  EXPECT_EQ(reply.substr(0, whole.content_end), "Let me look. ");
  EXPECT_EQ(whole.calls[0].name, "get_weather");
  EXPECT_EQ(whole.calls[0].arguments, R"({"city":"Paris \"Nord\"","days":[1,2]})");
  EXPECT_EQ(nlohmann::json::parse(whole.calls[0].arguments)["city"], "Paris \"Nord\"");
  EXPECT_TRUE(whole.calls[1].arguments_done);
  EXPECT_EQ(whole.calls[1].arguments, "{}");
  size_t content = 0;
  std::vector<std::string> args(2);
  int growths = 0;
  for (size_t n = 0; n <= reply.size(); ++n) {
    const ScannedReply part = scan_tool_reply(std::string_view(reply).substr(0, n), false);
    EXPECT_GE(part.content_end, content) << n;
    EXPECT_LE(part.content_end, whole.content_end) << n;
    content = part.content_end;
    for (size_t i = 0; i < part.calls.size(); ++i) {
      EXPECT_EQ(part.calls[i].name, whole.calls[i].name) << n;
      EXPECT_TRUE(whole.calls[i].arguments.starts_with(part.calls[i].arguments))
          << n << ": " << part.calls[i].arguments;
      EXPECT_TRUE(part.calls[i].arguments.starts_with(args[i])) << n;
      growths += part.calls[i].arguments.size() > args[i].size() ? 1 : 0;
      args[i] = part.calls[i].arguments;
    }
  }
  EXPECT_GT(growths, 10);
}

TEST(ToolStreamScan, APossibleCallStartIsHeldBackAndProseIsNot) {
  // "{" then the beginning of "name": may be a call, so the prose stops before it.
  EXPECT_EQ(scan_tool_reply("Sure {\"na", false).content_end, 4U);
  // Any other brace is prose.
  EXPECT_EQ(scan_tool_reply("a {b} c", false).content_end, 7U);
  EXPECT_TRUE(scan_tool_reply("a {\"x\": 1}", false).calls.empty());
  // Blanks at the end wait for what follows them, unless the reply is over.
  EXPECT_EQ(scan_tool_reply("Fine.\n", false).content_end, 5U);
  EXPECT_EQ(scan_tool_reply("Fine.\n", true).content_end, 6U);
}

}  // namespace
}  // namespace sfcl::server
