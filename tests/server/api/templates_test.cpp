// Chat template options as llama-server has them, against the real `sfcl serve`: --jinja /
// --no-jinja, --chat-template-file, chat_template_kwargs, enable_thinking, reasoning_format, and a
// trailing assistant message continued by the model (continue_final_message) in both APIs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "server/server_process.h"
#include "support/bundle.h"
#include "support/run_command.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

json conversation(bool trailing_assistant) {
  json m = json::array({{{"role", "user"}, {"content", "What is the fee?"}}});
  if (trailing_assistant) m.push_back({{"role", "assistant"}, {"content", "The fee is"}});
  return m;
}

// A Jinja template llama.cpp's built-in list does not know: it shows its variables.
const char* kShowTemplate =
    "{{ greeting | default('none') }}|{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}"
    "{% if add_generation_prompt %}[assistant] {% endif %}{% if enable_thinking is defined and not enable_thinking "
    "%}(no thinking){% endif %}";

std::filesystem::path template_file() {
  const auto path = std::filesystem::temp_directory_path() / "sfcl-show-template.jinja";
  std::ofstream(path) << kShowTemplate;
  return path;
}

class ChatTemplates : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new ServerProcess({"--ctx", "512", "--parallel", "2"}); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static ServerProcess* server_;
};
ServerProcess* ChatTemplates::server_ = nullptr;

TEST_F(ChatTemplates, ATrailingAssistantMessageIsContinuedInBothApis) {
  auto c = server_->client();
  const json tpl = post_json(c, "/apply-template", {{"messages", conversation(true)}});
  ASSERT_EQ(tpl["_status"], 200) << tpl.dump();
  const std::string prompt = tpl["prompt"];
  // Rendered open: the prompt ends in the assistant's text, with no end of turn after it.
  const std::string open = "<|im_start|>assistant\nThe fee is";
  ASSERT_GE(prompt.size(), open.size());
  EXPECT_EQ(prompt.substr(prompt.size() - open.size()), open) << prompt;
  EXPECT_EQ(prompt.find("The fee is<|im_end|>"), std::string::npos) << prompt;
  const json tokens = post_json(c, "/tokenize", {{"content", prompt}, {"add_special", true}});
  const int n = static_cast<int>(tokens["tokens"].size());
  // Both APIs generate after exactly that prompt.
  const json oai =
      post_json(c, "/v1/chat/completions", {{"model", "m"}, {"max_tokens", 2}, {"messages", conversation(true)}});
  ASSERT_EQ(oai["_status"], 200) << oai.dump();
  EXPECT_EQ(oai["usage"]["prompt_tokens"], n);
  const json anth = post_json(c, "/v1/messages", {{"model", "m"}, {"max_tokens", 2}, {"messages", conversation(true)}});
  ASSERT_EQ(anth["_status"], 200) << anth.dump();
  EXPECT_EQ(anth["usage"]["input_tokens"].get<int>() + anth["usage"]["cache_read_input_tokens"].get<int>(), n);
  // Without the assistant message, a new turn opens instead.
  const std::string fresh = post_json(c, "/apply-template", {{"messages", conversation(false)}})["prompt"];
  EXPECT_EQ(fresh.substr(fresh.size() - 22), "<|im_start|>assistant\n") << fresh;
}

TEST_F(ChatTemplates, TemplateFieldsAreCheckedByName) {
  auto c = server_->client();
  const auto param_of = [&](const std::string& path, json body) {
    body["model"] = "m";
    body["max_tokens"] = 2;
    if (path == "/v1/completions") {
      body["prompt"] = "hi";
    } else {
      body["messages"] = conversation(false);
    }
    const json r = post_json(c, path, body);
    EXPECT_EQ(r["_status"], 400) << body.dump();
    return r["error"].contains("param") ? r["error"]["param"] : r["error"]["message"];
  };
  EXPECT_EQ(param_of("/v1/chat/completions", {{"chat_template_kwargs", "x"}}), "chat_template_kwargs");
  EXPECT_EQ(param_of("/v1/chat/completions", {{"enable_thinking", "yes"}}), "enable_thinking");
  EXPECT_EQ(param_of("/v1/chat/completions", {{"reasoning_format", "bogus"}}), "reasoning_format");
  EXPECT_EQ(param_of("/v1/chat/completions", {{"chat_template_kwargs", {{"enable_thinking", "no"}}}}),
            "chat_template_kwargs.enable_thinking");
  EXPECT_EQ(param_of("/v1/completions", {{"chat_template_kwargs", json::object()}}), "chat_template_kwargs");
  const json ok = post_json(c, "/v1/chat/completions",
                            {{"model", "m"},
                             {"max_tokens", 2},
                             {"messages", conversation(false)},
                             {"chat_template_kwargs", {{"enable_thinking", false}}},
                             {"reasoning_format", "deepseek"}});
  EXPECT_EQ(ok["_status"], 200) << ok.dump();
}

TEST(ChatTemplateFlags, KwargsAndEnableThinkingReachTheTemplate) {
  ServerProcess s(
      {"--chat-template-file", template_file().string(), "--chat-template-kwargs", R"({"greeting": "hi"})"});
  auto c = s.client();
  const json plain = post_json(c, "/apply-template", {{"messages", conversation(false)}});
  ASSERT_EQ(plain["_status"], 200) << plain.dump();
  EXPECT_EQ(plain["prompt"], "hi|[user] What is the fee?\n[assistant] ");
  const json asked = post_json(c, "/apply-template",
                               {{"messages", conversation(false)},
                                {"chat_template_kwargs", {{"greeting", "hello"}}},
                                {"enable_thinking", false}});
  EXPECT_EQ(asked["prompt"], "hello|[user] What is the fee?\n[assistant] (no thinking)") << asked.dump();
  // The template renders the continued message itself.
  const json cont = post_json(c, "/apply-template", {{"messages", conversation(true)}});
  EXPECT_NE(cont["prompt"].get<std::string>().find("The fee is"), std::string::npos) << cont.dump();
  const json gen = post_json(c, "/v1/chat/completions", {{"max_tokens", 2}, {"messages", conversation(false)}});
  EXPECT_EQ(gen["_status"], 200) << gen.dump();
}

TEST(ChatTemplateFlags, NoJinjaUsesOnlyLlamaCppsBuiltInTemplates) {
  {
    ServerProcess s({"--no-jinja"});  // the tiny model's ChatML is one of them
    auto c = s.client();
    const std::string p = post_json(c, "/apply-template", {{"messages", conversation(false)}})["prompt"];
    EXPECT_NE(p.find("<|im_start|>user\nWhat is the fee?<|im_end|>"), std::string::npos) << p;
  }
  const std::string bin = std::getenv("SFCL");
  int rc = 0;
  const std::string out = run(bin + " serve --model " + tiny_model_path().string() +
                                  " --no-jinja --chat-template-file " + template_file().string() + " --port 0 2>&1",
                              rc);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("none of llama.cpp's built-in templates"), std::string::npos) << out;
  const std::string missing =
      run(bin + " serve --model " + tiny_model_path().string() + " --chat-template-file /nonexistent.jinja 2>&1", rc);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(missing.find("no such file"), std::string::npos) << missing;
}

TEST(ChatTemplateFlags, ReasoningIsSplitOffAsLlamaServerDoes) {
  const std::filesystem::path qwen3 =
      std::filesystem::path(SFCL_SOURCE_DIR) / ".deps/llama.cpp/models/templates/Qwen-Qwen3-0.6B.jinja";
  SFCL_NEEDS_BUNDLE(!std::filesystem::exists(qwen3), "no " << qwen3);
  ServerProcess s({"--chat-template-file", qwen3.string(), "--sfcl", "off", "--test-script",
                   "<think>The question asks for the fee.</think>The fee is $450."});
  auto c = s.client();
  const auto body = [](const std::string& format, bool stream) {
    return json{{"model", "m"},
                {"max_tokens", 80},
                {"stream", stream},
                {"reasoning_format", format},
                {"messages", conversation(false)}};
  };
  // OpenAI: message.reasoning_content; "none" leaves it in the text.
  const json split = post_json(c, "/v1/chat/completions", body("deepseek", false));
  ASSERT_EQ(split["_status"], 200) << split.dump();
  const json& message = split["choices"][0]["message"];
  EXPECT_EQ(message["reasoning_content"], "The question asks for the fee.") << split.dump();
  EXPECT_EQ(message["content"], "The fee is $450.") << split.dump();
  const json inline_ = post_json(c, "/v1/chat/completions", body("none", false));
  EXPECT_FALSE(inline_["choices"][0]["message"].contains("reasoning_content"));
  EXPECT_NE(inline_["choices"][0]["message"]["content"].get<std::string>().find("<think>"), std::string::npos);
  // Anthropic: a thinking block before the text.
  const json anth = post_json(c, "/v1/messages", body("auto", false));
  ASSERT_EQ(anth["_status"], 200) << anth.dump();
  ASSERT_EQ(anth["content"].size(), 2U) << anth.dump();
  EXPECT_EQ(anth["content"][0]["type"], "thinking");
  EXPECT_EQ(anth["content"][0]["thinking"], "The question asks for the fee.");
  EXPECT_EQ(anth["content"][1]["text"], "The fee is $450.");
  // Streams carry the same split.
  auto os = c.Post("/v1/chat/completions", body("deepseek", true).dump(), "application/json");
  ASSERT_TRUE(os);
  EXPECT_NE(os->body.find("\"reasoning_content\":\"The question asks for the fee.\""), std::string::npos) << os->body;
  auto as = c.Post("/v1/messages", body("deepseek", true).dump(), "application/json");
  ASSERT_TRUE(as);
  EXPECT_NE(as->body.find("\"thinking_delta\""), std::string::npos) << as->body;
}

}  // namespace
}  // namespace sfcl::test
