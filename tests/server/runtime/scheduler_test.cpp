// The scheduler on a real (tiny, project-made) model and an injected context.
#include "server/runtime/scheduler.h"

#include <gtest/gtest.h>

#include <numeric>

#include "support/script.h"
#include "support/test_model.h"

namespace sfcl::server {
namespace {

// The batch plan: whatever the round-robin start and the budget, tokens go in in slot order and
// the budget is used up.
TEST(ServerScheduler, PlanAddsSlotsInIncreasingOrderWhateverTheRoundRobinStart) {
  const std::vector<int32_t> waiting = {5, 0, 7, 3};
  const std::vector<uint64_t> admitted = {4, 0, 2, 3};
  std::vector<SlotTake> plan;
  for (size_t first = 0; first < waiting.size(); ++first) {
    for (int32_t budget : {1, 4, 8, 12, 512}) {
      plan_step(waiting, admitted, first, budget, plan);
      int32_t total = 0;
      for (size_t i = 0; i < plan.size(); ++i) {
        if (i > 0) {
          EXPECT_LT(plan[i - 1].slot, plan[i].slot) << "first " << first << " budget " << budget;
        }
        EXPECT_GT(plan[i].tokens, 0);
        EXPECT_LE(plan[i].tokens, waiting[static_cast<size_t>(plan[i].slot)]);
        total += plan[i].tokens;
      }
      EXPECT_EQ(total, std::min(budget, 15)) << "first " << first << " budget " << budget;
    }
  }
}

// A slot is taken for what its cache saves against what the prompt throws away of it; with no slot
// worth it, an empty one, then the least recently used.
TEST(ServerScheduler, PickSlotKeepsOtherPromptsCachesWhenLittleIsShared) {
  // Shares 3 of a 60-token cache; another slot is empty: the empty one.
  std::vector<SlotCandidate> free = {{3, 60, 1}, {0, 0, 0}, {7, 64, 2}};
  EXPECT_EQ(pick_slot(free), 1U);
  // Shares most of its cache (a follow-up turn): that slot.
  free = {{3, 60, 1}, {0, 0, 0}, {500, 520, 2}};
  EXPECT_EQ(pick_slot(free), 2U);
  // The whole cache is a prefix of the prompt: that slot, even a short one.
  free = {{0, 0, 0}, {5, 5, 1}};
  EXPECT_EQ(pick_slot(free), 1U);
  // None worth it, none empty: the least recently used.
  free = {{3, 60, 9}, {7, 64, 4}, {1, 80, 6}};
  EXPECT_EQ(pick_slot(free), 1U);
  // The most saved wins among several worth it.
  free = {{40, 50, 1}, {90, 120, 2}, {30, 30, 3}};
  EXPECT_EQ(pick_slot(free), 1U);
}

// Prompts are fed one after the other, the earliest admitted first, not a share each: the first of
// several prompts arriving together gets its first token after its own prompt, not after all.
TEST(ServerScheduler, PlanFeedsPromptsWholeInAdmissionOrder) {
  const std::vector<int32_t> waiting = {300, 300, 300, 300};
  const std::vector<uint64_t> admitted = {7, 5, 8, 6};
  std::vector<SlotTake> plan;
  for (size_t first = 0; first < waiting.size(); ++first) {  // the round-robin start plays no part
    plan_step(waiting, admitted, first, 512, plan);
    ASSERT_EQ(plan.size(), 2U);
    EXPECT_EQ(plan[0].slot, 1);  // admitted 5th: whole
    EXPECT_EQ(plan[0].tokens, 300);
    EXPECT_EQ(plan[1].slot, 3);  // admitted 6th: the rest of the budget
    EXPECT_EQ(plan[1].tokens, 212);
  }
}

// Equal admission numbers (none in a server, which numbers every admission) fall back to slot order
// and still fill the budget.
TEST(ServerScheduler, PlanBreaksAdmissionTiesBySlot) {
  const std::vector<int32_t> waiting = {100, 100, 100};
  std::vector<SlotTake> plan;
  plan_step(waiting, std::vector<uint64_t>(3), 0, 250, plan);
  ASSERT_EQ(plan.size(), 3U);
  EXPECT_EQ(plan[0].tokens, 100);
  EXPECT_EQ(plan[1].tokens, 100);
  EXPECT_EQ(plan[2].tokens, 50);
}

// A running answer's next token never waits for a prompt: decodes take their token first, the
// prompts the rest.
TEST(ServerScheduler, PlanGivesDecodesTheirTokenBeforeAnyPrompt) {
  const std::vector<int32_t> waiting = {600, 1, 1, 40, 1};
  const std::vector<uint64_t> admitted = {1, 2, 3, 4, 5};
  std::vector<SlotTake> plan;
  plan_step(waiting, admitted, 0, 512, plan);
  ASSERT_EQ(plan.size(), 4U);
  EXPECT_EQ(plan[0].slot, 0);
  EXPECT_EQ(plan[0].tokens, 509);  // the oldest prompt takes what the three decodes leave
  EXPECT_EQ(plan[1].slot, 1);
  EXPECT_EQ(plan[2].slot, 2);
  EXPECT_EQ(plan[3].slot, 4);  // slot 3's prompt waits for the next step
}

// More decodes than batch tokens: they take turns from the round-robin start, and a waiting prompt
// still gets its eighth of the budget.
TEST(ServerScheduler, PlanLeavesPromptsAShareWhenDecodesOutnumberTheBudget) {
  const std::vector<int32_t> waiting = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 50};
  const std::vector<uint64_t> admitted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  std::vector<SlotTake> plan;
  plan_step(waiting, admitted, 4, 8, plan);
  ASSERT_EQ(plan.size(), 8U);
  EXPECT_EQ(plan[0].slot, 0);  // 7 decodes from slot 4 on: 4..9, then 0
  EXPECT_EQ(plan[1].slot, 4);
  EXPECT_EQ(plan[7].slot, 10);
  EXPECT_EQ(plan[7].tokens, 1);
  const std::vector<int32_t> decodes(12, 1);
  const std::vector<uint64_t> order(12, 0);
  plan_step(decodes, order, 9, 8, plan);  // no prompt: the whole budget, from slot 9 round
  ASSERT_EQ(plan.size(), 8U);
  EXPECT_EQ(plan[0].slot, 0);
  EXPECT_EQ(plan[4].slot, 4);
  EXPECT_EQ(plan[5].slot, 9);
}

// A slot whose first text waits for one token is not made to wait for another request's prompt.
TEST(ServerScheduler, PromptsSitOutOneStepWhileAFirstTextWaitsForItsToken) {
  std::vector<int32_t> waiting = {1, 60, 1, 0, 2};
  const std::vector<uint8_t> held = {0, 0, 1, 0, 0};
  EXPECT_TRUE(defer_prompts(waiting, held, false));
  EXPECT_EQ(waiting, (std::vector<int32_t>{1, 0, 1, 0, 0}));  // decodes stay, prompts sit out
  std::vector<SlotTake> plan;
  plan_step(waiting, std::vector<uint64_t>(5), 0, 512, plan);
  ASSERT_EQ(plan.size(), 2U);
  EXPECT_EQ(plan[0].slot, 0);
  EXPECT_EQ(plan[1].slot, 2);
}

// Never two steps in a row: after a step without prompts they go in, whatever is held.
TEST(ServerScheduler, PromptsNeverSitOutTwoStepsInARow) {
  std::vector<int32_t> waiting = {60, 1, 0};
  const std::vector<uint8_t> held = {0, 1, 0};
  bool deferred = defer_prompts(waiting, held, false);
  EXPECT_TRUE(deferred);
  EXPECT_EQ(waiting, (std::vector<int32_t>{0, 1, 0}));
  waiting = {60, 1, 0};  // the next step: the same prompt, a first token held again (a backtrack)
  deferred = defer_prompts(waiting, held, deferred);
  EXPECT_FALSE(deferred);
  EXPECT_EQ(waiting, (std::vector<int32_t>{60, 1, 0}));
  waiting = {28, 1, 40};  // the step after: they may sit out again
  EXPECT_TRUE(defer_prompts(waiting, held, deferred));
  EXPECT_EQ(waiting, (std::vector<int32_t>{0, 1, 0}));
}

TEST(ServerScheduler, PromptsGoAheadWhenNoFirstTextWaitsForOneToken) {
  const std::vector<uint8_t> none = {0, 0, 0};
  std::vector<int32_t> waiting = {60, 1, 1};
  EXPECT_FALSE(defer_prompts(waiting, none, false));  // no first token held
  EXPECT_EQ(waiting, (std::vector<int32_t>{60, 1, 1}));
  const std::vector<uint8_t> held_idle = {0, 0, 1};
  waiting = {60, 1, 0};
  EXPECT_FALSE(defer_prompts(waiting, held_idle, false));  // the held slot has nothing to decode
  EXPECT_EQ(waiting, (std::vector<int32_t>{60, 1, 0}));
  waiting = {1, 1, 1};
  EXPECT_FALSE(defer_prompts(waiting, held_idle, false));  // no prompt to hold back
}

class ServerSchedulerModel : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { model_ = engine::Model::load({test::tiny_model_path()}).release(); }
  static void TearDownTestSuite() {
    delete model_;
    model_ = nullptr;
  }

  static std::unique_ptr<engine::Context> context(const SchedulerOptions& o) {
    engine::ContextOptions c;
    c.n_ctx = o.n_ctx_per_slot * static_cast<uint32_t>(o.n_parallel);
    c.n_batch = o.n_batch;
    c.n_threads = 1;
    c.n_seq_max = static_cast<uint32_t>(o.n_parallel);
    c.kv_unified = false;
    return std::make_unique<engine::Context>(*model_, c);
  }

  // A job that writes `max_tokens` tokens (EOS is pushed down so the random model keeps going).
  static std::shared_ptr<Job> job(const std::string& prompt, int32_t max_tokens) {
    auto j = std::make_shared<Job>();
    j->prompt = model_->tokenize(prompt, true, false);
    j->options.mode = decode::Mode::off;
    j->options.max_tokens = max_tokens;
    j->options.sampling.temperature = 0.0F;
    j->options.logit_hook = [eos = model_->eos()](std::span<float> logits, std::span<const engine::Token>) {
      logits[static_cast<size_t>(eos)] -= 1000.0F;
    };
    j->sources = std::make_shared<anchor::SourceIndex>();
    return j;
  }

  static engine::Model* model_;
};
engine::Model* ServerSchedulerModel::model_ = nullptr;

TEST_F(ServerSchedulerModel, FullQueueRefusesAndCancelFreesTheSlot) {
  SchedulerOptions o;
  o.n_parallel = 1;
  o.queue_limit = 0;
  o.n_ctx_per_slot = 4096;
  auto ctx = context(o);
  Scheduler s(*model_, *ctx, o);
  auto long_job = job("a long one", 4000);
  ASSERT_TRUE(s.submit(long_job));
  long_job->channel.wait_admitted();
  EXPECT_EQ(s.stats().busy_slots, 1);
  EXPECT_FALSE(s.submit(job("no room", 2)));  // one slot, busy, and no queue
  long_job->channel.cancel();
  const JobOutcome& out = long_job->channel.wait_finished();
  EXPECT_TRUE(out.cancelled);
  EXPECT_TRUE(out.error.empty());
  EXPECT_LT(out.result.output_tokens, 4000);
  EXPECT_EQ(s.stats().busy_slots, 0);
  auto next = job("room again", 3);
  ASSERT_TRUE(s.submit(next));
  EXPECT_EQ(next->channel.wait_finished().result.output_tokens, 3);
}

TEST_F(ServerSchedulerModel, SamePromptAgainReusesTheSlotsCache) {
  SchedulerOptions o;
  o.n_parallel = 2;
  o.n_ctx_per_slot = 512;
  auto ctx = context(o);
  Scheduler s(*model_, *ctx, o);
  const std::string prompt = "The invoice total is twelve thousand five hundred dollars.";
  auto first = job(prompt, 4);
  ASSERT_TRUE(s.submit(first));
  first->channel.wait_finished();
  EXPECT_EQ(first->channel.cached_tokens(), 0);
  const int64_t reused_before = s.stats().reused_tokens;
  auto second = job(prompt, 4);
  ASSERT_TRUE(s.submit(second));
  const JobOutcome& out = second->channel.wait_finished();
  // Everything but the last prompt token (its logits are needed) comes from the cache.
  EXPECT_EQ(second->channel.cached_tokens(), static_cast<int32_t>(second->prompt.size()) - 1);
  EXPECT_EQ(s.stats().reused_tokens - reused_before, second->channel.cached_tokens());
  EXPECT_EQ(out.result.text, first->channel.wait_finished().result.text);
  EXPECT_EQ(s.stats().prompt_tokens, static_cast<int64_t>(first->prompt.size() + second->prompt.size()));
}

TEST_F(ServerSchedulerModel, ConcurrentJobsMatchTheirSoloRuns) {
  SchedulerOptions o;
  o.n_parallel = 4;
  o.n_ctx_per_slot = 512;
  o.n_batch = 16;  // smaller than the prompts together: the budget is shared over several steps
  const std::vector<std::string> prompts = {"one two three", "the total is", "fee schedule for March",
                                            "a b c d e f g h i j k l m n o p"};
  std::vector<std::string> solo;
  for (const auto& p : prompts) {
    auto ctx = context(o);
    Scheduler alone(*model_, *ctx, o);
    auto j = job(p, 12);
    ASSERT_TRUE(alone.submit(j));
    solo.push_back(j->channel.wait_finished().result.text);
  }
  auto ctx = context(o);
  Scheduler together(*model_, *ctx, o);
  std::vector<std::shared_ptr<Job>> jobs;
  for (const auto& p : prompts) {
    jobs.push_back(job(p, 12));
    ASSERT_TRUE(together.submit(jobs.back()));
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobOutcome& out = jobs[i]->channel.wait_finished();
    EXPECT_EQ(out.result.output_tokens, 12);
    EXPECT_EQ(out.result.text, solo[i]) << prompts[i];
  }
}

// Jobs whose scripted answers state values the sources do not hold: each backtracks and rewinds
// its KV cache, so the step's sequences rewind while others sample beside them.
TEST_F(ServerSchedulerModel, ChecksSideBySideMatchChecksOneAfterAnother) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"The invoice total is $12,500.00.", " The total is $12,600.00 now."},
      {"The fee is 3.5% a year.", " The fee is 4.5% a year."},
      {"Signed on 14 March 2026.", " It was signed on 15 March 2026."},
      {"The doctor was Grace Hughes.", " The doctor was Oliver Price now."},
      {"Pallets: 4,800.", " There are 4,200 pallets."},
      {"The total is 12 cases.", " We saw 12 cases, then 13 more."},
  };
  const auto run = [&](int32_t check_threads) {
    SchedulerOptions o;
    o.n_parallel = static_cast<int32_t>(cases.size());
    o.n_ctx_per_slot = 512;
    o.check_threads = check_threads;
    auto ctx = context(o);
    Scheduler s(*model_, *ctx, o);
    std::vector<std::shared_ptr<Job>> jobs;
    for (const auto& [source, answer] : cases) {
      auto j = job(source, 40);
      j->options.mode = decode::Mode::anchor;
      j->options.logit_hook = test::script(*model_, answer);
      j->sources->add_source(source);
      jobs.push_back(j);
      EXPECT_TRUE(s.submit(j));
    }
    std::vector<decode::Result> out;
    for (const auto& j : jobs) out.push_back(j->channel.wait_finished().result);
    return out;
  };
  const std::vector<decode::Result> serial = run(1);
  int32_t backtracks = 0;
  for (const auto& r : serial) backtracks += r.stats.backtracks;
  EXPECT_GE(backtracks, 4);  // the wrong values were caught and regenerated
  for (int round = 0; round < 3; ++round) {
    const std::vector<decode::Result> parallel = run(3);
    for (size_t i = 0; i < cases.size(); ++i) {
      EXPECT_EQ(parallel[i].text, serial[i].text) << cases[i].second;
      EXPECT_EQ(parallel[i].stats.backtracks, serial[i].stats.backtracks) << cases[i].second;
      EXPECT_EQ(parallel[i].output_tokens, serial[i].output_tokens) << cases[i].second;
    }
  }
}

// The host-memory prompt cache on its own: what it keeps, what it finds, what it evicts.
TEST(ServerPromptCache, FindsTheLongestSharedPrefixAndEvictsTheLeastRecentlyUsed) {
  const auto fill_with = [](size_t n) {
    return [n](std::vector<uint8_t>& out) {
      out.assign(n, 7);
      return true;
    };
  };
  PromptCache cache(250);
  const std::vector<engine::Token> a = {1, 2, 3, 4, 5, 6};
  const std::vector<engine::Token> b = {9, 8, 7, 6, 5, 4};
  ASSERT_TRUE(cache.save(a, 100, fill_with(100)));
  EXPECT_FALSE(cache.save(std::vector<engine::Token>{1, 2, 3}, 100, fill_with(100)));  // a holds it already
  ASSERT_TRUE(cache.save(b, 100, fill_with(100)));
  EXPECT_EQ(cache.entries(), 2U);
  size_t common = 0;
  const std::vector<engine::Token> prompt = {1, 2, 3, 4, 0};
  const PromptCache::Entry* hit = cache.find(prompt, 0, common);
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit->tokens, a);
  EXPECT_EQ(common, 4U);
  EXPECT_EQ(cache.find(prompt, 4, common), nullptr);  // no entry shares more than the slot already does
  // a was used last: the third state evicts b, the least recently used.
  const std::vector<engine::Token> c = {5, 5, 5};
  ASSERT_TRUE(cache.save(c, 100, fill_with(100)));
  EXPECT_EQ(cache.entries(), 2U);
  EXPECT_LE(cache.bytes(), cache.limit());
  EXPECT_EQ(cache.find(b, 0, common), nullptr);
  EXPECT_NE(cache.find(a, 0, common), nullptr);
  // A state that extends a saved one replaces it; one larger than the whole cache is not saved.
  ASSERT_TRUE(cache.save(std::vector<engine::Token>{1, 2, 3, 4, 5, 6, 7}, 100, fill_with(100)));
  EXPECT_EQ(cache.entries(), 2U);
  EXPECT_FALSE(cache.save(b, 300, fill_with(300)));
  // A dropped entry (its state would not restore) is no longer found, and its bytes are free.
  const size_t before = cache.bytes();
  const PromptCache::Entry* found = cache.find(a, 0, common);
  ASSERT_NE(found, nullptr);
  cache.drop(found);
  EXPECT_EQ(cache.entries(), 1U);
  EXPECT_EQ(cache.bytes(), before - 100);
  EXPECT_EQ(cache.find(a, 0, common), nullptr);
}

// A 700-byte invoice document: about 700 tokens on the byte-vocabulary model.
std::string invoice_document() {
  std::string document = "Invoice INV-2024-0117 from Foster & Sons: ";
  for (int i = 0; document.size() < 700; ++i)
    document += "line " + std::to_string(i) + " costs $" + std::to_string(i * 37) + ".00; ";
  return document;
}

// One slot of 1,024 tokens and a host-memory prompt cache of `cache_ram_mib` (0: none).
SchedulerOptions one_slot(uint32_t cache_ram_mib) {
  SchedulerOptions o;
  o.n_parallel = 1;
  o.n_ctx_per_slot = 1024;
  o.cache_ram_mib = cache_ram_mib;
  return o;
}

// A long document whose slot went to another request is restored from host memory, not processed
// again, and the answer is the one the uncached run gave.
TEST_F(ServerSchedulerModel, PromptCacheRestoresADocumentAfterItsSlotWasReused) {
  const std::string document = invoice_document();
  for (const uint32_t cache_ram_mib : {64U, 0U}) {
    const SchedulerOptions o = one_slot(cache_ram_mib);
    auto ctx = context(o);
    Scheduler s(*model_, *ctx, o);
    auto first = job(document, 8);
    ASSERT_TRUE(s.submit(first));
    const std::string uncached = first->channel.wait_finished().result.text;
    auto other = job("Something else entirely, short.", 8);
    ASSERT_TRUE(s.submit(other));
    other->channel.wait_finished();
    EXPECT_LT(other->channel.cached_tokens(), 4);
    auto again = job(document, 8);
    ASSERT_TRUE(s.submit(again));
    const JobOutcome& out = again->channel.wait_finished();
    EXPECT_EQ(out.result.text, uncached) << "cache_ram_mib " << cache_ram_mib;
    const SchedulerStats st = s.stats();
    if (cache_ram_mib == 0) {
      EXPECT_LT(again->channel.cached_tokens(), 4);
      EXPECT_EQ(st.cache_hits, 0);
      continue;
    }
    EXPECT_EQ(again->channel.cached_tokens(), static_cast<int32_t>(again->prompt.size()) - 1);
    EXPECT_EQ(st.cache_hits, 1);
    EXPECT_EQ(st.cache_saves, 1);  // the short request's cache is below cache_min_tokens: not saved
    EXPECT_EQ(st.cache_restored_tokens, again->channel.cached_tokens());
    EXPECT_EQ(st.cache_entries, 1);
    EXPECT_GT(st.cache_bytes, 0);
  }
}

// A prompt shorter than cache_min_tokens (the eval prompts are 63-80 tokens) is restored as well:
// only what its slot held, prompt and answer, had to reach cache_min_tokens to be saved.
TEST_F(ServerSchedulerModel, PromptCacheRestoresAShortPromptAfterItsSlotWasReused) {
  const SchedulerOptions o = one_slot(64);
  auto ctx = context(o);
  Scheduler s(*model_, *ctx, o);
  auto first = job("Invoice INV-7: $12,500.00 due.", 40);
  ASSERT_TRUE(s.submit(first));
  const std::string uncached = first->channel.wait_finished().result.text;
  ASSERT_LT(first->prompt.size(), static_cast<size_t>(o.cache_min_tokens));
  auto other = job("Something else entirely, short.", 8);
  ASSERT_TRUE(s.submit(other));
  other->channel.wait_finished();
  auto again = job("Invoice INV-7: $12,500.00 due.", 40);
  ASSERT_TRUE(s.submit(again));
  const JobOutcome& out = again->channel.wait_finished();
  EXPECT_EQ(out.result.text, uncached);
  EXPECT_EQ(again->channel.cached_tokens(), static_cast<int32_t>(again->prompt.size()) - 1);
  EXPECT_EQ(s.stats().cache_hits, 1);
}

// A long saved document is not copied back for a prompt that shares only its opening: a restore
// copies the whole state, so it must spare at least an eighth of it.
TEST_F(ServerSchedulerModel, PromptCacheLeavesALongStateForAPromptSharingOnlyItsOpening) {
  const std::string document = invoice_document();
  const SchedulerOptions o = one_slot(64);
  auto ctx = context(o);
  Scheduler s(*model_, *ctx, o);
  for (const auto& text : {document, std::string("Something else entirely, short.")}) {
    auto j = job(text, 8);
    ASSERT_TRUE(s.submit(j));
    j->channel.wait_finished();
  }
  ASSERT_EQ(s.stats().cache_saves, 1);  // the document's state
  auto opening = job(document.substr(0, 60) + " and nothing more.", 8);
  ASSERT_TRUE(s.submit(opening));
  opening->channel.wait_finished();
  EXPECT_EQ(s.stats().cache_hits, 0);
  EXPECT_LT(opening->channel.cached_tokens(), 4);
  auto most = job(document.substr(0, 400) + " and nothing more.", 8);  // shares more than an eighth
  ASSERT_TRUE(s.submit(most));
  most->channel.wait_finished();
  EXPECT_EQ(s.stats().cache_hits, 1);
  EXPECT_GE(most->channel.cached_tokens(), 390);
}

}  // namespace
}  // namespace sfcl::server
