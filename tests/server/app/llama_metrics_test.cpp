// llama-server's metric names on the real `sfcl serve` (127.0.0.1): the llamacpp:* counters match
// the timings the same requests reported, /metrics carries Process-Start-Time-Unix, the exposition
// parses, and --no-metrics / --no-slots answer 501 as llama-server without --metrics / with
// --no-slots does.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "server/server_process.h"
#include "support/run_command.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

double metric(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size() + 1));
  }
  ADD_FAILURE() << "no " << name << " in\n" << text;
  return -1;
}

// The lines of `text` that do (or do not) belong to the llamacpp:* families.
std::string lines_of(const std::string& text, bool llamacpp) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if ((line.find("llamacpp:") != std::string::npos) == llamacpp) out += line + "\n";
  }
  return out;
}

std::string promtool(const std::string& scrape, int& rc) {
  const auto file = std::filesystem::temp_directory_path() / ("sfcl-llamacpp-" + std::to_string(::getpid()) + ".txt");
  std::ofstream(file) << scrape;
  const std::string out = run("promtool check metrics < " + file.string() + " 2>&1", rc);
  std::filesystem::remove(file);
  return out;
}

TEST(LlamaMetrics, CountersMatchTheTimingsOfTheRequests) {
  ServerProcess s({"--parallel", "1"});
  auto c = s.client();
  int64_t prompt_n = 0;
  int64_t cache_n = 0;
  int64_t predicted_n = 0;
  for (const int n : {1, 4, 16}) {
    const json r = post_json(c, "/completion",
                             {{"prompt", "the quick brown fox jumps over the lazy dog"},
                              {"n_predict", n},
                              {"temperature", 0},
                              {"ignore_eos", true}});
    ASSERT_EQ(r["_status"], 200) << r.dump();
    prompt_n += r["timings"]["prompt_n"].get<int64_t>();
    cache_n += r["timings"]["cache_n"].get<int64_t>();
    predicted_n += r["timings"]["predicted_n"].get<int64_t>();
  }
  ASSERT_GT(cache_n, 0);  // the same prompt thrice on one slot
  auto m = c.Get("/metrics");
  ASSERT_TRUE(m);
  ASSERT_EQ(m->status, 200);
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  const int64_t started = std::stoll(m->get_header_value("Process-Start-Time-Unix"));
  EXPECT_LE(started, now);
  EXPECT_GT(started, now - 600);
  const std::string& t = m->body;
  EXPECT_EQ(metric(t, "llamacpp:prompt_tokens_total"), static_cast<double>(prompt_n));
  EXPECT_EQ(metric(t, "llamacpp:prompt_tokens_cached_total"), static_cast<double>(cache_n));
  EXPECT_EQ(metric(t, "llamacpp:tokens_predicted_total"), static_cast<double>(predicted_n));
  EXPECT_GT(metric(t, "llamacpp:n_decode_total"), 0);
  EXPECT_GT(metric(t, "llamacpp:prompt_seconds_total"), 0);
  EXPECT_GE(metric(t, "llamacpp:n_tokens_max"), 16);
  EXPECT_EQ(metric(t, "llamacpp:requests_processing"), 0);
  EXPECT_EQ(metric(t, "llamacpp:n_busy_slots_per_decode"), 1);  // one slot, always busy when it decodes
  for (const char* help : {"# HELP llamacpp:n_decode_total ", "# TYPE llamacpp:prompt_tokens_seconds gauge"}) {
    EXPECT_NE(t.find(help), std::string::npos) << help;
  }
  // The sfcl_* families lint clean; llama-server's names parse, and break only promlint's naming
  // conventions (":" is reserved for recording rules; n_tokens_max is a counter without _total).
  int rc = -1;
  std::string out = promtool(lines_of(t, false), rc);
  EXPECT_EQ(rc, 0) << out;
  out = promtool(lines_of(t, true), rc);
  std::istringstream complaints(out);
  for (std::string line; std::getline(complaints, line);) {
    EXPECT_TRUE(line.find("should not contain ':'") != std::string::npos ||
                line == "llamacpp:n_tokens_max counter metrics should have \"_total\" suffix")
        << line;
  }
}

// Embeddings sample no token, but their inputs cost prompt tokens and a decode each.
TEST(LlamaMetrics, EmbeddingInputsCountAsPromptTokensAndDecodes) {
  ServerProcess s({"--embeddings", "--pooling", "mean"});
  auto c = s.client();
  const json r = post_json(c, "/v1/embeddings", {{"input", json::array({"hello world", "goodbye world"})}});
  ASSERT_EQ(r["_status"], 200) << r.dump();
  const std::string t = c.Get("/metrics")->body;
  EXPECT_EQ(metric(t, "llamacpp:prompt_tokens_total"), r["usage"]["prompt_tokens"].get<double>());
  EXPECT_GE(metric(t, "llamacpp:n_decode_total"), 2);
  EXPECT_EQ(metric(t, "llamacpp:tokens_predicted_total"), 0);
}

TEST(LlamaMetrics, NoMetricsAndNoSlotsAnswer501InOpenAisShape) {
  ServerProcess s({"--no-metrics", "--no-slots"});
  auto c = s.client();
  for (const char* path : {"/metrics", "/slots"}) {
    auto m = c.Get(path);
    ASSERT_TRUE(m) << path;
    EXPECT_EQ(m->status, 501) << path;
    const json e = json::parse(m->body);
    EXPECT_EQ(e["error"]["type"], "not_supported_error") << m->body;
    EXPECT_NE(e["error"]["message"].get<std::string>().find(std::string("--") + (path + 1)), std::string::npos)
        << m->body;
  }
  EXPECT_EQ(c.Get("/health")->status, 200);  // the rest is served
}

}  // namespace
}  // namespace sfcl::test
