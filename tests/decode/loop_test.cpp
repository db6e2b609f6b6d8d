// The check loop on a real llama.cpp model (random weights). A logit hook scripts the model's
// "mistake" so the tests are deterministic; everything else (KV rewind, bans, constrained
// decode, hold-back) is the production path.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>

#include "report/report.h"
#include "decode/decode.h"
#include "support/loop_run.h"
#include "support/script.h"
#include "support/test_model.h"
#include "util/utf8.h"

namespace sfcl::decode {
namespace {

using engine::Context;
using engine::Model;

class LoopTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { model_ = Model::load({test::tiny_model_path()}).release(); }
  static void TearDownTestSuite() {
    delete model_;
    model_ = nullptr;
  }

  // The model writes `text` (tests/support/script.h), and with script_until stops after `end_after`.
  static test::LogitHook script(const std::string& text) { return test::script(*model_, text); }
  static test::LogitHook script_until(const std::string& text, const std::string& end_after) {
    return test::script_until(*model_, text, end_after);
  }

  // Follows whichever of `scripts` the output text is a beginning of, the first one most: when its
  // next token is banned, the next script's takes its place. Ends when the text is a whole script.
  static std::function<void(std::span<float>, std::span<const Token>)> scripts(std::vector<std::string> texts) {
    const Model* m = model_;
    return [texts = std::move(texts), m](std::span<float> logits, std::span<const Token> out) {
      std::string written;
      for (Token t : out) m->append_piece(t, written);
      float boost = 1000.0F;
      for (const std::string& s : texts) {
        if (s.starts_with(written)) {
          if (s.size() == written.size()) {
            logits[static_cast<size_t>(m->eos())] += boost;
          } else {
            const auto rest = m->tokenize(s.substr(written.size()), false, false);
            if (!rest.empty()) logits[static_cast<size_t>(rest.front())] += boost;
          }
        }
        boost -= 100.0F;
      }
    };
  }

  using Run = test::LoopRun;

  Run run(const std::string& source, const std::string& scripted, Options opt) {
    if (!scripted.empty()) opt.logit_hook = script(scripted);
    return test::run_loop(*model_, source, opt);
  }

  static Options greedy(Mode mode, int32_t max_tokens = 48) { return test::greedy(mode, max_tokens); }

  static Model* model_;
};
Model* LoopTest::model_ = nullptr;

const std::string kSource = "Invoice INV-7 total: $12,500.00 due June 15, 2024.";

TEST_F(LoopTest, BacktrackNeverEmitsTheWrongValue) {
  Options o = greedy(Mode::anchor);
  const Run r = run(kSource, " The total is $12,600.00 now.", o);
  EXPECT_GE(r.result.stats.backtracks, 1);
  EXPECT_EQ(r.backtrack_events, r.result.stats.backtracks);
  EXPECT_EQ(r.result.text.find("12,600"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.streamed, r.result.text);
  // Each backtrack regenerates at most the anchor ("$12,600.00" = 10 tokens) plus 3.
  EXPECT_LE(r.result.stats.regenerated_tokens, r.result.stats.backtracks * (10 + 3));
  for (const auto& a : r.result.anchors) {
    if (a.anchor.type == anchor::Type::amount) {
      // The model's own retry is confirmed; a value the fallback wrote says it was constrained.
      EXPECT_TRUE(a.verdict == verify::Verdict::confirmed || a.verdict == verify::Verdict::constrained || a.flagged)
          << a.text;
      EXPECT_EQ(a.verdict == verify::Verdict::constrained, a.constrained) << a.text;
    }
  }
}

TEST_F(LoopTest, ConstrainFallbackWritesASourceValue) {
  Options o = greedy(Mode::anchor);
  o.max_backtracks = 0;
  o.fallback = Fallback::constrain;
  o.logit_hook = script_until(" The total is $12,600.00 now.", "$12,500.00");
  const Run r = run(kSource, "", o);
  EXPECT_NE(r.result.text.find("$12,500.00"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.result.text.find("12,600"), std::string::npos);
  EXPECT_GE(r.fallback_events, 1);
  // "$12," is a source value's beginning and is kept: only "600.00" and <= 3 tokens after it go.
  EXPECT_LE(r.result.stats.regenerated_tokens, 6 + 3) << r.result.text << " backtracks " << r.result.stats.backtracks;
  // Written by the fallback, the value is reported as constrained, never as confirmed.
  bool constrained = false;
  for (const auto& a : r.result.anchors) {
    if (a.anchor.type == anchor::Type::amount && a.anchor.norm == "12500 USD")
      constrained = a.verdict == verify::Verdict::constrained && a.constrained;
  }
  EXPECT_TRUE(constrained);
  EXPECT_NE(report::status_line(r.result, Mode::anchor).find("; constrained=1"), std::string::npos)
      << report::status_line(r.result, Mode::anchor);
  EXPECT_EQ(report::summary_json(r.result, Mode::anchor)["constrained"], 1);
  EXPECT_EQ(report::summary_json(r.result, Mode::anchor)["confirmed"], 0);
}

TEST_F(LoopTest, SourceValueUnderAnotherLabelIsReplacedByTheLabelsValue) {
  // "$85,064.00" is in the source, but as the refund: written as the fee it is backtracked
  // (reason other_field) and the constrained retry writes the fee the source states.
  const std::string source = "Account: Falcon Systems LLC\nRefund: $85,064.00\nFee: $1,200.00";
  Options o = greedy(Mode::anchor);
  o.logit_hook = script_until("Fee: $85,064.00 now.", "$1,200.00");
  const Run r = run(source, "", o);
  EXPECT_NE(r.result.text.find("Fee: $1,200.00"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.result.text.find("85,064"), std::string::npos) << r.result.text;
  ASSERT_FALSE(r.backtrack_reasons.empty());
  EXPECT_EQ(r.backtrack_reasons[0], "other_field");
  // Only what follows the shared "$" is rewound.
  EXPECT_LE(r.result.stats.regenerated_tokens, 9 + 3);
}

TEST_F(LoopTest, ConstrainedValueIsNotExtendedByALetterOrDigit) {
  Options o = greedy(Mode::anchor);
  o.max_backtracks = 0;
  o.fallback = Fallback::constrain;
  // Off the script, the "model" always wants to write a digit: right after the constrained
  // "$12,500.00" that would turn it into "$12,500.007".
  auto follow = script(" The total is $12,600.00 now.");
  const Token seven = model_->tokenize("7", false, false).at(0);
  o.logit_hook = [follow, seven](std::span<float> logits, std::span<const Token> out) {
    logits[static_cast<size_t>(seven)] += 500.0F;
    follow(logits, out);
  };
  const Run r = run(kSource, "", o);
  const size_t at = r.result.text.find("$12,500.00");
  ASSERT_NE(at, std::string::npos) << r.result.text;
  const size_t after = at + std::string("$12,500.00").size();
  if (after < r.result.text.size()) {
    EXPECT_FALSE(std::isalnum(static_cast<unsigned char>(r.result.text[after]))) << r.result.text;
  }
}

TEST_F(LoopTest, BacktrackRewindsOnlyFromWhereTheValueDeparts) {
  // The model's first choice is "$12,600.00"; its second choice where that departs from the
  // source ("6" after "$12,") is the source's "5". The retry must keep "$12," and ban only "6":
  // banning the anchor's first token ("$") would make the right value unreachable.
  Options o = greedy(Mode::anchor);
  auto wrong = script(" The total is $12,600.00 now.");
  auto right = std::make_shared<std::vector<Token>>(model_->tokenize(" The total is $12,500.00 now.", false, false));
  o.logit_hook = [wrong, right](std::span<float> logits, std::span<const Token> out) {
    if (out.size() < right->size() && std::equal(out.begin(), out.end(), right->begin())) {
      logits[static_cast<size_t>((*right)[out.size()])] += 500.0F;
    }
    wrong(logits, out);
  };
  const Run r = run(kSource, "", o);
  EXPECT_NE(r.result.text.find("$12,500.00"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.result.stats.backtracks, 1);
  EXPECT_EQ(r.fallback_events, 0);
  // Only "600.00" (6 tokens) and at most 3 tokens after it were regenerated.
  EXPECT_LE(r.result.stats.regenerated_tokens, 6 + 3) << r.result.text << " backtracks " << r.result.stats.backtracks;
  bool confirmed = false;
  for (const auto& a : r.result.anchors) {
    if (a.anchor.type == anchor::Type::amount) confirmed = a.verdict == verify::Verdict::confirmed && a.attempts == 1;
  }
  EXPECT_TRUE(confirmed);
}

TEST_F(LoopTest, ConstrainedNameIsNotExtendedByTheNextWord) {
  // After the constrain fallback wrote a source name, the "model" wants to add a company suffix --
  // which the lexer reads as a longer name the source never wrote (the checker may even confirm
  // "Henry Foster Inc." by "Henry Foster", suffixes aside). That continuation is banned instead.
  for (const std::string suffix : {" Ltd.", " Inc."}) {
    Options o = greedy(Mode::anchor);
    o.max_backtracks = 0;
    o.fallback = Fallback::constrain;
    auto follow = script(" The doctor was Oliver Price now.");
    const Model* m = model_;
    o.logit_hook = [follow, m, suffix](std::span<float> logits, std::span<const Token> out) {
      std::string text;
      for (Token t : out) m->append_piece(t, text);
      for (const std::string name : {"Grace Hughes", "Henry Foster"}) {
        for (size_t k = 0; k < suffix.size(); ++k) {
          if (text.ends_with(name + suffix.substr(0, k))) {
            logits[static_cast<size_t>(m->tokenize(suffix.substr(k, 1), false, false).at(0))] += 800.0F;
            return;
          }
        }
      }
      follow(logits, out);
    };
    const Run r = run("Visit by Grace Hughes. Review by Henry Foster.", "", o);
    EXPECT_TRUE(r.result.text.find("Grace Hughes") != std::string::npos ||
                r.result.text.find("Henry Foster") != std::string::npos)
        << r.result.text;
    EXPECT_EQ(r.result.text.find(suffix), std::string::npos) << r.result.text;
    ASSERT_FALSE(r.result.anchors.empty()) << r.result.text;
    for (const auto& a : r.result.anchors) {
      EXPECT_TRUE(a.text == "Grace Hughes" || a.text == "Henry Foster") << a.text << " in " << r.result.text;
    }
  }
}

TEST_F(LoopTest, EmittedNameExtendedAfterARewindIsChecked) {
  // "Grace Hughes" is confirmed and emitted; the amount after it shares nothing with the source's,
  // so the rewind goes to the token right after the emitted text. There the "model" glues another
  // capitalised word on: the lexer now reads one longer name, "Grace Hughes Smith", which starts
  // in emitted text and must still be checked.
  Options o = greedy(Mode::anchor);
  o.fallback = Fallback::flag;  // no constrained retry: the model's own second choice is the test
  auto wrong = script(" The doctor was Grace Hughes \u20ac7.00 now.");
  const Model* m = model_;
  o.logit_hook = [wrong, m](std::span<float> logits, std::span<const Token> out) {
    std::string text;
    for (Token t : out) m->append_piece(t, text);
    const std::string glued = "Smith now.";
    for (size_t k = 0; k < glued.size(); ++k) {
      if (text.ends_with("Hughes " + glued.substr(0, k))) {
        logits[static_cast<size_t>(m->tokenize(glued.substr(k, 1), false, false).at(0))] += 500.0F;
        break;
      }
    }
    wrong(logits, out);
  };
  const Run r = run("Visit by Grace Hughes. Total: $12,500.00.", "", o);
  EXPECT_NE(r.result.text.find("Grace Hughes"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.result.text.find("Hughes Smith"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.result.text.find("\u20ac7.00"), std::string::npos) << r.result.text;
}

TEST_F(LoopTest, FutileRetryGoesStraightToTheConstrainFallback) {
  // Greedy decoding and no source value's next token is the model's choice at the divergence: a
  // retry would fail for certain, so the first backtrack resamples under the constraint at once.
  Options o = greedy(Mode::anchor);
  o.logit_hook = script_until(" The total is $12,600.00 now.", "$12,500.00");
  const Run r = run(kSource, "", o);
  EXPECT_NE(r.result.text.find("$12,500.00"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.result.stats.backtracks, 1);
  EXPECT_EQ(r.fallback_events, 1);
  EXPECT_LE(r.result.stats.regenerated_tokens, 6 + 3);
}

TEST_F(LoopTest, FlagFallbackKeepsAndMarksTheValue) {
  Options o = greedy(Mode::anchor);
  o.max_backtracks = 0;
  o.fallback = Fallback::flag;
  const Run r = run(kSource, " The total is $12,600.00 now.", o);
  EXPECT_NE(r.result.text.find("$12,600.00"), std::string::npos) << r.result.text;
  bool flagged = false;
  for (const auto& a : r.result.anchors) {
    if (a.text == "$12,600.00") flagged = a.flagged && a.verdict == verify::Verdict::unsupported;
  }
  EXPECT_TRUE(flagged);
}

TEST_F(LoopTest, AbstainFallbackReplacesTheValue) {
  Options o = greedy(Mode::anchor);
  o.max_backtracks = 0;
  o.fallback = Fallback::abstain;
  const Run r = run(kSource, " The total is $12,600.00 now.", o);
  EXPECT_NE(r.result.text.find("[not in the sources]"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.result.text.find("12,600"), std::string::npos);
}

// The constrain fallback writes only a value of the anchor's own type: a made-up reference is not
// replaced by the invoice's amount ("The paper is Nature $12,500.00."), and with no citation in the
// sources the loop abstains, saying so.
TEST_F(LoopTest, ConstrainNeverWritesAnotherTypeAndAbstainsWithNoneOfItsType) {
  Options o = greedy(Mode::anchor);
  o.max_backtracks = 0;
  const Run r = run(kSource, " The paper is Nature 615, 452-458 (2023).", o);
  EXPECT_NE(r.result.text.find("[not in the sources]"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.result.text.find("615"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.result.text.find("12,500"), std::string::npos) << r.result.text;
  // A bare number gets no amount and no year taken out of a date either.
  const Run n = run(kSource, " The fee is 77 units.", o);
  EXPECT_EQ(n.result.text.find("77"), std::string::npos) << n.result.text;
  EXPECT_EQ(n.result.text.find("12,500"), std::string::npos) << n.result.text;
  EXPECT_EQ(n.result.text.find("2024"), std::string::npos) << n.result.text;
  EXPECT_NE(n.result.text.find("[not in the sources]"), std::string::npos) << n.result.text;
}

// After Chinese text the marker is Chinese; the value of a type the source lacks (a percentage in a
// note with none) is caught as absent.
TEST_F(LoopTest, AbsentValueAbstainsInTheAnswersLanguage) {
  Options o = greedy(Mode::anchor);
  o.max_backtracks = 0;
  const Run r = run("发票金额为人民币98700元。", "费率是5.9%。", o);
  EXPECT_EQ(r.result.text.find("5.9%"), std::string::npos) << r.result.text;
  EXPECT_NE(r.result.text.find("[来源未提及]"), std::string::npos) << r.result.text;
  bool absent = false;
  for (const auto& a : r.result.anchors) absent = absent || (a.flagged && a.reason == verify::Reason::absent);
  EXPECT_TRUE(absent);
  // With a retry the first backtrack says why.
  o.max_backtracks = 1;
  const Run b = run("发票金额为人民币98700元。", "费率是5.9%。", o);
  ASSERT_FALSE(b.backtrack_reasons.empty());
  EXPECT_EQ(b.backtrack_reasons.front(), "absent");
  EXPECT_EQ(b.result.text.find("5.9%"), std::string::npos) << b.result.text;
}

// With no source text at all, values are unverifiable and pass, but a reference is still checked:
// nothing supports it, so it never reaches the client.
TEST_F(LoopTest, CitationWithoutSourcesIsNeverDelivered) {
  Options o = greedy(Mode::anchor);
  o.max_backtracks = 0;
  o.logit_hook = script(" See Chen et al. (2021) and doi:10.1038/abc123 for 12 cases.");
  const anchor::SourceIndex none;
  Context ctx(*model_, {1024, 128, 1, 1});
  const Result res = generate(ctx, model_->tokenize("Q:", true, false), o, none);
  EXPECT_EQ(res.text.find("Chen et al."), std::string::npos) << res.text;
  EXPECT_EQ(res.text.find("10.1038"), std::string::npos) << res.text;
  EXPECT_NE(res.text.find("[not in the sources]"), std::string::npos) << res.text;
  EXPECT_TRUE(report::status_line(res, Mode::anchor).starts_with("inactive")) << report::status_line(res, Mode::anchor);
}

// The abstention record stands for what the client reads: the marker, at its place in the text.
TEST_F(LoopTest, AbstentionRecordSpansTheMarker) {
  Options o = greedy(Mode::anchor);
  o.max_backtracks = 0;
  o.fallback = Fallback::abstain;
  const Run r = run(kSource, " The total is $12,600.00 now.", o);
  const std::string marker = "[not in the sources]";
  const size_t at = r.result.text.find(marker);
  ASSERT_NE(at, std::string::npos) << r.result.text;
  bool found = false;
  for (const auto& a : r.result.anchors) {
    if (!a.flagged) continue;
    found = true;
    EXPECT_EQ(a.anchor.start, at);
    EXPECT_EQ(a.anchor.end, at + marker.size());
    EXPECT_EQ(a.text, marker);
    EXPECT_EQ(r.result.text.substr(a.anchor.start, a.anchor.end - a.anchor.start), marker);
  }
  EXPECT_TRUE(found);
  // In Chinese too (a marker of multi-byte characters).
  const Run z = run("发票金额为人民币98700元。", "费率是5.9%。", o);
  const std::string zh = "[来源未提及]";
  bool zh_found = false;
  for (const auto& a : z.result.anchors) {
    if (!a.flagged) continue;
    zh_found = true;
    EXPECT_EQ(z.result.text.substr(a.anchor.start, a.anchor.end - a.anchor.start), zh) << z.result.text;
  }
  EXPECT_TRUE(zh_found);
}

// A marker the token limit would cut is not written at all: the output ends before the value.
TEST_F(LoopTest, AbstentionMarkerIsNeverCutByMaxTokens) {
  const std::string answer = " The total is $12,600.00 now.";
  const std::string marker = "[not in the sources]";
  Options o = greedy(Mode::anchor, 64);
  o.max_backtracks = 0;
  o.fallback = Fallback::abstain;
  const Run whole = run(kSource, answer, o);
  ASSERT_NE(whole.result.text.find(marker), std::string::npos) << whole.result.text;
  const size_t before = whole.result.text.find(marker);
  int32_t cut_seen = 0;
  // Every limit from the value's first token to past the marker's end: the marker is whole or absent.
  for (int32_t limit = 4; limit <= whole.result.output_tokens; ++limit) {
    o.max_tokens = limit;
    const Run r = run(kSource, answer, o);
    EXPECT_LE(r.result.output_tokens, limit);
    EXPECT_EQ(r.result.text.find("12,600"), std::string::npos) << r.result.text;
    const size_t at = r.result.text.find('[');
    if (at != std::string::npos) {
      EXPECT_EQ(r.result.text.substr(at, marker.size()), marker) << "limit " << limit << ": " << r.result.text;
    }
    for (const auto& a : r.result.anchors) {
      if (!a.flagged || !a.text.empty()) continue;
      // The marker did not fit: nothing after the text before the value, and the record says so.
      ++cut_seen;
      EXPECT_EQ(at, std::string::npos) << r.result.text;
      EXPECT_EQ(a.anchor.start, a.anchor.end);
      EXPECT_LE(r.result.text.size(), before);
    }
  }
  EXPECT_GE(cut_seen, 1);  // some limit fell inside the marker
}

// Per-token mode: an abstention whose sentence is rewound (for another value) takes its fallback
// mark with it, so a value written again at that token is checked, not waved through.
TEST_F(LoopTest, PerTokenRewindDropsTheFallbackMarkOfAnAbstention) {
  Options o = greedy(Mode::per_token, 128);
  o.max_backtracks = 1;
  o.fallback = Fallback::abstain;
  o.logit_hook = scripts({" Total $12,600.00 and $77.00.", " Total US$12,600.00 and $77.00.",
                          " Total [not in the sources] and $77.00.", " Total $12,600.00 and US$77.00."});
  const Run r = run(kSource, "", o);
  EXPECT_GE(r.result.stats.backtracks, 2) << r.result.text;
  // Whatever the budget left, a marker in the text is whole.
  if (const size_t at = r.result.text.find('['); at != std::string::npos) {
    EXPECT_EQ(r.result.text.substr(at, 20), "[not in the sources]") << r.result.text;
  }
  EXPECT_EQ(r.result.text.find("12,600"), std::string::npos) << r.result.text;
  EXPECT_EQ(r.result.text.find("77.00"), std::string::npos) << r.result.text;
  for (const auto& a : r.result.anchors) {
    if (a.anchor.type == anchor::Type::amount) {
      EXPECT_TRUE(a.flagged) << a.text;
    }
  }
}

TEST_F(LoopTest, SupportedValueIsConfirmedWithoutBacktrack) {
  const Run r = run(kSource, " The total is $12,500.00 by June 15, 2024.", greedy(Mode::anchor));
  EXPECT_EQ(r.result.stats.backtracks, 0);
  EXPECT_NE(r.result.text.find("$12,500.00 by June 15, 2024."), std::string::npos) << r.result.text;
  EXPECT_EQ(report::status_line(r.result, Mode::anchor), "active; anchor_count=2; avg_backtrack=0.00");
  ASSERT_EQ(r.result.anchors.size(), 2U);
  EXPECT_EQ(r.result.anchors[0].id, "entity_001");
  EXPECT_EQ(r.result.anchors[0].support_source, 0);
}

TEST_F(LoopTest, PerTokenModeChecksEveryTokenAndRegeneratesTheSentence) {
  const Run a = run(kSource, " The total is $12,600.00 now.", greedy(Mode::anchor));
  const Run p = run(kSource, " The total is $12,600.00 now.", greedy(Mode::per_token));
  EXPECT_EQ(p.result.text.find("12,600"), std::string::npos) << p.result.text;
  EXPECT_GE(p.result.stats.backtracks, 1);
  EXPECT_GT(p.result.stats.regenerated_tokens, a.result.stats.regenerated_tokens);
  // On a correct sentence with three anchors, per-token re-checks at every token.
  const std::string good = " The total is $12,500.00 due June 15, 2024 for INV-7.";
  const Run ga = run(kSource, good, greedy(Mode::anchor, 96));
  const Run gp = run(kSource, good, greedy(Mode::per_token, 96));
  EXPECT_EQ(ga.result.text, gp.result.text);
  EXPECT_EQ(ga.result.stats.checks, 3);
  EXPECT_GT(gp.result.stats.checks, 5 * ga.result.stats.checks);
}

TEST_F(LoopTest, OffModeIsPlainGeneration) {
  Options o = greedy(Mode::off, 32);
  o.sampling = {0.8F, 40, 0.95F, 0.05F, 1234};
  const Run r = run(kSource, "", o);
  // The same generation written directly against the engine.
  const auto prompt = model_->tokenize(kSource + "\nAnswer:", true, false);
  Context ctx(*model_, {1024, 128, 1, 1});
  engine::Sampler s(*model_, o.sampling);
  ctx.decode(prompt, 0);
  utf8::StreamAssembler as;
  std::string text;
  for (int i = 0; i < 32; ++i) {
    const Token t = s.sample(ctx.logits_last());
    if (model_->is_eog(t)) break;
    as.feed(model_->piece(t), text);
    ctx.decode(std::span<const Token>(&t, 1), static_cast<int32_t>(prompt.size()) + i);
  }
  EXPECT_EQ(r.result.text, text);
  EXPECT_EQ(report::status_line(r.result, Mode::off), "off");
}

TEST_F(LoopTest, StopSequencesAcrossNewlineVariants) {
  for (const std::string nl : {"\n", "\r\n", "\r", "\u2028", "\u2029", "\u0085"}) {
    Options o = greedy(Mode::anchor);
    o.stop = {"\n"};
    const Run r = run(kSource, " Paid." + nl + "More text", o);
    EXPECT_EQ(r.result.text, " Paid.") << "newline of " << nl.size() << " bytes";
    EXPECT_EQ(r.result.stop_reason, StopReason::stop_sequence);
    EXPECT_EQ(r.streamed, r.result.text);
  }
  Options o = greedy(Mode::off);
  o.stop = {"END"};
  const Run r = run(kSource, " abc EN xyz END tail", o);
  EXPECT_EQ(r.result.text, " abc EN xyz ");
}

TEST_F(LoopTest, Utf8IsNeverSplitInTheStream) {
  const Run r = run("价格是人民币5000元。", " 价格是人民币5000元。", greedy(Mode::anchor));
  EXPECT_NE(r.result.text.find("人民币5000元"), std::string::npos) << r.result.text;
  for (const auto& c : r.chunks) EXPECT_TRUE(utf8::valid(c));
}

TEST_F(LoopTest, MaxTokensIsAHardLimit) {
  const Run r = run(kSource, "", greedy(Mode::anchor, 7));
  EXPECT_LE(r.result.output_tokens, 7);
  EXPECT_EQ(r.result.stop_reason, StopReason::max_tokens);
  EXPECT_LE(r.result.stats.decoded_tokens, 7 * 3 + 16);
}

TEST_F(LoopTest, RewoundStateEqualsAFreshDecodeOfTheAcceptedPrefix) {
  anchor::SourceIndex index;
  index.add_source(kSource);
  const auto prompt = model_->tokenize(kSource + "\nAnswer:", true, false);
  Options o = greedy(Mode::anchor, 20);
  o.logit_hook = script(" The total is $12,600.00 now.");
  Context ctx(*model_, {1024, 128, 1, 1});
  Sequence seq(*model_, o, index, {});
  seq.start(prompt, 0, 0);
  int64_t decodes = 0;
  while (!seq.done()) {
    ctx.decode(seq.pending(), seq.pending_pos(), 0);
    ++decodes;
    seq.on_logits(ctx.logits_last(), ctx);
  }
  const Stats& st = seq.result().stats;
  ASSERT_GE(st.backtracks, 1);
  // Every rewind here lands within the logit cache: it samples again from the logits it had,
  // so a backtrack costs no llama_decode of its own.
  EXPECT_EQ(st.cached_rewinds, st.backtracks);
  EXPECT_EQ(decodes + st.cached_rewinds, st.decoded_tokens);
  const auto& out = seq.output_tokens();
  ASSERT_FALSE(out.empty());
  // Decode the last accepted token on the rewound cache...
  ctx.rewind(0, static_cast<int32_t>(prompt.size() + out.size() - 1));
  ctx.decode(std::span<const Token>(&out.back(), 1), static_cast<int32_t>(prompt.size() + out.size() - 1));
  std::vector<float> a(ctx.logits_last(), ctx.logits_last() + ctx.n_vocab());
  // ...and on a fresh cache fed the same accepted prefix the same way.
  Context fresh(*model_, {1024, 128, 1, 1});
  fresh.decode(prompt, 0);
  for (size_t i = 0; i < out.size(); ++i) {
    fresh.decode(std::span<const Token>(&out[i], 1), static_cast<int32_t>(prompt.size() + i));
  }
  float max_diff = 0.0F;
  for (int i = 0; i < ctx.n_vocab(); ++i) {
    max_diff = std::max(max_diff, std::fabs(a[static_cast<size_t>(i)] - fresh.logits_last()[i]));
  }
  EXPECT_LE(max_diff, 1e-4F);
}

}  // namespace
}  // namespace sfcl::decode
