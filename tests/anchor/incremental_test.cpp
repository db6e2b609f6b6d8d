// Property: for any split of a text into chunks, the incremental lexer reports exactly the
// anchors of the batch lexer, and never reports an anchor before its end is proven.
#include <gtest/gtest.h>

#include <random>

#include "anchor/anchor.h"

namespace sfcl::anchor {
namespace {

// The parts include letter runs at the lexer's bound (40 letters) and one over it, and what may
// follow one (digits, a parenthesis, a code's tail, an address's domain), and long values that
// documents joining them carry past kMaxAnchorBytes.
std::string make_document(std::mt19937& rng) {
  static const char* kParts[] = {"The Client shall pay ",
                                 "$12,500.00",
                                 " within ",
                                 "30 days",
                                 " of ",
                                 "June 15, 2024",
                                 ". ",
                                 "Acme Robotics Ltd.",
                                 " and ",
                                 "Harbor Logistics LLC",
                                 " under Section 7.2",
                                 "; late fee ",
                                 "1.5%",
                                 " per month. ",
                                 "甲方应当在",
                                 "30日内",
                                 "支付人民币5000元",
                                 "，违约金为百分之十。",
                                 "上海华东科技有限公司",
                                 "第七条",
                                 " INV-2024-0042 ",
                                 "john@x.com",
                                 " Q3 2024 ",
                                 "2024年6月15日",
                                 " 03/04/2024 ",
                                 " shall not ",
                                 "不得",
                                 " if ",
                                 "therefore ",
                                 "{\"amount\": 5}",
                                 "<total>5</total>",
                                 " def f(x): ",
                                 " €3.5m ",
                                 " 伍万元整 ",
                                 " 1.2 million ",
                                 " thirty (30) days ",
                                 "\n",
                                 " version 2.0 ",
                                 " Mr. Lee ",
                                 " 12 ",
                                 "\xff",
                                 "\xe4\xb8",
                                 " = ",
                                 "三千五百",
                                 " 5千元 ",
                                 " Annual Report Board Directors Fiscal Year Summary Review Committee ",
                                 " Grace Hughes ",
                                 "Foster ",
                                 "ScoresScoresScoresScoresScoresScoresScor",
                                 "ScoresScoresScoresScoresScoresScoresScore",
                                 "scoresscoresscoresscoresscoresscoresscore",
                                 "2031",
                                 "(x)",
                                 " def ",
                                 "-0117",
                                 "@x.com",
                                 " (555) 010-2233",
                                 "(30)",
                                 "项目建设资金统筹安排按照进度分期拨付",
                                 "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
                                 "12ab-12ab-12ab-12ab-12ab-12ab-12ab-12ab-12ab-12ab-12ab-12ab-",
                                 " https://example.com/reports/2024/annual/abcdefghij/abcdefghij/abcdefghij/x?id=42"};
  std::uniform_int_distribution<size_t> pick(0, std::size(kParts) - 1);
  std::uniform_int_distribution<int> len(5, 40);
  std::string doc;
  const int n = len(rng);
  for (int i = 0; i < n; ++i) doc += kParts[pick(rng)];
  return doc;
}

bool same(const Anchor& a, const Anchor& b) {
  return a.type == b.type && a.start == b.start && a.end == b.end && a.norm == b.norm && a.alt_norm == b.alt_norm;
}

TEST(Incremental, AnySplitEqualsBatch) {
  std::mt19937 rng(12345);
  for (int d = 0; d < 250; ++d) {
    const std::string doc = make_document(rng);
    const auto batch = extract(doc);
    for (int split = 0; split < 4; ++split) {
      Incremental inc;
      std::vector<Anchor> got;
      size_t pos = 0;
      std::uniform_int_distribution<size_t> step(1, split == 0 ? 1 : 12);
      while (pos < doc.size()) {
        const size_t n = std::min(step(rng), doc.size() - pos);
        const size_t before = got.size();
        inc.feed(std::string_view(doc).substr(pos, n), got);
        pos += n;
        for (size_t k = before; k < got.size(); ++k) {
          ASSERT_LE(got[k].end, inc.stable_end()) << "reported before its end was proven";
        }
        ASSERT_LE(inc.stable_end(), pos);
      }
      inc.finish(got);
      ASSERT_EQ(got.size(), batch.size()) << "doc " << d << ": " << doc;
      for (size_t k = 0; k < got.size(); ++k) {
        ASSERT_TRUE(same(got[k], batch[k]))
            << "doc " << d << " anchor " << k << " " << got[k].norm << " vs " << batch[k].norm;
      }
    }
  }
}

TEST(Incremental, TruncateThenContinueEqualsBatch) {
  std::mt19937 rng(99);
  for (int d = 0; d < 100; ++d) {
    const std::string doc = make_document(rng);
    const std::string other = make_document(rng);
    Incremental inc;
    std::vector<Anchor> got;
    for (char c : doc) inc.feed(std::string_view(&c, 1), got);
    std::uniform_int_distribution<size_t> cut_at(0, doc.size());
    const size_t cut = cut_at(rng);
    const size_t resume = inc.truncate(cut);
    ASSERT_LE(resume, cut);
    std::erase_if(got, [&](const Anchor& a) { return a.start >= resume; });
    for (const auto& a : got) ASSERT_LE(a.end, resume);
    inc.feed(other, got);
    inc.finish(got);
    const auto batch = extract(doc.substr(0, cut) + other);
    ASSERT_EQ(got.size(), batch.size()) << doc.substr(0, cut) + other;
    for (size_t k = 0; k < got.size(); ++k) ASSERT_TRUE(same(got[k], batch[k]));
  }
}

TEST(Incremental, HoldsBackAnUnfinishedAmount) {
  Incremental inc;
  std::vector<Anchor> got;
  inc.feed("Total: $12,5", got);
  EXPECT_TRUE(got.empty());
  EXPECT_EQ(inc.stable_end(), 7U);  // "$" may still grow
  inc.feed("00.00 due", got);
  ASSERT_EQ(got.size(), 1U);
  EXPECT_EQ(got[0].norm, "12500 USD");
}

// Hold-back holds only what may still become an anchor: text before a value being written is
// stable, whatever comes after it (docs/DESIGN.md, 'Hold-back and emission').
TEST(Incremental, AnIdentifierBeingWrittenHoldsOnlyItself) {
  Incremental inc;
  std::vector<Anchor> got;
  const std::string before = "Paid on Invoice ";
  inc.feed(before + "INV-2024-01", got);
  EXPECT_EQ(inc.stable_end(), before.size());
  inc.feed("17 today", got);
  ASSERT_EQ(got.size(), 1U);
  EXPECT_EQ(got[0].type, Type::identifier);
  EXPECT_EQ(got[0].start, before.size());
}

TEST(Incremental, AChineseAmountBeingWrittenHoldsOnlyItself) {
  Incremental inc;
  std::vector<Anchor> got;
  const std::string before = "发票INV-7，总额";
  inc.feed(before + "人民币12,5", got);
  EXPECT_EQ(inc.stable_end(), before.size());
  inc.feed("00.00元，付款日期2024年6月", got);
  ASSERT_GE(got.size(), 2U);
  EXPECT_EQ(got[1].type, Type::amount);
  EXPECT_EQ(got[1].start, before.size());
}

// A capitalised run longer than any name is released while it is written, a few words behind
// its end, instead of being held whole until it ends; and no part of it is read as a name.
TEST(Incremental, ACapitalisedRunTooLongForANameIsReleasedWhileWritten) {
  Incremental inc;
  std::vector<Anchor> got;
  const std::string run =
      "Report: Annual Report Board Directors Fiscal Year Summary Review Committee Plan Budget Forecast";
  inc.feed(run, got);
  EXPECT_TRUE(got.empty());
  EXPECT_GE(inc.stable_end(), run.find("Summary"));  // at most six words behind the end
  inc.feed(" was filed.", got);
  inc.finish(got);
  for (const auto& a : got) EXPECT_NE(a.type, Type::name) << a.norm;
  // A run of up to six words is still one name, held until it ends.
  Incremental six;
  std::vector<Anchor> names;
  six.feed("Signed by Acme Robotics North America Holdings Group", names);
  EXPECT_EQ(six.stable_end(), std::string("Signed by ").size());
  six.feed(" today.", names);
  ASSERT_EQ(names.size(), 1U);
  EXPECT_EQ(names[0].norm, "acme robotics north america holdings group");
}

// A word the writer keeps gluing pieces onto ("ScoresScoresScores…") is held only until it has
// more letters in a row than any word (40): then it is no word, and it and everything glued to it
// afterwards is released as it is written, except a value, which is held while it is written and
// checked on its own (docs/DESIGN.md, 'Hold-back and emission').
TEST(Incremental, AGluedWordIsHeldOnlyUntilItIsTooLongForAWord) {
  Incremental inc;
  std::vector<Anchor> got;
  const std::string before = "The answer: ";
  inc.feed(before, got);
  std::string text = before;
  for (int i = 0; i < 6; ++i) {  // 36 letters: may still be a name, an identifier's start, ...
    inc.feed("Scores", got);
    text += "Scores";
    EXPECT_EQ(inc.stable_end(), before.size()) << text;
  }
  inc.feed("Score", got);  // 41 letters: no word
  text += "Score";
  EXPECT_EQ(inc.stable_end(), text.size());
  for (int i = 0; i < 20; ++i) {
    inc.feed("Scores", got);
    text += "Scores";
    EXPECT_EQ(inc.stable_end(), text.size());
  }
  EXPECT_TRUE(got.empty());
  // Digits glued to it: a value of their own, held while written, then reported.
  inc.feed("20", got);
  EXPECT_EQ(inc.stable_end(), text.size());
  inc.feed("31", got);
  EXPECT_EQ(inc.stable_end(), text.size());
  inc.feed(" was filed.", got);
  ASSERT_EQ(got.size(), 1U);
  EXPECT_EQ(got[0].type, Type::number);
  EXPECT_EQ(got[0].norm, "2031");
  EXPECT_EQ(got[0].start, text.size());
  // Lowercase, and glued to a name that came first: the same.
  Incremental name;
  std::vector<Anchor> names;
  name.feed("Signed by Tom ", names);
  std::string run;
  for (int i = 0; i < 7; ++i) {
    name.feed("Scores", names);
    run += "Scores";
  }
  EXPECT_EQ(name.stable_end(), std::string("Signed by Tom ").size() + run.size());
  Incremental lower;
  lower.feed("see ", names);
  for (int i = 0; i < 7; ++i) lower.feed("scores", names);
  EXPECT_EQ(lower.stable_end(), lower.text().size());
  EXPECT_TRUE(names.empty());
}

// The same in Chinese, which has no spaces: a long run of characters is released a bounded
// distance behind its end (an organisation name is at most 16 characters before its suffix), and
// a number or a name inside it is still found, held only while it is written.
TEST(Incremental, ALongChineseRunIsReleasedWhileWrittenAndItsValuesAreFound) {
  const std::string run = "项目建设资金统筹安排按照进度分期拨付项目建设资金统筹安排按照进度分期拨付";
  Incremental inc;
  std::vector<Anchor> got;
  size_t fed = 0;
  while (fed < run.size()) {
    inc.feed(std::string_view(run).substr(fed, 3), got);
    fed += 3;
    EXPECT_GE(inc.stable_end() + 16 * 3, fed) << "held more than 16 characters";
  }
  EXPECT_TRUE(got.empty());
  inc.feed("三千五百万", got);
  EXPECT_LE(inc.stable_end(), run.size());  // the amount being written holds itself
  inc.feed("元，由张伟主持。", got);
  inc.finish(got);
  ASSERT_EQ(got.size(), 2U);
  EXPECT_EQ(got[0].type, Type::amount);
  EXPECT_EQ(got[0].norm, "35000000 CNY");
  EXPECT_EQ(got[0].start, run.size());
  EXPECT_EQ(got[1].type, Type::name);
  EXPECT_EQ(got[1].norm, "张伟");
}

// Truncating inside or right after a long run and writing on gives the batch result.
TEST(Incremental, TruncateAroundALongRunEqualsBatch) {
  const std::string doc = "Paid ScoresScoresScoresScoresScoresScoresScores2031 and ScoresScores 12 days";
  for (size_t cut = 0; cut <= doc.size(); ++cut) {
    for (const std::string other : {"", "2031 more", "Scores", " on June 15, 2024"}) {
      Incremental inc;
      std::vector<Anchor> got;
      for (char c : doc) inc.feed(std::string_view(&c, 1), got);
      const size_t resume = inc.truncate(cut);
      std::erase_if(got, [&](const Anchor& a) { return a.start >= resume; });
      inc.feed(other, got);
      inc.finish(got);
      const auto batch = extract(doc.substr(0, cut) + other);
      ASSERT_EQ(got.size(), batch.size()) << doc.substr(0, cut) + other;
      for (size_t k = 0; k < got.size(); ++k) ASSERT_TRUE(same(got[k], batch[k])) << doc.substr(0, cut) + other;
    }
  }
}

// A value the model keeps writing (a digit run, an identifier chain, a URL) is held only until
// kMaxAnchorBytes of it are written; then that piece is reported, and so is the rest up to the next
// space, as an identifier, so every byte of it is checked (docs/DESIGN.md, 'Hold-back and emission').
TEST(Incremental, ALongValueIsHeldOnlyUpToTheAnchorBoundAndCheckedWhole) {
  const std::string before = "The code is ";
  for (const std::string unit : {"1234567890", "12ab-", "x/abcdefg"}) {
    std::string value = unit == "x/abcdefg" ? "https://example.com/" : "";
    while (value.size() < 3 * kMaxAnchorBytes + 7) value += unit;
    Incremental inc;
    std::vector<Anchor> got;
    inc.feed(before, got);
    for (size_t k = 0; k < value.size(); ++k) {
      inc.feed(std::string_view(value).substr(k, 1), got);
      ASSERT_LT(before.size() + k + 1 - inc.stable_end(), kMaxAnchorBytes) << unit << " held whole";
    }
    inc.feed(" end.", got);
    inc.finish(got);
    ASSERT_EQ(got.size(), 4U) << unit;
    size_t at = before.size();
    for (size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].start, at) << unit << " piece " << k;
      EXPECT_EQ(got[k].end - got[k].start, k < 3 ? kMaxAnchorBytes : value.size() - 3 * kMaxAnchorBytes)
          << unit << " piece " << k;
      if (k > 0) {
        EXPECT_EQ(got[k].type, Type::identifier);
      }
      at = got[k].end;
    }
    EXPECT_EQ(at, before.size() + value.size());
  }
}

// Truncating inside, at or after a cut value's pieces and writing on gives the batch result.
TEST(Incremental, TruncateAroundACutValueEqualsBatch) {
  std::string doc = "Code ";
  while (doc.size() < kMaxAnchorBytes + 60) doc += "12ab-";
  doc += " and 12 days";
  for (size_t cut = 0; cut <= doc.size(); cut += 3) {
    for (const std::string other : {"", "12ab-12ab- more", " on June 15, 2024"}) {
      Incremental inc;
      std::vector<Anchor> got;
      for (size_t k = 0; k < doc.size(); k += 5) inc.feed(std::string_view(doc).substr(k, 5), got);
      const size_t resume = inc.truncate(cut);
      std::erase_if(got, [&](const Anchor& a) { return a.start >= resume; });
      inc.feed(other, got);
      inc.finish(got);
      const auto batch = extract(doc.substr(0, cut) + other);
      ASSERT_EQ(got.size(), batch.size()) << cut << " " << other;
      for (size_t k = 0; k < got.size(); ++k) ASSERT_TRUE(same(got[k], batch[k])) << cut << " " << other;
    }
  }
}

}  // namespace
}  // namespace sfcl::anchor
