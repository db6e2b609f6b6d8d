// Characters a vocabulary splits over several tokens, through `sfcl gateway` on real llama-server
// processes: llama-server's streams send no event for a token that ends inside a UTF-8 character,
// yet the gateway's answers equal `sfcl serve`'s on both backend protocols. The demo model copies
// a company name from its document; written with characters its vocabulary has no token for, the
// name comes out as byte tokens.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gateway/gateway_process.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

// `mode` off: no anchor constrains the name, so its bytes come from the backend's stream.
json messages_body(const RareNameItem& it, int max_tokens, const std::string& mode) {
  return {{"model", "sfcl-demo"},
          {"max_tokens", max_tokens},
          {"temperature", 0},
          {"stream", true},
          {"system", it.document},
          {"sfcl", {{"events", true}, {"mode", mode}}},
          {"messages", json::array({{{"role", "user"}, {"content", it.question}}})}};
}

// The non-streamed answer's text and token count, or the error.
std::string chat_answer(httplib::Client& c, const RareNameItem& it, int max_tokens) {
  const json chat = {{"model", "sfcl-demo"},
                     {"max_tokens", max_tokens},
                     {"temperature", 0},
                     {"sfcl", {{"mode", "off"}}},
                     {"messages", json::array({{{"role", "system"}, {"content", it.document}},
                                               {{"role", "user"}, {"content", it.question}}})}};
  auto r = c.Post("/v1/chat/completions", chat.dump(), "application/json");
  if (!r || r->status != 200) return "HTTP " + std::to_string(r ? r->status : 0) + (r ? " " + r->body : "");
  const json j = json::parse(r->body);
  return j["choices"][0]["message"]["content"].get<std::string>() + " | " + j["usage"]["completion_tokens"].dump();
}

class GatewayCjk : public ::testing::TestWithParam<const char*> {};

TEST_P(GatewayCjk, NamesWrittenAsByteTokensReachTheClientAsServeWritesThem) {
  const std::vector<RareNameItem> items = rare_name_items(4);
  ASSERT_EQ(items.size(), 4U);
  ServerProcess serve({"--model", demo_model().string(), "--parallel", "2"}, true, {}, true, /*tiny_model=*/false);
  LlamaServer backend;
  std::vector<std::string> args;
  if (std::string(GetParam()) == "openai") args = {"--backend-api", "openai"};
  Gateway gw({&backend}, args);
  auto sc = serve.client();
  auto gc = gw.client();
  int copied = 0;
  for (const RareNameItem& it : items) {
    for (const std::string mode : {"off", "anchor"}) {
      const Seen want = stream_messages(sc, messages_body(it, 64, mode));
      ASSERT_TRUE(want.complete);
      copied += want.text.find(it.name) != std::string::npos ? 1 : 0;
      const Seen got = stream_messages(gc, messages_body(it, 64, mode));
      EXPECT_TRUE(got.complete) << gw.log_text();
      EXPECT_EQ(got.text, want.text) << it.question << " " << mode;
      EXPECT_EQ(got.events, want.events) << it.question << " " << mode;
    }
  }
  EXPECT_GE(copied, 2);  // the answers did write the bytes (where anchors hold the name to its source)
  // Answers cut at every length, inside the characters too: the same text and token count.
  const RareNameItem& it = items[0];
  for (int n = 1; n <= 24; ++n) EXPECT_EQ(chat_answer(gc, it, n), chat_answer(sc, it, n)) << "max_tokens " << n;
}

INSTANTIATE_TEST_SUITE_P(Protocols, GatewayCjk, ::testing::Values("native", "openai"));

// A backend whose own grammar (llama-server --grammar) makes it write characters the demo
// vocabulary has only bytes for, in free streams (mode off): every byte token reaches the client,
// on both protocols, whole and cut at every length (inside characters too: the stream then ends
// with tokens it never sent, which the gateway asks for again, not streamed). The grammar starts
// again at every call, so a call after the first writes 中's bytes again: past the first call
// only the token count and whole characters are checked.
TEST_P(GatewayCjk, ByteTokensTheBackendStreamsAreAllDelivered) {
  const std::string text = "中文的字符 ok.";
  LlamaServer backend(2, demo_model(), {"--grammar", "root ::= \"" + text + "\""});
  std::vector<std::string> args;
  if (std::string(GetParam()) == "openai") args = {"--backend-api", "openai"};
  Gateway gw({&backend}, args);
  auto gc = gw.client();
  const auto answer = [&](int max_tokens) {
    const json chat = {{"model", "sfcl-demo"},
                       {"max_tokens", max_tokens},
                       {"temperature", 0},
                       {"sfcl", {{"mode", "off"}}},
                       {"messages", json::array({{{"role", "user"}, {"content", "Write."}}})}};
    auto r = gc.Post("/v1/chat/completions", chat.dump(), "application/json");
    EXPECT_TRUE(r && r->status == 200) << "max_tokens " << max_tokens << ": " << (r ? r->body : "no answer");
    return r && r->status == 200 ? json::parse(r->body) : json();
  };
  const json whole = answer(64);
  ASSERT_FALSE(whole.is_null());
  EXPECT_EQ(whole["choices"][0]["message"]["content"], text);
  // The backend writes the 5 characters as 3 byte tokens each.
  EXPECT_GT(whole["usage"]["completion_tokens"].get<int>(), 15);
  for (int n = 1; n <= 15; ++n) {
    const json cut = answer(n);
    if (cut.is_null()) continue;
    const std::string got = cut["choices"][0]["message"]["content"];
    EXPECT_EQ(cut["usage"]["completion_tokens"], n) << got;
    EXPECT_EQ(got, text.substr(0, got.size())) << "max_tokens " << n;
    EXPECT_EQ(got.size(), static_cast<size_t>(n / 3 * 3)) << "max_tokens " << n;  // whole characters only
  }
}

// A token forced alone inside a character (the test script's bytes of 中文 and of an emoji, one
// call each) starts a call whose output begins with continuation bytes, which llama-server's chat
// parser refuses; the gateway names a parser that reads nothing, so the answer goes on: the text
// and token count of `sfcl serve` with the same script, streamed and not, on both protocols.
TEST_P(GatewayCjk, CallsThatStartInsideACharacterContinueTheAnswer) {
  LlamaServer backend;
  for (const std::string script : {" 中文 ok.", " 😀 ok."}) {
    ServerProcess serve({"--model", demo_model().string(), "--test-script", script}, true, {}, true,
                        /*tiny_model=*/false);
    std::vector<std::string> args = {"--test-script", script};
    if (std::string(GetParam()) == "openai") args.insert(args.end(), {"--backend-api", "openai"});
    Gateway gw({&backend}, args);
    auto sc = serve.client();
    auto gc = gw.client();
    json chat = {{"model", "sfcl-demo"},
                 {"max_tokens", 16},
                 {"temperature", 0},
                 {"messages", json::array({{{"role", "user"}, {"content", "Write."}}})}};
    auto want = sc.Post("/v1/chat/completions", chat.dump(), "application/json");
    auto got = gc.Post("/v1/chat/completions", chat.dump(), "application/json");
    ASSERT_TRUE(want && got);
    ASSERT_EQ(want->status, 200) << want->body;
    ASSERT_EQ(got->status, 200) << got->body << gw.log_text();
    const json w = json::parse(want->body);
    const json g = json::parse(got->body);
    EXPECT_EQ(w["choices"][0]["message"]["content"], script) << want->body;  // the bytes were written
    EXPECT_EQ(g["choices"][0]["message"]["content"], w["choices"][0]["message"]["content"]);
    EXPECT_EQ(g["usage"]["completion_tokens"], w["usage"]["completion_tokens"]);
    chat["stream"] = true;
    auto streamed = gc.Post("/v1/chat/completions", chat.dump(), "application/json");
    ASSERT_TRUE(streamed && streamed->status == 200);
    std::string text;
    for (const auto& [event, data] : parse_sse(streamed->body)) {
      if (data == "[DONE]") continue;
      const json j = json::parse(data);
      if (!j["choices"].empty() && j["choices"][0]["delta"].contains("content")) {
        text += j["choices"][0]["delta"]["content"].get<std::string>();
      }
    }
    EXPECT_EQ(text, w["choices"][0]["message"]["content"].get<std::string>());
    const json b = gw.backends();
    EXPECT_EQ(b["failovers"], 0) << b.dump();
    EXPECT_EQ(b["backends"][0]["failures"], 0) << b.dump();
  }
}

}  // namespace
}  // namespace sfcl::test
