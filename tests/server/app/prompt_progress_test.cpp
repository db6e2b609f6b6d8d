// llama-server's return_progress against the real `sfcl serve` on 127.0.0.1: a stream reports
// prompt_progress {total, cache, processed, time_ms} once when a slot takes the request (processed
// = cache) and after each batch of the prompt, the last with processed = total, in the shape of
// each dialect llama-server reports it in (chat chunks, /completion partial objects, Responses'
// response.in_progress events).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "server/server_process.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

constexpr int kBatch = 16;

class PromptProgress : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new ServerProcess({"--parallel", "1", "--ctx", "1024", "--batch", std::to_string(kBatch)});
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static ServerProcess* server_;
};
ServerProcess* PromptProgress::server_ = nullptr;

std::string long_text(const std::string& first) {
  std::string t = first;
  for (int i = 0; i < 4; ++i) t += " The invoice total is $1,240.00 and it is due on 3 March.";
  return t;
}

// The reports of a stream, in order, and the data of every event.
struct Streamed {
  std::vector<json> progress;
  std::vector<json> events;
};

Streamed stream(httplib::Client& c, const std::string& path, const json& body) {
  auto r = c.Post(path, body.dump(), "application/json");
  EXPECT_TRUE(r);
  Streamed s;
  if (!r) return s;
  EXPECT_EQ(r->status, 200) << r->body;
  for (const auto& [name, data] : parse_sse(r->body)) {
    if (data == "[DONE]") continue;
    const json j = json::parse(data);
    s.events.push_back(j);
    if (j.contains("prompt_progress")) s.progress.push_back(j["prompt_progress"]);
  }
  return s;
}

// What llama-server's own test (test_return_progress) asserts, and the count of batches.
void expect_reports(const std::vector<json>& p, int cache_at_least) {
  ASSERT_GE(p.size(), 2U);
  EXPECT_EQ(p.front()["cache"], p.front()["processed"]);
  EXPECT_GE(p.front()["cache"].get<int>(), cache_at_least);
  for (size_t i = 1; i < p.size(); ++i) {
    EXPECT_EQ(p[i]["total"], p[0]["total"]);
    EXPECT_EQ(p[i]["cache"], p[0]["cache"]);
    EXPECT_GT(p[i]["processed"].get<int>(), p[i - 1]["processed"].get<int>());
    EXPECT_TRUE(p[i]["time_ms"].is_number_unsigned());
  }
  EXPECT_EQ(p.back()["processed"], p.back()["total"]);
  const int fed = p.back()["total"].get<int>() - p.front()["cache"].get<int>();
  EXPECT_EQ(static_cast<int>(p.size()), 1 + (fed + kBatch - 1) / kBatch) << json(p).dump();
}

TEST_F(PromptProgress, ChatStreamReportsEachBatchThenTheWholePrompt) {
  auto c = server_->client();
  json body = {{"messages", {{{"role", "user"}, {"content", long_text("Chat one.")}}}},
               {"max_tokens", 3},
               {"stream", true},
               {"stream_options", {{"include_usage", true}}},
               {"return_progress", true}};
  const Streamed first = stream(c, "/v1/chat/completions", body);
  expect_reports(first.progress, 0);
  ASSERT_FALSE(first.events.empty());
  EXPECT_EQ(first.progress.back()["total"], first.events.back()["usage"]["prompt_tokens"]);
  for (const json& e : first.events) {
    if (e.contains("prompt_progress")) {
      EXPECT_EQ(e["choices"][0]["delta"]["role"], "assistant") << e.dump();
    }
  }
  // Again: most of the prompt comes from the slot's cache, and the first report says so.
  const Streamed again = stream(c, "/v1/chat/completions", body);
  expect_reports(again.progress, 1);
  // Without return_progress: no report.
  body.erase("return_progress");
  EXPECT_TRUE(stream(c, "/v1/chat/completions", body).progress.empty());
}

TEST_F(PromptProgress, CompletionAndResponsesStreamsReportInTheirOwnShape) {
  auto c = server_->client();
  const Streamed native =
      stream(c, "/completion",
             {{"prompt", long_text("Native two.")}, {"n_predict", 2}, {"stream", true}, {"return_progress", true}});
  expect_reports(native.progress, 0);
  for (const json& e : native.events) {
    if (e.contains("prompt_progress")) {
      EXPECT_EQ(e["stop"], false);
    }
  }
  const Streamed responses = stream(c, "/v1/responses",
                                    {{"input", long_text("Responses three.")},
                                     {"max_output_tokens", 2},
                                     {"stream", true},
                                     {"return_progress", true}});
  expect_reports(responses.progress, 0);
  for (const json& e : responses.events) {
    if (e.contains("prompt_progress")) {
      EXPECT_EQ(e["type"], "response.in_progress") << e.dump();
    }
  }
  // A plain answer has no stream to report in: the field is taken and the answer is as without it.
  const json plain = post_json(c, "/completion", {{"prompt", "Plain."}, {"n_predict", 1}, {"return_progress", true}});
  EXPECT_EQ(plain["_status"], 200);
  EXPECT_FALSE(plain.contains("prompt_progress"));
  EXPECT_EQ(post_json(c, "/completion", {{"prompt", "x"}, {"return_progress", 1}})["error"]["param"],
            "return_progress");
}

// llama-server's timings_per_token: progress and text carry the timings so far (the first report
// before any prompt token is processed: all zero), counts never go back, and the stream's end has
// the answer's timings; what llama-server's test_metrics and test_compat_oai_responses read.
TEST_F(PromptProgress, TimingsPerTokenRideOnProgressTextAndTheEnd) {
  auto c = server_->client();
  const Streamed native = stream(c, "/completion",
                                 {{"prompt", long_text("Timed four.")},
                                  {"n_predict", 4},
                                  {"stream", true},
                                  {"timings_per_token", true},
                                  {"return_progress", true}});
  std::vector<json> timed;
  for (const json& e : native.events) {
    if (e.contains("timings")) timed.push_back(e["timings"]);
  }
  ASSERT_GE(timed.size(), 3U);
  EXPECT_EQ(timed.front()["prompt_n"], 0);
  EXPECT_EQ(timed.front()["prompt_ms"], 0.0);
  EXPECT_EQ(timed.front()["predicted_n"], 0);
  for (size_t i = 1; i < timed.size(); ++i) {
    EXPECT_GE(timed[i]["prompt_n"].get<int>(), timed[i - 1]["prompt_n"].get<int>());
    EXPECT_GE(timed[i]["predicted_n"].get<int>(), timed[i - 1]["predicted_n"].get<int>());
    for (const auto& [key, value] : timed[i].items()) EXPECT_GE(value.get<double>(), 0.0) << key;
  }
  EXPECT_EQ(timed.back()["predicted_n"], native.events.back()["tokens_predicted"]);
  const Streamed chat = stream(c, "/v1/chat/completions",
                               {{"messages", {{{"role", "user"}, {"content", "Timed five."}}}},
                                {"max_tokens", 3},
                                {"stream", true},
                                {"timings_per_token", true}});
  int with_text = 0;
  for (const json& e : chat.events) {
    if (e.contains("timings") && !e["choices"].empty() && e["choices"][0]["delta"].contains("content")) ++with_text;
  }
  EXPECT_GT(with_text, 0);
  const Streamed responses = stream(c, "/v1/responses",
                                    {{"input", "Timed six."},
                                     {"max_output_tokens", 3},
                                     {"stream", true},
                                     {"timings_per_token", true},
                                     {"return_progress", true}});
  bool delta_timed = false;
  bool completed_timed = false;
  for (const json& e : responses.events) {
    delta_timed = delta_timed || (e["type"] == "response.output_text.delta" && e.contains("timings"));
    const bool end = e["type"] == "response.completed" || e["type"] == "response.incomplete";
    completed_timed = completed_timed || (end && e.contains("timings"));
  }
  EXPECT_TRUE(delta_timed);
  EXPECT_TRUE(completed_timed);
  // Without it: no timings before the end.
  const Streamed plain =
      stream(c, "/v1/chat/completions",
             {{"messages", {{{"role", "user"}, {"content", "Plain seven."}}}}, {"max_tokens", 3}, {"stream", true}});
  for (const json& e : plain.events) EXPECT_FALSE(e.contains("timings")) << e.dump();
}

}  // namespace
}  // namespace sfcl::test
