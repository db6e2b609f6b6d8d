// The demo corpus and trainer: determinism, train/eval disjointness, a short real training run,
// and llama.cpp reproducing sfcl's training graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <set>

#include "corpus.h"
#include "engine/engine.h"
#include "eval.h"
#include "eval_check.h"
#include "train.h"

namespace sfcl::demo {
namespace {

TEST(Corpus, SameSeedSameBytes) {
  for (uint64_t i = 0; i < 50; ++i) {
    const Document a = make_document(7, Split::train, i);
    const Document b = make_document(7, Split::train, i);
    EXPECT_EQ(a.text, b.text);
    ASSERT_EQ(a.qas.size(), b.qas.size());
    for (size_t k = 0; k < a.qas.size(); ++k) EXPECT_EQ(a.qas[k].answer, b.qas[k].answer);
  }
  EXPECT_NE(make_document(7, Split::train, 1).text, make_document(8, Split::train, 1).text);
}

TEST(Corpus, AnswersCopyDocumentValues) {
  for (uint64_t i = 0; i < 100; ++i) {
    const Document d = make_document(1, Split::eval, i);
    EXPECT_FALSE(d.values.empty());
    for (const auto& v : d.values) EXPECT_NE(d.text.find(v), std::string::npos);
  }
}

TEST(Corpus, EvalValuesAndTemplatesNeverAppearInTraining) {
  std::set<std::string> train_values;
  for (uint64_t i = 0; i < 3000; ++i) {
    for (const auto& v : make_document(42, Split::train, i).values) train_values.insert(v);
  }
  for (uint64_t i = 0; i < 600; ++i) {
    for (const auto& v : make_document(42, Split::eval, i).values) {
      EXPECT_EQ(train_values.count(v), 0U) << v;
      EXPECT_TRUE(value_in_split(v, Split::eval));
    }
  }
  const auto tt = template_ids(Split::train);
  const std::set<std::string> train_t(tt.begin(), tt.end());
  for (const auto& t : template_ids(Split::eval)) EXPECT_EQ(train_t.count(t), 0U) << t;
}

// The unseen-phrasing split: no question is one the corpus generator writes (values aside), both
// languages are there, and unanswerable items abstain in their gold answer and state no value.
TEST(Corpus, UnseenSplitIsHeldOut) {
  // A question with its digits and values taken out, case folded: the generator's template.
  auto shape = [](std::string q, const std::vector<std::string>& values) {
    for (const auto& v : values) {
      for (size_t at = q.find(v); !v.empty() && at != std::string::npos; at = q.find(v)) q.replace(at, v.size(), "#");
    }
    std::string out;
    for (char c : q) {
      if (!std::isdigit(static_cast<unsigned char>(c)))
        out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    return out;
  };
  std::set<std::string> generated;
  for (Split split : {Split::train, Split::eval}) {
    for (uint64_t i = 0; i < 2000; ++i) {
      const Document d = make_document(42, split, i);
      for (const auto& qa : d.qas) generated.insert(shape(qa.question, d.values));
    }
  }
  const auto items = load_eval_set(std::filesystem::path(SFCL_SOURCE_DIR) / "demo" / "eval-unseen.jsonl");
  ASSERT_GE(items.size(), 150U);
  int en = 0;
  int zh = 0;
  int unanswerable = 0;
  for (const auto& it : items) {
    EXPECT_EQ(generated.count(shape(it.question, it.gold_values)), 0U) << it.id << ": " << it.question;
    (it.lang == "zh" ? zh : en) += 1;
    if (!it.answerable) {
      ++unanswerable;
      EXPECT_TRUE(it.answer == "[not in the sources]" || it.answer == "[来源未提及]") << it.id;
    }
  }
  EXPECT_GE(en, 60);
  EXPECT_GE(zh, 60);
  EXPECT_GE(unanswerable, 25);
}

// The checker on the committed real-prose sets (the held-out zh-b and en-c included): what
// docs/FIDELITY.md reports, as floors, so a change that lets more invented values through or flags
// more quoted ones fails here.
TEST(EvalCheck, RealProseCatchRateAndFalseFlags) {
  const std::filesystem::path dir = std::filesystem::path(SFCL_SOURCE_DIR) / "eval" / "realtext";
  const auto items = load_check_set(
      {dir / "en-a.jsonl", dir / "en-b.jsonl", dir / "zh-a.jsonl", dir / "zh-b.jsonl", dir / "en-c.jsonl"});
  ASSERT_GE(items.size(), 500U);
  const CheckReport rep = run_check_set(items, {});
  const KindCount inv = rep.invented();
  EXPECT_GE(inv.caught * 1000, inv.items * 990) << inv.caught << "/" << inv.items;
  EXPECT_LE(rep.right_flagged * 1000, rep.right * 2) << rep.right_flagged << "/" << rep.right;
  const KindCount en = rep.by_lang.at("en");
  EXPECT_GE(en.caught * 1000, en.items * 995) << en.caught << "/" << en.items;
  const KindCount zh = rep.by_lang.at("zh");
  EXPECT_GE(zh.caught * 1000, zh.items * 980) << zh.caught << "/" << zh.items;
  EXPECT_EQ(rep.by_kind.at("absent").caught, rep.by_kind.at("absent").items);
  // Values in the wrong place: roles and clause words catch 16 of 52 (docs/FIDELITY.md, "Clause words").
  EXPECT_GE(rep.by_kind.at("other_field").caught, 16U);
  // The sets written first: every invented or altered value caught.
  const auto first = load_check_set({dir / "en-a.jsonl", dir / "en-b.jsonl", dir / "zh-a.jsonl"});
  const KindCount first_inv = run_check_set(first, {}).invented();
  EXPECT_EQ(first_inv.caught, first_inv.items);
}

// A model file with this vocabulary (random weights) for llama.cpp's tokenizer; removed on exit.
std::unique_ptr<engine::Model> vocab_model(const VocabOptions& v) {
  const auto vocab = demo_vocab(v);
  engine::LlamaHParams hp;
  hp.n_vocab = static_cast<uint32_t>(vocab.size());
  hp.n_embd = 32;
  hp.n_layer = 1;
  hp.n_head = 2;
  hp.n_head_kv = 2;
  hp.n_ff = 64;
  const auto path = std::filesystem::temp_directory_path() / "sfcl-vocab-test.gguf";
  engine::write_llama_gguf(path, hp, vocab, engine::random_llama_weights(hp, 1), engine::kChatMlTemplate, "vocab-test");
  auto m = engine::Model::load({path});
  std::filesystem::remove(path);
  return m;
}

std::vector<std::string> pieces(const engine::Model& m, const std::string& s) {
  std::vector<std::string> out;
  for (engine::Token t : m.tokenize(s, false, false)) out.push_back(m.piece(t));
  return out;
}

TEST(Vocab, DigitPairsTokeniseDigitRunsInPairs) {
  // llama.cpp's SPM tokenizer merges equal-score pairs leftmost first: "2024" -> "20" "24",
  // "4226025" -> "42" "26" "02" "5", the same way in a document and in an answer.
  VocabOptions v;
  v.digit_pairs = true;
  EXPECT_EQ(demo_vocab(v).size(), demo_vocab({}).size() + 100);
  const auto m = vocab_model(v);
  EXPECT_EQ(pieces(*m, "MRN-4226025"), (std::vector<std::string>{"M", "R", "N", "-", "42", "26", "02", "5"}));
  EXPECT_EQ(pieces(*m, "$12,500.00"), (std::vector<std::string>{"$", "12", ",", "50", "0", ".", "00"}));
  EXPECT_EQ(pieces(*m, "2024年1月14日"), (std::vector<std::string>{"20", "24", "年", "1", "月", "14", "日"}));
}

TEST(Vocab, MergesAreDeterministicAndStayInsideWords) {
  const std::vector<std::string> texts = {"the total of the invoice", "the totals", "公司 有限公司 公司"};
  const auto a = learn_merges(texts, 20);
  EXPECT_EQ(a, learn_merges(texts, 20));
  ASSERT_FALSE(a.empty());
  // "he", "th" and "▁t" occur 3 times each, more than any other pair; ties go to the smallest.
  EXPECT_EQ(a.front(), "he");
  EXPECT_NE(std::find(a.begin(), a.end(), "公司"), a.end());
  for (const auto& m : a) EXPECT_EQ(m.find(' '), std::string::npos) << m;

  VocabOptions v;
  v.digit_pairs = true;
  v.merges = 400;
  const auto m = vocab_model(v);
  // Words become subword pieces; digits stay pairs; no piece mixes letters with digits or
  // punctuation, so an anchor's boundary is always a token boundary.
  const std::string text = "The total amount is $12,500.00, due 2024-06-15 (Invoice INV-2024-0042).";
  const auto p = pieces(*m, text);
  EXPECT_LT(p.size(), text.size() * 2 / 3) << "merges barely used";
  for (const auto& piece : p) {
    const bool digit = std::any_of(piece.begin(), piece.end(), [](char c) { return c >= '0' && c <= '9'; });
    const bool letter = std::any_of(piece.begin(), piece.end(),
                                    [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
    const bool punct = std::any_of(piece.begin(), piece.end(),
                                   [](char c) { return std::ispunct(static_cast<unsigned char>(c)) != 0; });
    EXPECT_LE(int{digit} + int{letter} + int{punct}, 1) << piece;
  }
}

TEST(Train, ShortRunLowersLossChangesEveryTensorAndLlamaReproducesTheGraph) {
  TrainOptions o;
  o.out = std::filesystem::temp_directory_path() / "sfcl-demo-test.gguf";
  o.work_dir = std::filesystem::temp_directory_path() / "sfcl-demo-test-work";
  o.max_steps = 25;
  o.layers = 1;
  o.embd = 64;
  o.heads = 2;
  o.ff = 128;
  o.ctx = 128;
  o.batch = 4;
  o.targets_per_row = 32;
  o.warmup = 5;
  o.checkpoint_minutes = 0;
  o.eval_items = 0;
  o.progress = false;
  o.threads = 1;
  const TrainReport r = train_demo(o);
  EXPECT_EQ(r.steps, 25);
  EXPECT_LT(r.last_loss, r.first_loss - 1.0) << r.first_loss << " -> " << r.last_loss;
  EXPECT_TRUE(r.unchanged_tensors.empty());
  for (const char* must : {"token_embd.weight", "blk.0.attn_k.weight", "blk.0.attn_v.weight"}) {
    EXPECT_NE(std::find(r.changed_tensors.begin(), r.changed_tensors.end(), must), r.changed_tensors.end()) << must;
  }
  // Same weights, same input: sfcl's graph and llama.cpp's decode give the same next-token logits.
  auto model = engine::Model::load({o.out});
  const auto toks =
      model->tokenize(chat_prompt("Invoice INV-2024-0042 total $12,500.00.", "What is the total amount?"), true, true);
  const std::vector<float> g = graph_last_logits(o.out, toks);
  engine::ContextOptions co;
  co.n_ctx = 256;
  co.n_batch = 256;
  co.n_threads = 1;
  co.kv_f32 = true;
  co.flash_attn = false;  // the graph's attention is the plain softmax one
  engine::Context ctx(*model, co);
  ctx.decode(toks, 0);
  const float* l = ctx.logits_last();
  float max_diff = 0.0F;
  for (int i = 0; i < model->n_vocab(); ++i) max_diff = std::max(max_diff, std::fabs(g[static_cast<size_t>(i)] - l[i]));
  float max_abs = 0.0F;
  for (int i = 0; i < model->n_vocab(); ++i) max_abs = std::max(max_abs, std::fabs(l[i]));
  EXPECT_LE(max_diff, 1e-3F) << "max abs logit " << max_abs;
  // Training runs many rows per batch with one broadcast causal mask: a row's logits must not
  // depend on its neighbours.
  auto other = toks;
  std::reverse(other.begin() + 1, other.end());
  const auto batch = graph_last_logits_batch(o.out, {other, toks, other});
  float batch_diff = 0.0F;
  for (size_t i = 0; i < g.size(); ++i) batch_diff = std::max(batch_diff, std::fabs(g[i] - batch[1][i]));
  EXPECT_LE(batch_diff, 1e-4F);
  // Training packs several documents per row: a segment's logits must not depend on the segment
  // packed before it (positions restart, the mask blocks attention across).
  const auto packed = graph_last_logits_packed(o.out, {{other, toks}, {toks, other}});
  float packed_diff = 0.0F;
  for (size_t i = 0; i < g.size(); ++i) {
    packed_diff = std::max({packed_diff, std::fabs(g[i] - packed[0][1][i]), std::fabs(g[i] - packed[1][0][i])});
  }
  EXPECT_LE(packed_diff, 1e-4F);
  std::filesystem::remove(o.out);
  std::filesystem::remove_all(o.work_dir);
}

// The backward pass the optimizer follows is the true gradient of the training loss: ggml's
// autodiff through the packed, masked graph agrees with finite differences on every tensor.
TEST(Train, GraphGradientsMatchFiniteDifferences) {
  engine::LlamaHParams hp;
  hp.n_vocab = 40;
  hp.n_embd = 32;
  hp.n_layer = 2;
  hp.n_head = 4;
  hp.n_head_kv = 4;
  hp.n_ff = 64;
  hp.n_ctx = 512;
  const auto errors = gradient_check(hp, 11, 6);
  ASSERT_EQ(errors.size(), engine::llama_tensor_layout(hp).size());
  for (const auto& e : errors) {
    EXPECT_GT(e.max_abs_grad, 0.0) << e.tensor;
    EXPECT_LE(e.max_rel_error, 0.02) << e.tensor << " grad " << e.max_abs_grad;
  }
}

}  // namespace
}  // namespace sfcl::demo

namespace sfcl::demo {
namespace {

const EvalItem& item(const std::vector<EvalItem>& items, const std::string& id) {
  for (const auto& it : items) {
    if (it.id == id) return it;
  }
  throw std::runtime_error("no eval item " + id);
}

std::string answer(const engine::Model& m, const EvalItem& it, decode::Mode mode) {
  engine::Context ctx(m, {1024, 512, 1, 1});
  anchor::SourceIndex index;
  index.add_source(it.document);
  index.add_source(it.question);
  decode::Options o;
  o.mode = mode;
  o.max_tokens = 96;
  o.sampling.temperature = 0.0F;
  const auto prompt =
      m.tokenize(m.apply_chat_template({{"system", it.document}, {"user", it.question}}, true), true, true);
  return decode::generate(ctx, prompt, o, index).text;
}

TEST(CommittedModel, LoadsAndAnswersKnownEvalItems) {
  const std::filesystem::path root = SFCL_SOURCE_DIR;
  const auto items = load_eval_set(root / "demo/eval.jsonl");
  EXPECT_GE(items.size(), 500U);
  auto m = engine::Model::load({root / "demo/sfcl-demo.gguf"});
  // Right on its own...
  const EvalItem& a = item(items, "eval-000003");
  EXPECT_EQ(answer(*m, a, decode::Mode::off), a.answer);
  // ...and wrong without SFCL, right with it (one backtrack; the model's own retry is right).
  const EvalItem& b = item(items, "eval-000041");
  EXPECT_NE(answer(*m, b, decode::Mode::off), b.answer);
  EXPECT_EQ(answer(*m, b, decode::Mode::anchor), b.answer);
  // A constrained name the model then tried to extend: after the extension is banned, no digit
  // pair may be glued onto it (it once became "Dr. Grace MRN-45 days." through "Hughes00").
  const std::string c = answer(*m, item(items, "eval-000031"), decode::Mode::anchor);
  EXPECT_NE(c.find("Dr. Grace Hughes"), std::string::npos) << c;
  EXPECT_EQ(c.find("MRN"), std::string::npos) << c;
}

}  // namespace
}  // namespace sfcl::demo
