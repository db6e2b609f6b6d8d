// The gateway's reader of llama-server's /completion stream, on bytes the pinned llama-server wrote
// (tests/gateway/data, captured with curl from scripts/build-llama-server's binary on the demo
// model) cut at every place a TCP read may cut them, and on the shapes a JSON writer may choose.
#include "gateway/completion_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>

#include "gateway/backend_client.h"

namespace sfcl::gateway {
namespace {

std::string read_data(const std::string& name) {
  std::ifstream in(std::filesystem::path(SFCL_SOURCE_DIR) / "tests/gateway/data" / name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Seen {
  std::vector<std::vector<Token>> tokens;  // per event with tokens
  std::vector<std::vector<TopProb>> top;
  std::vector<double> logprob;  // the sampled token's, per event with tokens
  int stops = 0;
  std::string error;
};

// Feeds `bytes` cut into the given chunk lengths (the rest in one last chunk).
Seen read_stream(const std::string& bytes, const std::vector<size_t>& cuts) {
  SseSplitter sse;
  CompletionEventParser parser;
  Seen seen;
  size_t at = 0;
  auto on_data = [&](std::string_view payload) {
    CompletionEvent ev;
    EXPECT_TRUE(parser.parse(payload, ev)) << payload;
    if (!ev.tokens.empty()) {
      seen.tokens.emplace_back(ev.tokens.begin(), ev.tokens.end());
      seen.top.emplace_back(ev.top.begin(), ev.top.end());
      seen.logprob.push_back(ev.logprob);
    }
    if (ev.stop) ++seen.stops;
    if (!ev.error.empty()) seen.error = ev.error;
    return true;
  };
  for (size_t n : cuts) {
    n = std::min(n, bytes.size() - at);
    sse.feed(std::string_view(bytes).substr(at, n), on_data);
    at += n;
  }
  sse.feed(std::string_view(bytes).substr(at), on_data);
  EXPECT_TRUE(sse.empty());
  return seen;
}

TEST(CompletionStream, ReadsTheTokensAndTheStopOfARealStream) {
  const std::string bytes = read_data("completion_stream.sse");
  const Seen s = read_stream(bytes, {});
  const std::vector<std::vector<Token>> want = {{272}, {663}, {757}};
  EXPECT_EQ(s.tokens, want);
  EXPECT_EQ(s.stops, 1);  // the final event's, not generation_settings' "stop":[]
  EXPECT_TRUE(s.error.empty());
  for (const auto& t : s.top) EXPECT_TRUE(t.empty());
}

TEST(CompletionStream, AnyCutOfTheBytesReadsTheSame) {
  for (const char* name : {"completion_stream.sse", "completion_stream_probs.sse"}) {
    const std::string bytes = read_data(name);
    const Seen whole = read_stream(bytes, {});
    for (size_t cut = 1; cut < bytes.size(); ++cut) {
      const Seen s = read_stream(bytes, {cut});
      ASSERT_EQ(s.tokens, whole.tokens) << name << " cut at " << cut;
      ASSERT_EQ(s.stops, 1) << name << " cut at " << cut;
    }
    const Seen bytewise = read_stream(bytes, std::vector<size_t>(bytes.size(), 1));
    EXPECT_EQ(bytewise.tokens, whole.tokens) << name;
    EXPECT_EQ(bytewise.top.size(), whole.top.size()) << name;
  }
}

TEST(CompletionStream, ReadsTheRawTopLogprobsOfEachToken) {
  const Seen s = read_stream(read_data("completion_stream_probs.sse"), {});
  ASSERT_EQ(s.top.size(), 3U);
  ASSERT_EQ(s.top[0].size(), 3U);
  EXPECT_EQ(s.top[0][0].id, 272);
  EXPECT_EQ(s.top[0][0].logprob, -0.6384657621383667);  // exactly the float the backend printed
  EXPECT_EQ(s.top[0][1].id, 260);
  EXPECT_EQ(s.top[0][2].id, 767);
  EXPECT_EQ(s.top[2][0].id, 757);
  EXPECT_EQ(s.top[2][1].logprob, -6.62755012512207);
  // The sampled token's own (logprobs through the gateway), here each event's greedy pick.
  ASSERT_EQ(s.logprob.size(), 3U);
  EXPECT_EQ(s.logprob[0], -0.6384657621383667);
  EXPECT_EQ(s.logprob[2], -0.003322691423818469);
  // Without n_probs there is none.
  const Seen plain = read_stream(read_data("completion_stream.sse"), {});
  ASSERT_FALSE(plain.logprob.empty());
  for (const double lp : plain.logprob) EXPECT_TRUE(std::isnan(lp));
}

// A call not streamed reports every token's position: each keeps its own id, value and list.
TEST(CompletionStream, ReadsEveryPositionOfAnAnswerNotStreamed) {
  CompletionEventParser parser;
  CompletionEvent ev;
  ASSERT_TRUE(parser.parse(
      R"({"tokens":[5,7,9],"completion_probabilities":[)"
      R"({"id":5,"logprob":-0.5,"top_logprobs":[{"id":5,"logprob":-0.5},{"id":6,"logprob":-1.5}]},)"
      R"({"id":7,"token":"x","logprob":null,"top_logprobs":[]},)"
      R"({"id":9,"logprob":-0.25,"top_logprobs":[{"id":9,"logprob":-0.25},{"id":1,"logprob":-2},{"id":2,"logprob":-3}]}]})",
      ev));
  ASSERT_EQ(ev.positions.size(), 3U);
  EXPECT_EQ(ev.positions[0].id, 5);
  EXPECT_EQ(ev.positions[0].logprob, -0.5);
  ASSERT_EQ(ev.positions[0].top_end - ev.positions[0].top_begin, 2U);
  EXPECT_EQ(ev.all_top[ev.positions[0].top_begin + 1].id, 6);
  EXPECT_EQ(ev.positions[1].id, 7);
  EXPECT_TRUE(std::isinf(ev.positions[1].logprob));  // null: -inf
  EXPECT_EQ(ev.positions[1].top_begin, ev.positions[1].top_end);
  EXPECT_EQ(ev.positions[2].logprob, -0.25);
  ASSERT_EQ(ev.positions[2].top_end - ev.positions[2].top_begin, 3U);
  EXPECT_EQ(ev.all_top[ev.positions[2].top_begin + 2].id, 2);
  // The last position's, as a stream's event gives them.
  ASSERT_EQ(ev.top.size(), 3U);
  EXPECT_EQ(ev.top[0].id, 9);
  EXPECT_EQ(ev.logprob, -0.25);
  // The next event starts afresh.
  ASSERT_TRUE(parser.parse(R"({"tokens":[4],"stop":false})", ev));
  EXPECT_TRUE(ev.positions.empty());
  EXPECT_TRUE(ev.top.empty());
  EXPECT_TRUE(std::isnan(ev.logprob));
}

TEST(CompletionStream, FieldOrderWhitespaceAndNestedLookalikesDoNotMatter) {
  CompletionEventParser parser;
  CompletionEvent ev;
  const std::string text = R"( { "content" : "a\"}{[ \"tokens\":[1]", "generation_settings" : {"stop": true,
      "tokens": [9], "logit_bias": [[1, false]]}, "completion_probabilities" : [ { "top_logprobs" : [
      { "logprob" : null , "token" : "}", "id" : 4 } , {"bytes":[1,2],"id":5,"logprob":-1.5e-3} ] } ],
      "tokens" : [ 5 , 6 ] , "stop" : false } )";
  ASSERT_TRUE(parser.parse(text, ev));
  EXPECT_EQ(std::vector<Token>(ev.tokens.begin(), ev.tokens.end()), (std::vector<Token>{5, 6}));
  EXPECT_FALSE(ev.stop);
  EXPECT_TRUE(ev.error.empty());
  ASSERT_EQ(ev.top.size(), 2U);
  EXPECT_EQ(ev.top[0].id, 4);
  EXPECT_TRUE(std::isinf(ev.top[0].logprob) && ev.top[0].logprob < 0);
  EXPECT_EQ(ev.top[1].id, 5);
  EXPECT_EQ(ev.top[1].logprob, -1.5e-3);
  EXPECT_TRUE(std::isnan(ev.logprob));  // the entry has no logprob of its own, only its alternatives'
}

TEST(CompletionStream, AnErrorEventIsReportedAsSent) {
  CompletionEventParser parser;
  CompletionEvent ev;
  const std::string body = read_data("completion_error.json");
  ASSERT_TRUE(parser.parse(body, ev));
  EXPECT_TRUE(ev.tokens.empty());
  const auto err = nlohmann::json::parse(ev.error);
  EXPECT_EQ(err["code"], 400);
  EXPECT_EQ(err["message"], "Prompt contains invalid tokens");
}

// llama-server's progress events (return_progress) carry a placeholder token id, not a sampled
// token, and the prompt tokens reused from the cache; a last event's timings carry them too, and
// the prompt tokens the call evaluated.
TEST(CompletionStream, ProgressEventsGiveTheCachedPromptTokensAndNoToken) {
  CompletionEventParser parser;
  CompletionEvent ev;
  ASSERT_TRUE(parser.parse(
      R"({"index":0,"content":"","tokens":[0],"stop":false,"id_slot":-1,"tokens_predicted":0,"tokens_evaluated":12,)"
      R"("prompt_progress":{"total":12,"cache":11,"processed":11,"time_ms":0}})",
      ev));
  EXPECT_TRUE(ev.tokens.empty());
  EXPECT_EQ(ev.cached, 11);
  EXPECT_EQ(ev.evaluated, -1);  // a progress event's `processed` is not the call's total
  ASSERT_TRUE(parser.parse(
      R"({"content":"","tokens":[],"stop":true,"timings":{"cache_n":7,"prompt_n":5},"tokens_cached":14})", ev));
  EXPECT_EQ(ev.cached, 7);
  EXPECT_EQ(ev.evaluated, 5);
  EXPECT_TRUE(ev.stop);
  ASSERT_TRUE(parser.parse(R"({"content":" x","tokens":[5],"stop":false})", ev));
  EXPECT_EQ(ev.cached, -1);
  EXPECT_EQ(ev.evaluated, -1);
  ASSERT_EQ(ev.tokens.size(), 1U);
  EXPECT_EQ(ev.tokens[0], 5);
}

TEST(CompletionStream, MalformedEventsAreRefusedAndPingsSkipped) {
  CompletionEventParser parser;
  CompletionEvent ev;
  for (const char* bad : {"", "[1]", R"({"tokens":[1,)", R"({"tokens":[x]})", R"({"a":"unterminated})", "{\"a\" 1}"}) {
    EXPECT_FALSE(parser.parse(bad, ev)) << bad;
  }
  SseSplitter sse;
  std::vector<std::string> payloads;
  sse.feed(":\n\ndata: {\"tokens\":[3]}\n\nevent: x\ndata:{\"tokens\":[4]}\n\n", [&](std::string_view p) {
    payloads.emplace_back(p);
    return true;
  });
  EXPECT_EQ(payloads, (std::vector<std::string>{"{\"tokens\":[3]}", "{\"tokens\":[4]}"}));
}

// Events a JSON writer could produce: the fields the reader wants among others of every kind
// (strings with escapes and brackets, nested objects and arrays holding lookalike keys), in any
// order, compact or indented. The reader sees what nlohmann's parser sees.
TEST(CompletionStream, RandomEventsReadAsAFullParserReadsThem) {
  std::mt19937 rng(7);
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const std::vector<std::string> texts = {"", "a\"}{[", "\\", "line\nbreak", "中文 \u00e4", "\"tokens\":[1]"};
  std::function<nlohmann::json(int)> noise = [&](int depth) -> nlohmann::json {
    switch (depth > 2 ? pick(4) : pick(6)) {
      case 0:
        return texts[static_cast<size_t>(pick(static_cast<int>(texts.size())))];
      case 1:
        return pick(1000) - 500;
      case 2:
        return pick(2) == 0;
      case 3:
        return nullptr;
      case 4: {
        nlohmann::json o = nlohmann::json::object();
        for (const char* k : {"stop", "tokens", "error", "x"}) {
          if (pick(2) == 0) o[k] = noise(depth + 1);
        }
        return o;
      }
      default: {
        nlohmann::json a = nlohmann::json::array();
        for (int i = pick(4); i > 0; --i) a.push_back(noise(depth + 1));
        return a;
      }
    }
  };
  CompletionEventParser parser;
  for (int round = 0; round < 2000; ++round) {
    nlohmann::ordered_json ev;
    std::vector<std::pair<std::string, nlohmann::json>> fields;
    std::vector<Token> tokens;
    for (int i = pick(3); i > 0; --i) tokens.push_back(pick(200000));
    const bool stop = pick(2) == 0;
    fields.emplace_back("tokens", tokens);
    fields.emplace_back("stop", stop);
    for (int i = pick(5); i > 0; --i) fields.emplace_back("f" + std::to_string(i), noise(0));
    std::shuffle(fields.begin(), fields.end(), rng);
    for (auto& [k, v] : fields) ev[k] = v;
    const std::string text = pick(2) == 0 ? ev.dump() : ev.dump(pick(4));
    CompletionEvent out;
    ASSERT_TRUE(parser.parse(text, out)) << text;
    EXPECT_EQ(std::vector<Token>(out.tokens.begin(), out.tokens.end()), tokens) << text;
    EXPECT_EQ(out.stop, stop) << text;
    EXPECT_TRUE(out.error.empty()) << text;
  }
}

TEST(CompletionStream, TheRequestBodyIsTheJsonLlamaServerReads) {
  const std::vector<Token> prompt = {1, 2, 3};
  const std::vector<Token> tail = {40, 50};
  CompletionRequest req;
  req.prompt = prompt;
  req.prompt_tail = tail;
  req.bias = {{7, -std::numeric_limits<float>::infinity()}, {8, 100.0F}, {9, -2.5F}};
  req.n_predict = 12;
  req.sampling.temperature = 0.0F;
  req.sampling.seed = 42;
  std::string body;
  write_completion_body(req, body);
  auto j = nlohmann::json::parse(body);
  EXPECT_EQ(j["prompt"], nlohmann::json({1, 2, 3, 40, 50}));
  EXPECT_EQ(j["n_predict"], 12);
  EXPECT_EQ(j["stream"], true);
  EXPECT_EQ(j["return_tokens"], true);
  EXPECT_EQ(j["cache_prompt"], true);
  EXPECT_EQ(j["temperature"], 0.0);
  EXPECT_EQ(j["top_k"], 40);
  EXPECT_FLOAT_EQ(j["top_p"].get<float>(), 0.95F);
  EXPECT_EQ(j["seed"], 42);
  EXPECT_EQ(j["samplers"], nlohmann::json({"temperature"}));  // greedy: the first of the highest
  EXPECT_EQ(j["mirostat"], 0);
  EXPECT_EQ(j["dynatemp_range"], 0);
  EXPECT_EQ(j["min_keep"], 1);
  EXPECT_EQ(j["backend_sampling"], false);
  EXPECT_EQ(j["logit_bias"], nlohmann::json::parse("[[7,false],[8,100],[9,-2.5]]"));
  EXPECT_FALSE(j.contains("n_probs"));
  req.n_probs = 4;
  req.bias.clear();
  req.sampling.temperature = 0.7F;
  write_completion_body(req, body);
  j = nlohmann::json::parse(body);
  EXPECT_EQ(j["samplers"], nlohmann::json({"top_k", "top_p", "min_p", "temperature"}));  // the loop's chain
  EXPECT_EQ(j["n_probs"], 4);
  EXPECT_EQ(j["post_sampling_probs"], false);
  EXPECT_EQ(j["logit_bias"], nlohmann::json::array());
  // Every call names a chat parser that matches nothing (a PEG arena of one epsilon), as a JSON
  // string: llama-server's default one fails on output that is not whole UTF-8.
  ASSERT_TRUE(j["chat_parser"].is_string());
  EXPECT_EQ(nlohmann::json::parse(j["chat_parser"].get<std::string>()),
            nlohmann::json::parse(R"({"parsers":[{"type":"epsilon"}],"rules":{},"root":0})"));
}

}  // namespace
}  // namespace sfcl::gateway
