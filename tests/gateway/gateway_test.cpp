// `sfcl gateway` in front of real llama-server processes (scripts/build-llama-server) on the demo
// model, all on 127.0.0.1: its answers and events equal those of `sfcl serve` on the same model at
// temperature 0; a backtrack goes through it and the wrong value never reaches the client; a
// backend SIGKILLed mid-answer is replaced with nothing lost or repeated, and comes back after a
// restart. The same through the OpenAI-completions protocol (llama-server's /v1/completions), and
// the vocabulary learnt from the backend's model file or refused when it cannot be read.
#include <gtest/gtest.h>

#include <fstream>
#include <future>
#include <nlohmann/json.hpp>

#include "gateway/gateway_process.h"
#include "gateway/local_http_server.h"
#include "support/wait.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

json messages_body(const Item& it, int max_tokens, bool stream) {
  json body = {{"model", "sfcl-demo"},
               {"max_tokens", max_tokens},
               {"temperature", 0},
               {"stream", stream},
               {"system", it.document},
               {"sfcl", {{"events", true}}},
               {"messages", json::array({{{"role", "user"}, {"content", it.question}}})}};
  if (it.document.empty()) body.erase("system");
  return body;
}

class GatewayTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    a_ = new LlamaServer();
    b_ = new LlamaServer();
  }
  static void TearDownTestSuite() {
    delete a_;
    delete b_;
    a_ = b_ = nullptr;
  }
  static LlamaServer* a_;
  static LlamaServer* b_;
};
LlamaServer* GatewayTest::a_ = nullptr;
LlamaServer* GatewayTest::b_ = nullptr;

// The first `items` eval answers, streamed (Messages) and not (OpenAI chat), with their events,
// equal between `sfcl serve` (sc) and the gateway (gc); then a request's own logit_bias.
void expect_answers_equal(httplib::Client& sc, httplib::Client& gc, size_t items) {
  int anchors = 0;
  for (const Item& it : eval_items(items)) {
    const Seen want = stream_messages(sc, messages_body(it, 64, true));
    const Seen got = stream_messages(gc, messages_body(it, 64, true));
    ASSERT_TRUE(want.complete);
    EXPECT_TRUE(got.complete);
    EXPECT_EQ(got.text, want.text) << it.question;
    EXPECT_EQ(got.events, want.events) << it.question;
    anchors += static_cast<int>(want.events.size());
    // Non-streamed, the OpenAI dialect: the same answer and anchors.
    json chat = {{"model", "sfcl-demo"},
                 {"max_tokens", 64},
                 {"temperature", 0},
                 {"messages", json::array({{{"role", "system"}, {"content", it.document}},
                                           {{"role", "user"}, {"content", it.question}}})}};
    auto ws = sc.Post("/v1/chat/completions", chat.dump(), "application/json");
    auto gs = gc.Post("/v1/chat/completions", chat.dump(), "application/json");
    ASSERT_TRUE(ws && gs);
    EXPECT_EQ(gs->status, 200);
    const json wj = json::parse(ws->body);
    const json gj = json::parse(gs->body);
    EXPECT_EQ(gj["choices"][0]["message"]["content"], wj["choices"][0]["message"]["content"]);
    EXPECT_EQ(gj["sfcl"]["anchors"], wj["sfcl"]["anchors"]);
    EXPECT_EQ(gs->get_header_value("X-Anthropic-SFCL-Status"), ws->get_header_value("X-Anthropic-SFCL-Status"));
  }
  EXPECT_GT(anchors, 0);  // the answers had values to check

  // A request's own logit_bias reaches the backend: banning the first token of the answer changes
  // it, the same way on both.
  const Item it = eval_items(1)[0];
  json chat = {{"model", "sfcl-demo"},
               {"max_tokens", 32},
               {"temperature", 0},
               {"messages", json::array({{{"role", "system"}, {"content", it.document}},
                                         {{"role", "user"}, {"content", it.question}}})}};
  const std::string plain = json::parse(
      gc.Post("/v1/chat/completions", chat.dump(), "application/json")->body)["choices"][0]["message"]["content"];
  // The answer's first token, however the text is cut (with or without a leading space).
  json bias = json::object();
  for (const std::string& text : {plain, " " + plain}) {
    auto tok = gc.Post("/tokenize", json({{"content", text}}).dump(), "application/json");
    ASSERT_TRUE(tok && tok->status == 200);
    const json first = json::parse(tok->body)["tokens"][0];
    bias[std::to_string(first.is_object() ? first["id"].get<int>() : first.get<int>())] = -100;
  }
  chat["logit_bias"] = bias;
  auto ws = sc.Post("/v1/chat/completions", chat.dump(), "application/json");
  auto gs = gc.Post("/v1/chat/completions", chat.dump(), "application/json");
  ASSERT_TRUE(ws && gs);
  const std::string banned = json::parse(gs->body)["choices"][0]["message"]["content"];
  EXPECT_NE(banned, plain);
  EXPECT_EQ(banned, json::parse(ws->body)["choices"][0]["message"]["content"].get<std::string>());
}

TEST_F(GatewayTest, AnswersAndEventsEqualServeOnTheSameModel) {
  ServerProcess serve({"--model", demo_model().string(), "--parallel", "2"});
  Gateway gw({a_, b_}, {});
  auto sc = serve.client();
  auto gc = gw.client();
  expect_answers_equal(sc, gc, 6);
}

// Greedy, the loop decides positions from the backends' raw top tokens where it can (instead of a
// call each): over many backtracked answers, still the answers and events of `sfcl serve`.
TEST_F(GatewayTest, PositionsDecidedFromRawTopTokensGiveServesAnswers) {
  ServerProcess serve({"--model", demo_model().string(), "--parallel", "2"});
  Gateway gw({a_, b_}, {});
  auto sc = serve.client();
  auto gc = gw.client();
  const std::vector<Item> items = eval_items(48);
  for (const Item& it : items) {
    const Seen want = stream_messages(sc, messages_body(it, 64, true));
    const Seen got = stream_messages(gc, messages_body(it, 64, true));
    ASSERT_TRUE(want.complete);
    EXPECT_TRUE(got.complete);
    EXPECT_EQ(got.text, want.text) << it.question;
    EXPECT_EQ(got.events, want.events) << it.question;
  }
  const json b = gw.backends();
  EXPECT_GT(b["rewinds"].get<int>(), 0) << b.dump();
  EXPECT_GT(b["local_tokens"].get<int>(), 0) << b.dump();
  // Fewer calls than one per answer plus two per backtrack (a banned token, then the rest).
  EXPECT_LT(b["calls"].get<int>(), static_cast<int>(items.size()) + 2 * b["rewinds"].get<int>()) << b.dump();
  // The ban after a corrected value (every token that would glue onto it: 728 of the demo
  // vocabulary's 1,115) was checked in the gateway, never sent: what logit_bias carried over all
  // 48 answers is a few allow-lists, less than one such ban.
  EXPECT_GT(b["checked_bans"].get<int>(), 0) << b.dump();
  EXPECT_LT(b["bias_entries"].get<int>(), 700) << b.dump();
  // A call after a rewind that ends with the backend's own end of generation is read to its last
  // event, which says what its prompt cost: a few tokens each (the ones decided in the gateway and
  // the one llama-server evaluates again), not whole prompts.
  const int reported = b["rewind_calls_reported"].get<int>();
  EXPECT_GT(reported, b["rewind_calls"].get<int>() / 2) << b.dump();
  EXPECT_GE(b["rewind_prompt_evaluated"].get<int>(), reported) << b.dump();
  EXPECT_LT(b["rewind_prompt_evaluated"].get<int>(), 50 * reported) << b.dump();  // prompts are 70-90
}

// Sampled answers (temperature 0.7): a position under a ban is drawn in the gateway from the raw top
// tokens its call reports (the sampler's draw from the whole row: greedy_pick_test), so no call
// carries the word-start ban after a value; every answer still completes, and backtracks happen.
TEST_F(GatewayTest, SampledAnswersDrawBannedPositionsInTheGateway) {
  Gateway gw({a_, b_}, {});
  auto gc = gw.client();
  const std::vector<Item> items = eval_items(48);
  int confirmed = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    json body = messages_body(items[i], 64, true);
    body["temperature"] = 0.7;
    body["seed"] = static_cast<int>(i) + 1;
    const Seen got = stream_messages(gc, body);
    EXPECT_TRUE(got.complete) << items[i].question;
    EXPECT_FALSE(got.text.empty()) << items[i].question;
    for (const auto& e : got.events) confirmed += e.rfind("anchor_confirmed ", 0) == 0 ? 1 : 0;
  }
  EXPECT_GT(confirmed, 0);
  const json b = gw.backends();
  EXPECT_GT(b["rewinds"].get<int>(), 0) << b.dump();
  EXPECT_GT(b["checked_bans"].get<int>(), 0) << b.dump();
  EXPECT_LT(b["bias_entries"].get<int>(), 700) << b.dump();  // less than one word-start ban
}

// A backend started with sampling defaults of its own (a repeat penalty, DRY, dynamic
// temperature) still samples as the check loop does: the gateway names the chain in every call
// (mirostat, which would replace the chain, is turned off in the body: CompletionStream tests).
class GatewayBackendDefaults : public ::testing::TestWithParam<const char*> {};

TEST_P(GatewayBackendDefaults, ABackendsOwnSamplingDefaultsDoNotChangeTheAnswers) {
  ServerProcess serve({"--model", demo_model().string(), "--parallel", "2"}, true, {}, true, /*tiny_model=*/false);
  LlamaServer odd(2, demo_model(), {"--repeat-penalty", "1.8", "--dry-multiplier", "0.8", "--dynatemp-range", "0.5"});
  std::vector<std::string> args;
  if (std::string(GetParam()) == "openai") args = {"--backend-api", "openai"};
  Gateway gw({&odd}, args);
  auto sc = serve.client();
  auto gc = gw.client();
  expect_answers_equal(sc, gc, 8);
  // Answers kept going past their end (the demo vocabulary's </s> and <|im_end|> biased away) repeat
  // themselves, where a repeat penalty would pick other tokens.
  int long_answers = 0;
  for (const std::string question : {"What is the total of invoice INV-7?", "Who signed the contract?",
                                     "When is the payment due?", "发票号码是多少？"}) {
    const json chat = {{"model", "m"},
                       {"max_tokens", 48},
                       {"temperature", 0},
                       {"logit_bias", {{"2", -100}, {"356", -100}}},
                       {"messages", json::array({{{"role", "user"}, {"content", question}}})}};
    auto want = sc.Post("/v1/chat/completions", chat.dump(), "application/json");
    auto got = gc.Post("/v1/chat/completions", chat.dump(), "application/json");
    ASSERT_TRUE(want && want->status == 200);
    ASSERT_TRUE(got && got->status == 200) << (got ? got->body : "");
    const json w = json::parse(want->body);
    EXPECT_EQ(json::parse(got->body)["choices"][0]["message"]["content"], w["choices"][0]["message"]["content"]);
    long_answers += w["usage"]["completion_tokens"].get<int>() == 48 ? 1 : 0;
  }
  EXPECT_GT(long_answers, 0);
}

INSTANTIATE_TEST_SUITE_P(Protocols, GatewayBackendDefaults, ::testing::Values("native", "openai"));

// The OpenAI-completions protocol against llama-server's own /v1/completions: the same answers,
// events and bans as `sfcl serve`; its vocabulary learnt from the backend's /props model_path.
TEST_F(GatewayTest, OpenAiProtocolAnswersEqualServe) {
  ServerProcess serve({"--model", demo_model().string(), "--parallel", "2"});
  Gateway gw({a_, b_}, {"--backend-api", "openai"}, /*tokenizer=*/false);
  auto sc = serve.client();
  auto gc = gw.client();
  expect_answers_equal(sc, gc, 4);
  const json b = gw.backends();
  EXPECT_GT(b["calls"].get<int>(), 0) << b.dump();
  EXPECT_NE(gw.log_text().find("vocabulary of " + demo_model().string()), std::string::npos) << gw.log_text();
  auto models = gc.Get("/v1/models");
  ASSERT_TRUE(models && models->status == 200);
  EXPECT_EQ(json::parse(models->body)["data"][0]["id"], "sfcl-demo") << models->body;  // the file name
}

TEST_F(GatewayTest, OpenAiProtocolBacktrackBansTheWrongValue) {
  Gateway gw({a_}, {"--backend-api", "openai", "--test-script", " The total is $12,600.00 now."});
  auto c = gw.client();
  const Seen s = stream_messages(c, messages_body({"Invoice total: $12,500.00.", "What is the total?"}, 40, true));
  ASSERT_TRUE(s.complete);
  bool backtrack = false;
  for (const auto& e : s.events) backtrack = backtrack || e.rfind("backtrack ", 0) == 0;
  EXPECT_TRUE(backtrack);
  EXPECT_EQ(s.text.find("12,600"), std::string::npos) << s.text;
  EXPECT_NE(s.text.find("12,500"), std::string::npos) << s.text;  // the ban moved it to the document's
  const json b = gw.backends();
  EXPECT_GE(b["rewinds"].get<int>(), 1) << b.dump();
  EXPECT_GE(b["constrained_calls"].get<int>(), 1) << b.dump();
}

// The API-side flags are `sfcl serve`'s own (cli/api_flags.h): -n caps every answer, an API key
// file is read, a CORS origin is answered.
TEST_F(GatewayTest, ServesApiFlagsAsServeDoes) {
  const auto keys = unique_temp_path("sfcl-gateway-keys", ".txt");
  std::ofstream(keys) << "k1\n";
  Gateway gw({a_}, {"-n", "3", "--api-key-file", keys.string(), "--cors-origin", "http://app.example"});
  auto c = gw.client();
  const json chat = {{"model", "x"},
                     {"max_tokens", 64},
                     {"temperature", 0},
                     {"messages", json::array({{{"role", "user"}, {"content", "Write."}}})}};
  auto r = c.Post("/v1/chat/completions", chat.dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
  r = c.Post("/v1/chat/completions", {{"Authorization", "Bearer k1"}, {"Origin", "http://app.example"}}, chat.dump(),
             "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_LE(json::parse(r->body)["usage"]["completion_tokens"].get<int>(), 3) << r->body;
  EXPECT_EQ(r->get_header_value("Access-Control-Allow-Origin"), "http://app.example");
  std::filesystem::remove(keys);
}

// Without --tokenizer the native protocol loads the file llama-server reports it serves.
TEST_F(GatewayTest, VocabularyComesFromTheBackendsModelFile) {
  Gateway gw({a_}, {}, /*tokenizer=*/false);
  EXPECT_NE(gw.log_text().find("vocabulary of " + demo_model().string()), std::string::npos) << gw.log_text();
  auto c = gw.client();
  EXPECT_TRUE(stream_messages(c, messages_body(eval_items(1)[0], 16, true)).complete);
}

TEST_F(GatewayTest, BacktrackGoesThroughTheBackendAndTheWrongValueIsNeverDelivered) {
  Gateway gw({a_}, {"--test-script", " The total is $12,600.00 now."});
  auto c = gw.client();
  Item it{"Invoice total: $12,500.00.", "What is the total?"};
  const Seen s = stream_messages(c, messages_body(it, 40, true));
  ASSERT_TRUE(s.complete);
  bool backtrack = false;
  for (const auto& e : s.events) backtrack = backtrack || e.rfind("backtrack ", 0) == 0;
  EXPECT_TRUE(backtrack);
  EXPECT_EQ(s.text.find("12,600"), std::string::npos) << s.text;
  const json b = gw.backends();
  EXPECT_GE(b["rewinds"].get<int>(), 1) << b.dump();
  EXPECT_GE(b["rewind_calls"].get<int>(), 1) << b.dump();
  // The call after the rewind ended normally and said what its prompt cost: at least the one
  // token llama-server always evaluates again, and not the whole prompt (its prefix was cached).
  const int reported = b["rewind_calls_reported"].get<int>();
  const int evaluated = b["rewind_prompt_evaluated"].get<int>();
  EXPECT_GE(reported, 1) << b.dump();
  EXPECT_LE(reported, b["rewind_calls"].get<int>()) << b.dump();
  EXPECT_GE(evaluated, reported) << b.dump();
  EXPECT_LT(evaluated, reported * 20) << b.dump();
}

TEST_F(GatewayTest, AllFullAnswers429) {
  Gateway gw({a_}, {"--backend-slots", "1", "--queue", "0", "--test-script", std::string(300, 'x')});
  auto first = std::async(std::launch::async, [&] {
    auto c = gw.client();
    return stream_messages(c, messages_body({"", "Say x."}, 200, true));
  });
  // The first answer holds the only slot from its first backend call on (however slow the machine).
  const auto calls = [&] {
    const json st = gw.backends();
    return st.is_object() ? st.value("calls", 0) : 0;
  };
  for (int i = 0; i < 1000 && calls() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  int refused = 0;
  for (int i = 0; i < 40 && refused == 0; ++i) {
    auto c = gw.client();
    auto r = c.Post("/v1/messages", messages_body({"", "Say x."}, 4, false).dump(), "application/json");
    if (r && r->status == 429) ++refused;
  }
  EXPECT_EQ(refused, 1);
  EXPECT_TRUE(first.get().complete);
}

// A queued request whose client hung up holds no place in the queue: the next one is queued, not
// refused with 429.
TEST_F(GatewayTest, AQueuedRequestWhoseClientLeftFreesItsPlace) {
  // The first answer holds the only slot for seconds: one backend call per scripted token.
  Gateway gw({a_}, {"--backend-slots", "1", "--queue", "1", "--test-script", std::string(3000, 'x')});
  auto first = std::async(std::launch::async, [&] {
    auto c = gw.client();
    return stream_messages(c, messages_body({"", "Say x."}, 1500, true));
  });
  for (int i = 0; i < 1000 && gw.backends().value("calls", 0) == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  {
    auto quitter = gw.client();
    quitter.set_read_timeout(0, 300000);  // queued behind the first, it gives up and closes
    auto r = quitter.Post("/v1/messages", messages_body({"", "Say x."}, 4, false).dump(), "application/json");
    EXPECT_FALSE(r);
  }
  // The server notices the hang-up and drops the queued request (within 100 ms).
  const auto queued = [&] {
    auto h = gw.client().Get("/health");
    return h && h->status == 200 ? json::parse(h->body).value("queue", -1) : -1;
  };
  ASSERT_TRUE(test::wait_until([&] { return queued() == 0; }));
  auto c = gw.client();
  auto r = c.Post("/v1/messages", messages_body({"", "Say x."}, 4, false).dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;  // waited for the slot instead of a 429
  EXPECT_TRUE(first.get().complete);
}

// The prompt tokens a backend reused from its cache are reported as serve reports its own:
// Anthropic's cache_read_input_tokens (input_tokens is the rest), OpenAI's cached_tokens, the
// stream's message_start.
TEST_F(GatewayTest, PromptTokensFromTheBackendsCacheAreReported) {
  // One slot: with several, llama-server may still hold the first request's slot when the second
  // arrives (on a loaded machine) and give it an empty one, and there would be no cache to report.
  LlamaServer one_slot(1);
  Gateway gw({&one_slot}, {});
  auto c = gw.client();
  const Item it = eval_items(3)[2];
  const json body = messages_body(it, 8, false);
  const json first = json::parse(c.Post("/v1/messages", body.dump(), "application/json")->body);
  const json again = json::parse(c.Post("/v1/messages", body.dump(), "application/json")->body);
  const int total = first["usage"]["input_tokens"].get<int>() + first["usage"]["cache_read_input_tokens"].get<int>();
  EXPECT_GT(again["usage"]["cache_read_input_tokens"].get<int>(), total / 2) << again["usage"].dump();
  EXPECT_EQ(again["usage"]["input_tokens"].get<int>() + again["usage"]["cache_read_input_tokens"].get<int>(), total);
  // Streamed, the same prompt right after: message_start already says what the backend reused
  // (asked before another prompt can take the backend slot that holds this one).
  auto s = c.Post("/v1/messages", messages_body(it, 8, true).dump(), "application/json");
  ASSERT_TRUE(s);
  const auto events = parse_sse(s->body);
  ASSERT_FALSE(events.empty());
  ASSERT_EQ(events[0].first, "message_start");
  EXPECT_GT(json::parse(events[0].second)["message"]["usage"]["cache_read_input_tokens"].get<int>(), 0);
  const json chat = {{"model", "sfcl-demo"},
                     {"max_tokens", 8},
                     {"temperature", 0},
                     {"messages", json::array({{{"role", "system"}, {"content", it.document}},
                                               {{"role", "user"}, {"content", it.question}}})}};
  c.Post("/v1/chat/completions", chat.dump(), "application/json");
  const json o = json::parse(c.Post("/v1/chat/completions", chat.dump(), "application/json")->body);
  EXPECT_GT(o["usage"]["prompt_tokens_details"]["cached_tokens"].get<int>(), 0) << o["usage"].dump();
  // The metric follows.
  auto m = c.Get("/metrics");
  ASSERT_TRUE(m);
  const size_t at = m->body.find("\nsfcl_prefix_cache_hit_ratio ");
  ASSERT_NE(at, std::string::npos);
  EXPECT_GT(std::stod(m->body.substr(at + 30)), 0.0);
}

TEST(GatewayStartup, BackendWithAnotherTokenizerIsRefused) {
  LlamaServer backend(1);
  const TempLog log("sfcl-gateway-tok");
  const pid_t pid = spawn({std::getenv("SFCL"), "gateway", "--tokenizer", tiny_model_path().string(), "--port", "0",
                           "--backend", backend.url()},
                          log.path());
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  const std::string out = read_text(log.path());
  EXPECT_NE(out.find("tokenises differently"), std::string::npos) << out;
}

// A backend that is up but cannot tokenise (no /tokenize) cannot be checked: exit 2, not served.
TEST(GatewayStartup, BackendUpWithoutTokenizeIsRefused) {
  LlamaServer real(1);
  httplib::Server fake;
  fake.Get("/health",
           [](const httplib::Request&, httplib::Response& res) { res.set_content("{}", "application/json"); });
  const int fake_port = fake.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { fake.listen_after_bind(); });
  while (!fake.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const TempLog log("sfcl-gateway-notokz");
  const pid_t pid = spawn({std::getenv("SFCL"), "gateway", "--tokenizer", demo_model().string(), "--port", "0",
                           "--backend", real.url(), "--backend", "http://127.0.0.1:" + std::to_string(fake_port)},
                          log.path());
  int status = 0;
  ::waitpid(pid, &status, 0);
  fake.stop();
  serving.join();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  const std::string out = read_text(log.path());
  EXPECT_NE(out.find("tokenizer cannot be checked"), std::string::npos) << out;
}

// A backend whose model file is not readable here, and no --tokenizer: exit 2 naming the flag,
// never a guessed vocabulary.
TEST(GatewayStartup, UnreadableBackendModelFileWithoutTokenizerExits2) {
  const auto copy = unique_temp_path("sfcl-gone", ".gguf");
  std::filesystem::copy_file(demo_model(), copy, std::filesystem::copy_options::overwrite_existing);
  LlamaServer backend(1, copy);
  std::filesystem::remove(copy);  // llama-server keeps serving what it loaded
  const TempLog log("sfcl-gateway-notok");
  const pid_t pid = spawn({std::getenv("SFCL"), "gateway", "--port", "0", "--backend", backend.url()}, log.path());
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  const std::string out = read_text(log.path());
  EXPECT_NE(out.find("--tokenizer"), std::string::npos) << out;
  EXPECT_NE(out.find(copy.string()), std::string::npos) << out;
}

// A long scripted answer (one backend call per token) is long enough to be cut by a SIGKILL.
const std::string kLong = [] {
  std::string s;
  for (int i = 0; i < 8; ++i) s += "the quick brown fox jumps over the lazy dog and ";
  return s;
}();

TEST(GatewayFailover, KilledBackendMidAnswerLosesAndRepeatsNothingAndComesBack) {
  LlamaServer a;
  LlamaServer b;
  Gateway gw({&a, &b}, {"--backend-slots", "4", "--test-script", kLong});
  const json body = messages_body({"", "Write."}, 400, true);
  auto c0 = gw.client();
  const Seen reference = stream_messages(c0, body);
  ASSERT_TRUE(reference.complete);
  ASSERT_GT(reference.text.size(), 200U);

  constexpr int kStreams = 8;
  std::vector<std::future<Seen>> streams;
  for (int i = 0; i < kStreams; ++i) {
    streams.push_back(std::async(std::launch::async, [&] {
      auto c = gw.client();
      return stream_messages(c, body);
    }));
  }
  // Both backends serve some of them now; one dies mid-answer.
  for (int i = 0; i < 200; ++i) {
    const json st = gw.backends();
    if (st.is_object() && st["backends"][0]["outstanding"].get<int>() > 0 &&
        st["backends"][1]["outstanding"].get<int>() > 0) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  a.kill();
  for (auto& f : streams) {
    const Seen s = f.get();
    EXPECT_TRUE(s.complete);
    EXPECT_EQ(s.text, reference.text);  // no gap, nothing twice
  }
  json st = gw.backends();
  EXPECT_GE(st["failovers"].get<int>(), 1) << st.dump();
  EXPECT_FALSE(st["backends"][0]["healthy"].get<bool>());

  // Restarted on the same port, it is back in rotation and serves again.
  a.start();
  bool back = false;
  for (int i = 0; i < 100 && !back; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    back = gw.backends()["backends"][0]["healthy"].get<bool>();
  }
  ASSERT_TRUE(back);
  const int before = gw.backends()["backends"][0]["requests"].get<int>();
  std::vector<std::future<Seen>> more;
  for (int i = 0; i < 6; ++i) {
    more.push_back(std::async(std::launch::async, [&] {
      auto c = gw.client();
      return stream_messages(c, messages_body({"", "Write."}, 8, true));
    }));
  }
  for (auto& f : more) EXPECT_TRUE(f.get().complete);
  EXPECT_GT(gw.backends()["backends"][0]["requests"].get<int>(), before);
}

// A backend that hangs (SIGSTOP) mid-answer: once its health probes fail, the answers on it move
// to the other backend, long before --backend-timeout, with nothing lost or repeated.
TEST(GatewayFailover, HungBackendsAnswersMoveOnBeforeTheTimeout) {
  LlamaServer a;
  LlamaServer b;
  Gateway gw({&a, &b}, {"--backend-slots", "4", "--backend-timeout", "60", "--test-script", kLong});
  const json body = messages_body({"", "Write."}, 400, true);
  auto c0 = gw.client();
  const Seen reference = stream_messages(c0, body);
  ASSERT_TRUE(reference.complete);
  std::vector<std::future<Seen>> streams;
  for (int i = 0; i < 6; ++i) {
    streams.push_back(std::async(std::launch::async, [&] {
      auto c = gw.client();
      return stream_messages(c, body);
    }));
  }
  for (int i = 0; i < 400; ++i) {
    const json st = gw.backends();
    if (st.is_object() && st["backends"][0]["outstanding"].get<int>() > 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const auto start = std::chrono::steady_clock::now();
  a.pause();
  for (auto& f : streams) {
    const Seen s = f.get();
    EXPECT_TRUE(s.complete);
    EXPECT_EQ(s.text, reference.text);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));  // the timeout is 60 s
  EXPECT_GE(gw.backends()["failovers"].get<int>(), 1);
  a.resume();
}

// A backend in front of a real llama-server that answers everything but every completion call
// with `status` (as a broken engine behind a healthy HTTP front might).
class FailingCompletions {
 public:
  FailingCompletions(const LlamaServer& real, int status) : real_(real.url()) {
    const auto forward = forward_to(real_);
    for (const char* path : {"/health", "/props"}) http_.routes.Get(path, forward);
    for (const char* path : {"/tokenize", "/detokenize", "/apply-template"}) http_.routes.Post(path, forward);
    http_.routes.Post("/completion", [status](const httplib::Request&, httplib::Response& res) {
      res.status = status;
      res.set_content(R"({"error":{"code":)" + std::to_string(status) + R"(,"message":"engine broke"}})",
                      "application/json");
    });
    http_.start();
  }
  [[nodiscard]] std::string url() const { return http_.url(); }

 private:
  std::string real_;
  LocalHttpServer http_;  // last: stops before `real_`, which its handlers read
};

// A backend whose /health answers but whose calls all fail (5xx) does not fail the answers: they
// move to the good one (the backoff that keeps it out longer each time: GatewayPool tests). And
// what a client sees when a backend refuses a call (4xx) says why, not which backend or where.
TEST(GatewayFailover, ABackendThatFailsEveryCallIsKeptOutAndNotNamedToClients) {
  LlamaServer good;
  LlamaServer behind;
  FailingCompletions broken(behind, 500);
  Gateway gw({&good}, {"--backend", broken.url(), "--backend-slots", "2", "--max-failovers", "2"});
  std::vector<std::future<Seen>> streams;
  for (int i = 0; i < 8; ++i) {
    streams.push_back(std::async(std::launch::async, [&, i] {
      auto c = gw.client();
      return stream_messages(c, messages_body(eval_items(8)[static_cast<size_t>(i)], 24, true));
    }));
  }
  for (auto& f : streams) EXPECT_TRUE(f.get().complete);
  const json st = gw.backends();
  EXPECT_GE(st["backends"][1]["failures"].get<int>(), 1) << st.dump();

  FailingCompletions refusing(behind, 400);
  Gateway only({}, {"--backend", refusing.url()});
  auto c = only.client();
  auto r = c.Post("/v1/messages", messages_body({"", "Write."}, 8, false).dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 500);
  EXPECT_NE(r->body.find("engine broke"), std::string::npos) << r->body;  // why, from the backend
  EXPECT_EQ(r->body.find("127.0.0.1"), std::string::npos) << r->body;     // not where
}

// No backend healthy: requests get 503 at once in each API's shape (not after --queue-timeout), an
// answer in flight ends with an error instead of waiting, and /health says unavailable until a
// backend is back.
TEST(GatewayFailover, NoHealthyBackendIs503AtOnceAndHealthSaysSo) {
  LlamaServer a;
  Gateway gw({&a}, {"--test-script", kLong});
  auto c = gw.client();
  const json small = messages_body({"", "Write."}, 4, false);
  ASSERT_EQ(c.Post("/v1/messages", small.dump(), "application/json")->status, 200);
  auto inflight = std::async(std::launch::async, [&] {
    auto c2 = gw.client();
    const auto start = std::chrono::steady_clock::now();
    const Seen s = stream_messages(c2, messages_body({"", "Write."}, 400, true));
    return std::make_pair(s, std::chrono::steady_clock::now() - start);
  });
  for (int i = 0; i < 500 && gw.backends()["backends"][0]["outstanding"].get<int>() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  a.kill();
  const auto [seen, took] = inflight.get();
  EXPECT_FALSE(seen.complete);
  EXPECT_LT(took, std::chrono::seconds(20));  // --queue-timeout is 60 s
  for (int i = 0; i < 200 && gw.backends()["backends"][0]["healthy"].get<bool>(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto h = c.Get("/health");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->status, 503);
  EXPECT_EQ(json::parse(h->body)["status"], "unavailable") << h->body;
  const auto start = std::chrono::steady_clock::now();
  auto r = c.Post("/v1/messages", small.dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  EXPECT_EQ(json::parse(r->body)["error"]["type"], "overloaded_error") << r->body;
  EXPECT_EQ(r->get_header_value("Retry-After"), "1");
  auto s = c.Post("/v1/messages", messages_body({"", "Write."}, 4, true).dump(), "application/json");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->status, 503);  // refused before the stream starts
  auto o = c.Post("/v1/chat/completions",
                  json{{"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}, {"max_tokens", 2}}.dump(),
                  "application/json");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->status, 503);
  EXPECT_TRUE(json::parse(o->body)["error"].contains("param")) << o->body;  // OpenAI's shape
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  a.start();
  bool back = false;
  for (int i = 0; i < 200 && !back; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    back = c.Get("/health")->status == 200;
  }
  ASSERT_TRUE(back);
  EXPECT_EQ(c.Post("/v1/messages", small.dump(), "application/json")->status, 200);
}

// SIGTERM drains as `sfcl serve` does: a stream in flight finishes whole, then the gateway exits 0.
TEST(GatewayLifecycle, SigtermLetsAStreamInFlightFinishThenExits) {
  LlamaServer a;
  Gateway gw({&a}, {"--test-script", kLong, "--drain-timeout", "30"});
  const json body = messages_body({"", "Write."}, 400, true);
  auto c0 = gw.client();
  const Seen reference = stream_messages(c0, body);
  ASSERT_TRUE(reference.complete);
  // The signal goes once the client has its first text, so the stream is surely in flight.
  std::promise<void> first_text;
  std::string raw;
  httplib::Request req;
  req.method = "POST";
  req.path = "/v1/messages";
  req.body = body.dump();
  req.set_header("Content-Type", "application/json");
  req.content_receiver = [&](const char* data, size_t len, uint64_t, uint64_t) {
    const bool had = raw.find("content_block_delta") != std::string::npos;
    raw.append(data, len);
    if (!had && raw.find("content_block_delta") != std::string::npos) first_text.set_value();
    return true;
  };
  auto streamed = std::async(std::launch::async, [&] {
    auto c = gw.client();
    httplib::Response res;
    httplib::Error err = httplib::Error::Success;
    return c.send(req, res, err) && res.status == 200;
  });
  ASSERT_EQ(first_text.get_future().wait_for(std::chrono::seconds(60)), std::future_status::ready);
  EXPECT_EQ(gw.terminate(), 0);
  ASSERT_TRUE(streamed.get());
  std::string text;
  bool complete = false;
  for (const auto& [e, d] : parse_sse(raw)) {
    if (e == "content_block_delta") text += json::parse(d)["delta"]["text"].get<std::string>();
    if (e == "message_stop") complete = true;
  }
  EXPECT_TRUE(complete);
  EXPECT_EQ(text, reference.text);
  const std::string log = gw.log_text();
  EXPECT_NE(log.find("draining (1 in flight)"), std::string::npos) << log;
  EXPECT_NE(log.find("sfcl: stopped"), std::string::npos) << log;
}

// A backend that is up (/health) but never answers a completion in time; it tokenises as `tokenizer`
// (a real llama-server it asks), so it passes the startup check.
class HungBackend {
 public:
  explicit HungBackend(const LlamaServer& tokenizer) {
    server_.Get("/health",
                [](const httplib::Request&, httplib::Response& res) { res.set_content("{}", "application/json"); });
    server_.Post("/tokenize", [url = tokenizer.url()](const httplib::Request& req, httplib::Response& res) {
      httplib::Client c(url);
      auto r = c.Post("/tokenize", req.body, "application/json");
      res.status = r ? r->status : 502;
      if (r) res.set_content(r->body, "application/json");
    });
    server_.Post("/completion", [this](const httplib::Request&, httplib::Response& res) {
      for (int i = 0; i < 100 && !stopping_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      res.status = 500;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // stop() before the loop runs would be lost, and the join would wait for ever.
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~HungBackend() {
    stopping_ = true;
    server_.stop();
    thread_.join();
  }
  HungBackend(const HungBackend&) = delete;
  HungBackend& operator=(const HungBackend&) = delete;
  [[nodiscard]] std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  httplib::Server server_;
  std::atomic<bool> stopping_{false};
  int port_ = 0;
  std::thread thread_;
};

TEST(GatewayFailover, BackendCallPastTheTimeoutMovesTheAnswerOn) {
  LlamaServer real(2);
  HungBackend hung(real);
  const TempLog log("sfcl-gateway-hung");
  const pid_t pid =
      spawn({std::getenv("SFCL"), "gateway", "--tokenizer", demo_model().string(), "--port", "0", "--backend",
             hung.url(), "--backend", real.url(), "--backend-slots", "1", "--backend-timeout", "0.5"},
            log.path());
  const int port = wait_listening_port(pid, log.path());
  ASSERT_NE(port, 0) << read_text(log.path());
  ASSERT_TRUE(wait_health(port));
  // Two at once with one slot each: one of them is sent to the hung backend.
  std::vector<std::future<Seen>> answers;
  for (int i = 0; i < 2; ++i) {
    answers.push_back(std::async(std::launch::async, [&, i] {
      httplib::Client c("127.0.0.1", port);
      c.set_read_timeout(60, 0);
      return stream_messages(c, messages_body(eval_items(2)[static_cast<size_t>(i)], 32, true));
    }));
  }
  for (auto& f : answers) EXPECT_TRUE(f.get().complete);
  httplib::Client c("127.0.0.1", port);
  const json st = json::parse(c.Get("/v1/gateway/backends")->body);
  EXPECT_GE(st["failovers"].get<int>(), 1) << st.dump();
  EXPECT_GE(st["backends"][0]["failures"].get<int>(), 1) << st.dump();
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
}

}  // namespace
}  // namespace sfcl::test
