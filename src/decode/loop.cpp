// The check loop of one sequence. Hot path per token: sample, append the piece, feed the
// incremental lexer, emit what is stable; the checker runs only when an anchor completes.
#include <algorithm>
#include <array>
#include <unordered_map>

#include "decode/decode.h"
#include "util/utf8.h"

namespace sfcl::decode {

using anchor::Anchor;
using verify::Verdict;
using Clock = std::chrono::steady_clock;

namespace {
std::string normalize_newlines(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '\r') {
      out.push_back('\n');
      i += (i + 1 < s.size() && s[i + 1] == '\n') ? 2 : 1;
    } else if (s.substr(i, 2) == "\xC2\x85") {
      out.push_back('\n');
      i += 2;
    } else if (s.substr(i, 3) == "\xE2\x80\xA8" || s.substr(i, 3) == "\xE2\x80\xA9") {
      out.push_back('\n');
      i += 3;
    } else {
      out.push_back(s[i++]);
    }
  }
  return out;
}

// A sentence ends at a newline, a CJK terminator, or ". " ("12,500.00" is not an end).
bool sentence_end(std::string_view text) {
  if (text.empty()) return false;
  const char c = text.back();
  if (c == '\n') return true;
  if (text.size() >= 2 && (c == ' ' || c == '\t')) {
    const char p = text[text.size() - 2];
    if (p == '.' || p == '!' || p == '?') return true;
  }
  for (std::string_view t : {"。", "！", "？", "；"}) {
    if (text.size() >= t.size() && text.substr(text.size() - t.size()) == t) return true;
  }
  return false;
}

}  // namespace

struct Sequence::State {
  State(const engine::Model& m, const Options& o, const anchor::SourceIndex& src, EventSink s)
      : model(m),
        opt(o),
        sources(src),
        sink(std::move(s)),
        checker(src, o.checker),
        sampler(m, o.sampling),
        lexer(src.options()) {
    for (auto& st : opt.stop) st = normalize_newlines(st);
    active = opt.mode != Mode::off && !sources.empty();
    base_temperature = opt.sampling.temperature;
    budget = static_cast<int64_t>(opt.max_tokens) * (1 + std::max(0, opt.max_backtracks)) + 16;
    text.reserve(4096);
    lexer.reserve(4096);
    new_anchors.reserve(16);
    if (active) {
      // Logits of the last few output positions, so a rewind samples again without re-decoding
      // the token before it (one llama_decode saved per backtrack). ~1M floats at most: 32
      // positions of a small vocabulary, 8 of a 128k one.
      const auto n_vocab = static_cast<size_t>(m.n_vocab());
      cache_slots = std::clamp<size_t>((size_t{1} << 20) / std::max<size_t>(n_vocab, 1), 4, 32);
      cache.assign(cache_slots * n_vocab, 0.0F);
      cache_tag.assign(cache_slots, -1);
    }
  }

  const engine::Model& model;
  Options opt;
  const anchor::SourceIndex& sources;
  EventSink sink;
  verify::Checker checker;
  engine::Sampler sampler;
  anchor::Incremental lexer;
  utf8::StreamAssembler assembler;

  std::vector<Token> prompt;
  std::vector<Token> out;           // accepted output tokens
  std::vector<uint32_t> tok_start;  // byte offset of each output token in `text`
  std::string text;                 // detokenised output (valid UTF-8)
  size_t emitted = 0;
  int32_t seq = 0;
  std::vector<Token> input;
  int32_t input_pos = 0;
  bool finished = false;
  bool active = false;
  Result res;

  // Backtracking
  int64_t budget = 0;
  int32_t ban_index = -1;
  std::vector<Token> bans;
  std::unordered_map<int32_t, int32_t> attempts;  // by output token index of the anchor start
  std::unordered_map<int32_t, bool> fell_back;
  bool no_more_backtracks = false;

  // Constrained decoding (fallback constrain)
  bool constraining = false;
  int32_t constrain_index = -1;
  size_t constrain_depth = 0;
  std::vector<std::vector<Token>> cands;
  std::vector<uint8_t> alive;
  std::vector<Token> allowed;
  int32_t constrained_anchor_index = -1;
  size_t constrained_end = 0;          // byte where the last constrained value ended
  int32_t extension_bans = 0;          // continuations banned for extending that value
  int32_t emitted_extension_bans = 0;  // continuations banned for extending an emitted anchor
  std::vector<Token> glue_ban;         // scratch: word-start tokens banned right after a constrained value

  // A retry whose first token is checked before it is sampled (see retry_is_futile)
  bool retry_check = false;
  int32_t retry_index = -1;
  int32_t retry_first = -1;
  Anchor retry_anchor;
  std::string retry_text;
  mutable std::vector<Token> allowed_scratch;
  mutable std::vector<uint8_t> ban_mask;

  // Abstain: forced tokens
  std::vector<Token> forced;
  size_t forced_pos = 0;
  int32_t abstain_index = -1;

  // Per-token mode
  size_t sentence_start = 0;
  std::vector<Anchor> scratch;

  std::vector<Anchor> new_anchors;
  float base_temperature = 0.0F;
  std::array<float, 8> recent{};
  size_t n_recent = 0;
  std::string piece;
  std::vector<float> hooked;

  // Logit cache (see the constructor): slot i % cache_slots holds the logits output token i was
  // sampled from, when cache_tag says so.
  size_t cache_slots = 0;
  std::vector<float> cache;
  std::vector<int32_t> cache_tag;
  int32_t replay_index = -1;  // set by a rewind that hit the cache: sample here from it

  void cache_logits(const float* logits) {
    if (cache_slots == 0) return;
    const auto i = static_cast<int32_t>(out.size());
    const size_t slot = static_cast<size_t>(i) % cache_slots;
    const auto n_vocab = static_cast<size_t>(model.n_vocab());
    float* dst = cache.data() + slot * n_vocab;
    if (dst != logits) std::copy(logits, logits + n_vocab, dst);  // a replay reads its own slot
    cache_tag[slot] = i;
  }
  const float* cached_logits(int32_t i) const {
    if (cache_slots == 0 || i < 0) return nullptr;
    const size_t slot = static_cast<size_t>(i) % cache_slots;
    if (cache_tag[slot] != i) return nullptr;
    return cache.data() + slot * static_cast<size_t>(model.n_vocab());
  }

  // ---------------------------------------------------------------- helpers
  int32_t token_at(size_t byte) const {
    // Output token whose bytes contain `byte` (first of equal starts).
    auto it = std::upper_bound(tok_start.begin(), tok_start.end(), static_cast<uint32_t>(byte));
    int32_t k = static_cast<int32_t>(it - tok_start.begin()) - 1;
    if (k < 0) return 0;
    while (k > 0 && tok_start[static_cast<size_t>(k - 1)] == tok_start[static_cast<size_t>(k)]) --k;
    return k;
  }

  void emit(size_t limit) {
    limit = std::min(limit, text.size());
    // Never cut a character: a token boundary can fall inside a multi-byte character.
    while (limit > emitted && limit < text.size() && (static_cast<unsigned char>(text[limit]) & 0xC0) == 0x80) --limit;
    if (limit <= emitted) return;
    const std::string_view chunk = std::string_view(text).substr(emitted, limit - emitted);
    res.text.append(chunk);
    emitted = limit;
    if (sink) {
      Event e;
      e.kind = Event::Kind::token;
      e.text = chunk;
      sink(e);
    }
  }

  // Emission limit: before any unchecked anchor (aligned to its token) and any partial stop.
  size_t stable_limit() const {
    size_t limit = text.size();
    if (opt.mode == Mode::anchor && active) {
      const size_t stable = lexer.stable_end();
      if (stable < text.size()) limit = tok_start.empty() ? 0 : tok_start[static_cast<size_t>(token_at(stable))];
    } else if (opt.mode == Mode::per_token && active) {
      limit = sentence_start;
    }
    return limit;
  }

  void append_token(Token tok) {
    tok_start.push_back(static_cast<uint32_t>(text.size() + assembler.pending_bytes()));
    out.push_back(tok);
    piece.clear();
    model.append_piece(tok, piece);
    const size_t before = text.size();
    assembler.feed(piece, text);
    if (text.size() > before && opt.mode == Mode::anchor && active) {
      const auto t0 = Clock::now();
      lexer.feed(std::string_view(text).substr(before), new_anchors);
      res.stats.scan_ns_total += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
    }
  }

  void set_input_after_rewind(engine::Context& ctx, int32_t index) {
    // Keep tokens [0, index); re-decode the token before `index` to get fresh logits for it.
    // Start at the token that began the character `index` starts inside (byte-level tokens).
    while (index > 0 && static_cast<size_t>(index) < tok_start.size() &&
           tok_start[static_cast<size_t>(index)] < text.size() &&
           (static_cast<unsigned char>(text[tok_start[static_cast<size_t>(index)]]) & 0xC0) == 0x80) {
      --index;
    }
    const size_t removed = out.size() - static_cast<size_t>(index);
    res.stats.regenerated_tokens += static_cast<int64_t>(removed);
    const uint32_t cut = index < static_cast<int32_t>(tok_start.size()) ? tok_start[static_cast<size_t>(index)]
                                                                        : static_cast<uint32_t>(text.size());
    out.resize(static_cast<size_t>(index));
    tok_start.resize(static_cast<size_t>(index));
    text.resize(std::min<size_t>(cut, text.size()));
    assembler.reset();
    if (opt.mode == Mode::anchor && active) {
      // Anchors re-reported from `resume` on are checked again; ones already emitted keep their
      // first record (emitted text is never retracted).
      const size_t resume = std::max(lexer.truncate(text.size()), emitted);
      std::erase_if(res.anchors, [&](const AnchorRecord& r) { return r.anchor.start >= resume; });
    }
    if (opt.mode == Mode::per_token) sentence_start = std::min(sentence_start, text.size());
    const int32_t n_prompt = static_cast<int32_t>(prompt.size());
    // Logits cached for positions from `index` on belong to the removed continuation.
    for (auto& tag : cache_tag) {
      if (tag > index) tag = -1;
    }
    if (cached_logits(index) != nullptr) {
      // The token before `index` keeps its KV entry; on_logits samples again from its logits.
      ctx.rewind(seq, n_prompt + index);
      input.clear();
      input_pos = n_prompt + index;
      replay_index = index;
      ++res.stats.cached_rewinds;
      return;
    }
    const int32_t pos = n_prompt + index - 1;
    const Token prev = index > 0 ? out[static_cast<size_t>(index - 1)] : prompt.back();
    ctx.rewind(seq, pos);
    input.assign(1, prev);
    input_pos = pos;
  }

  void record(const Anchor& a, const verify::CheckResult& r, int32_t first_token, bool flagged) {
    AnchorRecord rec;
    rec.anchor = a;
    rec.id = anchor::anchor_id(a.type, res.anchors.size() + 1);
    rec.text = text.substr(a.start, a.end - a.start);
    rec.verdict = r.verdict;
    rec.confidence = r.confidence;
    rec.checked = r.checked;
    rec.flagged = flagged;
    rec.other_field = r.other_field;
    rec.constrained = first_token == constrained_anchor_index;
    const auto it = attempts.find(first_token);
    rec.attempts = it == attempts.end() ? 0 : it->second;
    if (r.support >= 0) {
      const auto& s = sources.anchors()[static_cast<size_t>(r.support)];
      rec.support_source = s.source;
      rec.support_start = s.anchor.start;
      rec.support_end = s.anchor.end;
    }
    if (r.verdict == Verdict::confirmed && rec.attempts > 0) res.stats.backtracks_resolved += rec.attempts;
    res.anchors.push_back(std::move(rec));
    if (sink && r.checked) {
      Event e;
      e.kind = r.verdict == Verdict::confirmed ? Event::Kind::anchor_confirmed : Event::Kind::anchor_checked;
      e.anchor = &res.anchors.back();
      sink(e);
    }
  }

  verify::CheckResult timed_check(const Anchor& a) {
    const auto t0 = Clock::now();
    verify::CheckResult r = checker.check(a, anchor::field_label(text, a.start));
    const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
    res.stats.checks += 1;
    res.stats.check_ns_total += ns;
    res.stats.check_ns_max = std::max(res.stats.check_ns_max, ns);
    if (opt.on_check) opt.on_check(a, r, ns);
    return r;
  }

  void note_confidence(const verify::CheckResult& r) {
    if (!r.checked) return;
    res.stats.confidence_sum += r.confidence;
    if (!opt.dynamic_temperature) return;
    recent[n_recent % recent.size()] = r.confidence;
    ++n_recent;
    const size_t n = std::min(n_recent, recent.size());
    float mean = 0.0F;
    for (size_t i = 0; i < n; ++i) mean += recent[i];
    mean /= static_cast<float>(n);
    // SPEC §6: > 0.85 -> 0.3; 0.7-0.85 -> 0.55; <= 0.7 -> 0.8
    sampler.set_temperature(mean > 0.85F ? 0.3F : (mean > 0.7F ? 0.55F : 0.8F));
  }

  // The label `a` is written under when the sources state values of its type under the same label:
  // the checker then binds it to those values, and so do the divergence and the candidates.
  std::string_view bound_field(const Anchor& a) const {
    const std::string_view f = anchor::field_label(text, a.start);
    if (f.empty()) return {};
    auto bound = [&](anchor::Type t) {
      const auto ids = sources.of_type(t);
      return std::any_of(ids.begin(), ids.end(),
                         [&](uint32_t i) { return anchor::same_label(sources.anchors()[i].field, f); });
    };
    if (bound(a.type)) return f;
    if (a.type == anchor::Type::number) {
      for (auto t : {anchor::Type::amount, anchor::Type::percent, anchor::Type::duration}) {
        if (bound(t)) return f;
      }
    }
    return {};
  }
  bool in_field(uint32_t i, std::string_view field) const {
    return field.empty() || anchor::same_label(sources.anchors()[i].field, field);
  }

  // The token where the anchor departs from every source value of its type: the anchor's first
  // token when no source value shares its beginning. Banning the anchor's first token instead
  // would make the right value unreachable whenever it shares that token with the wrong one
  // ("$", "INV-2024-", "Section "), so every such retry would fail by construction.
  int32_t divergence_token(const Anchor& a, int32_t first) const {
    const std::string_view written = std::string_view(text).substr(a.start, a.end - a.start);
    const std::string_view field = bound_field(a);
    size_t common = 0;
    for (uint32_t i : sources.of_type(a.type)) {
      if (!in_field(i, field)) continue;
      const std::string_view v = sources.anchors()[i].text;
      size_t n = 0;
      while (n < v.size() && n < written.size() && v[n] == written[n]) ++n;
      common = std::max(common, n);
    }
    if (common == 0) return first;
    const size_t byte = a.start + common;
    if (byte >= text.size()) return first;
    int32_t k = token_at(byte);
    // Never split a character: byte tokens of one CJK character are rewound together.
    while (k > first && (static_cast<unsigned char>(text[tok_start[static_cast<size_t>(k)]]) & 0xC0) == 0x80) --k;
    return k > first && static_cast<size_t>(k) < out.size() ? k : first;
  }

  // The constrained value is grounded by construction; when what follows it makes the lexer read
  // a longer anchor that is not an exact source value ("Henry Hughes" + " Inc.", which n-gram
  // similarity may even accept), that continuation is banned and resampled (at most 4 times).
  bool ban_constrained_extension(const Anchor& a, int32_t first, engine::Context& ctx) {
    if (first != constrained_anchor_index || constrained_end <= a.start || a.end <= constrained_end) return false;
    if (extension_bans >= 4 || res.stats.decoded_tokens >= budget) return false;
    // Only an exact source value may extend it ("Acme Labs" -> "Acme Labs LLC"); the checker may
    // confirm a longer name ("Henry Hughes Inc." by "Henry Hughes", suffixes aside) that the
    // source never wrote.
    const std::string_view written = std::string_view(text).substr(a.start, a.end - a.start);
    for (uint32_t i : sources.of_type(a.type)) {
      if (sources.anchors()[i].text == written) return false;
    }
    // The word that extends it is banned twice; a model that keeps reaching for another suffix
    // ("Ltd.", "Corp.", ...) then loses the separator before it, and gluing a letter or digit on
    // in its place ("Hughesby").
    const bool separator = extension_bans >= 2;
    size_t b = constrained_end;
    if (!separator) {
      while (b < a.end && text[b] == ' ') ++b;
    }
    const int32_t k = token_at(b);
    if (k <= first || static_cast<size_t>(k) >= out.size()) return false;
    ++extension_bans;
    if (ban_index != k) bans.clear();
    ban_index = k;
    bans.push_back(out[static_cast<size_t>(k)]);
    // A token that starts right after the value (" Emma" in a subword vocabulary) is replaced by
    // one that must not glue a letter or digit onto it ("Hughes" + "00") either.
    const bool right_after = tok_start[static_cast<size_t>(k)] == constrained_end;
    if (separator || right_after) {
      const auto& glue = model.word_start_tokens();
      bans.insert(bans.end(), glue.begin(), glue.end());
    }
    // A name goes on with any capitalised word ("Dr. Grace Hughes" + " David Brown"): with
    // subword tokens that word starts right after the value, and all of them are banned at once.
    if (right_after && a.type == anchor::Type::name) {
      const auto& caps = model.spaced_capital_tokens();
      bans.insert(bans.end(), caps.begin(), caps.end());
    }
    set_input_after_rewind(ctx, k);
    return true;
  }

  // An emitted anchor that the text after a rewind extends into one the sources do not support:
  // emitted text stays, so the first token after it is banned and decoded again.
  bool reject_emitted_extension(const Anchor& a, engine::Context& ctx) {
    if (emitted_extension_bans >= 4 || res.stats.decoded_tokens >= budget) return false;
    if (timed_check(a).verdict != Verdict::unsupported) return false;
    const auto it = std::lower_bound(tok_start.begin(), tok_start.end(), static_cast<uint32_t>(emitted));
    const auto k = static_cast<int32_t>(it - tok_start.begin());
    if (static_cast<size_t>(k) >= out.size()) return false;
    ++emitted_extension_bans;
    if (ban_index != k) bans.clear();
    ban_index = k;
    bans.push_back(out[static_cast<size_t>(k)]);
    set_input_after_rewind(ctx, k);
    return true;
  }

  // The bytes of the anchor's first token that precede the anchor (a token may start before it).
  std::string first_token_prefix(const Anchor& a, int32_t first) const {
    const uint32_t from = tok_start[static_cast<size_t>(first)];
    return text.substr(from, a.start - from);
  }

  // Candidate values for `a` the sources support (same type; numbers fall back to amounts,
  // percentages, durations), as token sequences that start at the anchor's first token.
  bool build_candidates(const Anchor& a, int32_t first) {
    const std::string prefix = first_token_prefix(a, first);
    const std::string_view field = bound_field(a);
    cands.clear();
    std::vector<std::string> seen;
    auto add_type = [&](anchor::Type t) {
      for (uint32_t i : sources.of_type(t)) {
        const auto& s = sources.anchors()[i];
        if (!in_field(i, field)) continue;
        if (s.text.empty() || std::find(seen.begin(), seen.end(), s.anchor.norm) != seen.end()) continue;
        seen.push_back(s.anchor.norm);
        if (a.type == anchor::Type::logic && s.anchor.norm != "must" && s.anchor.norm != "must_not") continue;
        cands.push_back(model.tokenize(prefix + s.text, false, false));
      }
    };
    add_type(a.type);
    if (cands.empty() && a.type == anchor::Type::number) {
      for (auto t : {anchor::Type::amount, anchor::Type::percent, anchor::Type::duration}) add_type(t);
    }
    return !cands.empty();
  }

  // Marks alive the candidates that begin with the output tokens [first, upto) (all of them when
  // upto <= first); false when none.
  bool keep_prefix(int32_t first, int32_t upto) {
    if (upto <= first) {
      alive.assign(cands.size(), 1);
      return true;
    }
    const auto kept =
        std::span<const Token>(out).subspan(static_cast<size_t>(first), static_cast<size_t>(upto - first));
    alive.assign(cands.size(), 0);
    bool any = false;
    for (size_t c = 0; c < cands.size(); ++c) {
      alive[c] = cands[c].size() > kept.size() && std::equal(kept.begin(), kept.end(), cands[c].begin()) ? 1 : 0;
      any = any || alive[c] != 0;
    }
    return any;
  }

  void start_constraining(int32_t first, int32_t from) {
    constraining = true;
    constrain_index = first;
    constrain_depth = static_cast<size_t>(from - first);
    constrained_anchor_index = first;
    constrained_end = 0;
    extension_bans = 0;
  }

  // A retry is worth its tokens only if the model can write a source value at the divergence. At
  // that token (after the ban) the retry is skipped for the constrain fallback when no source
  // value's next token is the greedy choice (temperature 0: the retry would fail for certain) or,
  // when sampling, when those tokens hold < 5% of the probability.
  bool retry_is_futile(const float* logits) const {
    allowed_scratch.clear();
    for (size_t c = 0; c < cands.size(); ++c) {
      if (alive[c] && cands[c].size() > constrain_depth) allowed_scratch.push_back(cands[c][constrain_depth]);
    }
    if (allowed_scratch.empty()) return false;
    const int32_t n_vocab = model.n_vocab();
    // A mask, not a search: after a separator ban `bans` holds every word-start token.
    ban_mask.assign(static_cast<size_t>(n_vocab), 0);
    for (Token t : bans) {
      if (t >= 0 && t < n_vocab) ban_mask[static_cast<size_t>(t)] = 1;
    }
    auto banned = [&](int32_t t) { return ban_mask[static_cast<size_t>(t)] != 0; };
    const float temp = sampler.temperature();
    int32_t best = -1;
    for (int32_t t = 0; t < n_vocab; ++t) {
      if (!banned(t) && (best < 0 || logits[t] > logits[best])) best = t;
    }
    if (best < 0) return false;
    auto is_allowed = [&](int32_t t) {
      return std::find(allowed_scratch.begin(), allowed_scratch.end(), t) != allowed_scratch.end();
    };
    if (temp <= 0.0F) return !is_allowed(best);
    double all = 0.0;
    double good = 0.0;
    for (int32_t t = 0; t < n_vocab; ++t) {
      if (banned(t)) continue;
      const double p = std::exp(static_cast<double>(logits[t] - logits[best]) / temp);
      all += p;
      if (is_allowed(t)) good += p;
    }
    return good < 0.05 * all;
  }

  void prepare_retry_check(const Anchor& a, int32_t first, int32_t rewind_to) {
    retry_check = false;
    if (opt.mode != Mode::anchor || opt.fallback != Fallback::constrain || rewind_to < first) return;
    if (!build_candidates(a, first) || !keep_prefix(first, rewind_to)) return;
    constrain_depth = static_cast<size_t>(rewind_to - first);
    retry_check = true;
    retry_index = rewind_to;
    retry_first = first;
    retry_anchor = a;
    retry_text = text.substr(a.start, a.end - a.start);
  }

  // Backtrack or fall back for an unsupported anchor; true when the sequence was rewound.
  bool handle_unsupported(const Anchor& a, const verify::CheckResult& r, int32_t first, int32_t rewind_to,
                          engine::Context& ctx) {
    int32_t& n = attempts[first];
    const bool budget_left = res.stats.decoded_tokens < budget && !no_more_backtracks;
    if (n < opt.max_backtracks && budget_left && !fell_back[first]) {
      ++n;
      ++res.stats.backtracks;
      if (sink) {
        Event e;
        e.kind = Event::Kind::backtrack;
        AnchorRecord tmp;
        tmp.anchor = a;
        tmp.id = anchor::anchor_id(a.type, res.anchors.size() + 1);
        tmp.text = text.substr(a.start, a.end - a.start);
        tmp.confidence = r.confidence;
        e.anchor = &tmp;
        e.text = tmp.text;
        e.reason = r.other_field ? "other_field" : "unsupported";
        e.attempt = n;
        sink(e);
      }
      // Anchor mode rewinds to the divergence token and bans it there; per-token mode rewinds to
      // the sentence start and bans the anchor's first token.
      const int32_t ban_at = std::max(first, rewind_to);
      if (ban_index != ban_at) bans.clear();
      ban_index = ban_at;
      bans.push_back(out[static_cast<size_t>(ban_at)]);
      prepare_retry_check(a, first, rewind_to);
      set_input_after_rewind(ctx, rewind_to);
      return true;
    }
    if (fell_back[first] || !budget_left || opt.fallback == Fallback::flag) {
      if (!fell_back[first]) fallback_event(a, Fallback::flag);
      fell_back[first] = true;
      record(a, r, first, true);
      return false;
    }
    fell_back[first] = true;
    fallback_event(a, opt.fallback);
    if (opt.fallback == Fallback::abstain) {
      const std::string prefix = first_token_prefix(a, first);  // before the rewind cuts the text
      AnchorRecord rec;
      rec.anchor = a;
      rec.id = anchor::anchor_id(a.type, res.anchors.size() + 1);
      rec.text = text.substr(a.start, a.end - a.start);
      rec.verdict = Verdict::unsupported;
      rec.confidence = r.confidence;
      rec.checked = true;
      rec.flagged = true;
      rec.attempts = n;
      set_input_after_rewind(ctx, first);
      res.anchors.push_back(std::move(rec));
      forced = model.tokenize(prefix + opt.abstain_marker, false, false);
      forced_pos = 0;
      abstain_index = first;
      return true;
    }
    if (!build_candidates(a, first)) {
      record(a, r, first, true);
      return false;
    }
    // Keep the tokens before the divergence when some candidate starts with them: only the rest of
    // the value is resampled (the whole value otherwise).
    int32_t from = std::max(first, rewind_to);
    if (!keep_prefix(first, from)) {
      from = first;
      keep_prefix(first, from);
    }
    start_constraining(first, from);
    set_input_after_rewind(ctx, from);
    return true;
  }

  void fallback_event(const Anchor& a, Fallback policy, std::string_view failed = {}) {
    ++res.stats.fallbacks;
    if (!sink) return;
    AnchorRecord tmp;
    tmp.anchor = a;
    tmp.id = anchor::anchor_id(a.type, res.anchors.size() + 1);
    tmp.text = failed.empty() ? text.substr(a.start, a.end - a.start) : std::string(failed);
    Event e;
    e.kind = Event::Kind::fallback;
    e.anchor = &tmp;
    e.policy = policy;
    sink(e);
  }

  // Anchor mode: check anchors the lexer just completed. True when rewound.
  bool process_anchor_mode(engine::Context& ctx) {
    for (size_t k = 0; k < new_anchors.size(); ++k) {
      const Anchor& a = new_anchors[k];
      if (a.start < emitted) {
        // Re-scanned after a rewind: recorded and emitted already, unless the new text made it
        // longer than what was emitted ("Grace Hughes" + " Smith").
        if (a.end > emitted && reject_emitted_extension(a, ctx)) {
          new_anchors.clear();
          return true;
        }
        continue;
      }
      ++res.stats.anchors_seen;
      const int32_t first = token_at(a.start);
      if (first == abstain_index) continue;  // the abstention marker region
      const verify::CheckResult r = timed_check(a);
      note_confidence(r);
      if (r.checked) ++res.stats.verdicts[static_cast<size_t>(r.verdict)];
      if (ban_constrained_extension(a, first, ctx)) {
        new_anchors.clear();
        return true;
      }
      if (r.verdict == Verdict::unsupported) {
        const int32_t at = divergence_token(a, first);
        if (handle_unsupported(a, r, first, at, ctx)) {
          new_anchors.clear();
          return true;
        }
        continue;
      }
      record(a, r, first, false);
    }
    new_anchors.clear();
    return false;
  }

  // Per-token (legacy) mode: re-scan and re-check the whole current sentence at every token.
  bool process_per_token(engine::Context& ctx, bool final) {
    scratch.clear();
    const std::string_view sentence = std::string_view(text).substr(sentence_start);
    const auto t0 = Clock::now();
    anchor::extract_into(sentence, scratch, sources.options());
    res.stats.scan_ns_total += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
    const bool ends = final || sentence_end(sentence);
    for (auto& a : scratch) {
      a.start += static_cast<uint32_t>(sentence_start);
      a.end += static_cast<uint32_t>(sentence_start);
      if (!ends && a.end >= text.size()) continue;  // still being written
      const verify::CheckResult r = timed_check(a);
      if (r.verdict == Verdict::unsupported) {
        const int32_t first = token_at(a.start);
        if (fell_back[first]) continue;
        ++res.stats.anchors_seen;
        if (r.checked) ++res.stats.verdicts[static_cast<size_t>(r.verdict)];
        const int32_t sentence_first = token_at(sentence_start);
        const int32_t back = attempts[first] < opt.max_backtracks ? std::min(sentence_first, first) : first;
        if (handle_unsupported(a, r, first, back, ctx)) return true;
      }
    }
    if (ends) {
      for (const auto& a : scratch) {
        const int32_t first = token_at(a.start);
        const verify::CheckResult r = checker.check(a, anchor::field_label(text, a.start));
        if (r.verdict == Verdict::unsupported && fell_back[first]) continue;  // recorded as flagged
        ++res.stats.anchors_seen;
        note_confidence(r);
        if (r.checked) ++res.stats.verdicts[static_cast<size_t>(r.verdict)];
        record(a, r, first, false);
      }
      sentence_start = text.size();
    }
    return false;
  }

  bool process(engine::Context& ctx, bool final) {
    if (!active) return false;
    if (opt.mode == Mode::anchor) {
      if (final) lexer.finish(new_anchors);
      return process_anchor_mode(ctx);
    }
    if (opt.mode == Mode::per_token) return process_per_token(ctx, final);
    return false;
  }

  void finish(StopReason reason) {
    emit(text.size());
    finished = true;
    input.clear();
    res.stop_reason = reason;
    res.output_tokens = static_cast<int32_t>(out.size());
    res.status = status_string(opt.mode, active, res.stats);
    res.active = active;
  }

  // End of generation: flush anchors only the end proves complete. False when rewound.
  bool finalize(engine::Context& ctx, StopReason reason) {
    if (process(ctx, true)) return false;
    finish(reason);
    return true;
  }

  Token next_token(const float* logits) {
    if (forced_pos < forced.size()) return forced[forced_pos++];
    if (retry_check) {
      retry_check = false;  // decided at the first token after the rewind, or never
      if (static_cast<int32_t>(out.size()) == retry_index && !constraining && retry_is_futile(logits)) {
        fell_back[retry_first] = true;
        fallback_event(retry_anchor, Fallback::constrain, retry_text);
        start_constraining(retry_first, retry_index);
      }
    }
    const bool ban_here = ban_index == static_cast<int32_t>(out.size());
    const std::span<const Token> banned = ban_here ? std::span<const Token>(bans) : std::span<const Token>();
    if (constraining) {
      allowed.clear();
      bool complete = false;
      for (size_t c = 0; c < cands.size(); ++c) {
        if (!alive[c]) continue;
        if (cands[c].size() == constrain_depth) {
          complete = true;
        } else {
          allowed.push_back(cands[c][constrain_depth]);
        }
      }
      // Once a candidate is complete the model may stop or continue a longer one, but not glue a
      // letter or digit onto the value it just wrote ("Foster" + "s Ltd.").
      std::span<const Token> ban;
      if (complete) {
        glue_ban.clear();
        for (Token w : model.word_start_tokens()) {
          if (std::find(allowed.begin(), allowed.end(), w) == allowed.end()) glue_ban.push_back(w);
        }
        ban = glue_ban;
      }
      const Token t =
          sampler.sample(logits, ban, complete ? std::span<const Token>() : std::span<const Token>(allowed));
      bool any = false;
      for (size_t c = 0; c < cands.size(); ++c) {
        alive[c] = alive[c] && cands[c].size() > constrain_depth && cands[c][constrain_depth] == t;
        any = any || alive[c];
      }
      ++constrain_depth;
      if (!any) {
        constraining = false;
        constrained_end = text.size() + assembler.pending_bytes();  // `t` starts right after the value
      }
      return t;
    }
    return sampler.sample(logits, banned, {});
  }
};

Sequence::Sequence(const engine::Model& model, const Options& options, const anchor::SourceIndex& sources,
                   EventSink sink)
    : s_(std::make_unique<State>(model, options, sources, std::move(sink))) {}
Sequence::~Sequence() = default;

void Sequence::start(std::vector<Token> prompt, int32_t seq, int32_t reused) {
  State& s = *s_;
  if (prompt.empty()) throw engine::EngineError("empty prompt");
  s.prompt = std::move(prompt);
  s.seq = seq;
  const auto n = static_cast<int32_t>(s.prompt.size());
  reused = std::clamp(reused, 0, n - 1);  // the last prompt token is always decoded for logits
  s.input.assign(s.prompt.begin() + reused, s.prompt.end());
  s.input_pos = reused;
  s.res.prompt_tokens = n;
  s.res.cached_tokens = reused;
  if (s.opt.max_tokens <= 0) s.finish(StopReason::max_tokens);
}

std::span<const Token> Sequence::pending() const { return s_->input; }
int32_t Sequence::pending_pos() const { return s_->input_pos; }
int32_t Sequence::seq() const { return s_->seq; }
bool Sequence::done() const { return s_->finished; }
const Result& Sequence::result() const { return s_->res; }
const std::vector<Token>& Sequence::prompt_tokens() const { return s_->prompt; }
const std::vector<Token>& Sequence::output_tokens() const { return s_->out; }

void Sequence::cancel() {
  if (!s_->finished) s_->finish(StopReason::end_turn);
}

void Sequence::on_logits(const float* logits, engine::Context& ctx) {
  State& s = *s_;
  step(logits, ctx);
  // A rewind that hit the logit cache samples again at once, from the logits it had then.
  while (!s.finished && s.replay_index >= 0) {
    const float* cached = s.cached_logits(s.replay_index);
    s.replay_index = -1;
    step(cached, ctx);
  }
}

void Sequence::step(const float* logits, engine::Context& ctx) {
  State& s = *s_;
  if (s.finished) return;
  s.cache_logits(logits);  // before the hook: a replay applies the hook again
  if (s.opt.logit_hook) {
    s.hooked.assign(logits, logits + ctx.n_vocab());
    s.opt.logit_hook(s.hooked, s.out);
    logits = s.hooked.data();
  }
  Token tok = s.next_token(logits);
  ++s.res.stats.decoded_tokens;
  if (tok < 0 || s.model.is_eog(tok)) {
    if (!s.finalize(ctx, StopReason::end_turn)) return;  // rewound: go on
    return;
  }
  s.append_token(tok);
  if (s.constraining == false && s.constrain_index >= 0) s.constrain_index = -1;
  if (s.forced_pos >= s.forced.size() && !s.forced.empty()) {
    s.forced.clear();
    s.forced_pos = 0;
  }
  if (s.process(ctx, false)) return;  // backtracked: pending input already set

  if (!s.opt.stop.empty()) {
    const StopMatch m = find_stop(s.text, s.emitted, s.opt.stop);
    if (m.start != std::string::npos) {
      s.text.resize(m.start);
      if (s.opt.mode == Mode::anchor && s.active) s.lexer.truncate(m.start);
      if (s.finalize(ctx, StopReason::stop_sequence)) {
        s.res.stop_sequence = s.opt.stop[m.which];
      }
      return;
    }
    s.emit(std::min(s.stable_limit(), m.partial));
  } else {
    s.emit(s.stable_limit());
  }
  if (static_cast<int32_t>(s.out.size()) >= s.opt.max_tokens || s.res.stats.decoded_tokens >= s.budget) {
    if (s.res.stats.decoded_tokens >= s.budget) s.no_more_backtracks = true;
    s.finalize(ctx, StopReason::max_tokens);
    return;
  }
  const int32_t n_prompt = static_cast<int32_t>(s.prompt.size());
  s.input.assign(1, tok);
  s.input_pos = n_prompt + static_cast<int32_t>(s.out.size()) - 1;
  const int32_t limit = s.opt.n_ctx_seq > 0 ? s.opt.n_ctx_seq : static_cast<int32_t>(ctx.n_ctx());
  if (s.input_pos + 1 >= limit) {
    s.no_more_backtracks = true;
    s.finalize(ctx, StopReason::max_tokens);  // context full
  }
}

Result generate(engine::Context& ctx, const std::vector<Token>& prompt, const Options& options,
                const anchor::SourceIndex& sources, const EventSink& sink) {
  if (prompt.size() >= ctx.n_ctx()) {
    throw engine::EngineError("prompt of " + std::to_string(prompt.size()) + " tokens does not fit the context of " +
                              std::to_string(ctx.n_ctx()) + " tokens");
  }
  Sequence seq(ctx.model(), options, sources, sink);
  ctx.clear(0);
  seq.start(prompt, 0, 0);
  while (!seq.done()) {
    ctx.decode(seq.pending(), seq.pending_pos(), 0);
    seq.on_logits(ctx.logits_last(), ctx);
  }
  return seq.result();
}

}  // namespace sfcl::decode
