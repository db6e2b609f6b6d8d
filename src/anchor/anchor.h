// sfcl::anchor — finds semantic anchors (numbers, amounts, dates, names, clause references,
// code signatures, JSON/XML structure, logic connectives; English and Chinese) in UTF-8 text and
// normalises each to one canonical string. Pure C++: no tokens, no llama.cpp.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sfcl::anchor {

enum class Kind : uint8_t { entity, structural, logic };

enum class Type : uint8_t {
  number,
  amount,
  percent,
  date,
  duration,
  identifier,
  clause,
  name,
  code_signature,
  json,
  xml,
  logic,
  citation,  // a reference to published work: DOI, arXiv id, "Chen et al. (2021)", "Nature 615, 452–458 (2023)"
  quantity,  // a number with its unit or measure word, or an ordinal: "6 units", "6台", "12th", "第12位", "3.1万吨"
  score,     // two whole numbers read as one value: "27-24", "3比1", "17胜6负"
  title,     // a title in 《》 that names no venue or year: 《中华人民共和国行政强制法》
  time,      // a time of day: "9:30 pm", "14:00", "8 PM" (norm "HH:MM", 24-hour)
};
inline constexpr int kTypeCount = 17;

Kind kind_of(Type type);
std::string_view type_name(Type type);
std::string_view kind_name(Kind kind);
// Stable event id of the n-th anchor (1-based): entity_001, struct_json_002, logic_003.
std::string anchor_id(Type type, size_t n);
// Parses a type name ("amount"); false when unknown.
bool parse_type(std::string_view name, Type& out);

struct Anchor {
  Type type = Type::number;
  uint32_t start = 0;  // byte offsets into the scanned text, [start, end)
  uint32_t end = 0;
  std::string norm;                                         // canonical form (see docs/ANCHORS.md)
  std::string alt_norm;                                     // second reading of an ambiguous date, else empty
  double value = std::numeric_limits<double>::quiet_NaN();  // numeric value where the type has one
  bool ambiguous = false;
};

// Types whose anchors carry a numeric value (number, amount, percent, duration, quantity): a plain number
// may be checked against any of them.
bool is_numeric(Type type);
// A logic anchor that states an obligation (norm "must" or "must_not").
bool is_obligation(const Anchor& a);

enum class DateOrder : uint8_t { month_first, day_first };

struct LexerOptions {
  DateOrder date_order = DateOrder::month_first;  // how 03/04/2024 is read
};

// No anchor is longer than this many bytes: a scan from a position reads at most this far, and
// text after that is the end of the text to it. So a value the model keeps writing (a digit run,
// an identifier chain, a URL) is decided and checked once this much of it is written instead of
// being held until it ends, and no scan's work grows with the text. What follows a value cut
// there, up to the next space, is an identifier of its own (cut again at this length), so no byte
// of it goes unchecked (docs/DESIGN.md, 'Hold-back and emission'). The longest anchors of the
// development sets and eval/ are 126 bytes (a Chinese title in 《》, a URL).
inline constexpr size_t kMaxAnchorBytes = 256;

// Batch extraction over a whole text. Invalid UTF-8 bytes are scanned as U+FFFD; offsets
// always refer to the input bytes.
std::vector<Anchor> extract(std::string_view text, const LexerOptions& options = {});
// Appends to `out` instead (no allocation once `out` has capacity, apart from long norms).
void extract_into(std::string_view text, std::vector<Anchor>& out, const LexerOptions& options = {});

// A position where the scan decided, and the furthest byte read by it or any earlier decision.
struct LexVisit {
  uint32_t pos;
  uint32_t reach;
};

// Incremental lexer: fed text chunk by chunk, it reports each anchor as soon as the text proves
// the anchor ended, and tells the earliest byte that may still belong to an unfinished anchor.
// For any split of a text into chunks, the anchors reported equal extract(text).
class Incremental {
 public:
  explicit Incremental(const LexerOptions& options = {});
  // Appends a chunk; completed anchors are appended to `out` (offsets into text()).
  void feed(std::string_view chunk, std::vector<Anchor>& out);
  // End of text: flushes anchors that only the end proves complete.
  void finish(std::vector<Anchor>& out);
  // Bytes before this offset can never become part of a new anchor.
  [[nodiscard]] size_t stable_end() const { return scan_pos_; }
  [[nodiscard]] const std::string& text() const { return text_; }
  // Drops text from `offset` on (backtrack). Returns the offset scanning resumes from (<= offset):
  // the caller forgets every anchor that starts there or later; they will be reported again.
  size_t truncate(size_t offset);
  void reset();
  void reserve(size_t bytes) {
    text_.reserve(bytes);
    visits_.reserve(bytes / 2);
  }

 private:
  void scan(bool final, std::vector<Anchor>& out);
  LexerOptions options_;
  std::string text_;
  std::vector<LexVisit> visits_;  // resume points for truncate
  size_t scan_pos_ = 0;
  std::vector<size_t> cut_ends_;  // ends of anchors cut at kMaxAnchorBytes (see lex::run)
};

// ---- normalisers (exposed for tests and the knowledge base) ----

// Canonical decimal: "1,000.50" -> "1000.5". Returns false when `text` is not a number.
bool normalize_number(std::string_view text, std::string& out);
// Value of a Chinese numeral ("三千五百" -> 3500, "伍万" -> 50000); false when not one.
bool parse_chinese_numeral(std::string_view text, uint64_t& out);
// Case-fold ASCII, fold full-width ASCII, collapse whitespace (names and terms).
std::string fold_name(std::string_view text);
// Where a middle initial (" r. " of "gary r. herbert") starts in a folded name, or npos.
size_t middle_initial_at(std::string_view folded);
// A word that two forms of one name may differ by: an honorific, a connector or a company form
// ("Dr.", "of", "Ltd."), the lexer's own lists. ASCII case and trailing dots are ignored.
bool is_name_filler(std::string_view word);
// Removes zero-width characters (U+200B, U+200C, U+200D, U+2060, U+FEFF).
std::string strip_zero_width(std::string_view text);
// The form in which an anchor is looked up verbatim in the sources: ASCII case, full-width ASCII,
// typographic quotes and dashes folded, white space runs collapsed to one space. `out` is
// cleared first; no allocation once it has capacity.
void fold_for_match(std::string_view text, std::string& out);
// Sorted character-trigram hashes of a name (code points, a space on each side): the checker's
// name similarity is their cosine. `out` is cleared first; no allocation once it has capacity.
void name_trigrams(std::string_view text, std::vector<uint32_t>& out);

// ---- decision points (docs/DESIGN.md, "Anchors" and "Serving") ----
struct DecisionCount {
  uint64_t total = 0;
  uint64_t anchors = 0;
  std::array<uint64_t, kTypeCount> by_type{};
};
// Anchors that signal a decision: amounts, dates and obligation connectives
// (shall/must/agree/consent/warrant, shall not/must not, 应当/必须/同意/保证/不得).
bool is_decision_point(const Anchor& a);
DecisionCount count_decision_points(std::string_view text, const LexerOptions& options = {});

// ---- sources and knowledge ----

// One knowledge-anchor entry (SKA), from JSONL {"term","value","type","aliases"}.
struct KnowledgeEntry {
  std::string term;
  std::string value;
  std::string type;
  std::vector<std::string> aliases;
};

// Loads a JSONL knowledge file; throws std::runtime_error with file:line on a bad line.
std::vector<KnowledgeEntry> load_knowledge(const std::filesystem::path& path);

// A tokenised or escaped source ("28 , 1972", "world 's", "( born", "``", a written-out "\\n") with each
// piece put back where prose has it, the same length byte for byte (offsets still cite the source);
// empty when nothing changes. SourceIndex::add_source reads sources through it.
std::string untokenise(std::string_view text);

// ---- fields ----

// The label of the "Label: value" field an anchor starting at byte `start` sits in: "Due date" in
// "Due date: June 15, 2024", "付款期限" in "付款期限：30日内", "total" in "\"total\": 12500",
// "Supplier" in "Fee: $5; Supplier: Acme Ltd.". Empty when the anchor is not in such a field:
// prose, more than 2 words or 16 bytes between separator and anchor, a "label" longer than 40
// bytes. Points into `text`.
// FieldScope::line, for sources: every anchor after the separator on the field's line belongs to
// the field ("Parties: Acme Ltd., Beta LLC and Gamma Inc." labels all three), so a list or a value
// with a clause before it is still found under its label and an answer naming any of them is not
// flagged.
enum class FieldScope : uint8_t { value, line };
std::string_view field_label(std::string_view text, size_t start, FieldScope scope = FieldScope::value);
// FieldScope::line labels of many anchors of one text in one pass: call with non-decreasing starts
// (the source index labels every anchor of a 1 MB source this way; a backward scan per anchor cost
// as much as the extraction itself).
class LineFieldScanner {
 public:
  explicit LineFieldScanner(std::string_view text);
  std::string_view label_at(size_t start);

 private:
  std::string_view text_;
  size_t pos_ = 0;                           // bytes [0, pos_) scanned
  size_t sep_end_ = std::string_view::npos;  // end of the last separator since the last boundary
  size_t sep_len_ = 0;
  size_t label_sep_end_ = std::string_view::npos;  // the separator label_ belongs to
  std::string_view label_;
};
// Labels compare ASCII-case-insensitively ("Total" = "total").
bool same_label(std::string_view a, std::string_view b);

// ---- clause words (docs/ANCHORS.md, "Clause words") ----

// The content words of a value's clause on one side of it, as hashes of their stems (Han text as
// pairs of characters), nearest first; function words, connectors and the value's own characters
// left out. The words before a value stop at its sentence's start and at the value before it,
// unless only connectors stand between ("expanded from 22 to 61": 61 shares "expanded"); the words
// after stop at the sentence's end and at the next value.
inline constexpr size_t kClauseWords = 8;
struct ClauseWords {
  std::array<uint32_t, kClauseWords> hashes{};
  uint8_t size = 0;
  bool joined = false;  // a value joined to this one was passed ("22 to" before 61)
  bool han = false;     // pairs of Han characters among them
  // How many of these words the other side also has.
  [[nodiscard]] size_t shared(const ClauseWords& other) const;
  // Whether the word `w` (by its stem) is among them.
  [[nodiscard]] bool has_word(std::string_view w) const;
  [[nodiscard]] bool has_hash(uint32_t h) const {
    return std::find(hashes.begin(), hashes.begin() + size, h) != hashes.begin() + size;
  }
  // Adds the other's words this lacks, while there is room.
  void add_all(const ClauseWords& other);
};
// `items`: past a semicolon after at most one word of an enumeration's item, to its list's words.
// `past_commas`: on to the sentence's start ("In Madrid, the maximum temperature reached").
ClauseWords clause_words_before(std::string_view before, bool items = false, bool past_commas = false);
// `after_digits`: the value ends in a digit, so a Han character of value (岁, 个) right after it is
// the value's ("15岁时打破").
ClauseWords clause_words_after(std::string_view after, bool after_digits = false);
// Whether the text between two values joins them into one range or list, so that the later shares
// the earlier's words: connectors, commas, function words, units of magnitude only ("from $5
// million in 2019 to $7 million", "$5m in 2019, $6m in 2020").
bool joins_values(std::string_view gap);
// The clause words of a source text's anchors, in order: a later value of a range or a list shares
// the first's words before it ("from 22 people to 61 people").
class SourceClauses {
 public:
  void next(std::string_view text, const Anchor& a, ClauseWords& before, ClauseWords& after);
  // The sentence of the last anchor given to next(), counted from 0 in its text.
  [[nodiscard]] uint32_t sentence() const { return sentence_; }

 private:
  uint32_t pos_ = 0;
  uint32_t sentence_ = 0;
  uint32_t end_ = 0;  // the last value a range or list may continue, and its words
  ClauseWords words_;
};

// ---- roles (docs/ANCHORS.md, "Roles") ----

// The word a value written at byte `start` is the value of, read right before it: "due" in "Total
// due: $5", "subtotal" in "the subtotal of $4", "arrested" in "was arrested on March 26", 合计 in
// "合计为500元". Function words between are skipped ("on", "the", "was", up to three); empty when the
// word before is none ("and", "said", a digit, a sentence end). Points into `text`.
std::string_view role_before(std::string_view text, size_t start);
// role_before, or for a value that opens its sentence the verb of its clause after it: "charged"
// in "On March 26 he was charged".
std::string_view role_of(std::string_view before, std::string_view after);
// The readings made for an answer's value only, where role_of reads none: the verb after 于 and the
// value (该公司于2003年成立 → 成立) or before a short object ("adopted the budget on June 4" → adopted).
std::string_view answer_role_of(std::string_view before, std::string_view after);
// Roles compare ASCII-case-insensitively and by stem ("arrested" = "arrest").
bool same_role(std::string_view a, std::string_view b);
// The words of a value's sentence before it that say what it is of, nearest first: English words
// that say something, pairs of Han characters with no particle between, never `role` itself ("Walter",
// "Harlan", "Voss" in "Walter spent 41 years at Harlan & Voss"; 其母 in 其母于2001年去世). How many.
inline constexpr size_t kSubjectWords = 6;
size_t subject_words(std::string_view before, std::string_view role,
                     std::array<std::string_view, kSubjectWords>& words);
// A role word's stem, as same_role compares it ("arrested": "arrest").
std::string_view role_stem(std::string_view w);
// The words a sentence may write for `role`, `role` itself first: the words that name the same event
// (same_role's groups: "founded", "established", 成立) and phrases or words never read as roles that
// say it ("came out" for "released"); the unused places are empty.
inline constexpr size_t kRoleWords = 10;
std::array<std::string_view, kRoleWords> role_words(std::string_view role);
// The days of the week a label names, Monday = bit 0 ... Sunday = bit 6: "Monday", "Mon-Fri",
// "Saturday to Sunday", "weekends", "daily"; 0 when the label is anything else.
uint8_t weekdays(std::string_view label);
// The days a time of day is stated for, from the text around it: "Monday to Thursday from 5:00 PM
// to 9:00 PM", "11 am to 11 pm on weekdays"; 0 when none is written next to it.
uint8_t weekdays_of_time(std::string_view before, std::string_view after);
// The days of the next time the same sentence states past this time's own days ("11:00 am to 8:00
// pm Monday to Sunday, with extended hours until 9:00 pm on Friday and Saturday": Friday and
// Saturday for 8:00 pm): exceptions to this time's days. 0 when none.
uint8_t weekdays_excepted(std::string_view before, std::string_view after);
// What a count counts, read right after it (count.cpp): "owners" in " owners were" after "80";
// after a Chinese measure word (`measure_word`) the Han characters up to the next punctuation, at
// most six (进球 after "15个"). Empty when what follows is no plain plural noun (a verb with its
// object: "spans 11 states") or no Han noun, and after a name's word ("Interstate 80 spans").
std::string_view counted_noun(std::string_view before, std::string_view after, bool measure_word);
// What a source value's clause (counted_text) says of an answer's counted noun: it counts the same
// ("80 new residents" for "residents", 两支球队 for 主要球队, 电子体温计中有36支 for 电子体温计), another
// noun ("80 residents" for "owners", 15个国家 for 进球), or nothing that can be read ("80." or "80
// new"). `after`: where the text after the value begins in `clause`.
enum class Counted : uint8_t { same, other, unknown };
Counted counts(std::string_view noun, std::string_view clause, size_t after);
// A source number's or quantity's clause: up to 90 bytes each side within its sentence, and where
// the text after it begins (an English unit included: " residents were" of "80 residents were");
// empty after a name's word ("Apollo 11 landed").
// What happened to what a count counts, read from the words around it (event.cpp): "Two people
// were killed and nine injured", "killed nine people", 造成3人死亡、12人受伤.
enum class Event : uint8_t { none, killed, injured, missing, arrested, detained, rescued, evacuated, opened, closed };
Event event_of(std::string_view before, std::string_view after);
struct CountedText {
  std::string_view clause;
  size_t after = 0;
};
CountedText counted_text(std::string_view text, const Anchor& a);
// A unit of measure's dimension and scale (units.cpp): value x factor + offset is the value in the
// dimension's base unit ("mg": mass, 0.001 g; "degF": temperature, 5/9 and -160/9 of a degree C;
// "week": time, 604,800 s). False for units that convert to no other (a count's noun, a measure
// word, "GB", "day" against "month").
struct UnitScale {
  std::string_view dimension;
  double factor = 1;
  double offset = 0;
};
bool unit_scale(std::string_view unit, UnitScale& out);
// The share of a source value its text states next to it: "half of the 40 staff", "a third of
// $900", "40名员工中有一半", "900元的三分之一" give 1/2 and 1/3 (a value of that share is derived from
// it). 0 when none is written.
float stated_share(std::string_view text, const Anchor& a);

// Anchors of all sources of one request (and the knowledge base), indexed by type and norm.
struct SourceAnchor {
  Anchor anchor;
  int32_t source = 0;           // index of the source text; -1 = knowledge base
  std::string text;             // the anchor as written in its source
  std::string field;            // label of the field it is stated under (field_label), or empty
  std::vector<uint32_t> grams;  // names: name_trigrams(anchor.norm), computed once when indexed
  // Part of a longer source value (the year of a date): support for an answer, never a value the
  // constrain fallback writes on its own.
  bool part = false;
  std::string role;  // role_before in its source ("subtotal", "arrested"), or empty
  ClauseWords words_before;  // its clause's words on each side (clause_words_before/_after)
  ClauseWords words_after;
  uint32_t sentence = 0;  // the sentence of its source text it is in, from 0
  // Numbers and quantities: their clause in the source (counted_text), kept in the index's pool
  // (SourceIndex::counted) so that the anchors the checker scans stay small.
  uint32_t counted_at = 0;
  uint16_t counted_len = 0;
  uint16_t counted_after = 0;  // where the text after the value begins in the clause
  uint8_t days = 0;  // times of day: the days they are stated for (weekdays of the field label or text)
  // Times and dates: the next value of the text is of its type and ends a range that starts here
  // ("9:00 to 21:00", "June 3 – June 7", "3月1日至3月5日").
  bool range_start = false;
  float share = 0;  // numeric values: the share of it the text states (stated_share), or 0
  Event event = Event::none;  // counts: what happened to what they count (event_of)
};

// A span of one source text (source -1 = knowledge base).
struct TextSpan {
  int32_t source = -1;
  uint32_t start = 0;
  uint32_t end = 0;
};

class SourceIndex {
 public:
  // The anchors of a base index (shared, never copied) followed by this index's own.
  class Anchors {
   public:
    Anchors(const std::vector<SourceAnchor>* base, const std::vector<SourceAnchor>* own) : base_(base), own_(own) {}
    [[nodiscard]] size_t size() const { return (base_ ? base_->size() : 0) + own_->size(); }
    [[nodiscard]] bool empty() const { return size() == 0; }
    const SourceAnchor& operator[](size_t i) const {
      const size_t nb = base_ ? base_->size() : 0;
      return i < nb ? (*base_)[i] : (*own_)[i - nb];
    }
    class iterator {
     public:
      iterator(const Anchors* a, size_t i) : a_(a), i_(i) {}
      const SourceAnchor& operator*() const { return (*a_)[i_]; }
      iterator& operator++() {
        ++i_;
        return *this;
      }
      bool operator!=(const iterator& o) const { return i_ != o.i_; }

     private:
      const Anchors* a_;
      size_t i_;
    };
    [[nodiscard]] iterator begin() const { return {this, 0}; }
    [[nodiscard]] iterator end() const { return {this, size()}; }

   private:
    const std::vector<SourceAnchor>* base_;
    const std::vector<SourceAnchor>* own_;
  };

  SourceIndex() = default;
  explicit SourceIndex(const LexerOptions& options) : options_(options) {}
  // Starts from `base` (typically the knowledge base, built once at startup) without copying its
  // anchors: a request's index then costs what its own sources cost. Exact matches prefer this
  // index's own anchors (the request's sources) over the base's.
  explicit SourceIndex(std::shared_ptr<const SourceIndex> base);
  // Adds a source text; returns its index.
  int32_t add_source(std::string_view text);
  void add_knowledge(const std::vector<KnowledgeEntry>& entries);
  [[nodiscard]] Anchors anchors() const { return {base_ ? &base_->anchors_ : nullptr, &anchors_}; }
  // Indices into anchors() of one type.
  [[nodiscard]] std::span<const uint32_t> of_type(Type type) const;
  // Index of an anchor with exactly this type and norm, or -1.
  [[nodiscard]] int64_t find_exact(Type type, std::string_view norm) const;
  [[nodiscard]] bool empty() const { return size() == 0; }
  // True when the request has any source text or knowledge at all, anchors or not: then an
  // anchor nothing supports is unsupported, not unverifiable (docs/ANCHORS.md, "Checking").
  [[nodiscard]] bool has_text() const { return !texts_.empty() || !empty() || (base_ && base_->has_text()); }
  // Finds `folded` (fold_for_match of an anchor's text) in a source text, word-bounded on its Latin
  // side; `hit` is its span in the source as written. `whole_value`: the occurrence must also end
  // where a source anchor ends and begin at one's start or after a space or punctuation, so part of
  // a value is never found ("$1.5" in "$1.5 billion", "500" in "500万元", "三亿" in "十三亿").
  bool find_verbatim(std::string_view folded, TextSpan& hit, bool whole_value = false) const;
  // Whether the sources write the word `folded` somewhere on its own, capitalised: word-bounded
  // and inside no longer source anchor ("Gloucester were a man down", not only "Dundee United").
  [[nodiscard]] bool find_alone(std::string_view folded) const;
  // Whether the sources write the word `folded` somewhere in lower case, as a common word is (a
  // source stored all in lower case answers for none of its words).
  // `or_uncased`: in a source stored all in lower case, any occurrence counts (a heading's words).
  [[nodiscard]] bool find_lowercase(std::string_view folded, bool or_uncased = false) const;
  // Whether one source writes `a` and `b` (folded, word-bounded), in either order, with at most
  // `within` bytes between the end of the first and the start of the second and no sentence's end
  // there: pairs what the sources write side by side ("Dina, the Events Coordinator").
  [[nodiscard]] bool find_near(std::string_view a, std::string_view b, uint32_t within) const;
  // Number of names in each sentence of the sources that names three or more (a list the answer may
  // count: "three parties").
  [[nodiscard]] std::span<const uint32_t> list_counts() const { return list_counts_; }
  // Whether the sources name all seven days of the week (a record's opening hours): "open seven
  // days a week" counts them, as "three parties" counts a list.
  [[nodiscard]] bool lists_the_week() const { return lists_the_week_; }
  [[nodiscard]] size_t size() const { return base_size_ + anchors_.size(); }
  // The clause of anchor `i` (an index into anchors()) where what it counts is written.
  [[nodiscard]] std::string_view counted(size_t i) const;
  // Whether the sentence of anchor `i` writes one of `words` by its stem (role_stem; ASCII compared
  // case-folded at a word's start, Han characters anywhere). False for a knowledge-base anchor.
  [[nodiscard]] bool sentence_writes(size_t i, std::span<const std::string_view> words) const;
  [[nodiscard]] int32_t source_count() const { return n_sources_; }
  [[nodiscard]] const LexerOptions& options() const { return options_; }

 private:
  void add(const Anchor& a, int32_t source, std::string_view text, std::string_view field = {}, bool part = false);
  void add_name_parts(const Anchor& joined, int32_t source, std::string_view text, std::string_view field);
  void add_shared_surname(const Anchor& joined, int32_t source, std::string_view surface,
                          const std::vector<size_t>& cuts, std::string_view field);
  void add_score_sides(const Anchor& score, int32_t source, std::string_view text, std::string_view field);
  void add_cited_values(const Anchor& cited, int32_t source, std::string_view text, std::string_view field);
  void add_year_of_date(const Anchor& a, int32_t id, std::string_view text, std::string_view field);
  void add_text(std::string_view text);
  void add_list_counts(std::string_view text, const std::vector<Anchor>& found);
  struct FoldedSource;
  static bool whole_value_at(const FoldedSource& t, size_t pos, uint32_t start, uint32_t end);
  struct FoldedSource {
    struct Mark {
      uint32_t folded;
      uint32_t original;
    };
    std::string folded;
    std::vector<Mark> marks;  // where folded and original offsets stop advancing together
    std::vector<std::pair<uint32_t, uint32_t>> anchor_spans;  // [start, end) in the original text, by start
    std::vector<uint32_t> anchor_ends;                        // sorted
    std::vector<bool> capital;                                // per folded byte: an upper-case letter as written
    bool cased = false;                                       // any upper-case letter at all
    int32_t id = 0;                                           // its source id (blank sources have no text)
    std::vector<uint32_t> sentence_starts;                    // original offsets (anchor::sentence_starts)
    [[nodiscard]] uint32_t original(uint32_t folded_offset) const;
    [[nodiscard]] uint32_t folded_at(uint32_t original_offset) const;
  };
  LexerOptions options_;
  std::shared_ptr<const SourceIndex> base_;  // its anchors come first: indices [0, base_size_)
  size_t base_size_ = 0;
  std::vector<SourceAnchor> anchors_;
  std::array<std::vector<uint32_t>, kTypeCount> by_type_;  // base's indices, then own
  std::unordered_map<std::string, uint32_t> exact_;        // own; key: type byte + norm
  int32_t n_sources_ = 0;
  std::vector<FoldedSource> texts_;  // own sources, in order
  std::vector<uint32_t> list_counts_;
  bool lists_the_week_ = false;
  std::string counted_pool_;  // the clauses of numbers and quantities (SourceAnchor::counted_at)
};

}  // namespace sfcl::anchor
