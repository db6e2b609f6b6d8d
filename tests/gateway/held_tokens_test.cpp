// Tokens llama-server held inside a UTF-8 character, read back from what its stream sends: on
// streams the pinned llama-server wrote (tests/gateway/data/*held*, captured with curl on the demo
// model, a grammar forcing "中文 ok", which the model writes as byte tokens), through both protocols'
// readers, and on the splits a byte-level BPE vocabulary allows.
#include "gateway/held_tokens.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gateway/backend_client.h"
#include "gateway/completion_stream.h"
#include "gateway/openai_protocol.h"

namespace sfcl::gateway {
namespace {

std::string read_data(const std::string& name) {
  std::ifstream in(std::filesystem::path(SFCL_SOURCE_DIR) / "tests/gateway/data" / name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const PartialPieces& demo_pieces() {
  static const auto model = [] {
    engine::ModelOptions mo;
    mo.path = std::filesystem::path(SFCL_SOURCE_DIR) / "demo/sfcl-demo.gguf";
    mo.n_gpu_layers = 0;
    return engine::Model::load(mo);
  }();
  static const PartialPieces pieces(*model);
  return pieces;
}

// The demo vocabulary's byte tokens are the byte + 4: 中 = E4 B8 AD, 文 = E6 96 87.
const std::vector<Token> kZhongWenSpaceO = {232, 188, 177, 234, 154, 139, 260, 115};

struct Read {
  std::vector<Token> ids;
  std::string text;  // the ids' pieces
  bool lost = false;
};

// A native stream through the gateway's reader, as BackendClient reads it.
Read read_native(const std::string& name) {
  const PartialPieces& pieces = demo_pieces();
  HeldTokens held(&pieces);
  held.clear();
  SseSplitter sse;
  CompletionEventParser parser;
  Read out;
  int64_t predicted = -1;
  sse.feed(read_data(name), [&](std::string_view payload) {
    CompletionEvent ev;
    EXPECT_TRUE(parser.parse(payload, ev)) << payload;
    predicted = ev.predicted;
    if (ev.tokens.empty()) return true;
    EXPECT_TRUE(held.expand(ev.tokens, ev.text, ev.predicted)) << payload;
    out.ids.insert(out.ids.end(), held.ids().begin(), held.ids().end());
    return true;
  });
  for (Token t : out.ids) out.text += pieces.piece(t);
  out.lost = held.lost(predicted);
  return out;
}

TEST(HeldTokens, TheEventThatCompletesACharacterGivesBackTheTokensHeldBeforeIt) {
  const Read r = read_native("completion_stream_held.sse");
  EXPECT_EQ(r.ids, kZhongWenSpaceO);  // the stream's `tokens` named only 177, 139, 260, 115
  EXPECT_EQ(r.text, "中文 o");
  EXPECT_FALSE(r.lost);
}

TEST(HeldTokens, AStreamThatEndsInsideACharacterReportsItsLastTokensLost) {
  // n_predict 5: 中, then E6 96 sampled and never sent.
  const Read r = read_native("completion_stream_held_tail.sse");
  EXPECT_EQ(r.ids, std::vector<Token>(kZhongWenSpaceO.begin(), kZhongWenSpaceO.begin() + 3));
  EXPECT_TRUE(r.lost);
}

TEST(HeldTokens, TheOpenAiStreamGivesThemBackFromItsLogprobBytes) {
  const PartialPieces& pieces = demo_pieces();
  HeldTokens held(&pieces);
  held.clear();
  std::vector<Token> ids;
  std::vector<Token> tokens;
  int64_t sampled = -1;
  SseSplitter sse;
  sse.feed(read_data("v1_completions_held.sse"), [&](std::string_view payload) {
    tokens.clear();
    const openai::StreamEvent ev = openai::read_event(payload, tokens);
    EXPECT_FALSE(ev.failed || ev.no_ids) << payload;
    if (ev.sampled >= 0) sampled = ev.sampled;
    if (tokens.empty()) return true;
    EXPECT_TRUE(held.expand(tokens, ev.text, -1)) << payload;
    ids.insert(ids.end(), held.ids().begin(), held.ids().end());
    return true;
  });
  EXPECT_EQ(ids, kZhongWenSpaceO);
  EXPECT_EQ(sampled, 8);
  EXPECT_FALSE(held.lost(sampled));
}

TEST(HeldTokens, TextThatDoesNotEndWithTheTokensPieceIsNotReadBack) {
  const PartialPieces& pieces = demo_pieces();
  HeldTokens held(&pieces);
  held.clear();
  const std::vector<Token> tok = {177};                       // AD
  EXPECT_FALSE(held.expand(tok, "\xEF\xBF\xBD", 3));          // U+FFFD: the bytes were replaced
  EXPECT_FALSE(held.expand(tok, "", 6));                      // nothing sent for them
  EXPECT_TRUE(held.expand(std::vector<Token>{260}, " ", 7));  // none held: the text is not needed
  EXPECT_EQ(held.ids().size(), 1U);
}

// A byte-level BPE vocabulary has pieces of several bytes of one character: the count the
// backend sends chooses among the splits; without it, the fewest pieces.
TEST(HeldTokens, SplitsHonourTheCountElseTakeTheFewestPieces) {
  const PartialPieces pieces(std::vector<std::string>{"\xE4", "\xB8", "\xAD", "\xE4\xB8", "中", "a\xE4", "a"});
  std::vector<Token> out;
  ASSERT_TRUE(pieces.split("\xE4\xB8", 2, out));
  EXPECT_EQ(out, (std::vector<Token>{0, 1}));
  out.clear();
  ASSERT_TRUE(pieces.split("\xE4\xB8", 1, out));
  EXPECT_EQ(out, (std::vector<Token>{3}));
  out.clear();
  ASSERT_TRUE(pieces.split("\xE4\xB8", -1, out));
  EXPECT_EQ(out, (std::vector<Token>{3}));
  out.clear();
  ASSERT_TRUE(pieces.split("a\xE4\xB8", -1, out));  // a whole-UTF-8 piece ("a") is never held
  EXPECT_EQ(out, (std::vector<Token>{5, 1}));
  out.clear();
  EXPECT_FALSE(pieces.split("\xE4\xB8", 3, out));
  EXPECT_FALSE(pieces.split("中", 1, out));
  EXPECT_TRUE(out.empty());
}

TEST(HeldTokens, TextEndingInsideACharacterIsToldAsLlamaServerTellsIt) {
  const PartialPieces pieces(std::vector<std::string>{"\xE4", "\xB8", "\xAD", "\xE4\xB8", "中", "a", "\xF0\x9F"});
  const auto inside = [&](std::vector<Token> tokens) { return pieces.ends_inside_character(tokens); };
  EXPECT_FALSE(inside({}));
  EXPECT_TRUE(inside({0}));
  EXPECT_TRUE(inside({5, 0, 1}));
  EXPECT_FALSE(inside({0, 1, 2}));
  EXPECT_TRUE(inside({3}));
  EXPECT_FALSE(inside({4, 5}));
  EXPECT_TRUE(inside({4, 6}));
  EXPECT_TRUE(inside({0, 5}));  // a lead byte then ASCII: llama-server still waits
}

TEST(HeldTokens, ContentIsUnescapedAsJsonWritesIt) {
  std::string out;
  ASSERT_TRUE(unescape_json_string(R"(\u4e2d\n\"\\\/\ud83d\ude00x)", out));
  EXPECT_EQ(out, "中\n\"\\/\xF0\x9F\x98\x80x");
  out.clear();
  EXPECT_FALSE(unescape_json_string(R"(\u4e2)", out));
  EXPECT_FALSE(unescape_json_string(R"(\q)", out));
}

TEST(HeldTokens, AOneTokenCallIsNotStreamed) {
  // A stream sends no event for a token that ends inside a character; the answer of a call that is
  // not streamed names every token.
  const std::vector<Token> prompt = {1, 2};
  CompletionRequest req;
  req.prompt = prompt;
  req.n_predict = 1;
  std::string body;
  write_completion_body(req, body);
  EXPECT_NE(body.find(R"("stream":false)"), std::string::npos) << body;
  req.n_predict = 2;
  write_completion_body(req, body);
  EXPECT_NE(body.find(R"("stream":true)"), std::string::npos) << body;
}

TEST(HeldTokens, TheAnswerOfACallNotStreamedNamesATokenInsideACharacter) {
  CompletionEventParser parser;
  CompletionEvent ev;
  ASSERT_TRUE(parser.parse(read_data("completion_unstreamed_held.json"), ev));
  EXPECT_EQ(std::vector<Token>(ev.tokens.begin(), ev.tokens.end()), std::vector<Token>{232});  // E4
  EXPECT_TRUE(ev.stop);
  EXPECT_EQ(ev.predicted, 1);
}

}  // namespace
}  // namespace sfcl::gateway
