// OpenAI logprobs through `sfcl gateway` on real llama-server processes: at temperature 0 the
// delivered tokens, their log-probabilities and their most likely alternatives equal those of
// `sfcl serve` on the same demo model (within float rounding), chat and completions, streamed and
// not, backtracked answers included. What the gateway cannot serve is refused with a 400 that says
// why (docs/SCALING.md, "Log-probabilities").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "gateway/gateway_process.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

// The two evaluate the same positions in batches of other shapes (a backend evaluates a rewound
// prefix again as a prompt), which moves the logits by float rounding.
constexpr double kTolerance = 0.05;

// One delivered token as a client reads it from either shape.
struct Entry {
  std::string token;
  json logprob;                       // a number, or null where the value is unknown
  std::map<std::string, double> top;  // alternative -> logprob
};

void add_chat(const json& logprobs, std::vector<Entry>& out) {
  if (!logprobs.is_object()) return;
  for (const json& e : logprobs["content"]) {
    Entry en{e["token"], e["logprob"], {}};
    for (const json& alt : e["top_logprobs"]) {
      en.top[alt["token"]] = alt["logprob"].is_number() ? alt["logprob"].get<double>() : -INFINITY;
    }
    out.push_back(std::move(en));
  }
}

void add_completion(const json& logprobs, std::vector<Entry>& out) {
  if (!logprobs.is_object()) return;
  for (size_t i = 0; i < logprobs["tokens"].size(); ++i) {
    Entry en{logprobs["tokens"][i], logprobs["token_logprobs"][i], {}};
    for (const auto& [tok, lp] : logprobs["top_logprobs"][i].items()) en.top[tok] = lp.get<double>();
    out.push_back(std::move(en));
  }
}

struct Answer {
  int status = 0;
  std::string text;
  std::vector<Entry> entries;
  std::string sfcl_status;
};

// POST `body` (chat when it has messages, else completions), streamed or not; the text and logprob
// entries a client collects.
Answer ask(httplib::Client& c, json body, bool stream) {
  const bool chat = body.contains("messages");
  body["stream"] = stream;
  auto r = c.Post(chat ? "/v1/chat/completions" : "/v1/completions", body.dump(), "application/json");
  Answer a;
  if (!r) return a;
  a.status = r->status;
  if (r->status != 200) {
    a.text = r->body;
    return a;
  }
  a.sfcl_status = r->get_header_value("X-Anthropic-SFCL-Status");
  const auto take = [&](const json& choice, bool delta) {
    if (chat) {
      const json& m = choice[delta ? "delta" : "message"];
      if (m.contains("content") && m["content"].is_string()) a.text += m["content"].get<std::string>();
      add_chat(choice.value("logprobs", json()), a.entries);
    } else {
      a.text += choice["text"].get<std::string>();
      add_completion(choice.value("logprobs", json()), a.entries);
    }
  };
  if (!stream) {
    take(json::parse(r->body)["choices"][0], false);
    return a;
  }
  for (const auto& [event, data] : parse_sse(r->body)) {
    if (data == "[DONE]") continue;
    const json j = json::parse(data);
    if (j.contains("choices") && !j["choices"].empty()) take(j["choices"][0], true);
  }
  return a;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // a token that ends inside a character

// The gateway's entries equal serve's: the same tokens, values within kTolerance, the same
// alternatives (where two of them tie within the tolerance, their order may differ). With
// `partial_unknown`, a token that ends inside a character may have no value (null); returns how
// many had none.
int expect_same_logprobs(const Answer& got, const Answer& want, const std::string& what, bool partial_unknown = false) {
  int unknown = 0;
  EXPECT_EQ(got.status, 200) << what << ": " << got.text;
  EXPECT_EQ(want.status, 200) << what << ": " << want.text;
  EXPECT_EQ(got.text, want.text) << what;
  EXPECT_EQ(got.entries.size(), want.entries.size()) << what;
  if (got.entries.size() != want.entries.size()) return unknown;
  for (size_t i = 0; i < want.entries.size(); ++i) {
    const Entry& g = got.entries[i];
    const Entry& w = want.entries[i];
    const std::string at = what + ", token " + std::to_string(i) + " '" + w.token + "'";
    EXPECT_EQ(g.token, w.token) << at;
    EXPECT_TRUE(w.logprob.is_number()) << at;
    if (partial_unknown && g.logprob.is_null() && w.token.find(kReplacement) != std::string::npos) {
      ++unknown;
    } else if (g.logprob.is_number() && w.logprob.is_number()) {
      EXPECT_NEAR(g.logprob.get<double>(), w.logprob.get<double>(), kTolerance) << at;
    } else {
      ADD_FAILURE() << at << ": the gateway reported no value";
    }
    EXPECT_EQ(g.top.size(), w.top.size()) << at;
    if (g.top.size() != w.top.size()) continue;
    for (const auto& [tok, lp] : w.top) {
      const auto it = g.top.find(tok);
      if (it == g.top.end()) {
        double smallest = 0.0;
        for (const auto& alt : w.top) smallest = std::min(smallest, alt.second);
        EXPECT_NEAR(lp, smallest, kTolerance) << at << ": '" << tok << "' missing (only a tie at the cut may differ)";
        continue;
      }
      EXPECT_NEAR(it->second, lp, kTolerance) << at << " alternative '" << tok << "'";
    }
  }
  return unknown;
}

json chat_body(const Item& it, const std::string& mode, int top) {
  return {{"model", "sfcl-demo"},
          {"max_tokens", 40},
          {"temperature", 0},
          {"logprobs", true},
          {"top_logprobs", top},
          {"sfcl", {{"mode", mode}}},
          {"messages", json::array({{{"role", "system"}, {"content", it.document}},
                                    {{"role", "user"}, {"content", it.question}}})}};
}

json completion_body(const Item& it, const std::string& mode, int top) {
  return {{"model", "sfcl-demo"},     {"max_tokens", 40},
          {"temperature", 0},         {"logprobs", top},
          {"sfcl", {{"mode", mode}}}, {"prompt", it.document + "\nQuestion: " + it.question + "\nAnswer:"}};
}

class GatewayLogprobs : public ::testing::TestWithParam<const char*> {};

TEST_P(GatewayLogprobs, EqualServesChatAndCompletionsStreamedAndNot) {
  ServerProcess serve({"--model", demo_model().string(), "--parallel", "2"});
  LlamaServer a;
  LlamaServer b;
  std::vector<std::string> args;
  if (std::string(GetParam()) == "openai") args = {"--backend-api", "openai"};
  Gateway gw({&a, &b}, args, /*tokenizer=*/args.empty());
  auto sc = serve.client();
  auto gc = gw.client();
  int backtracked = 0;
  int tokens = 0;
  const std::vector<Item> items = eval_items(8);
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    for (const std::string mode : {"anchor", "off"}) {
      const int top = static_cast<int>(i % 3 == 0 ? 0 : 2 + i % 5);  // 0, and up to past the gateway's own 4
      for (const bool stream : {false, true}) {
        const std::string what = "item " + std::to_string(i) + " " + mode + (stream ? " streamed" : "");
        const Answer want = ask(sc, chat_body(it, mode, top), stream);
        expect_same_logprobs(ask(gc, chat_body(it, mode, top), stream), want, "chat " + what);
        tokens += static_cast<int>(want.entries.size());
        if (want.sfcl_status.find("avg_backtrack=0.0") == std::string::npos &&
            want.sfcl_status.find("avg_backtrack") != std::string::npos) {
          ++backtracked;
        }
        expect_same_logprobs(ask(gc, completion_body(it, mode, top), stream),
                             ask(sc, completion_body(it, mode, top), stream), "completions " + what);
      }
    }
  }
  EXPECT_GT(tokens, 200);
  EXPECT_GT(backtracked, 0);  // regenerated tokens were compared too
}

// Answers that copy a name the demo vocabulary writes as byte tokens: llama-server reports nothing
// for a token that ends inside a character, so the gateway probes its position. Free (mode off),
// every value is there and equals serve's; where the anchor checks constrain the name's bytes, a
// byte the model ranks below the probe's top 20 has none (null), never another value.
TEST_P(GatewayLogprobs, TokensInsideACharacterHaveTheirValuesToo) {
  ServerProcess serve({"--model", demo_model().string(), "--parallel", "2"}, true, {}, true, /*tiny_model=*/false);
  LlamaServer backend;
  std::vector<std::string> args;
  if (std::string(GetParam()) == "openai") args = {"--backend-api", "openai"};
  Gateway gw({&backend}, args, /*tokenizer=*/args.empty());
  auto sc = serve.client();
  auto gc = gw.client();
  int partial = 0;
  int unknown = 0;
  const std::vector<RareNameItem> items = rare_name_items(3);
  ASSERT_EQ(items.size(), 3U);
  for (size_t i = 0; i < items.size(); ++i) {
    for (const std::string mode : {"off", "anchor"}) {
      const json body = chat_body({items[i].document, items[i].question}, mode, 2);
      for (const bool stream : {false, true}) {
        const Answer want = ask(sc, body, stream);
        unknown += expect_same_logprobs(ask(gc, body, stream), want,
                                        "item " + std::to_string(i) + " " + mode + (stream ? " streamed" : ""),
                                        /*partial_unknown=*/mode == "anchor");
        for (const Entry& e : want.entries) partial += e.token.find(kReplacement) != std::string::npos ? 1 : 0;
      }
    }
  }
  EXPECT_GT(partial, 0);  // tokens that end inside a character were compared
  EXPECT_LT(unknown, partial / 2) << "values missing for " << unknown << " of " << partial;
}

INSTANTIATE_TEST_SUITE_P(Protocols, GatewayLogprobs, ::testing::Values("native", "openai"));

// sfcl serve's logprobs include the request's own logit_bias, the backends' do not: the gateway
// refuses the pair with a 400 that names logprobs, and goes on serving.
TEST(GatewayLogprobsLimits, WithTheRequestsOwnLogitBiasRefusedWithA400) {
  LlamaServer backend;
  const json chat = {{"model", "any"},
                     {"max_tokens", 4},
                     {"logprobs", true},
                     {"messages", json::array({{{"role", "user"}, {"content", "Say x."}}})}};
  Gateway gw({&backend}, {});
  auto c = gw.client();
  json biased = chat;
  biased["logit_bias"] = {{"42", 5}};
  auto r = c.Post("/v1/chat/completions", biased.dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_EQ(json::parse(r->body)["error"]["param"], "logprobs") << r->body;
  EXPECT_NE(r->body.find("logit_bias"), std::string::npos) << r->body;
  r = c.Post("/v1/chat/completions", chat.dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
  const json j = json::parse(r->body);
  EXPECT_FALSE(j["choices"][0]["logprobs"]["content"].empty()) << r->body;
}

}  // namespace
}  // namespace sfcl::test
