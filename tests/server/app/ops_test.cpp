// Operating the server: metrics, promtool, admission, health states, drift, signed verdicts,
// configuration precedence. Against the real binary on 127.0.0.1.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <regex>

#include "server/raw_http.h"
#include "server/server_process.h"
#include "support/run_command.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

double metric(const std::string& text, const std::string& series) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
  }
  return 0.0;
}

json msg(const std::string& system, const std::string& user, int max_tokens, json sfcl = nullptr) {
  json j = {{"max_tokens", max_tokens},
            {"temperature", 0},
            {"system", system},
            {"messages", json::array({{{"role", "user"}, {"content", user}}})}};
  if (!sfcl.is_null()) j["sfcl"] = sfcl;
  return j;
}

// Asked for a paper no source names, a model that makes one up: the client receives no invented
// reference, and the answer says it is not in the sources (the request has source text: the
// question itself). The scripted model writes the citation; the check loop does the rest.
TEST(Ops, InventedCitationNeverReachesTheClient) {
  ServerProcess s(
      {"--test-script", "该论文发表于Nature 615, 452-458 (2023)，三个核心结论如下。", "--max-backtracks", "0"});
  auto c = s.client();
  const std::string question =
      "请引用2023年发表在Nature期刊上的论文《Quantum Entanglement in Neural Networks》并总结其三个核心结论。";
  json body = {{"max_tokens", 48},
               {"temperature", 0},
               {"messages", json::array({{{"role", "user"}, {"content", question}}})},
               {"sfcl", {{"events", true}}}};
  auto r = c.Post("/v1/messages", body.dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const json j = json::parse(r->body);
  const std::string text = j["content"][0]["text"];
  EXPECT_EQ(text.find("615"), std::string::npos) << text;
  EXPECT_EQ(text.find("452"), std::string::npos) << text;
  EXPECT_NE(text.find("[来源未提及]"), std::string::npos) << text;
  bool citation_flagged = false;
  for (const auto& a : j["sfcl"]["anchors"]) {
    if (a["anchor_type"] == "citation") {
      citation_flagged = a["verdict"] == "unsupported" && a["reason"] == "absent";
    }
  }
  EXPECT_TRUE(citation_flagged) << j["sfcl"].dump();
  // The same through the OpenAI stream: no chunk carries the invented reference.
  json chat = {{"max_tokens", 48},
               {"temperature", 0},
               {"stream", true},
               {"messages", json::array({{{"role", "user"}, {"content", question}}})}};
  auto st = c.Post("/v1/chat/completions", chat.dump(), "application/json");
  ASSERT_TRUE(st);
  ASSERT_EQ(st->status, 200);
  // The delivered text, chunk by chunk (ids and timestamps may contain any digits).
  std::string streamed;
  for (size_t at = st->body.find("data: {"); at != std::string::npos; at = st->body.find("data: {", at + 1)) {
    const size_t end = st->body.find("\n", at);
    const json chunk = json::parse(st->body.substr(at + 6, end - at - 6));
    if (!chunk["choices"].empty() && chunk["choices"][0]["delta"].contains("content")) {
      streamed += chunk["choices"][0]["delta"]["content"].get<std::string>();
    }
  }
  EXPECT_EQ(streamed.find("452"), std::string::npos) << streamed;
  EXPECT_EQ(streamed.find("615"), std::string::npos) << streamed;
  EXPECT_NE(streamed.find("来源未提及"), std::string::npos) << st->body;
}

TEST(Ops, MetricsMoveWithKnownRequestsAndPassPromtool) {
  ServerProcess s({"--test-script", " The total is $12,500.00 by June 15, 2024."});
  auto c = s.client();
  const std::string before = c.Get("/metrics")->body;
  auto r = c.Post("/v1/messages", msg("Total $12,500.00 due June 15, 2024.", "When and how much?", 60).dump(),
                  "application/json");
  ASSERT_EQ(r->status, 200);
  const json body = json::parse(r->body);
  EXPECT_EQ(body["sfcl"]["confirmed"], 2) << r->body;
  // Request counters are written by the HTTP logger right after the response: allow it a moment.
  std::string after = c.Get("/metrics")->body;
  for (int i = 0; i < 50 && metric(after, R"(sfcl_requests_total{endpoint="/v1/messages",status="200"})") < 1.0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    after = c.Get("/metrics")->body;
  }
  const std::string amount = R"(sfcl_anchors_total{type="amount",verdict="confirmed"})";
  const std::string date = R"(sfcl_anchors_total{type="date",verdict="confirmed"})";
  EXPECT_EQ(metric(after, amount) - metric(before, amount), 1.0);
  EXPECT_EQ(metric(after, date) - metric(before, date), 1.0);
  EXPECT_EQ(metric(after, R"(sfcl_requests_total{endpoint="/v1/messages",status="200"})"), 1.0);
  EXPECT_GT(metric(after, "sfcl_generated_tokens_total"), 10.0);
  EXPECT_EQ(metric(after, "sfcl_layer_status"), 1.0);
  EXPECT_EQ(metric(after, "sfcl_aar"), 1.0);
  EXPECT_EQ(metric(after, "sfcl_slots_busy"), 0.0);
  EXPECT_GT(metric(after, "sfcl_check_seconds_count"), 1.0);
  // Where the scheduler thread's time went: every generated token was a slot step after a decode.
  EXPECT_GE(metric(after, "sfcl_token_steps_total"), metric(after, "sfcl_generated_tokens_total"));
  EXPECT_GT(metric(after, "sfcl_decode_seconds_total"), 0.0);
  EXPECT_GT(metric(after, "sfcl_token_work_seconds_total"), 0.0);
  EXPECT_GT(metric(after, "sfcl_token_work_cpu_seconds_total"), 0.0);
  // A second request of the same shape (a system and a user turn), other words: its chat render
  // comes from the render cache.
  const double reused = metric(after, "sfcl_chat_renders_reused_total");
  ASSERT_EQ(
      c.Post("/v1/messages", msg("Total $9.00 due May 1, 2025.", "How much?", 8).dump(), "application/json")->status,
      200);
  after = c.Get("/metrics")->body;
  EXPECT_EQ(metric(after, "sfcl_chat_renders_reused_total") - reused, 1.0);
  // promtool (Debian package prometheus) checks the live scrape; llama-server's llamacpp:* names
  // break its naming conventions by design (tests/server/app/llama_metrics_test.cpp).
  const auto file = std::filesystem::temp_directory_path() / "sfcl-scrape.txt";
  {
    std::ofstream out(file);
    std::istringstream in(after);
    for (std::string line; std::getline(in, line);) {
      if (line.find("llamacpp:") == std::string::npos) out << line << "\n";
    }
  }
  int rc = -1;
  const std::string out = run("promtool check metrics < " + file.string() + " 2>&1", rc);
  EXPECT_EQ(rc, 0) << out;
  std::filesystem::remove(file);
}

TEST(Ops, DecisionPointLimitAndPromptLimit) {
  ServerProcess s({"--max-decision-points", "3", "--max-prompt-tokens", "400"});
  auto c = s.client();
  auto r =
      c.Post("/v1/messages", msg("The Buyer shall pay $5 by June 1, 2024 and must not resell.", "Also $7?", 4).dump(),
             "application/json");
  ASSERT_EQ(r->status, 400);
  EXPECT_NE(json::parse(r->body)["error"]["message"].get<std::string>().find("has 5 decision points"),
            std::string::npos)
      << r->body;
  auto ok = c.Post("/v1/messages", msg("Pay $5.", "ok?", 4).dump(), "application/json");
  EXPECT_EQ(ok->status, 200);
  auto big = c.Post("/v1/messages", msg(std::string(500, 'z'), "ok?", 4).dump(), "application/json");
  EXPECT_EQ(big->status, 400);
  EXPECT_NE(big->body.find("accepts at most 400"), std::string::npos);
  EXPECT_EQ(metric(c.Get("/metrics")->body, R"(sfcl_admission_rejected_total{reason="decision_points"})"), 1.0);
}

// The prompt's text is capped before it is tokenised: a 413 in each API's error shape naming the
// limit, for long text and for many tiny messages alike; `sfcl.sources` do not count.
TEST(Ops, PromptByteLimitIs413BeforeTokenising) {
  ServerProcess s({"--max-prompt-bytes", "4096"});
  auto c = s.client();
  auto r = c.Post("/v1/messages", msg("", std::string(5000, 'z'), 4).dump(), "application/json");
  ASSERT_EQ(r->status, 413) << r->body;
  const json e = json::parse(r->body);
  EXPECT_EQ(e["type"], "error");
  EXPECT_EQ(e["error"]["type"], "request_too_large");
  EXPECT_NE(e["error"]["message"].get<std::string>().find("at most 4096 (--max-prompt-bytes)"), std::string::npos)
      << r->body;
  json tiny = {{"model", "sfcl"}, {"max_tokens", 4}, {"messages", json::array()}};
  for (int i = 0; i < 101; ++i)
    tiny["messages"].push_back({{"role", i % 2 == 0 ? "user" : "assistant"}, {"content", "a"}});
  auto o = c.Post("/v1/chat/completions", tiny.dump(), "application/json");
  ASSERT_EQ(o->status, 413) << o->body;
  EXPECT_TRUE(json::parse(o->body)["error"].contains("message")) << o->body;
  auto count = c.Post("/v1/messages/count_tokens", msg("", std::string(5000, 'z'), 4).dump(), "application/json");
  EXPECT_EQ(count->status, 413) << count->body;
  auto sourced =
      c.Post("/v1/messages", msg("", "ok?", 4, {{"sources", {std::string(20000, 's')}}}).dump(), "application/json");
  EXPECT_EQ(sourced->status, 200) << sourced->body;
  EXPECT_EQ(metric(c.Get("/metrics")->body, R"(sfcl_admission_rejected_total{reason="prompt_bytes"})"), 3.0);
}

// One request's sources never delay another's tokens: a victim's time to first token while a
// request with 5 MB of `sfcl.sources` is parsed, indexed and answered stays within twice its time
// alone plus a second (a generous bound for a loaded 2-core machine; the fault this guards against
// made the victim wait for the whole indexing, seconds). Each victim starts while the large
// request is still in flight.
TEST(Ops, LargeSourcesDoNotDelayAnotherClientsTokens) {
  ServerProcess s({"--parallel", "2"});
  const std::string victim = post_request("/v1/messages", json{{"model", "sfcl"},
                                                               {"max_tokens", 8},
                                                               {"temperature", 0},
                                                               {"stream", true},
                                                               {"messages", {{{"role", "user"}, {"content", "hi"}}}}}
                                                              .dump());
  auto ttft_ms = [&] {
    RawConn c(s.port());
    const auto t = std::chrono::steady_clock::now();
    c.send(victim);
    const std::string got = c.read_until("content_block_delta", 30000);
    EXPECT_NE(got.find("content_block_delta"), std::string::npos) << got.substr(0, 300);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  };
  std::vector<double> alone;
  for (int i = 0; i < 5; ++i) alone.push_back(ttft_ms());
  std::sort(alone.begin(), alone.end());
  const double alone_ms = alone[alone.size() / 2];

  std::string source;
  const std::string sentence =
      "Clause 7: the Buyer pays $12,500.00 by June 15, 2024, and deliveries follow within thirty days. ";
  while (source.size() < (5U << 20)) source += sentence;
  const std::string big =
      post_request("/v1/messages", msg("", "When does the Buyer pay?", 16, {{"sources", {source}}}).dump());
  auto attacker = std::async(std::launch::async, [&] { return exchange(s.port(), big, 120000); });
  std::vector<double> with;
  while (attacker.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready && with.size() < 100) {
    with.push_back(ttft_ms());
  }
  const std::string answer = attacker.get();
  EXPECT_EQ(status_of(answer), 200) << answer.substr(0, 300);
  ASSERT_FALSE(with.empty());
  const double worst = *std::max_element(with.begin(), with.end());
  std::cout << "victim TTFT alone " << alone_ms << " ms (median of 5); with a 5 MB-source request in flight: worst "
            << worst << " ms of " << with.size() << "\n";
  EXPECT_LE(worst, 2 * alone_ms + 1000.0) << "alone " << alone_ms << " ms";
}

// A text that is mostly values is refused by its density, in both languages; a dense but real table
// of figures is not.
TEST(Ops, AnchorSpamIsRefusedByDensity) {
  ServerProcess s({"--spam-density", "200"});
  auto c = s.client();
  std::string spam;
  for (int i = 0; i < 400; ++i) spam += std::to_string(i % 10) + " ";
  std::string spam_zh;
  for (int i = 0; i < 300; ++i) spam_zh += std::to_string(i % 10) + "、";
  for (const auto& text : {spam, spam_zh}) {
    auto r = c.Post("/v1/messages", msg(text, "sum?", 4).dump(), "application/json");
    ASSERT_EQ(r->status, 400) << text.substr(0, 40);
    EXPECT_NE(r->body.find("anchors per KiB; this server accepts at most 200 (--spam-density)"), std::string::npos)
        << r->body;
  }
  std::string table = "Quarter, Revenue, Cost, Margin\n";
  for (int q = 1; q <= 12; ++q) {
    table += "Q" + std::to_string(q) + " 2023, $1" + std::to_string(q) + ",250.00, $9" + std::to_string(q) + "0.00, 2" +
             std::to_string(q % 10) + ".5%\n";
  }
  auto ok = c.Post("/v1/messages", msg(table, "Q3 revenue?", 4).dump(), "application/json");
  EXPECT_EQ(ok->status, 200) << ok->body;
  EXPECT_EQ(metric(c.Get("/metrics")->body, R"(sfcl_admission_rejected_total{reason="anchor_spam"})"), 2.0);
}

TEST(Ops, HealthGoesLoadingThenOk) {
  ServerProcess s({"--test-ready-delay-ms", "1500"}, false);
  httplib::Client c("127.0.0.1", s.port());
  bool saw_loading = false;
  bool saw_ok = false;
  for (int i = 0; i < 200 && !saw_ok; ++i) {
    auto r = c.Get("/health");
    if (r && r->status == 503 && json::parse(r->body)["status"] == "loading") saw_loading = true;
    if (r && r->status == 200 && json::parse(r->body)["status"] == "ok") saw_ok = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  EXPECT_TRUE(saw_loading);
  EXPECT_TRUE(saw_ok);
}

// Healthy traffic has both confirmed (1) and unsupported (0) anchors: a few such requests say
// nothing about drift (the monitor needs a minimum sample and a fall against its own baseline;
// tests/metrics has the healthy mix and the real shift).
TEST(Ops, MixedVerdictsOnFewRequestsLeaveHealthOk) {
  ServerProcess s({"--test-script", " It is $12,600.00 and $12,500.00 now."});
  auto c = s.client();
  for (int i = 0; i < 3; ++i) {
    auto r = c.Post("/v1/messages",
                    msg("Total $12,500.00.", "total?", 60, {{"max_backtracks", 0}, {"fallback", "flag"}}).dump(),
                    "application/json");
    ASSERT_EQ(r->status, 200);
    EXPECT_NE(r->body.find("\"unsupported\":1"), std::string::npos) << r->body;
    EXPECT_NE(r->body.find("\"confirmed\":1"), std::string::npos) << r->body;
  }
  const json h = json::parse(c.Get("/health")->body);
  EXPECT_EQ(h["status"], "ok") << h.dump();
  EXPECT_EQ(h["confidence_drift"].get<double>(), 0.0);
  EXPECT_EQ(metric(c.Get("/metrics")->body, "sfcl_degraded"), 0.0);
}

// The knowledge base is indexed once at startup and serves every request: a value it holds is
// confirmed and cited from it (message -1), a request's own source is cited from the request, and
// a second request still sees the knowledge base (nothing of the first request leaks into it).
TEST(Ops, KnowledgeBaseSupportsEveryRequest) {
  const auto kb = std::filesystem::temp_directory_path() / ("sfcl-kb-" + std::to_string(::getpid()) + ".jsonl");
  {
    std::ofstream f(kb);
    f << R"({"term":"late fee","value":"1.5%","type":"percent"})"
      << "\n";
  }
  ServerProcess s({"--kb", kb.string(), "--test-script", " Fee 1.5% on $12,500.00."});
  std::filesystem::remove(kb);  // read once at startup: the server no longer needs the file
  auto c = s.client();
  for (int i = 0; i < 2; ++i) {
    auto r = c.Post("/v1/messages", msg(i == 0 ? "Total $12,500.00." : "Total $12,500.00 again.", "fee?", 40).dump(),
                    "application/json");
    ASSERT_EQ(r->status, 200);
    const json j = json::parse(r->body);
    int checked = 0;
    for (const auto& a : j["sfcl"]["anchors"]) {
      if (a["text"] == "1.5%") {
        EXPECT_EQ(a["verdict"], "confirmed") << a.dump();
        EXPECT_EQ(a["source"]["message"], -1) << a.dump();
        ++checked;
      }
      if (a["text"] == "$12,500.00") {
        EXPECT_EQ(a["verdict"], "confirmed") << a.dump();
        EXPECT_GE(a["source"]["message"].get<int>(), 0) << a.dump();
        ++checked;
      }
    }
    EXPECT_EQ(checked, 2) << j.dump();
  }
}

TEST(Ops, SignedVerdictsVerifyAndFailAfterAOneByteChange) {
  const char* bin = std::getenv("SFCL");
  ASSERT_NE(bin, nullptr);
  const auto dir = std::filesystem::temp_directory_path() / ("sfcl-sign-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  int rc = -1;
  const std::string pub = run(std::string(bin) + " keygen " + (dir / "key").string() + " 2>/dev/null", rc);
  ASSERT_EQ(rc, 0);
  ServerProcess s({"--sign-key", (dir / "key").string(), "--test-script", " The total is $12,500.00."});
  auto c = s.client();
  EXPECT_EQ(json::parse(c.Get("/v1/sfcl/public-key")->body)["public_key"], pub.substr(0, 64));
  auto r = c.Post("/v1/messages", msg("Total $12,500.00.", "total?", 40).dump(), "application/json");
  ASSERT_EQ(r->status, 200);
  ASSERT_TRUE(r->has_header("X-SFCL-Signature"));
  auto save = [&](const std::string& body, const std::filesystem::path& f) {
    std::ofstream o(f, std::ios::binary);
    o << "HTTP/1.1 200 OK\r\n";
    for (const auto& [k, v] : r->headers) o << k << ": " << v << "\r\n";
    o << "\r\n" << body;
  };
  save(r->body, dir / "ok.txt");
  std::string tampered = r->body;
  // What is signed: id + status + the anchors. One byte inside the anchors' norm: 12500 -> 13500.
  const size_t at = tampered.find("\"norm\":\"12500 USD\"");
  ASSERT_NE(at, std::string::npos) << tampered;
  tampered[at + 9] = '3';
  save(tampered, dir / "bad.txt");
  run(std::string(bin) + " verify --public-key " + (dir / "key.pub").string() + " " + (dir / "ok.txt").string(), rc);
  EXPECT_EQ(rc, 0);
  run(std::string(bin) + " verify --public-key " + (dir / "key.pub").string() + " " + (dir / "bad.txt").string(), rc);
  EXPECT_EQ(rc, 1);
  std::filesystem::remove_all(dir);
}

TEST(Ops, ConfigFileEnvAndFlagPrecedence) {
  const auto cfg = std::filesystem::temp_directory_path() / ("sfcl-cfg-" + std::to_string(::getpid()) + ".toml");
  auto slots = [](ServerProcess& s) {
    httplib::Client c("127.0.0.1", s.port());
    return json::parse(c.Get("/health")->body)["slots"].get<int>();
  };
  {
    // port = 0: the server picks a free port and prints it.
    std::ofstream(cfg) << "port = 0\nparallel = 3\nsfcl = \"anchor\"\napi-key = [\"a\", \"b\"]\n";
    ServerProcess s({"--config", cfg.string()}, false, {}, false);
    s.learn_port();
    s.wait_healthy();
    EXPECT_NE(s.port(), 8080);  // the file's port, not the default
    EXPECT_EQ(slots(s), 3);
    httplib::Client c("127.0.0.1", s.port());
    EXPECT_EQ(c.Post("/v1/messages", {{"x-api-key", "b"}}, msg("x", "y", 2).dump(), "application/json")->status, 200);
    EXPECT_EQ(c.Post("/v1/messages", msg("x", "y", 2).dump(), "application/json")->status, 401);
  }
  {
    ServerProcess s({"--config", cfg.string()}, false, {{"SFCL_PARALLEL", "2"}}, true);
    s.wait_healthy();
    EXPECT_EQ(slots(s), 2);  // env beats the file (the flag --port beats the file's port)
  }
  {
    ServerProcess s({"--config", cfg.string(), "--parallel", "1"}, true, {{"SFCL_PARALLEL", "2"}}, true);
    EXPECT_EQ(slots(s), 1);  // a flag beats both
  }
  {
    // Several models from [[model]] tables; a top-level sfcl is every model's default.
    std::ofstream(cfg) << "port = 0\nsfcl = \"off\"\n[[model]]\npath = \"" << tiny_model_path().string()
                       << "\"\nmodel-id = \"tiny\"\nalias = [\"fast\"]\n[[model]]\npath = \"" << SFCL_SOURCE_DIR
                       << "/demo/sfcl-demo.gguf\"\nalias = [\"careful\"]\nsfcl = \"anchor\"\n";
    ServerProcess s({"--config", cfg.string()}, false, {}, false, false);
    s.learn_port();
    s.wait_healthy();
    httplib::Client c("127.0.0.1", s.port());
    const json models = json::parse(c.Get("/v1/models")->body);
    ASSERT_EQ(models["data"].size(), 2U) << models.dump();
    EXPECT_EQ(models["data"][0]["id"], "tiny");
    EXPECT_EQ(models["data"][0]["aliases"], json({"fast"}));
    EXPECT_EQ(models["data"][0]["sfcl"]["mode"], "off");
    EXPECT_EQ(models["data"][1]["id"], "sfcl-demo");
    EXPECT_EQ(models["data"][1]["aliases"], json({"careful"}));
    EXPECT_EQ(models["data"][1]["sfcl"]["mode"], "anchor");
  }
  std::ofstream(cfg) << "port = [not toml\n";
  int rc = -1;
  const std::string out =
      run(std::string(std::getenv("SFCL")) + " serve --model x.gguf --config " + cfg.string() + " 2>&1", rc);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("config file " + cfg.string() + ":1"), std::string::npos) << out;
  std::filesystem::remove(cfg);
}

}  // namespace
}  // namespace sfcl::test

namespace sfcl::test {
namespace {

TEST(Probe, JsonReportHasEveryFieldAndRefusesNonSfclServers) {
  ServerProcess s({});
  int rc = -1;
  const std::string bin = std::getenv("SFCL");
  const std::string out =
      run(bin + " probe --url http://127.0.0.1:" + std::to_string(s.port()) + " --n 3 --max-tokens 4 --json", rc);
  ASSERT_EQ(rc, 0) << out;
  const json j = json::parse(out);
  EXPECT_EQ(j["requests"], 3);
  EXPECT_EQ(j["ok"], 3);
  EXPECT_EQ(j["errors"], 0);
  EXPECT_EQ(j["layer_status"]["zeroed-v2"], 3);
  EXPECT_TRUE(j["last_sfcl_status"].is_string());
  for (const char* k : {"p50", "p95", "p99", "min", "max"}) EXPECT_GT(j["ttft_ms"][k].get<double>(), 0.0) << k;
  // A plain HTTP server that is not sfcl: clear error, exit 2.
  httplib::Server other;
  other.Post("/v1/messages",
             [](const httplib::Request&, httplib::Response& r) { r.set_content("{}", "application/json"); });
  const int port = other.bind_to_any_port("127.0.0.1");
  std::thread t([&] { other.listen_after_bind(); });
  const std::string err = run(bin + " probe --url http://127.0.0.1:" + std::to_string(port) + " --n 2 2>&1", rc);
  other.stop();
  t.join();
  EXPECT_EQ(rc, 2);
  EXPECT_NE(err.find("not an sfcl server"), std::string::npos) << err;
  run(bin + " probe --url http://127.0.0.1:1 --n 1 2>&1", rc);
  EXPECT_EQ(rc, 2);
}

}  // namespace
}  // namespace sfcl::test

namespace sfcl::test {
namespace {

// llama-server's ignore_eos: the answer runs to max_tokens though the model (the demo model, whose
// answers are a sentence) would stop, and the values it writes are checked all the same.
TEST(Ops, IgnoreEosRunsToMaxTokensAndStillChecks) {
  ServerProcess s({"--model", std::string(SFCL_SOURCE_DIR) + "/demo/sfcl-demo.gguf"}, true, {}, true, false);
  auto c = s.client();
  const nlohmann::json base = {
      {"max_tokens", 96},
      {"temperature", 0},
      {"messages", nlohmann::json::array(
                       {{{"role", "system"},
                         {"content", "Acme Corp issued invoice INV-2024-7966 for $98,700.00, due July 15, 2024."}},
                        {{"role", "user"}, {"content", "What is the invoice number?"}}})}};
  const nlohmann::json stops = post_json(c, "/v1/chat/completions", base);
  ASSERT_EQ(stops["_status"], 200) << stops.dump();
  EXPECT_EQ(stops["choices"][0]["finish_reason"], "stop") << stops.dump();
  EXPECT_LT(stops["usage"]["completion_tokens"].get<int>(), 96);
  nlohmann::json body = base;
  body["ignore_eos"] = true;
  const nlohmann::json runs = post_json(c, "/v1/chat/completions", body);
  ASSERT_EQ(runs["_status"], 200) << runs.dump();
  EXPECT_EQ(runs["choices"][0]["finish_reason"], "length") << runs.dump();
  EXPECT_EQ(runs["usage"]["completion_tokens"], 96) << runs.dump();
  EXPECT_GE(runs["sfcl"]["anchors"].size(), stops["sfcl"]["anchors"].size()) << runs.dump();  // checked as written
  body["ignore_eos"] = "yes";
  EXPECT_EQ(post_json(c, "/v1/chat/completions", body)["_status"], 400);
}

}  // namespace
}  // namespace sfcl::test
