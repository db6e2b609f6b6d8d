// Embeddings through llama.cpp on a real model the project generates: pooling is llama.cpp's (mean
// pooling is the mean of the per-token vectors, last is the last token's), the pooled vector is
// normalised as asked, the same input gives the same vector, and bad input is an error.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "engine/engine.h"
#include "support/test_model.h"

namespace sfcl::engine {
namespace {

std::unique_ptr<Model> load() { return Model::load({test::tiny_model_path()}); }

double norm(const std::vector<float>& v) { return std::sqrt(std::inner_product(v.begin(), v.end(), v.begin(), 0.0)); }

std::vector<float> unit(std::vector<float> v) {
  const double n = norm(v);
  for (float& x : v) x = static_cast<float>(x / n);
  return v;
}

void expect_near(const std::vector<float>& a, const std::vector<float>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-4) << i;
}

TEST(Embedder, MeanPoolingIsTheNormalisedMeanOfTheTokensVectors) {
  auto m = load();
  Embedder none(*m, {256, 1, Pooling::none});
  Embedder mean(*m, {256, 1, Pooling::mean});
  EXPECT_FALSE(none.pooled());
  EXPECT_TRUE(mean.pooled());
  EXPECT_STREQ(mean.pooling_name(), "mean");
  const auto tokens = m->tokenize("The total is $12,500.00.", true, false);
  const auto per_token = none.embed(tokens);
  ASSERT_EQ(per_token.size(), tokens.size());
  std::vector<float> sum(static_cast<size_t>(none.n_embd()), 0.0F);
  for (const auto& v : per_token) {
    for (size_t i = 0; i < v.size(); ++i) sum[i] += v[i] / static_cast<float>(tokens.size());
  }
  const auto pooled = mean.embed(tokens);
  ASSERT_EQ(pooled.size(), 1U);
  expect_near(pooled[0], unit(sum));
  EXPECT_NEAR(norm(pooled[0]), 1.0, 1e-5);
}

TEST(Embedder, LastPoolingIsTheLastTokensVectorAndNormalisationIsAsAsked) {
  auto m = load();
  Embedder none(*m, {256, 1, Pooling::none});
  Embedder last(*m, {256, 1, Pooling::last});
  const auto tokens = m->tokenize("Invoice 2024-03-01", true, false);
  const auto per_token = none.embed(tokens);
  expect_near(last.embed(tokens, 2)[0], unit(per_token.back()));
  expect_near(last.embed(tokens, -1)[0], per_token.back());  // -1: as llama.cpp pooled it
  // Another input gives another vector; the same input the same one.
  const auto other = last.embed(m->tokenize("Something else entirely", true, false))[0];
  EXPECT_GT(std::abs(other[0] - last.embed(tokens)[0][0]) + std::abs(other[1] - last.embed(tokens)[0][1]), 1e-6);
  expect_near(last.embed(tokens)[0], last.embed(tokens)[0]);
}

TEST(Embedder, EmptyOverlongOrForeignTokensAreErrors) {
  auto m = load();
  Embedder e(*m, {32, 1, Pooling::mean});
  EXPECT_EQ(e.n_ctx(), 32U);
  EXPECT_THROW((void)e.embed({}), EngineError);
  const std::vector<Token> longer(33, 5);
  EXPECT_THROW((void)e.embed(longer), EngineError);
  const std::vector<Token> foreign = {1, m->n_vocab()};
  EXPECT_THROW((void)e.embed(foreign), EngineError);
  const std::vector<Token> fits(32, 5);
  EXPECT_EQ(e.embed(fits)[0].size(), static_cast<size_t>(e.n_embd()));
}

}  // namespace
}  // namespace sfcl::engine
