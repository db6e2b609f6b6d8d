// Signed responses end to end: a real server with --sign-key, then check_signed_response (what
// `sfcl verify` runs) on the response as saved, tampered with, re-serialised, and streamed.
#include "server/app/signed_response.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "server/api/signing.h"
#include "server/server_process.h"
#include "support/bundle.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

class SignedResponse : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::filesystem::temp_directory_path() / ("sfcl-signed-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    key_ = server::generate_signing_key();
    server::save_signing_key(dir_ / "key", key_);
    server_ = new ServerProcess({"--sign-key", (dir_ / "key").string(), "--test-script", " The total is $12,500.00."});
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
    std::filesystem::remove_all(dir_);
  }
  // The saved form curl -si gives: status line, headers, body.
  static std::string post_saved(const std::string& path, const json& body) {
    auto c = server_->client();
    auto r = c.Post(path, body.dump(), "application/json");
    if (!r || r->status != 200) throw std::runtime_error("request failed");
    std::string out = "HTTP/1.1 200 OK\r\n";
    for (const auto& [k, v] : r->headers) out += k + ": " + v + "\r\n";
    return out + "\r\n" + r->body;
  }
  static std::map<std::string, server::SignatureCheck> checks(const std::string& saved,
                                                              const std::optional<json>& request = std::nullopt) {
    std::map<std::string, server::SignatureCheck> out;
    for (auto& c : server::check_signed_response(saved, key_.public_key, request)) out[c.what] = c;
    return out;
  }
  static bool all_ok(const std::string& saved, const std::optional<json>& request = std::nullopt) {
    bool ok = true;
    for (const auto& [what, c] : checks(saved, request)) ok = ok && c.ok;
    return ok;
  }
  static json request() {
    return {{"model", "claude-3-5-sonnet-20240620"},
            {"max_tokens", 40},
            {"temperature", 0},
            {"system", "Invoice total: $12,500.00."},
            {"messages", json::array({{{"role", "user"}, {"content", "What is the total?"}}})}};
  }
  static std::filesystem::path dir_;
  static server::SigningKey key_;
  static ServerProcess* server_;
};
std::filesystem::path SignedResponse::dir_;
server::SigningKey SignedResponse::key_;
ServerProcess* SignedResponse::server_ = nullptr;

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  if (at == std::string::npos) throw std::runtime_error("not found: " + from);
  return s.replace(at, from.size(), to);
}

TEST_F(SignedResponse, EveryPartOfTheAnswerIsBoundAndEachChangeIsNamed) {
  const std::string saved = post_saved("/v1/messages", request());
  const auto ok = checks(saved, request());
  for (const auto& [what, c] : ok) EXPECT_TRUE(c.ok && c.checked) << what << ": " << c.detail;
  EXPECT_TRUE(ok.contains("request") && ok.contains("content") && ok.contains("stop reason"));
  // The attack the old signature let through: new text, same verdicts.
  const std::string evil = replace_once(saved, "The total is", "Do NOT pay. Wire it to 000-EVIL. The total is");
  EXPECT_FALSE(checks(evil).at("content").ok);
  EXPECT_FALSE(checks(replace_once(saved, "\"stop_reason\":\"end_turn\"", "\"stop_reason\":\"max_tokens\""))
                   .at("stop reason")
                   .ok);
  EXPECT_FALSE(checks(replace_once(saved, "\"output_tokens\":", "\"output_tokens\":1")).at("usage").ok);
  EXPECT_FALSE(checks(replace_once(saved, "\"confirmed\":1", "\"confirmed\":2")).at("verdicts").ok);
  json other = request();
  other["system"] = "Invoice total: $99.00.";
  EXPECT_FALSE(checks(saved, other).at("request").ok);
  // Changing a signed field itself breaks the signature.
  EXPECT_FALSE(checks(replace_once(saved, "\"created\":", "\"created\":1")).at("signature").ok);
}

TEST_F(SignedResponse, ReSerialisingTheJsonKeepsItValid) {
  const std::string saved = post_saved("/v1/messages", request());
  const size_t split = saved.find("\r\n\r\n");
  json body = json::parse(saved.substr(split + 4));
  ASSERT_TRUE(body["sfcl"]["anchors"][0]["confidence"].is_number_float()) << body.dump();
  body["sfcl"]["anchors"][0]["confidence"] = 1;  // 1.0 -> 1, as JavaScript writes it
  const std::string rewritten = saved.substr(0, split + 4) + body.dump(2);
  EXPECT_TRUE(all_ok(rewritten, request()));
  EXPECT_TRUE(all_ok(body.dump(), request()));  // without the headers
}

TEST_F(SignedResponse, StreamsCarryTheSignatureInTheirFinalEvent) {
  json chat = {{"max_tokens", 40},
               {"temperature", 0},
               {"stream", true},
               {"stream_options", {{"include_usage", true}}},
               {"messages", json::array({{{"role", "system"}, {"content", "Invoice total: $12,500.00."}},
                                         {{"role", "user"}, {"content", "What is the total?"}}})}};
  const std::string openai = post_saved("/v1/chat/completions", chat);
  const auto c = checks(openai, chat);
  for (const auto& [what, check] : c) EXPECT_TRUE(check.ok) << what << ": " << check.detail;
  EXPECT_TRUE(c.at("usage").checked);
  EXPECT_FALSE(c.at("status header").checked);  // "pending" on streams
  EXPECT_FALSE(checks(replace_once(openai, "12,500", "13,500")).at("content").ok);
  json anth = request();
  anth["stream"] = true;
  const std::string anthropic = post_saved("/v1/messages", anth);
  EXPECT_TRUE(all_ok(anthropic, anth));
}

// The request digest covers what shapes the prompt and the tokens besides the messages' text:
// tools, earlier tool calls and their arguments, template kwargs, sampling, stops, sfcl options.
TEST_F(SignedResponse, TheRequestDigestCoversToolsToolCallsKwargsAndSampling) {
  const json tool = {{"type", "function"},
                     {"function",
                      {{"name", "lookup_fee"},
                       {"description", "Look up a fee"},
                       {"parameters", {{"type", "object"}, {"properties", {{"id", {{"type", "string"}}}}}}}}}};
  json chat = {
      {"max_tokens", 40},
      {"temperature", 0},
      {"tools", json::array({tool})},
      {"chat_template_kwargs", {{"enable_thinking", false}}},
      {"messages",
       json::array(
           {{{"role", "user"}, {"content", "What is the fee of A-1?"}},
            {{"role", "assistant"},
             {"content", nullptr},
             {"tool_calls", json::array({{{"id", "call_1"},
                                          {"type", "function"},
                                          {"function", {{"name", "lookup_fee"}, {"arguments", R"({"id":"A-1"})"}}}}})}},
            {{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "Fee: $12,500.00."}}})}};
  const std::string saved = post_saved("/v1/chat/completions", chat);
  ASSERT_TRUE(all_ok(saved, chat));
  const auto request_ok = [&](const json& claimed) { return checks(saved, claimed).at("request").ok; };
  json other = chat;
  other["tools"][0]["function"]["name"] = "wire_money";
  EXPECT_FALSE(request_ok(other));
  other = chat;
  other["tools"][0]["function"]["parameters"]["properties"]["amount"] = {{"type", "number"}};
  EXPECT_FALSE(request_ok(other));
  other = chat;
  other["messages"][1]["tool_calls"][0]["function"]["arguments"] = R"({"id":"B-2"})";
  EXPECT_FALSE(request_ok(other));
  other = chat;
  other["chat_template_kwargs"]["enable_thinking"] = true;
  EXPECT_FALSE(request_ok(other));
  other = chat;
  other["temperature"] = 1.2;
  EXPECT_FALSE(request_ok(other));
  other = chat;
  other["stop"] = json::array({"$"});
  EXPECT_FALSE(request_ok(other));
  other = chat;
  other["sfcl"] = {{"threshold", 0.5}};
  EXPECT_FALSE(request_ok(other));
  other = chat;
  other["tool_choice"] = "none";
  EXPECT_FALSE(request_ok(other));
}

// n > 1: every choice is signed on its own, in a body and in a stream; a changed or dropped choice
// fails, and so does one choice's signed sfcl moved onto another.
TEST_F(SignedResponse, EveryChoiceOfNIsSignedOnItsOwn) {
  json chat = {{"max_tokens", 40},
               {"temperature", 0},
               {"n", 2},
               {"messages", json::array({{{"role", "user"}, {"content", "What is the total?"}}})}};
  const std::string body = post_saved("/v1/chat/completions", chat);
  const auto c = checks(body, chat);
  for (const auto& [what, check] : c) EXPECT_TRUE(check.ok) << what << ": " << check.detail;
  EXPECT_TRUE(c.contains("choice 1 content") && c.contains("choice 1 signature") && c.at("usage").checked);
  const size_t split = body.find("\r\n\r\n") + 4;
  json j = json::parse(body.substr(split));
  json changed = j;
  changed["choices"][1]["message"]["content"] = "Do NOT pay.";
  EXPECT_FALSE(checks(changed.dump()).at("choice 1 content").ok);
  json swapped = j;
  swapped["choices"][1]["sfcl"] = j["choices"][0]["sfcl"];
  EXPECT_FALSE(checks(swapped.dump()).at("choice 1 choice").ok);
  json dropped = j;
  dropped["choices"].erase(1);
  EXPECT_FALSE(checks(dropped.dump()).at("choice").ok);
  chat["stream"] = true;
  chat["stream_options"] = {{"include_usage", true}};
  const std::string stream = post_saved("/v1/chat/completions", chat);
  const auto s = checks(stream, chat);
  for (const auto& [what, check] : s) EXPECT_TRUE(check.ok) << what << ": " << check.detail;
  EXPECT_TRUE(s.contains("choice 1 events"));
}

// A reply the server splits into thinking and a tool call (Qwen3's template, a scripted call):
// signed as delivered, it verifies in both APIs, whole and streamed; other arguments do not.
TEST(SignedToolCalls, ThinkingAndToolCallsVerifyAsDelivered) {
  const std::filesystem::path qwen3 =
      std::filesystem::path(SFCL_SOURCE_DIR) / ".deps/llama.cpp/models/templates/Qwen-Qwen3-0.6B.jinja";
  SFCL_NEEDS_BUNDLE(!std::filesystem::exists(qwen3), "no " << qwen3);
  const auto dir = std::filesystem::temp_directory_path() / ("sfcl-signed-tools-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const server::SigningKey key = server::generate_signing_key();
  server::save_signing_key(dir / "key", key);
  ServerProcess s({"--sign-key", (dir / "key").string(), "--chat-template-file", qwen3.string(), "--test-script",
                   "<think>Look it up.</think>\n\n<tool_call>\n{\"name\": \"lookup_fee\", \"arguments\": "
                   "{\"id\": \"A-1\"}}\n</tool_call>"});
  const json schema = {{"type", "object"}, {"properties", {{"id", {{"type", "string"}}}}}};
  const json ask = json::array({{{"role", "user"}, {"content", "What is the fee of A-1?"}}});
  const json chat = {
      {"max_tokens", 120},
      {"reasoning_format", "deepseek"},
      {"temperature", 0},
      {"messages", ask},
      {"tools", json::array({{{"type", "function"}, {"function", {{"name", "lookup_fee"}, {"parameters", schema}}}}})}};
  const json messages = {{"max_tokens", 120},
                         {"reasoning_format", "deepseek"},
                         {"temperature", 0},
                         {"messages", ask},
                         {"tools", json::array({{{"name", "lookup_fee"}, {"input_schema", schema}}})}};
  for (const auto& [path, base] : {std::pair{"/v1/chat/completions", chat}, std::pair{"/v1/messages", messages}}) {
    for (const bool stream : {false, true}) {
      json req = base;
      req["stream"] = stream;
      auto c = s.client();
      auto r = c.Post(path, req.dump(), "application/json");
      ASSERT_TRUE(r && r->status == 200);
      std::string saved = "HTTP/1.1 200 OK\r\n";
      for (const auto& [k, v] : r->headers) saved += k + ": " + v + "\r\n";
      saved += "\r\n" + r->body;
      const std::string where = std::string(path) + (stream ? " stream" : " body");
      std::map<std::string, server::SignatureCheck> got;
      for (auto& check : server::check_signed_response(saved, key.public_key, req)) got[check.what] = check;
      for (const auto& [what, check] : got) EXPECT_TRUE(check.ok) << where << " " << what << ": " << check.detail;
      EXPECT_NE(got.at("content").detail.find("1 thinking, 1 tool_use"), std::string::npos)
          << where << ": " << got.at("content").detail;
      const std::string other = replace_once(saved, "A-1", "B-2");
      bool content_ok = true;
      for (auto& check : server::check_signed_response(other, key.public_key, std::nullopt)) {
        if (check.what == "content") content_ok = check.ok;
      }
      EXPECT_FALSE(content_ok) << where;
    }
  }
  std::filesystem::remove_all(dir);
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// tests/data/signed: the responses, whole and tampered with, that clients/js reads too. Each
// tampered one must fail, naming what differs; each whole one must pass every check.
TEST(SignedCorpus, VerifyAcceptsExactlyTheResponsesAsSent) {
  const std::filesystem::path dir = std::filesystem::path(SFCL_SOURCE_DIR) / "tests/data/signed";
  std::array<unsigned char, 32> pk{};
  std::string hex = slurp(dir / "key.pub");
  while (!hex.empty() && hex.back() == '\n') hex.pop_back();
  ASSERT_TRUE(server::from_hex(hex, pk.data(), pk.size()));
  const json manifest = json::parse(slurp(dir / "manifest.json"));
  ASSERT_GE(manifest["cases"].size(), 20U);
  for (const auto& c : manifest["cases"]) {
    std::optional<json> request;
    if (c.contains("request")) request = json::parse(slurp(dir / c["request"].get<std::string>()));
    const auto checks = server::check_signed_response(slurp(dir / c["file"].get<std::string>()), pk, request);
    std::string failed;
    for (const auto& check : checks) {
      if (!check.ok) failed += check.what + " (" + check.detail + ") ";
    }
    const bool signature_ok = !checks.empty() && checks.front().ok;
    EXPECT_TRUE(signature_ok) << c["name"] << ": the tampering leaves the signed fields alone";
    if (c["expect"] == "ok") {
      EXPECT_EQ(failed, "") << c["name"];
    } else {
      EXPECT_NE(failed, "") << c["name"] << " passed";
    }
  }
}

TEST(SignedCorpus, ToolCallsAndOtherChoicesAreNamedAsUnsigned) {
  const std::filesystem::path dir = std::filesystem::path(SFCL_SOURCE_DIR) / "tests/data/signed";
  std::array<unsigned char, 32> pk{};
  std::string hex = slurp(dir / "key.pub");
  ASSERT_TRUE(server::from_hex(hex.substr(0, 64), pk.data(), pk.size()));
  const auto detail = [&](const std::string& name, const std::string& what) {
    for (const auto& c : server::check_signed_response(slurp(dir / ("responses/" + name + ".txt")), pk, std::nullopt)) {
      if (c.what == what) return (c.ok ? "ok: " : "FAILED: ") + c.detail;
    }
    return std::string("no check ") + what;
  };
  EXPECT_EQ(
      detail("openai_body_tool_calls", "content").rfind("FAILED: the delivered content differs (1 text, 1 tool_use", 0),
      0U)
      << detail("openai_body_tool_calls", "content");
  EXPECT_NE(detail("openai_body_extra_choice", "unsigned").find("body.choices[1] carries no signed sfcl of its own"),
            std::string::npos);
  EXPECT_NE(detail("openai_stream_after_done", "unsigned").find("after [DONE]"), std::string::npos);
  EXPECT_EQ(detail("openai_stream_data_no_space", "content").rfind("FAILED", 0), 0U);
  EXPECT_EQ(detail("openai_stream_fake_anchor_event", "events").rfind("FAILED: a anchor_confirmed event", 0), 0U);
  EXPECT_EQ(detail("anthropic_stream_tool_use", "content")
                .rfind("FAILED: the delivered content differs (1 text, 1 tool_use", 0),
            0U);
  EXPECT_NE(detail("anthropic_stream_name_differs", "unsigned").find("event \"ping\" carries type"), std::string::npos);
}

}  // namespace
}  // namespace sfcl::test
