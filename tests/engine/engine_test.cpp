// Engine tests on a real llama.cpp model the project generates (random weights).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>

#include <cmath>

#include "engine/engine.h"
#include "support/test_model.h"
#include "util/utf8.h"

namespace sfcl::engine {
namespace {

std::unique_ptr<Model> load() { return Model::load({test::tiny_model_path()}); }

std::vector<Token> greedy(const Model& m, const std::vector<Token>& prompt, int n) {
  Context ctx(m, {512, 64, 1, 1});
  Sampler s(m, {0.0F, 0, 1.0F, 0.0F, 1});
  ctx.decode(prompt, 0);
  std::vector<Token> out;
  for (int i = 0; i < n; ++i) {
    const Token t = s.sample(ctx.logits_last());
    out.push_back(t);
    ctx.decode(std::span<const Token>(&out.back(), 1), static_cast<int32_t>(prompt.size()) + i);
  }
  return out;
}

TEST(Engine, LoadsGeneratedModel) {
  auto m = load();
  EXPECT_EQ(m->n_vocab(), 357);
  EXPECT_NE(m->description().find("llama"), std::string::npos);
  EXPECT_FALSE(m->chat_template().empty());
}

TEST(Engine, LoadingReportsProgressUpToOne) {
  std::vector<float> seen;
  engine::ModelOptions mo;
  mo.path = test::tiny_model_path();
  mo.on_progress = [&seen](float p) { seen.push_back(p); };
  auto m = Model::load(mo);
  ASSERT_FALSE(seen.empty());
  EXPECT_FLOAT_EQ(seen.back(), 1.0F);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
}

TEST(Engine, GreedyGenerationIsDeterministic) {
  auto m = load();
  const auto prompt = m->tokenize("Hello, world", true, false);
  const auto a = greedy(*m, prompt, 24);
  const auto b = greedy(*m, prompt, 24);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.size(), 24U);
}

TEST(Engine, SeededSamplingIsReproducible) {
  auto m = load();
  const auto prompt = m->tokenize("seed test", true, false);
  auto run = [&](uint32_t seed) {
    Context ctx(*m, {256, 64, 1, 1});
    Sampler s(*m, {0.9F, 40, 0.95F, 0.0F, seed});
    ctx.decode(prompt, 0);
    std::vector<Token> out;
    for (int i = 0; i < 16; ++i) {
      out.push_back(s.sample(ctx.logits_last()));
      ctx.decode(std::span<const Token>(&out.back(), 1), static_cast<int32_t>(prompt.size()) + i);
    }
    return out;
  };
  EXPECT_EQ(run(42), run(42));
  // Sampling draws from the distribution: another seed gives another output.
  EXPECT_NE(run(42), run(43));
}

// A flat logits row (every token equally likely) with one token far ahead.
std::vector<float> row_with_top(const Model& m, Token top) {
  std::vector<float> logits(static_cast<size_t>(m.n_vocab()), 0.0F);
  logits[static_cast<size_t>(top)] = 50.0F;
  return logits;
}

TEST(Sampler, BannedTokenIsNeverSampledEvenWithTheTopLogit) {
  auto m = load();
  const std::vector<float> logits = row_with_top(*m, 65);
  const std::vector<Token> banned = {65};
  Sampler greedy_sampler(*m, {0.0F, 0, 1.0F, 0.0F, 1});
  EXPECT_EQ(greedy_sampler.sample(logits.data()), 65);
  EXPECT_NE(greedy_sampler.sample(logits.data(), banned), 65);
  Sampler sampled(*m, {1.0F, 0, 1.0F, 0.0F, 7});
  for (int i = 0; i < 50; ++i) EXPECT_NE(sampled.sample(logits.data(), banned), 65);
}

TEST(Sampler, AllowListRestrictsTheChoice) {
  auto m = load();
  const std::vector<float> logits = row_with_top(*m, 65);
  const std::vector<Token> allowed = {70, 71, 72};
  Sampler sampled(*m, {1.0F, 0, 1.0F, 0.0F, 7});
  for (int i = 0; i < 50; ++i) {
    const Token t = sampled.sample(logits.data(), {}, allowed);
    EXPECT_TRUE(t == 70 || t == 71 || t == 72) << t;
  }
  // A ban wins over the allow list.
  const std::vector<Token> banned = {70, 71};
  EXPECT_EQ(sampled.sample(logits.data(), banned, allowed), 72);
}

TEST(Sampler, EverythingBannedGivesMinusOne) {
  auto m = load();
  const std::vector<float> logits = row_with_top(*m, 65);
  std::vector<Token> all(static_cast<size_t>(m->n_vocab()));
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<Token>(i);
  Sampler s(*m, {0.0F, 0, 1.0F, 0.0F, 1});
  EXPECT_EQ(s.sample(logits.data(), all), -1);
  const std::vector<Token> allowed = {70};
  const std::vector<Token> banned = {70};
  EXPECT_EQ(s.sample(logits.data(), banned, allowed), -1);
}

TEST(Engine, RewindGivesTheLogitsOfAFreshRun) {
  auto m = load();
  const auto toks = m->tokenize("The total is $12,500.00 today", true, false);
  ASSERT_GT(toks.size(), 12U);
  const size_t p = 8;
  const Token other = toks[p] == 70 ? 71 : 70;
  auto one_by_one = [&](Context& ctx, size_t n) {
    for (size_t i = 0; i < n; ++i) ctx.decode(std::span<const Token>(&toks[i], 1), static_cast<int32_t>(i));
  };
  Context a(*m, {256, 64, 1, 1});
  one_by_one(a, toks.size());
  a.rewind(0, static_cast<int32_t>(p));
  EXPECT_EQ(a.seq_end(0), static_cast<int32_t>(p));
  a.decode(std::span<const Token>(&other, 1), static_cast<int32_t>(p));
  std::vector<float> la(a.logits_last(), a.logits_last() + a.n_vocab());

  Context b(*m, {256, 64, 1, 1});
  one_by_one(b, p);
  b.decode(std::span<const Token>(&other, 1), static_cast<int32_t>(p));
  const float* lb = b.logits_last();
  float max_diff = 0.0F;
  for (int i = 0; i < a.n_vocab(); ++i) max_diff = std::max(max_diff, std::fabs(la[static_cast<size_t>(i)] - lb[i]));
  EXPECT_LE(max_diff, 1e-4F);
}

// An adapter written by write_random_lora, through llama.cpp's adapter API: at scale 0 the logits
// are the base model's exactly, and they move further from them as the scale grows.
TEST(Engine, LoraScaleZeroIsTheBaseModelAndTheLogitsMoveWithTheScale) {
  const auto adapter =
      std::filesystem::temp_directory_path() / ("sfcl-engine-test-lora-" + std::to_string(::getpid()) + ".gguf");
  write_random_lora(adapter, test::tiny_model_path(), 4, 3, 0.2F);
  ModelOptions mo{test::tiny_model_path()};
  mo.lora = {{adapter, 0.5F}};
  auto m = Model::load(mo);
  ASSERT_EQ(m->lora_adapters().size(), 1U);
  EXPECT_EQ(m->lora_adapters()[0].scale, 0.5F);
  EXPECT_EQ(m->lora_adapters()[0].task_name, "random");
  const auto toks = m->tokenize("The total is $12,500.00", true, false);
  auto logits = [&](std::vector<float> scales) {
    Context ctx(*m, {256, 64, 1, 1});
    if (!scales.empty()) ctx.set_lora(scales);
    ctx.decode(toks, 0);
    return std::vector<float>(ctx.logits_last(), ctx.logits_last() + ctx.n_vocab());
  };
  auto distance = [](const std::vector<float>& a, const std::vector<float>& b) {
    float d = 0.0F;
    for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
    return d;
  };
  const std::vector<float> base = logits({});  // a context starts with no adapter applied
  EXPECT_EQ(distance(logits({0.0F}), base), 0.0F);
  const float half = distance(logits({0.5F}), base);
  const float full = distance(logits({1.0F}), base);
  EXPECT_GT(half, 1e-3F);
  EXPECT_GT(full, half);
  Context ctx(*m, {256, 64, 1, 1});
  EXPECT_THROW(ctx.set_lora(std::vector<float>{1.0F, 1.0F}), EngineError);  // one adapter, two scales
  mo.lora = {{test::tiny_model_path(), 1.0F}};                              // a model, not an adapter
  EXPECT_THROW((void)Model::load(mo), EngineError);
  std::filesystem::remove(adapter);
}

TEST(Engine, StreamedDetokenisationNeverSplitsUtf8) {
  auto m = load();
  const std::string text = "价格 héllo 世界 €5";
  const auto toks = m->tokenize(text, false, false);
  ASSERT_GT(toks.size(), 10U);  // CJK falls back to byte tokens
  utf8::StreamAssembler asm_;
  std::string out;
  for (Token t : toks) {
    std::string chunk;
    asm_.feed(m->piece(t), chunk);
    EXPECT_TRUE(utf8::valid(chunk)) << "chunk split a character";
    out += chunk;
  }
  asm_.finish(out);
  // SPM writes spaces as U+2581 and llama.cpp turns them back into spaces.
  EXPECT_EQ(out, text);
}

TEST(Engine, InvalidBytesBecomeReplacementCharacters) {
  utf8::StreamAssembler a;
  std::string out;
  a.feed("ok\xff", out);
  a.feed("\xe4\xb8", out);
  EXPECT_EQ(out, "ok\xEF\xBF\xBD");
  a.feed("\x96", out);
  EXPECT_EQ(out, "ok\xEF\xBF\xBD\xE4\xB8\x96");
  a.feed("\xe4", out);
  a.finish(out);
  EXPECT_TRUE(utf8::valid(out));
}

TEST(Engine, ChatTemplateUsesControlTokens) {
  auto m = load();
  const std::string p = m->apply_chat_template({{"system", "doc"}, {"user", "q"}}, true);
  EXPECT_NE(p.find("<|im_start|>assistant\n"), std::string::npos);
  const auto toks = m->tokenize(p, true, true);
  int control = 0;
  for (Token t : toks) control += m->piece(t).empty() ? 1 : 0;  // control tokens render as nothing
  EXPECT_GE(control, 5);
}

TEST(Engine, ErrorsAreClear) {
  EXPECT_THROW(Model::load({"/nonexistent/model.gguf"}), EngineError);
  auto m = load();
  Context ctx(*m, {32, 32, 1, 1});
  std::vector<Token> many(ctx.n_ctx() + 8, 70);
  EXPECT_THROW(ctx.decode(many, 0), EngineError);
}

}  // namespace
}  // namespace sfcl::engine
