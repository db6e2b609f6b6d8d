// The template analysis learnt at load (ModelOptions::reuse_template_analysis): every prompt,
// grammar and parse is the one llama.cpp's per-request analysis gives, across templates (the demo's
// ChatML, tool-aware and thinking templates, llama.cpp's specialised formats) and requests (with
// and without tools, reasoning, prefill, tool history).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <variant>

#include "engine/chat_internal.h"
#include "engine/engine.h"
#include "llama.h"
#include "support/bundle.h"

namespace sfcl::engine {
namespace {

const std::filesystem::path kSource = SFCL_SOURCE_DIR;
const std::filesystem::path kModels = kSource / ".deps/llama.cpp/models";

struct TemplateCase {
  std::string name;
  std::filesystem::path model;
  std::string chat_template;  // a template file in the bundle; empty = the model's own
  bool analysis_reused;       // whether the shortcut applies to this template
};

std::vector<TemplateCase> template_cases() {
  const auto t = [](const char* file) { return (kModels / "templates" / file).string(); };
  const auto qwen2 = kModels / "ggml-vocab-qwen2.gguf";
  return {
      {"demo", kSource / "demo/sfcl-demo.gguf", "", true},
      {"qwen2_vocab", qwen2, "", true},  // ChatML with a default system turn
      {"qwen2_5", qwen2, t("Qwen-Qwen2.5-7B-Instruct.jinja"), true},
      {"llama3_1", kModels / "ggml-vocab-llama-bpe.gguf", t("meta-llama-Llama-3.1-8B-Instruct.jinja"), true},
      {"qwen3", qwen2, t("Qwen-Qwen3-0.6B.jinja"), true},
      {"deepseek_r1", qwen2, t("deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja"), true},
      {"hermes3", qwen2, t("NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja"), true},
      {"laguna", qwen2, t("poolside-Laguna-XS.2.jinja"), true},
      {"phi3", kModels / "ggml-vocab-phi-3.gguf", "", true},
      {"qwen35_vocab", kModels / "ggml-vocab-qwen35.gguf", "", true},  // the same ChatML
      // llama.cpp's specialised formats: Qwen3-Coder's XML calls, GPT-OSS's channels.
      {"qwen3_5", qwen2, t("Qwen3.5-4B.jinja"), false},
      {"qwen3_coder", qwen2, t("Qwen3-Coder.jinja"), false},
      {"gpt_oss", qwen2, t("openai-gpt-oss-120b.jinja"), false},
  };
}

std::unique_ptr<Model> load(const TemplateCase& c, bool reuse, size_t render_cache = 0) {
  ModelOptions o;
  o.path = c.model;
  o.chat_template = c.chat_template;
  o.vocab_only = true;
  o.reuse_template_analysis = reuse;
  o.template_render_cache = render_cache;
  return Model::load(o);
}

ChatInput conversation() {
  ChatInput in;
  in.messages.push_back({"system", "You answer from the document."});
  in.messages.push_back({"user", "What is the weather in Paris?"});
  return in;
}

void add_tools(ChatInput& in) {
  in.tools.push_back({"get_weather", "The current weather in a city.",
                      R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})"});
  in.tools.push_back({"lookup_invoice", "An invoice by its number.",
                      R"({"type":"object","properties":{"number":{"type":"integer"}},"required":["number"]})"});
}

// `in` with an earlier get_weather call (`id`, `arguments`) and its result.
ChatInput with_weather_call(ChatInput in, const std::string& id, const std::string& arguments) {
  ChatMessage call{"assistant", "", {}, {}, {}};
  call.tool_calls.push_back({id, "get_weather", arguments});
  in.messages.push_back(call);
  in.messages.push_back({"tool", "18 C, sunny", {}, id, "get_weather"});
  return in;
}

std::vector<std::pair<std::string, ChatInput>> requests() {
  std::vector<std::pair<std::string, ChatInput>> out;
  out.emplace_back("system and user", conversation());
  ChatInput user_only;
  user_only.messages.push_back({"user", "hi"});
  out.emplace_back("user only", user_only);
  ChatInput tools = conversation();
  add_tools(tools);
  out.emplace_back("tools auto", tools);
  tools.tool_choice = ToolChoice::required;
  out.emplace_back("tools required", tools);
  tools.tool_choice = ToolChoice::none;
  out.emplace_back("tools none", tools);
  ChatInput reasoning = conversation();
  reasoning.reasoning_format = "auto";
  out.emplace_back("reasoning auto", reasoning);
  reasoning.reasoning_format = "deepseek";
  reasoning.enable_thinking = false;
  out.emplace_back("thinking off", reasoning);
  ChatInput kwargs = conversation();
  kwargs.template_kwargs["enable_thinking"] = "false";
  out.emplace_back("template kwargs", kwargs);
  ChatInput prefill = conversation();
  prefill.prefill = "The weather";
  out.emplace_back("prefill", prefill);
  ChatInput history = with_weather_call(conversation(), "call_1", R"({"city":"Paris"})");
  out.emplace_back("tool history", history);
  add_tools(history);
  out.emplace_back("tool history with tools", history);
  return out;
}

// Pairs of requests that differ in one field of what a render reads, beyond requests(): a render
// cache whose key left that field out would hand one of a pair the other's render.
std::vector<std::pair<std::string, ChatInput>> one_field_apart() {
  std::vector<std::pair<std::string, ChatInput>> out;
  ChatInput tools = conversation();
  add_tools(tools);
  ChatInput parallel = tools;
  parallel.parallel_tool_calls = true;
  out.emplace_back("parallel tool calls", parallel);
  ChatInput described = tools;
  described.tools[0].description = "The weather forecast for a city.";
  out.emplace_back("another tool description", described);
  ChatInput schema = tools;
  schema.tools[1].parameters = R"({"type":"object","properties":{"number":{"type":"string"}},"required":["number"]})";
  out.emplace_back("another tool schema", schema);
  ChatInput renamed = tools;
  renamed.tools[0].name = "get_forecast";
  out.emplace_back("another tool name", renamed);
  ChatInput thinking = conversation();
  thinking.reasoning_format = "auto";
  thinking.enable_thinking = false;
  out.emplace_back("thinking off alone", thinking);
  ChatInput kwargs = conversation();
  kwargs.template_kwargs["enable_thinking"] = "true";
  out.emplace_back("another kwarg value", kwargs);
  out.emplace_back("other call id and arguments", with_weather_call(conversation(), "call_2", R"({"city":"Lyon"})"));
  ChatInput roles = conversation();
  roles.messages[0].role = "user";
  out.emplace_back("another role", roles);
  return out;
}

// A render, or the error it threw.
std::variant<ChatPrompt, std::string> render(const Model& m, const ChatInput& in) {
  try {
    return m.render_chat(in);
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

void expect_same_prompt(const ChatPrompt& a, const ChatPrompt& b) {
  EXPECT_EQ(a.text, b.text);
  EXPECT_EQ(a.tokens, b.tokens);
  EXPECT_EQ(a.grammar.gbnf, b.grammar.gbnf);
  EXPECT_EQ(a.grammar.lazy, b.grammar.lazy);
  EXPECT_EQ(a.grammar.trigger_patterns, b.grammar.trigger_patterns);
  EXPECT_EQ(a.grammar.trigger_tokens, b.grammar.trigger_tokens);
  EXPECT_EQ(a.grammar.prefix, b.grammar.prefix);
  EXPECT_EQ(a.stops, b.stops);
  EXPECT_EQ(a.tool_format, b.tool_format);
  EXPECT_EQ(a.template_kind, b.template_kind);
  EXPECT_EQ(a.parser_format, b.parser_format);
  EXPECT_EQ(a.parser_state, b.parser_state);
  EXPECT_EQ(a.generation_prompt, b.generation_prompt);
  EXPECT_EQ(a.reasoning_format, b.reasoning_format);
}

void expect_same_parse(const ParsedReply& a, const ParsedReply& b) {
  EXPECT_EQ(a.content, b.content);
  EXPECT_EQ(a.reasoning, b.reasoning);
  ASSERT_EQ(a.tool_calls.size(), b.tool_calls.size());
  for (size_t i = 0; i < a.tool_calls.size(); ++i) {
    EXPECT_EQ(a.tool_calls[i].name, b.tool_calls[i].name);
    EXPECT_EQ(a.tool_calls[i].arguments, b.tool_calls[i].arguments);
    EXPECT_EQ(a.tool_calls[i].id, b.tool_calls[i].id);
  }
}

// Replies in the shapes the templates above write: prose, thinking, and tool calls.
const std::vector<std::string> kReplies = {
    "It is sunny.",
    "<think>The tool knows.</think>It is sunny.",
    "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
    "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}",
    "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}",
};

class ChatAnalysis : public ::testing::TestWithParam<TemplateCase> {};

TEST_P(ChatAnalysis, ReusedAnalysisRendersAndParsesAsThePerRequestOne) {
  const TemplateCase& c = GetParam();
  SFCL_NEEDS_BUNDLE(
      !std::filesystem::exists(c.model) || (!c.chat_template.empty() && !std::filesystem::exists(c.chat_template)),
      "no llama.cpp source bundle in .deps");
  const auto reused = load(c, true);
  const auto per_request = load(c, false);
  ASSERT_EQ(reused->chat_template_kind(), "jinja");
  int rendered = 0;
  for (const auto& [name, in] : requests()) {
    SCOPED_TRACE(c.name + ": " + name);
    const auto a = render(*reused, in);
    const auto b = render(*per_request, in);
    ASSERT_EQ(a.index(), b.index());
    if (const auto* error = std::get_if<std::string>(&a)) {
      EXPECT_EQ(*error, std::get<std::string>(b));
      continue;
    }
    ++rendered;
    const ChatPrompt& pa = std::get<ChatPrompt>(a);
    const ChatPrompt& pb = std::get<ChatPrompt>(b);
    expect_same_prompt(pa, pb);
    for (const std::string& reply : kReplies) {
      SCOPED_TRACE(reply);
      expect_same_parse(reused->parse_reply(pa, reply), per_request->parse_reply(pb, reply));
      expect_same_parse(reused->parse_reply(pa, reply, true), per_request->parse_reply(pb, reply, true));
    }
  }
  EXPECT_GE(rendered, 4);  // the plain and tool requests render with every template here
}

TEST_P(ChatAnalysis, TheAnalysisIsLearntWhereItsResultIsTheTemplatesAlone) {
  const TemplateCase& c = GetParam();
  SFCL_NEEDS_BUNDLE(
      !std::filesystem::exists(c.model) || (!c.chat_template.empty() && !std::filesystem::exists(c.chat_template)),
      "no llama.cpp source bundle in .deps");
  const auto m = load(c, false);
  const auto learnt = detail::make_chat_templates(m->raw(), c.chat_template, true, true);
  EXPECT_EQ(learnt->analysis_known, c.analysis_reused);
  EXPECT_FALSE(detail::make_chat_templates(m->raw(), c.chat_template, true, false)->analysis_known);
}

// `in` with other words in every content (messages, prefill): the same conversation shape.
ChatInput reworded(ChatInput in, const std::string& suffix) {
  for (auto& m : in.messages) {
    if (!m.content.empty()) m.content += suffix;
  }
  if (!in.prefill.empty()) in.prefill += suffix;
  return in;
}

TEST_P(ChatAnalysis, KeptRendersAreTheTemplatesOwn) {
  const TemplateCase& c = GetParam();
  SFCL_NEEDS_BUNDLE(
      !std::filesystem::exists(c.model) || (!c.chat_template.empty() && !std::filesystem::exists(c.chat_template)),
      "no llama.cpp source bundle in .deps");
  const auto kept = load(c, true, 64);
  const auto fresh = load(c, true, 0);
  auto shapes = requests();
  for (auto& pair : one_field_apart()) shapes.push_back(std::move(pair));
  // Every shape through one cache, each worded three ways (the first again last): a key that
  // left out what a render depends on would hand one shape's markup, grammar or parser to another.
  size_t kept_shapes = 0;
  for (const std::string suffix : {" First wording.", " 第二种说法 with 2,400 units.", " First wording."}) {
    for (const auto& [name, shape] : shapes) {
      SCOPED_TRACE(c.name + ": " + name + suffix);
      const ChatInput in = reworded(shape, suffix);
      const auto a = render(*kept, in);
      const auto b = render(*fresh, in);
      ASSERT_EQ(a.index(), b.index());
      if (const auto* error = std::get_if<std::string>(&a)) {
        EXPECT_EQ(*error, std::get<std::string>(b));
        continue;
      }
      const ChatPrompt& pa = std::get<ChatPrompt>(a);
      const ChatPrompt& pb = std::get<ChatPrompt>(b);
      expect_same_prompt(pa, pb);
      for (const std::string& reply : kReplies) {
        SCOPED_TRACE(reply);
        expect_same_parse(kept->parse_reply(pa, reply), fresh->parse_reply(pb, reply));
      }
      const bool tool_history = std::any_of(shape.messages.begin(), shape.messages.end(),
                                            [](const ChatMessage& m) { return !m.tool_calls.empty(); });
      if (suffix == " First wording." && !tool_history) ++kept_shapes;  // rendered, and not with calls
    }
  }
  // The second and third wordings of every kept shape came from the cache (through render_chat's
  // masking: its placeholders number the same way for every wording).
  // A template that reads the clock (GPT-OSS's strftime_now) keeps none.
  EXPECT_EQ(fresh->chat_renders_reused(), 0U);
  if (detail::make_chat_templates(kept->raw(), c.chat_template, true, true, 64)->cacheable) {
    EXPECT_GE(kept->chat_renders_reused(), kept_shapes);
    EXPECT_GT(kept->chat_renders_reused(), 0U);
  } else {
    EXPECT_EQ(kept->chat_renders_reused(), 0U);
    EXPECT_EQ(c.name, "gpt_oss");
  }
}

INSTANTIATE_TEST_SUITE_P(Templates, ChatAnalysis, ::testing::ValuesIn(template_cases()),
                         [](const auto& info) { return info.param.name; });

TEST(ChatAnalysisLearnt, AFailingRenderFailsWithTheSameError) {
  const std::string jinja =
      "{% if fail is defined %}{{ raise_exception('asked to fail') }}{% endif %}{% for m in messages "
      "%}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}{% if add_generation_prompt "
      "%}<|im_start|>assistant\n{% endif %}";
  const TemplateCase c{"failing", kSource / "demo/sfcl-demo.gguf", jinja, true};
  const auto reused = load(c, true);
  const auto per_request = load(c, false);
  ASSERT_TRUE(detail::make_chat_templates(reused->raw(), jinja, true, true)->analysis_known);
  ChatInput in = conversation();
  EXPECT_EQ(std::get<ChatPrompt>(render(*reused, in)).text, std::get<ChatPrompt>(render(*per_request, in)).text);
  in.template_kwargs["fail"] = "true";
  const auto a = render(*reused, in);
  const auto b = render(*per_request, in);
  ASSERT_TRUE(std::holds_alternative<std::string>(a));
  ASSERT_TRUE(std::holds_alternative<std::string>(b));
  EXPECT_NE(std::get<std::string>(a).find("asked to fail"), std::string::npos);
  EXPECT_EQ(std::get<std::string>(a), std::get<std::string>(b));
}

TEST(ChatAnalysisLearnt, ThinkingAndStopsAreTheTemplates) {
  const auto qwen3 = kModels / "templates/Qwen-Qwen3-0.6B.jinja";
  const auto vocab = kModels / "ggml-vocab-qwen2.gguf";
  SFCL_NEEDS_BUNDLE(!std::filesystem::exists(qwen3) || !std::filesystem::exists(vocab), "no llama.cpp bundle");
  ModelOptions o;
  o.path = vocab;
  o.vocab_only = true;
  const auto m = Model::load(o);
  const auto thinking = detail::make_chat_templates(m->raw(), qwen3.string(), true, true);
  EXPECT_TRUE(thinking->analysis_known);
  EXPECT_TRUE(thinking->supports_thinking);
  const auto plain = detail::make_chat_templates(m->raw(), "", true, true);  // the vocabulary's ChatML
  EXPECT_TRUE(plain->analysis_known);
  EXPECT_FALSE(plain->supports_thinking);
  EXPECT_TRUE(plain->stops.empty());
  // Laguna's turns end in a text the analysis adds as a stop to every prompt.
  const auto laguna =
      detail::make_chat_templates(m->raw(), (kModels / "templates/poolside-Laguna-XS.2.jinja").string(), true, true);
  EXPECT_TRUE(laguna->analysis_known);
  EXPECT_FALSE(laguna->stops.empty());
}

TEST(ChatRenderCache, AShapeRendersOnceAndTheRestComeFromTheCache) {
  const TemplateCase c{"demo", kSource / "demo/sfcl-demo.gguf", "", true};
  const auto m = load(c, true);
  const auto templates = detail::make_chat_templates(m->raw(), "", true, true, 2);
  ASSERT_TRUE(templates->cacheable);
  const llama_vocab* vocab = llama_model_get_vocab(m->raw());
  const auto first = detail::common_render(*templates, vocab, conversation());
  EXPECT_EQ(templates->renders.hits(), 0U);
  EXPECT_EQ(detail::common_render(*templates, vocab, conversation()).prompt, first.prompt);
  EXPECT_EQ(templates->renders.hits(), 1U);
  // Another shape (a third message), then a third: the capacity of two drops the least recent.
  ChatInput longer = conversation();
  longer.messages.push_back({"assistant", "Sunny."});
  longer.messages.push_back({"user", "And tomorrow?"});
  EXPECT_NE(detail::common_render(*templates, vocab, longer).prompt, first.prompt);
  ChatInput user_only;
  user_only.messages.push_back({"user", "hi"});
  static_cast<void>(detail::common_render(*templates, vocab, user_only));
  EXPECT_EQ(templates->renders.size(), 2U);
  EXPECT_EQ(templates->renders.hits(), 1U);
  static_cast<void>(detail::common_render(*templates, vocab, conversation()));  // dropped: rendered again
  EXPECT_EQ(templates->renders.hits(), 1U);
  static_cast<void>(detail::common_render(*templates, vocab, user_only));
  EXPECT_EQ(templates->renders.hits(), 2U);
  // Capacity 0: nothing is kept.
  EXPECT_FALSE(detail::make_chat_templates(m->raw(), "", true, true, 0)->cacheable);
}

TEST(ChatRenderCache, ToolHistoryAndHugeRendersAreNotKept) {
  const auto qwen = kModels / "templates/Qwen-Qwen2.5-7B-Instruct.jinja";  // renders tool definitions
  const TemplateCase c{"qwen2_5", kModels / "ggml-vocab-qwen2.gguf", qwen.string(), true};
  SFCL_NEEDS_BUNDLE(!std::filesystem::exists(c.model) || !std::filesystem::exists(qwen), "no llama.cpp bundle");
  const auto m = load(c, true);
  const auto templates = detail::make_chat_templates(m->raw(), qwen.string(), true, true, 64);
  const llama_vocab* vocab = llama_model_get_vocab(m->raw());
  // Earlier calls' ids and arguments are not masked: such a shape is new at every turn.
  static_cast<void>(
      detail::common_render(*templates, vocab, with_weather_call(conversation(), "call_1", R"({"city":"Paris"})")));
  EXPECT_EQ(templates->renders.size(), 0U);
  // A render over an eighth of the cache's 16 MiB (tool definitions of 3 MB) is not kept.
  ChatInput huge = conversation();
  add_tools(huge);
  huge.tools[0].description = std::string(size_t{3} << 20, 'x');
  const auto rendered = detail::common_render(*templates, vocab, huge);
  EXPECT_GT(rendered.prompt.size(), size_t{3} << 20);
  EXPECT_EQ(templates->renders.size(), 0U);
  static_cast<void>(detail::common_render(*templates, vocab, conversation()));
  EXPECT_EQ(templates->renders.size(), 1U);
  EXPECT_LT(templates->renders.bytes(), size_t{64} << 10);
}

TEST(ChatRenderCache, ATemplateThatReadsTheClockOrFailsIsNotKept) {
  const TemplateCase c{"demo", kSource / "demo/sfcl-demo.gguf", "", true};
  const auto m = load(c, true);
  const llama_vocab* vocab = llama_model_get_vocab(m->raw());
  const std::string clock =
      "{% for m in messages %}<|im_start|>{{ m['role'] }} {{ strftime_now('%H:%M:%S') }}\n{{ m['content'] "
      "}}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
  EXPECT_FALSE(detail::make_chat_templates(m->raw(), clock, true, true, 64)->cacheable);
  const std::string failing =
      "{% if fail is defined %}{{ raise_exception('asked to fail') }}{% endif %}{% for m in messages "
      "%}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}{% if add_generation_prompt "
      "%}<|im_start|>assistant\n{% endif %}";
  const auto templates = detail::make_chat_templates(m->raw(), failing, true, true, 64);
  ASSERT_TRUE(templates->cacheable);
  ChatInput in = conversation();
  in.template_kwargs["fail"] = "true";
  for (int i = 0; i < 2; ++i) {
    EXPECT_THROW(static_cast<void>(detail::common_render(*templates, vocab, in)), EngineError);
  }
  EXPECT_EQ(templates->renders.size(), 0U);
  in.template_kwargs.clear();  // the same shape without the kwarg: a key of its own
  EXPECT_NO_THROW(static_cast<void>(detail::common_render(*templates, vocab, in)));
  EXPECT_EQ(templates->renders.size(), 1U);
  EXPECT_EQ(templates->renders.hits(), 0U);
}

}  // namespace
}  // namespace sfcl::engine
