// Model::tokenize on texts with many special tokens: the same tokens as one llama_tokenize call
// (which takes time quadratic in their number), on the byte vocabulary and on real ones.
#include <gtest/gtest.h>

#include "engine/engine.h"
#include "llama.h"
#include "support/bundle.h"
#include "support/test_model.h"

namespace sfcl::engine {
namespace {

std::vector<Token> llama_whole(const Model& m, const std::string& text, bool add_special, bool parse_special) {
  std::vector<Token> out(text.size() + 8);
  const int32_t n = llama_tokenize(m.vocab(), text.data(), static_cast<int32_t>(text.size()), out.data(),
                                   static_cast<int32_t>(out.size()), add_special, parse_special);
  EXPECT_GE(n, 0);
  out.resize(static_cast<size_t>(std::max(n, 0)));
  return out;
}

// Words, blanks and special texts mixed, with more specials than one llama_tokenize call gets.
std::string mixed_text(const Model& m, size_t specials) {
  const std::vector<std::string>& texts = m.special_texts();
  std::string out = "Invoice INV-7 total: $12,500.00";
  const char* words[] = {" due", "\n", "  June 15", "hello ", "", " \n\n", "7%"};
  for (size_t i = 0; i < specials; ++i) {
    out += texts[i % std::min<size_t>(texts.size(), 5)];
    out += words[i % std::size(words)];
  }
  return out;
}

class TokenizeVocab : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Model> load() {
    const std::string& name = GetParam();
    const auto path = name == "byte" ? test::tiny_model_path() : test::vocab_model_path(name);
    if (path.empty()) return nullptr;
    return Model::load({path});
  }
};

TEST_P(TokenizeVocab, ManySpecialsGiveTheTokensOfOneLlamaCall) {
  const auto m = load();
  SFCL_NEEDS_BUNDLE(!m, "no vocabulary " << GetParam());
  ASSERT_FALSE(m->special_texts().empty());
  const std::string text = mixed_text(*m, 1500);
  for (const bool parse_special : {true, false}) {
    for (const bool add_special : {true, false}) {
      EXPECT_EQ(m->tokenize(text, add_special, parse_special), llama_whole(*m, text, add_special, parse_special))
          << "parse_special " << parse_special << ", add_special " << add_special;
    }
  }
}

TEST_P(TokenizeVocab, CopiesOfOneSpecialTokenAreThatTokenEach) {
  const auto m = load();
  SFCL_NEEDS_BUNDLE(!m, "no vocabulary " << GetParam());
  const std::string special = m->special_texts().front();
  const auto one = m->tokenize(special, false, true);
  ASSERT_EQ(one.size(), 1U);
  std::string text;
  for (int i = 0; i < 80000; ++i) text += special;
  const auto tokens = m->tokenize(text, false, true);
  ASSERT_EQ(tokens.size(), 80000U);
  EXPECT_TRUE(std::all_of(tokens.begin(), tokens.end(), [&](Token t) { return t == one[0]; }));
}

INSTANTIATE_TEST_SUITE_P(Vocabularies, TokenizeVocab, ::testing::Values("byte", "qwen2", "llama-spm", "llama-bpe"),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace sfcl::engine
