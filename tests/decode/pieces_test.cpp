// The parts of the check loop on their own: output text <-> token offsets, logit cache,
// backtracker, constrainer, sentence scanner, name tables. Only OutputText needs a model (it
// detokenises); it uses the project's tiny byte-vocabulary model.
#include <gtest/gtest.h>

#include <memory>
#include <numeric>

#include "decode/abstainer.h"
#include "decode/backtracker.h"
#include "decode/constrainer.h"
#include "decode/decode.h"
#include "decode/logit_cache.h"
#include "decode/output_text.h"
#include "decode/sentence_scanner.h"
#include "support/test_model.h"

namespace sfcl::decode {
namespace {

using engine::Token;

// ---------------------------------------------------------------- OutputText
class OutputTextTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { model_ = engine::Model::load({test::tiny_model_path()}).release(); }
  static void TearDownTestSuite() {
    delete model_;
    model_ = nullptr;
  }
  static OutputText written(const std::string& text) {
    OutputText out;
    for (Token t : model_->tokenize(text, false, false)) out.append(*model_, t);
    return out;
  }
  static engine::Model* model_;
};
engine::Model* OutputTextTest::model_ = nullptr;

TEST_F(OutputTextTest, MapsBytesToTheTokenThatHoldsThem) {
  const OutputText out = written("Total: 12");
  EXPECT_EQ(out.text(), "Total: 12");
  for (size_t k = 0; k < out.size(); ++k) EXPECT_EQ(out.token_at(out.token_start(k)), k);
  EXPECT_EQ(out.token_at(0), 0U);
  EXPECT_EQ(out.token_at(out.text().size() + 10), out.size() - 1);
  EXPECT_EQ(out.first_token_from(out.text().size()), out.size());
}

TEST_F(OutputTextTest, ByteTokensOfACharacterStartInsideIt) {
  // A byte vocabulary writes "金" as three tokens; only the first starts the character.
  const OutputText out = written("a金");
  ASSERT_EQ(out.size(), 4U);
  EXPECT_EQ(out.text(), "a金");
  EXPECT_FALSE(out.starts_mid_character(1));
  EXPECT_TRUE(out.starts_mid_character(2));
  EXPECT_TRUE(out.starts_mid_character(3));
  EXPECT_EQ(out.token_start(2), 2U);  // counted with the bytes still waiting for the rest of "金"
}

TEST_F(OutputTextTest, RewindNeverSplitsACharacter) {
  OutputText out = written("a金b");
  EXPECT_EQ(out.rewind(3), 1U);  // inside "金": back to its first byte token
  EXPECT_EQ(out.text(), "a");
  EXPECT_EQ(out.size(), 1U);
  EXPECT_EQ(out.end_bytes(), 1U);
}

TEST_F(OutputTextTest, EmitOnlyMovesForwardAndNeverCutsACharacter) {
  OutputText out = written("a金b");
  EXPECT_EQ(out.emit(2), "a");  // byte 2 is inside "金"
  EXPECT_EQ(out.emitted(), 1U);
  EXPECT_EQ(out.emit(1), "");
  EXPECT_EQ(out.emit(100), "金b");
  EXPECT_EQ(out.emitted(), out.text().size());
}

// ---------------------------------------------------------------- LogitCache
TEST(LogitCache, SlotsFollowTheVocabularySize) {
  EXPECT_EQ(LogitCache(357).slots(), LogitCache::kMaxSlots);
  EXPECT_EQ(LogitCache(128 * 1024).slots(), 8U);
  EXPECT_EQ(LogitCache(LogitCache::kMaxFloats).slots(), LogitCache::kMinSlots);
  EXPECT_EQ(LogitCache().slots(), 0U);
  EXPECT_EQ(LogitCache().find(0), nullptr);
}

TEST(LogitCache, ReturnsOnlyTheLogitsTaggedForThatIndex) {
  const size_t n_vocab = 5;
  LogitCache cache(LogitCache::kMaxFloats / LogitCache::kMinSlots);  // kMinSlots slots
  LogitCache small(n_vocab);
  std::vector<float> row(n_vocab);
  std::iota(row.begin(), row.end(), 1.0F);
  small.store(3, row.data());
  ASSERT_NE(small.find(3), nullptr);
  EXPECT_EQ(small.find(3)[4], 5.0F);
  EXPECT_EQ(small.find(4), nullptr);
  // Index 3 + slots shares the slot and replaces it.
  small.store(3 + small.slots(), row.data());
  EXPECT_EQ(small.find(3), nullptr);
  EXPECT_NE(small.find(3 + small.slots()), nullptr);
  EXPECT_EQ(cache.slots(), LogitCache::kMinSlots);
}

TEST(LogitCache, ForgetAfterDropsLaterPositionsOnly) {
  LogitCache cache(4);
  const std::vector<float> row(4, 0.5F);
  for (size_t i = 0; i < 6; ++i) cache.store(i, row.data());
  cache.forget_after(3);
  for (size_t i = 0; i <= 3; ++i) EXPECT_NE(cache.find(i), nullptr) << i;
  EXPECT_EQ(cache.find(4), nullptr);
  EXPECT_EQ(cache.find(5), nullptr);
}

// A request's rows go back to the pool when its cache ends and serve the next cache of that size
// as they are; a cache of another size does not take them.
TEST(LogitCache, RowsOfAnEndedCacheServeTheNextOne) {
  constexpr size_t kVocab = 1237;  // a size no other test's cache has
  const std::vector<float> row(kVocab, 0.25F);
  const size_t pooled_before = LogitCache::pooled_rows_bytes();
  const float* first_rows = nullptr;
  {
    LogitCache a(kVocab);
    EXPECT_EQ(LogitCache::pooled_rows_bytes(), pooled_before);  // nothing taken before a store
    a.store(0, row.data());
    first_rows = a.find(0);
    ASSERT_NE(first_rows, nullptr);
  }
  const size_t row_bytes = LogitCache(kVocab).slots() * kVocab * sizeof(float);
  EXPECT_EQ(LogitCache::pooled_rows_bytes(), pooled_before + row_bytes);
  LogitCache other(kVocab + 1);
  other.store(0, std::vector<float>(kVocab + 1, 0.5F).data());
  EXPECT_EQ(LogitCache::pooled_rows_bytes(), pooled_before + row_bytes);  // not its size
  LogitCache b(kVocab);
  b.store(0, row.data());
  EXPECT_EQ(b.find(0), first_rows);
  EXPECT_EQ(*b.find(0), 0.25F);
  EXPECT_EQ(b.find(1), nullptr);  // the tags are the new cache's own
  EXPECT_EQ(LogitCache::pooled_rows_bytes(), pooled_before);
}

// ---------------------------------------------------------------- Backtracker
TEST(Backtracker, BudgetCoversEveryRetryOfEveryToken) {
  EXPECT_EQ(Backtracker(100, 2).budget(), 300 + Backtracker::kBudgetSlack);
  EXPECT_EQ(Backtracker(100, -1).budget(), 100 + Backtracker::kBudgetSlack);
  Backtracker b(10, 2);
  EXPECT_TRUE(b.can_backtrack(b.budget() - 1));
  EXPECT_FALSE(b.can_backtrack(b.budget()));
  b.stop();
  EXPECT_FALSE(b.can_backtrack(0));
  EXPECT_TRUE(b.within_budget(0));  // extension bans only look at the budget
}

TEST(Backtracker, CountsAttemptsPerAnchorUpToTheMaximum) {
  Backtracker b(10, 2);
  EXPECT_EQ(b.attempts(7), 0);
  EXPECT_TRUE(b.may_retry(7));
  EXPECT_EQ(b.add_attempt(7), 1);
  EXPECT_EQ(b.add_attempt(7), 2);
  EXPECT_FALSE(b.may_retry(7));
  EXPECT_TRUE(b.may_retry(8));  // another anchor has its own attempts
  EXPECT_EQ(b.attempts(8), 0);
  EXPECT_FALSE(Backtracker(10, 0).may_retry(1));
}

TEST(Backtracker, AFallbackEndsTheRetries) {
  Backtracker b(10, 2);
  b.mark_fell_back(4);
  EXPECT_TRUE(b.fell_back(4));
  EXPECT_FALSE(b.may_retry(4));
  EXPECT_EQ(b.attempts(4), 0);
  EXPECT_FALSE(b.fell_back(5));
}

TEST(Backtracker, AnAnchorRewoundAwayMayBeRetriedAgainWithTheRetriesLeft) {
  Backtracker b(10, 3);
  b.add_attempt(4);
  b.mark_fell_back(4);
  b.forget_fallback(4);
  EXPECT_FALSE(b.fell_back(4));
  EXPECT_TRUE(b.may_retry(4));
  EXPECT_EQ(b.attempts(4), 1);  // the retries spent stay spent
}

TEST(Backtracker, ARewindForgetsOnlyTheFallbacksAfterIt) {
  Backtracker b(10, 1);
  for (const size_t first : {2U, 10U, 20U}) b.mark_fell_back(first);
  b.forget_fallbacks_after(10);
  EXPECT_TRUE(b.fell_back(2));
  EXPECT_TRUE(b.fell_back(10));
  EXPECT_FALSE(b.fell_back(20));
}

TEST(Backtracker, BansApplyAtOnePosition) {
  Backtracker b(10, 2);
  EXPECT_TRUE(b.bans_at(0).empty());
  b.ban(5, 11);
  b.ban(5, 12);
  const std::vector<Token> more = {13, 14};
  b.ban_more(more);
  EXPECT_EQ(std::vector<Token>(b.bans_at(5).begin(), b.bans_at(5).end()), (std::vector<Token>{11, 12, 13, 14}));
  EXPECT_TRUE(b.bans_at(4).empty());
  b.ban(6, 20);  // another position: the old bans go
  EXPECT_TRUE(b.bans_at(5).empty());
  EXPECT_EQ(std::vector<Token>(b.bans().begin(), b.bans().end()), (std::vector<Token>{20}));
}

// ---------------------------------------------------------------- Constrainer
std::vector<Token> span_vec(std::span<const Token> s) { return {s.begin(), s.end()}; }

TEST(Constrainer, KeepPrefixPrunesCandidatesThatDoNotContinueTheKeptTokens) {
  Constrainer c;
  c.add_candidate({1, 2, 3});
  c.add_candidate({1, 4});
  c.add_candidate({5});
  const std::vector<Token> one = {1};
  const std::vector<Token> nine = {9};
  const std::vector<Token> whole = {1, 4};
  EXPECT_TRUE(c.keep_prefix(one));
  c.start(10, 11);
  EXPECT_EQ(span_vec(c.choices({}).allowed), (std::vector<Token>{2, 4}));
  EXPECT_FALSE(c.keep_prefix(nine));
  EXPECT_FALSE(c.keep_prefix(whole));  // a candidate must be longer than what is kept
  EXPECT_TRUE(c.keep_prefix({}));      // nothing kept: every candidate
  c.start(10, 10);
  EXPECT_EQ(span_vec(c.choices({}).allowed), (std::vector<Token>{1, 1, 5}));
}

TEST(Constrainer, EachSampledTokenPrunesUntilNoneIsLeft) {
  Constrainer c;
  c.add_candidate({1, 2, 3});
  c.add_candidate({1, 4});
  ASSERT_TRUE(c.keep_prefix({}));
  c.start(10, 10);
  EXPECT_TRUE(c.active());
  c.advance(1, 100);
  EXPECT_EQ(span_vec(c.choices({}).allowed), (std::vector<Token>{2, 4}));
  c.advance(4, 101);
  EXPECT_TRUE(c.active());  // {1, 4} is complete; the model may still stop or go on
  const std::vector<Token> word_starts = {4, 7, 8};
  const Constrainer::Choice done = c.choices(word_starts);
  EXPECT_TRUE(done.allowed.empty());
  EXPECT_EQ(span_vec(done.banned), (std::vector<Token>{4, 7, 8}));
  c.advance(9, 102);
  EXPECT_FALSE(c.active());
  EXPECT_EQ(c.value_end(), 102U);
  EXPECT_TRUE(c.constrained(10));
  EXPECT_FALSE(c.constrained(11));
  anchor::Anchor longer;
  longer.start = 90;
  longer.end = 110;
  EXPECT_TRUE(c.extended_by(longer, 10));
  longer.end = 102;
  EXPECT_FALSE(c.extended_by(longer, 10));
}

TEST(Constrainer, RetryIsUnlikelyWhenNoCandidateTokenIsLikely) {
  Constrainer c;
  c.add_candidate({2, 3});
  ASSERT_TRUE(c.keep_prefix({}));
  c.set_depth(0);
  std::vector<float> logits(6, 0.0F);
  logits[4] = 10.0F;
  EXPECT_TRUE(c.next_is_unlikely(logits.data(), logits.size(), {}, 0.0F));  // greedy picks 4
  logits[2] = 9.0F;
  EXPECT_TRUE(c.next_is_unlikely(logits.data(), logits.size(), {}, 0.0F));  // still 4
  const std::vector<Token> ban4 = {4};
  EXPECT_FALSE(c.next_is_unlikely(logits.data(), logits.size(), ban4, 0.0F));  // 4 banned: 2 is the best
  EXPECT_FALSE(c.next_is_unlikely(logits.data(), logits.size(), {}, 1.0F));    // sampling: 2 holds ~27%
  logits[2] = 0.0F;
  EXPECT_TRUE(c.next_is_unlikely(logits.data(), logits.size(), {}, 1.0F));  // 2 holds < 5%
}

// ---------------------------------------------------------------- Abstainer
TEST(Abstainer, ForcesItsTokensOnceThenSamplingResumes) {
  Abstainer a;
  EXPECT_FALSE(a.next().has_value());
  EXPECT_FALSE(a.is_marker(0));
  a.start({7, 8}, 3);
  EXPECT_TRUE(a.is_marker(3));
  EXPECT_FALSE(a.is_marker(4));
  EXPECT_EQ(a.next(), std::optional<Token>(7));
  a.drop_if_done();  // one forced token left: kept
  EXPECT_EQ(a.next(), std::optional<Token>(8));
  a.drop_if_done();
  EXPECT_FALSE(a.next().has_value());
  EXPECT_TRUE(a.is_marker(3));  // the marker's anchor is still never checked
}

// ---------------------------------------------------------------- SentenceScanner
TEST(SentenceScanner, SentenceEnds) {
  EXPECT_TRUE(sentence_end("Paid.\n"));
  EXPECT_TRUE(sentence_end("Paid. "));
  EXPECT_TRUE(sentence_end("支付了。"));
  EXPECT_FALSE(sentence_end("12,500."));
  EXPECT_FALSE(sentence_end("12,500.00"));
  EXPECT_FALSE(sentence_end(""));
}

TEST(SentenceScanner, AnchorsAreOffsetIntoTheWholeText) {
  SentenceScanner s;
  const std::string text = "Paid $12.00 today. Due 2024-06-15";
  s.next_sentence(19);
  const auto anchors = s.scan(text, {});
  ASSERT_EQ(anchors.size(), 1U);
  EXPECT_EQ(text.substr(anchors[0].start, anchors[0].end - anchors[0].start), "2024-06-15");
  EXPECT_FALSE(s.ends(text, false));
  EXPECT_TRUE(s.ends(text, true));
  s.clamp(5);
  EXPECT_EQ(s.start(), 5U);
}

// ---------------------------------------------------------------- names
TEST(Names, EveryNameParsesBackToItsValue) {
  for (std::string_view n : mode_names()) {
    Mode m{};
    ASSERT_TRUE(parse_mode(n, m)) << n;
    EXPECT_EQ(mode_name(m), n);
  }
  for (std::string_view n : fallback_names()) {
    Fallback f{};
    ASSERT_TRUE(parse_fallback(n, f)) << n;
    EXPECT_EQ(fallback_name(f), n);
  }
  for (std::string_view n : stop_reason_names()) {
    StopReason r{};
    ASSERT_TRUE(parse_stop_reason(n, r)) << n;
    EXPECT_EQ(stop_reason_name(r), n);
  }
  EXPECT_EQ(mode_names().size(), 3U);
  Mode m{};
  EXPECT_TRUE(parse_mode("per_token", m));
  EXPECT_EQ(m, Mode::per_token);
  EXPECT_FALSE(parse_mode("anchors", m));
  Fallback f{};
  EXPECT_FALSE(parse_fallback("", f));
}

TEST(Options, DefaultsLiveInOptions) {
  const Options o;
  EXPECT_EQ(o.max_backtracks, 2);
  EXPECT_FLOAT_EQ(o.checker.threshold, 0.87F);
  EXPECT_EQ(o.mode, Mode::anchor);
  EXPECT_EQ(o.fallback, Fallback::constrain);
}

}  // namespace
}  // namespace sfcl::decode
