// The check loop on the vocabularies users bring: byte-level BPE with 128k-152k tokens (Qwen2,
// Llama 3) and SentencePiece (Llama 2), on random-weight models the tests write from llama.cpp's
// own vocabulary files. What the byte vocabulary cannot show: digits and CJK characters split
// differently, multi-byte pieces cut inside a character, bans and constraints over 150k tokens.
#include <gtest/gtest.h>

#include <cmath>

#include "decode/decode.h"
#include "support/bundle.h"
#include "support/loop_run.h"
#include "support/script.h"
#include "support/test_model.h"
#include "util/utf8.h"

namespace sfcl::decode {
namespace {

using engine::Context;
using engine::Model;

const std::string kSource = "Invoice INV-7 total: $12,500.00 due June 15, 2024.";
const std::string kSourceZh = "发票INV-7，总额人民币12,500.00元，付款日期2024年6月15日。";

class RealVocabTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    model_ = test::loaded_model(GetParam());
    SFCL_NEEDS_BUNDLE(model_ == nullptr, "no ggml-vocab-" << GetParam() << ".gguf in the llama.cpp bundle");
  }

  using Run = test::LoopRun;

  // F32 KV cache and plain attention: the rewind-equality test compares logits exactly.
  static inline const engine::ContextOptions kExact{1024, 128, 1, 1, true, true, false};

  Run run(const std::string& source, const Options& opt) const { return test::run_loop(*model_, source, opt, kExact); }

  static Options greedy(Mode mode, int32_t max_tokens = 48) { return test::greedy(mode, max_tokens); }

  // The model writes `script`, in which `wrong` is no source value: it is backtracked, never
  // delivered, and what streamed is what the result says.
  void expect_never_delivered(const std::string& source, const std::string& script, const std::string& wrong,
                              int32_t max_tokens) const {
    Options o = greedy(Mode::anchor, max_tokens);
    o.logit_hook = test::script(*model_, script);
    const Run r = run(source, o);
    EXPECT_GE(r.result.stats.backtracks, 1);
    EXPECT_EQ(r.result.text.find(wrong), std::string::npos) << r.result.text;
    EXPECT_EQ(r.streamed, r.result.text);
  }

  const Model* model_ = nullptr;
};

TEST_P(RealVocabTest, VocabularyIsTheRealOne) {
  const int32_t expected = GetParam() == "qwen2" ? 151936 : GetParam() == "llama-bpe" ? 128256 : 32000;
  EXPECT_EQ(model_->n_vocab(), expected);
  // Round trip through the real tokenizer, CJK included.
  const std::string text = " The total is $12,500.00 (人民币12,500元).";
  std::string back;
  for (engine::Token t : test::tokens_spelling(*model_, text)) model_->append_piece(t, back);
  EXPECT_EQ(back, text);
}

TEST_P(RealVocabTest, WrongAmountIsNeverDelivered) {
  Options o = greedy(Mode::anchor);
  const std::string script = " The total is $12,600.00 now.";
  o.logit_hook = test::script(*model_, script);
  const Run r = run(kSource, o);
  EXPECT_GE(r.result.stats.backtracks, 1);
  EXPECT_EQ(r.backtrack_events, r.result.stats.backtracks);
  EXPECT_EQ(r.result.text.find("12,600"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.streamed, r.result.text);
  // Local: each backtrack regenerates at most the anchor's tokens plus 3.
  const auto value_tokens = static_cast<int64_t>(test::tokens_spelling(*model_, "$12,600.00").size());
  EXPECT_LE(r.result.stats.regenerated_tokens, r.result.stats.backtracks * (value_tokens + 3));
}

TEST_P(RealVocabTest, ConstrainWritesTheSourceValueInBothLanguages) {
  for (const auto& [source, script, right, wrong] :
       {std::tuple<std::string, std::string, std::string, std::string>{kSource, " The total is $12,600.00 now.",
                                                                       "$12,500.00", "12,600"},
        {kSourceZh, "总额是人民币12,600.00元。", "人民币12,500.00元", "12,600"}}) {
    Options o = greedy(Mode::anchor);
    o.max_backtracks = 0;
    o.fallback = Fallback::constrain;
    o.logit_hook = test::script_until(*model_, script, right);
    const Run r = run(source, o);
    EXPECT_NE(r.result.text.find(right), std::string::npos) << r.result.text;
    EXPECT_EQ(r.result.text.find(wrong), std::string::npos) << r.result.text;
  }
}

TEST_P(RealVocabTest, SupportedValuesPassUntouched) {
  Options o = greedy(Mode::anchor, 64);
  o.logit_hook = test::script(*model_, " 总额人民币12,500.00元，付款日期2024年6月15日。");
  const Run r = run(kSourceZh, o);
  EXPECT_EQ(r.result.stats.backtracks, 0) << r.result.text;
  EXPECT_NE(r.result.text.find("人民币12,500.00元"), std::string::npos) << r.result.text;
  EXPECT_NE(r.result.text.find("2024年6月15日"), std::string::npos) << r.result.text;
  // CJK characters span several byte-level pieces: no chunk may end inside one.
  for (const auto& c : r.chunks) EXPECT_TRUE(utf8::valid(c)) << c.size();
  EXPECT_EQ(r.streamed, r.result.text);
}

TEST_P(RealVocabTest, StopSequenceSplitAcrossTokens) {
  Options o = greedy(Mode::anchor);
  o.stop = {"END"};
  o.logit_hook = test::script(*model_, " Paid in full.ENDING text");
  const Run r = run(kSource, o);
  EXPECT_EQ(r.result.text, " Paid in full.");
  EXPECT_EQ(r.result.stop_reason, StopReason::stop_sequence);
}

TEST_P(RealVocabTest, RewoundStateEqualsAFreshDecodeOfTheAcceptedPrefix) {
  anchor::SourceIndex index;
  index.add_source(kSource);
  const auto prompt = model_->tokenize(kSource + "\nAnswer:", true, false);
  Options o = greedy(Mode::anchor, 20);
  o.logit_hook = test::script(*model_, " The total is $12,600.00 now.");
  const engine::ContextOptions co = kExact;
  Context ctx(*model_, co);
  Sequence seq(*model_, o, index, {});
  seq.start(prompt, 0, 0);
  while (!seq.done()) {
    ctx.decode(seq.pending(), seq.pending_pos(), 0);
    seq.on_logits(ctx.logits_last(), ctx);
  }
  ASSERT_GE(seq.result().stats.backtracks, 1);
  const auto& out = seq.output_tokens();
  ASSERT_FALSE(out.empty());
  const auto last = static_cast<int32_t>(prompt.size() + out.size() - 1);
  ctx.rewind(0, last);
  ctx.decode(std::span<const engine::Token>(&out.back(), 1), last);
  std::vector<float> a(ctx.logits_last(), ctx.logits_last() + ctx.n_vocab());
  Context fresh(*model_, co);
  fresh.decode(prompt, 0);
  for (size_t i = 0; i < out.size(); ++i) {
    fresh.decode(std::span<const engine::Token>(&out[i], 1), static_cast<int32_t>(prompt.size() + i));
  }
  float max_diff = 0.0F;
  for (int i = 0; i < ctx.n_vocab(); ++i) {
    max_diff = std::max(max_diff, std::fabs(a[static_cast<size_t>(i)] - fresh.logits_last()[i]));
  }
  EXPECT_LE(max_diff, 1e-4F);
}

// Hold-back delays only what may still become an unchecked anchor (docs/DESIGN.md, 'Hold-back and
// emission'): the text before a value being written reaches the client while the value's digits
// are still coming, and a capitalised run too long for a name is released while it is written.
// Returns how many tokens had been sampled when the client had first seen `prefix`.
int sampled_when_streamed(const Model& model, const std::string& source, const std::string& script,
                          const std::string& prefix, Result* result = nullptr, int32_t max_tokens = 80) {
  Options o = test::greedy(Mode::anchor, max_tokens);
  auto follow = test::script(model, script);
  int sampled = 0;
  o.logit_hook = [&](std::span<float> l, std::span<const engine::Token> out) {
    sampled = static_cast<int>(out.size());
    follow(l, out);
  };
  anchor::SourceIndex index;
  index.add_source(source);
  engine::Context ctx(model, {1024, 128, 1, 1});
  std::string streamed;
  int when = -1;
  const Result r = generate(ctx, model.tokenize(source + "\nAnswer:", true, false), o, index, [&](const Event& e) {
    if (e.kind != Event::Kind::token) return;
    streamed += e.text;
    if (when < 0 && streamed.size() >= prefix.size()) when = sampled;
  });
  if (result != nullptr) *result = r;
  return when;
}

TEST_P(RealVocabTest, TextBeforeAValueBeingWrittenIsReleasedBeforeTheValueEnds) {
  for (const auto& [script, prefix, value] :
       {std::tuple<std::string, std::string, std::string>{" Paid on Invoice INV-2024-0117 today.", " Paid on Invoice",
                                                          " INV-2024-0117"},
        {" The total is $12,500.00 now.", " The total is", " $12,500.00"},
        {"发票总额人民币12,500.00元，已付。", "发票总额", "人民币12,500.00元"}}) {
    Result r;
    const int when = sampled_when_streamed(*model_, script, script, prefix, &r);
    EXPECT_TRUE(r.text.ends_with(script)) << r.text;  // SentencePiece may write a space first
    const auto through_value = static_cast<int>(test::tokens_spelling(*model_, prefix + value).size());
    ASSERT_GT(when, 0) << script;
    EXPECT_LT(when, through_value) << script << ": '" << prefix << "' waited for the whole value";
  }
}

TEST_P(RealVocabTest, ACapitalisedRunTooLongForANameIsReleasedWhileWritten) {
  const std::string script =
      " The Annual Report Board Directors Fiscal Year Summary Review Committee Plan Budget Forecast was filed.";
  Result r;
  // No source holds the run: read as one name it would be unsupported and rewound whole.
  const int when = sampled_when_streamed(*model_, kSource, script, " The Annual Report", &r);
  EXPECT_EQ(r.text, script);
  EXPECT_EQ(r.stats.backtracks, 0);
  const auto whole_run = static_cast<int>(test::tokens_spelling(*model_, script.substr(0, script.find(" was"))).size());
  ASSERT_GT(when, 0);
  EXPECT_LT(when, whole_run);
}

// A word glued together from many tokens, as random weights write ("ScoresScoresScores…"), is
// held only until it has more letters in a row than any word (40): the client sees it while it is
// still being written, and a wrong number glued to its end is still checked and never delivered.
TEST_P(RealVocabTest, AGluedWordIsReleasedWhileWrittenAndAValueGluedToItIsChecked) {
  std::string glued;
  for (int i = 0; i < 14; ++i) glued += "Scores";
  const std::string script = " " + glued + " was filed.";
  Result r;
  const int when = sampled_when_streamed(*model_, kSource, script, " " + glued.substr(0, 41), &r);
  EXPECT_TRUE(r.text.ends_with(script)) << r.text;
  EXPECT_EQ(r.stats.backtracks, 0);
  const auto whole_word = static_cast<int>(test::tokens_spelling(*model_, " " + glued).size());
  ASSERT_GT(when, 0);
  EXPECT_LT(when, whole_word) << "the glued word was held until it ended";

  expect_never_delivered(kSource, " " + glued + "2031 was filed.", "2031", 64);
}

// A value longer than any anchor (256 bytes, kMaxAnchorBytes) is held only until 256 bytes of it are
// written; each piece is checked, so a long URL the sources give is delivered whole with no
// backtrack, and one whose tail differs is caught on that piece and never delivered.
TEST_P(RealVocabTest, AValueLongerThanAnyAnchorIsReleasedWhileWrittenAndCheckedPieceByPiece) {
  std::string url = "https://docs.example.com/share/";
  for (int i = 0; i < 25; ++i) url += "abcdefghij/";
  const std::string source = kSource + " The report is at " + url + "report-2024.pdf today.";
  const std::string script = " See " + url + "report-2024.pdf now.";
  Result r;
  const int when = sampled_when_streamed(*model_, source, script, " See " + url.substr(0, 240), &r, 400);
  EXPECT_TRUE(r.text.ends_with(script)) << r.text;
  EXPECT_EQ(r.stats.backtracks, 0);
  const auto whole_url = static_cast<int>(test::tokens_spelling(*model_, " See " + url + "report-2024.pdf").size());
  ASSERT_GT(when, 0);
  EXPECT_LT(when, whole_url) << "the URL was held until it ended";

  expect_never_delivered(source, " See " + url + "report-2025.pdf now.", "report-2025", 400);
}

INSTANTIATE_TEST_SUITE_P(Vocabularies, RealVocabTest, ::testing::Values("qwen2", "llama-bpe", "llama-spm"),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace sfcl::decode
