// The OpenAI-completions protocol's request body and stream reading, and the choice of the
// vocabulary file. The llama-server event below is what its /v1/completions streams (the gateway
// tests run it for real); the vLLM events follow vLLM's documented CompletionStreamResponse, as no
// vLLM server runs here.
#include "gateway/openai_protocol.h"

#include <gtest/gtest.h>

#include <httplib.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "gateway/local_http_server.h"
#include "gateway/tokenizer_source.h"

namespace sfcl::gateway {
namespace {

using nlohmann::json;

constexpr float kBan = -std::numeric_limits<float>::infinity();

TEST(OpenAiProtocol, BodyHasTheTokenPromptAndBiasObjectWithBansAtMinus100) {
  const std::vector<Token> prompt = {1, 2, 3};
  const std::vector<Token> tail = {4};
  CompletionRequest req;
  req.prompt = prompt;
  req.prompt_tail = tail;
  req.n_predict = 1;
  req.sampling.temperature = 0.0F;
  req.sampling.top_k = 0;
  // A request's own bias, an allowed token, a scripted token on the same id, and a ban that must
  // win over the boost given to the same id earlier.
  req.bias = {{7, -5.0F}, {9, 100.0F}, {9, 1000.0F}, {11, 100.0F}, {11, kBan}};
  std::string body;
  openai::completion_body(req, "m", body);
  const json j = json::parse(body);
  EXPECT_EQ(j["prompt"], json::array({1, 2, 3, 4}));
  EXPECT_EQ(j["model"], "m");
  EXPECT_EQ(j["max_tokens"], 1);
  EXPECT_TRUE(j["stream"].get<bool>());
  EXPECT_EQ(j["logprobs"], 1);
  EXPECT_TRUE(j["return_tokens_as_token_ids"].get<bool>());
  EXPECT_EQ(j["logit_bias"], json({{"7", -5.0}, {"9", 1100.0}, {"11", -100.0}}));
  EXPECT_EQ(j["presence_penalty"], 0.0);  // the server's own penalties off
  EXPECT_EQ(j["frequency_penalty"], 0.0);
  EXPECT_EQ(j["repetition_penalty"], 1.0);
  EXPECT_EQ(j["repeat_penalty"], 1.0);  // llama-server's name
  EXPECT_EQ(j["mirostat"], 0);
  EXPECT_EQ(j["samplers"], json::array({"temperature"}));  // greedy
  EXPECT_EQ(j["top_k"], -1);                               // 0 = off: -1 on both servers
  EXPECT_FALSE(j.contains("seed"));                        // random: left out
  EXPECT_FALSE(j.contains("allowed_token_ids"));           // no allow-list

  req.sampling.top_k = 40;
  req.sampling.seed = 42;
  openai::completion_body(req, "", body);
  const json k = json::parse(body);
  EXPECT_EQ(k["top_k"], 40);
  EXPECT_EQ(k["seed"], 42);
  EXPECT_FALSE(k.contains("model"));
  EXPECT_FALSE(k.contains("chat_parser"));
  // An allow-list goes as vLLM's allowed_token_ids too, each id once, less the banned ones.
  req.allowed = {11, 9, 13, 9};
  req.bias.emplace_back(13, 100.0F);
  openai::completion_body(req, "", body);
  EXPECT_EQ(json::parse(body)["allowed_token_ids"], json::array({9, 13}));
  req.allowed = {11};  // all of it banned: the bias alone decides
  openai::completion_body(req, "", body);
  EXPECT_FALSE(json::parse(body).contains("allowed_token_ids"));
  req.allowed.clear();
  req.inside_character = true;  // llama-server's parser that reads nothing, as on the native API
  openai::completion_body(req, "", body);
  EXPECT_EQ(json::parse(body)["chat_parser"], std::string(kRawTextParser));
}

TEST(OpenAiProtocol, ReadsLlamaServerIdsFromLogprobsContent) {
  std::vector<Token> tokens;
  const auto ev = openai::read_event(
      R"({"choices":[{"text":"0","index":0,"logprobs":{"content":[{"id":276,"token":"0","bytes":[48],)"
      R"("logprob":-0.45,"top_logprobs":[]}]},"finish_reason":null}],"object":"text_completion"})",
      tokens);
  EXPECT_FALSE(ev.finished || ev.failed || ev.no_ids);
  EXPECT_EQ(tokens, std::vector<Token>{276});
  tokens.clear();
  const auto last =
      openai::read_event(R"({"choices":[{"text":"","index":0,"logprobs":null,"finish_reason":"stop"}]})", tokens);
  EXPECT_TRUE(last.finished);
  EXPECT_TRUE(tokens.empty());
  EXPECT_TRUE(openai::read_event("[DONE]", tokens).finished);
}

// The last token's raw log-probability and its position's top tokens, most likely first, from
// either server's shape; NaN and none when not sent.
TEST(OpenAiProtocol, ReadsTheLastTokensLogprobAndTopTokensOfBothServers) {
  std::vector<Token> tokens;
  std::vector<TopProb> top;
  auto ev = openai::read_event(
      R"({"choices":[{"text":"0","index":0,"logprobs":{"content":[{"id":276,"token":"0","bytes":[48],)"
      R"("logprob":-0.45,"top_logprobs":[{"id":276,"token":"0","bytes":[48],"logprob":-0.45},)"
      R"({"id":9,"token":"x","bytes":[120],"logprob":null}]}]},"finish_reason":null}]})",
      tokens, &top);
  EXPECT_EQ(ev.logprob, -0.45);
  ASSERT_EQ(top.size(), 2U);
  EXPECT_EQ(top[0].id, 276);
  EXPECT_EQ(top[1].id, 9);
  EXPECT_TRUE(std::isinf(top[1].logprob) && top[1].logprob < 0);
  // vLLM: one entry per token of the chunk, the top tokens an object keyed "token_id:N".
  ev = openai::read_event(
      R"({"choices":[{"index":0,"text":"ab","logprobs":{"text_offset":[0,1],"token_logprobs":[-0.1,-0.2],)"
      R"("tokens":["token_id:17","token_id:4096"],"top_logprobs":[{"token_id:17":-0.1},)"
      R"({"token_id:5":-3.5,"token_id:4096":-0.2,"token_id:30":-1.25}]},"finish_reason":null}]})",
      tokens, &top);
  EXPECT_EQ(ev.logprob, -0.2);
  ASSERT_EQ(top.size(), 3U);
  EXPECT_EQ(top[0].id, 4096);
  EXPECT_EQ(top[1].id, 30);
  EXPECT_EQ(top[2].id, 5);
  EXPECT_EQ(top[2].logprob, -3.5);
  ev = openai::read_event(R"({"choices":[{"index":0,"text":"a","token_ids":[3],"finish_reason":null}]})", tokens, &top);
  EXPECT_TRUE(std::isnan(ev.logprob));
  EXPECT_TRUE(top.empty());
}

// A chunk of several tokens (llama-server's content[], vLLM's token_logprobs and top_logprobs):
// every position's value and list, in order.
TEST(OpenAiProtocol, ReadsEveryPositionOfAChunkOfSeveralTokens) {
  std::vector<Token> tokens;
  std::vector<TopProb> top;
  PositionRows rows;
  auto ev = openai::read_event(
      R"({"choices":[{"text":"ab","index":0,"logprobs":{"content":[)"
      R"({"id":17,"token":"a","logprob":-0.1,"top_logprobs":[{"id":17,"logprob":-0.1},{"id":3,"logprob":-2.5}]},)"
      R"({"id":40,"token":"b","logprob":-0.7,"top_logprobs":[{"id":41,"logprob":-0.6},{"id":40,"logprob":-0.7}]}]},)"
      R"("finish_reason":null}]})",
      tokens, &top, &rows);
  ASSERT_EQ(tokens, (std::vector<Token>{17, 40}));
  ASSERT_EQ(rows.positions.size(), 2U);
  EXPECT_EQ(rows.positions[0].id, 17);
  EXPECT_EQ(rows.positions[0].logprob, -0.1);
  EXPECT_EQ(rows.top[rows.positions[0].top_begin + 1].id, 3);
  EXPECT_EQ(rows.positions[1].id, 40);
  EXPECT_EQ(rows.positions[1].logprob, -0.7);
  EXPECT_EQ(rows.top[rows.positions[1].top_begin].id, 41);
  EXPECT_EQ(ev.logprob, -0.7);  // the last token's, as before
  ASSERT_EQ(top.size(), 2U);
  EXPECT_EQ(top[0].id, 41);
  tokens.clear();
  ev = openai::read_event(
      R"({"choices":[{"index":0,"text":"ab","logprobs":{"text_offset":[0,1],"token_logprobs":[-0.1,-0.2],)"
      R"("tokens":["token_id:17","token_id:4096"],"top_logprobs":[{"token_id:17":-0.1,"token_id:8":-4.0},)"
      R"({"token_id:5":-3.5,"token_id:4096":-0.2,"token_id:30":-1.25}]},"finish_reason":null}]})",
      tokens, &top, &rows);
  ASSERT_EQ(rows.positions.size(), 2U);
  EXPECT_EQ(rows.positions[0].id, -1);  // vLLM's entries name no id: the chunk's tokens do
  EXPECT_EQ(rows.positions[0].logprob, -0.1);
  ASSERT_EQ(rows.positions[0].top_end - rows.positions[0].top_begin, 2U);
  EXPECT_EQ(rows.top[rows.positions[0].top_begin].id, 17);
  EXPECT_EQ(rows.top[rows.positions[0].top_begin + 1].id, 8);
  ASSERT_EQ(rows.positions[1].top_end - rows.positions[1].top_begin, 3U);
  EXPECT_EQ(rows.top[rows.positions[1].top_begin].id, 4096);  // most likely first
  EXPECT_EQ(rows.top[rows.positions[1].top_begin + 2].id, 5);
  tokens.clear();
  openai::read_event(R"({"choices":[{"index":0,"text":"a","token_ids":[3],"finish_reason":null}]})", tokens, &top,
                     &rows);
  EXPECT_TRUE(rows.positions.empty());
}

TEST(OpenAiProtocol, ReadsVllmTokenIdStringsAndTokenIds) {
  std::vector<Token> tokens;
  // return_tokens_as_token_ids with logprobs: the token strings are "token_id:N".
  auto ev = openai::read_event(
      R"({"choices":[{"index":0,"text":"ab","logprobs":{"text_offset":[0,1],"token_logprobs":[-0.1,-0.2],)"
      R"("tokens":["token_id:17","token_id:4096"],"top_logprobs":[{"token_id:17":-0.1},{"token_id:4096":-0.2}]},)"
      R"("finish_reason":null}]})",
      tokens);
  EXPECT_FALSE(ev.no_ids);
  EXPECT_EQ(tokens, (std::vector<Token>{17, 4096}));
  // return_token_ids: the delta's ids, which win over the logprobs' strings.
  tokens.clear();
  ev = openai::read_event(
      R"({"choices":[{"index":0,"text":"c","token_ids":[5],"logprobs":{"tokens":["token_id:5"]},"finish_reason":"length"}]})",
      tokens);
  EXPECT_TRUE(ev.finished);
  EXPECT_EQ(tokens, std::vector<Token>{5});
  // The usage chunk has no choices.
  tokens.clear();
  ev = openai::read_event(R"({"choices":[],"usage":{"prompt_tokens":3}})", tokens);
  EXPECT_FALSE(ev.finished || ev.failed || ev.no_ids);
  EXPECT_TRUE(tokens.empty());
}

TEST(OpenAiProtocol, TextWithoutIdsAndErrorsAreReported) {
  std::vector<Token> tokens;
  // A server that ignores return_tokens_as_token_ids: token strings are text.
  auto ev = openai::read_event(R"({"choices":[{"index":0,"text":"a","logprobs":{"tokens":["a"]}}]})", tokens);
  EXPECT_TRUE(ev.no_ids);
  ev = openai::read_event(R"({"choices":[{"index":0,"text":"a","logprobs":null,"finish_reason":null}]})", tokens);
  EXPECT_TRUE(ev.no_ids);
  EXPECT_FALSE(ev.error.empty());
  ev = openai::read_event(R"({"choices":[{"index":0,"text":"a","token_ids":["x"]}]})", tokens);
  EXPECT_TRUE(ev.no_ids);  // not an integer
  ev = openai::read_event(R"({"error":{"message":"boom","code":500}})", tokens);
  EXPECT_TRUE(ev.failed);
  EXPECT_NE(ev.error.find("boom"), std::string::npos);
  ev = openai::read_event(R"({"object":"error","message":"bad","code":400})", tokens);
  EXPECT_TRUE(ev.failed);
  EXPECT_TRUE(tokens.empty());
}

TEST(OpenAiProtocol, ReadsModelsOfBothServers) {
  BackendInfo vllm;
  openai::read_models(R"({"object":"list","data":[{"id":"qwen","object":"model","root":"/models/qwen.gguf",)"
                      R"("max_model_len":32768}]})",
                      vllm);
  EXPECT_EQ(vllm.model, "qwen");
  EXPECT_EQ(vllm.n_ctx, 32768);
  EXPECT_EQ(vllm.model_path, "/models/qwen.gguf");
  BackendInfo hf;
  openai::read_models(R"({"data":[{"id":"Qwen/Qwen2.5-7B","root":"Qwen/Qwen2.5-7B","max_model_len":4096}]})", hf);
  EXPECT_TRUE(hf.model_path.empty());  // not a GGUF: no vocabulary file to load
  BackendInfo llama;
  openai::read_models(R"({"data":[{"id":"demo/sfcl-demo.gguf","meta":{"n_ctx":512,"n_vocab":1115}}]})", llama);
  EXPECT_EQ(llama.n_ctx, 512);
  BackendInfo none;
  EXPECT_THROW(openai::read_models(R"({"data":[]})", none), std::runtime_error);
  EXPECT_EQ(openai::read_tokens(R"({"count":2,"max_model_len":8,"tokens":[3,4]})"), (std::vector<Token>{3, 4}));
}

// An OpenAI-completions server on 127.0.0.1 that answers every completion with a given status and
// SSE body, as a server that misbehaves would.
class ScriptedServer {
 public:
  ScriptedServer() {
    http_.routes.Get("/v1/models", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"data":[{"id":"m","max_model_len":64}]})", "application/json");
    });
    http_.routes.Post("/v1/completions", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> lk(mu_);
      last_body_ = req.body;
      res.status = status_;
      res.set_content(sse_, "text/event-stream");
    });
    http_.start();
  }
  void answer(int status, std::string sse) {
    std::lock_guard<std::mutex> lk(mu_);
    status_ = status;
    sse_ = std::move(sse);
  }
  [[nodiscard]] json last_body() {
    std::lock_guard<std::mutex> lk(mu_);
    return json::parse(last_body_);
  }
  [[nodiscard]] BackendAddress address() const {
    BackendAddress a = parse_backend_url(http_.url());
    a.api = BackendApi::openai;
    return a;
  }

 private:
  std::mutex mu_;
  int status_ = 200;
  std::string sse_;
  std::string last_body_;
  test::LocalHttpServer http_;  // last: stops before the state its handlers use
};

std::string chunk(const std::string& choice) { return "data: {\"choices\":[" + choice + "]}\n\n"; }

TEST(OpenAiProtocol, ClientStreamsIdsAndRefusesBannedTokensMissingIdsAndCutStreams) {
  ScriptedServer server;
  BackendClient client(server.address(), 5.0);
  const std::vector<Token> prompt = {1, 2};
  CompletionRequest req;
  req.prompt = prompt;
  req.n_predict = 4;
  std::vector<Token> got;
  const auto collect = [&](const CompletionEvent& ev) {
    got.insert(got.end(), ev.tokens.begin(), ev.tokens.end());
    return true;
  };
  server.answer(200, chunk(R"({"index":0,"text":"a","logprobs":{"tokens":["token_id:7"]}})") +
                         chunk(R"({"index":0,"text":"b","token_ids":[8,9],"finish_reason":"length"})") +
                         "data: [DONE]\n\n");
  StreamResult r = client.complete(req, collect);
  EXPECT_EQ(r.end, StreamEnd::finished) << r.error;
  EXPECT_EQ(got, (std::vector<Token>{7, 8, 9}));
  EXPECT_EQ(server.last_body()["model"], "m");  // learnt from /v1/models
  EXPECT_EQ(server.last_body()["prompt"], json::array({1, 2}));
  EXPECT_FALSE(server.last_body().contains("allowed_token_ids"));
  req.allowed = {7, 8, 9};
  got.clear();
  r = client.complete(req, collect);
  EXPECT_EQ(r.end, StreamEnd::finished) << r.error;
  EXPECT_EQ(server.last_body()["allowed_token_ids"], json::array({7, 8, 9}));  // what the backend received
  req.allowed.clear();

  req.bias = {{8, kBan}};
  got.clear();
  r = client.complete(req, collect);
  EXPECT_EQ(r.end, StreamEnd::rejected);
  EXPECT_NE(r.error.find("banned token 8"), std::string::npos) << r.error;
  EXPECT_EQ(got, std::vector<Token>{7});  // nothing from the chunk with the banned token

  req.bias.clear();
  server.answer(200, chunk(R"({"index":0,"text":"a","logprobs":null})"));
  r = client.complete(req, collect);
  EXPECT_EQ(r.end, StreamEnd::rejected);
  EXPECT_NE(r.error.find("no token ids"), std::string::npos) << r.error;

  server.answer(200, chunk(R"({"index":0,"text":"a","token_ids":[7]})"));  // cut before the end
  r = client.complete(req, collect);
  EXPECT_EQ(r.end, StreamEnd::failed);
  EXPECT_NE(r.error.find("ended early"), std::string::npos) << r.error;

  server.answer(400, R"({"object":"error","message":"bad prompt"})");
  r = client.complete(req, collect);
  EXPECT_EQ(r.end, StreamEnd::rejected);
  EXPECT_NE(r.error.find("bad prompt"), std::string::npos) << r.error;
  server.answer(503, "{}");
  EXPECT_EQ(client.complete(req, collect).end, StreamEnd::failed);
}

// vLLM lists the sampled token among a position's top tokens when it is not one of the n asked
// for: the client keeps the n most likely, so the last entry is the n-th (greedy tie checks read it).
TEST(OpenAiProtocol, ClientKeepsTheTopNAskedForWithoutTheSampledTokenAdded) {
  ScriptedServer server;
  BackendClient client(server.address(), 5.0);
  const std::vector<Token> prompt = {1, 2};
  CompletionRequest req;
  req.prompt = prompt;
  req.n_predict = 2;
  req.n_probs = 2;
  server.answer(200, chunk(R"({"index":0,"text":"ab","token_ids":[40,9],"logprobs":{"token_logprobs":[-4.5,-0.1],)"
                           R"("top_logprobs":[{"token_id:3":-0.2,"token_id:4":-1.0,"token_id:40":-4.5},)"
                           R"({"token_id:9":-0.1,"token_id:2":-2.5}]},"finish_reason":"length"})") +
                         "data: [DONE]\n\n");
  std::vector<std::vector<Token>> lists;
  std::vector<double> own;
  const StreamResult r = client.complete(req, [&](const CompletionEvent& ev) {
    EXPECT_EQ(ev.positions.size(), ev.tokens.size());
    for (const PositionProbs& p : ev.positions) {
      own.push_back(p.logprob);
      auto& l = lists.emplace_back();
      for (uint32_t i = p.top_begin; i < p.top_end; ++i) l.push_back(ev.all_top[i].id);
    }
    return true;
  });
  EXPECT_EQ(r.end, StreamEnd::finished) << r.error;
  EXPECT_EQ(server.last_body()["logprobs"], 2);
  ASSERT_EQ(lists.size(), 2U);
  EXPECT_EQ(lists[0], (std::vector<Token>{3, 4}));  // 40, sampled, is not the third most likely
  EXPECT_EQ(lists[1], (std::vector<Token>{9, 2}));
  EXPECT_EQ(own, (std::vector<double>{-4.5, -0.1}));  // its own value is still there
}

TEST(TokenizerSource, GivenWinsReadableReportedFileIsUsedOtherwiseTheErrorNamesTheFlag) {
  BackendInfo info;
  info.model_path = "/nonexistent/model.gguf";
  EXPECT_EQ(choose_tokenizer("mine.gguf", info, "http://b").path, "mine.gguf");
  try {
    (void)choose_tokenizer("", info, "http://b");
    ADD_FAILURE() << "an unreadable model file was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("--tokenizer"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("/nonexistent/model.gguf"), std::string::npos) << e.what();
  }
  info.model_path.clear();
  EXPECT_THROW((void)choose_tokenizer("", info, "http://b"), std::runtime_error);
  const auto file = std::filesystem::temp_directory_path() / "sfcl-tokenizer-source-test.gguf";
  std::ofstream(file) << "GGUF";
  info.model_path = file.string();
  const TokenizerSource s = choose_tokenizer("", info, "http://b");
  EXPECT_EQ(s.path, file.string());
  EXPECT_NE(s.origin.find("http://b"), std::string::npos);
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace sfcl::gateway
