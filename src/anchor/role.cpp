// The role of a value: what it is the value of, read from the words around it (docs/ANCHORS.md,
// "Roles"). "total due $21,705.60" states a total due, "subtotal $18,240.00" a subtotal, "arrested on
// March 26" the date of an arrest; "Monday to Thursday from 5:00 PM" the hours of four days. The
// checker compares an answer's value with the source values of the same role.
#include <span>
#include <unordered_set>

#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

bool one_of(std::string_view w, std::initializer_list<std::string_view> list) {
  for (std::string_view s : list) {
    if (ieq_ascii(w, s)) return true;
  }
  return false;
}

size_t word_start_back(std::string_view t, size_t end) {
  size_t i = end;
  while (i > 0 && (is_alpha(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '\'')) --i;
  while (i < end && t[i] == '\'') ++i;  // a quote before a word, not an apostrophe in it
  return i;
}

namespace {
constexpr size_t kRoleReach = 48;  // bytes before a value searched for its role word

// The start of a hyphenated word that ends at `w`: "Follow-up", "check-out" are one role.
size_t hyphened_start(std::string_view t, size_t w) {
  while (w >= 2 && t[w - 1] == '-' && is_alpha(static_cast<unsigned char>(t[w - 2]))) w = word_start_back(t, w - 1);
  return w;
}

// "The due date on invoice 7 is", "the issue date of the invoice was": the head noun of a subject
// followed by a prepositional phrase, searched back from its link over at most four words. Its start,
// or npos.
size_t head_before_phrase(std::string_view t, size_t stop, size_t i) {
  for (int step = 0; step < 5 && i > stop; ++step) {
    while (i > stop && t[i - 1] == ' ') --i;
    size_t w = i;
    while (w > stop && t[w - 1] != ' ') --w;  // any token: a number, an identifier, a word
    if (w == i || w == stop) return std::string_view::npos;
    const std::string_view word = t.substr(w, i - w);
    if (word.find_first_of(".;!?,:") != std::string_view::npos) return std::string_view::npos;
    if (step > 0 && one_of(word, {"of", "on", "for", "in"})) {
      size_t h = w - 1;
      while (h > stop && t[h - 1] == ' ') --h;
      const size_t hw = word_start_back(t, h);
      if (hw < h && one_of(t.substr(hw, h - hw), {"date", "time", "amount", "number"})) return hw;
      return std::string_view::npos;
    }
    i = w;
  }
  return std::string_view::npos;
}
template <size_t N>
bool listed(std::string_view w, const std::string_view (&list)[N]) {
  for (std::string_view x : list) {
    if (ieq_ascii(w, x)) return true;
  }
  return false;
}

// What may stand between a role word and its value: articles and approximations ("the", "about",
// "upwards of"), at most one link ("is", "was", "of": "the total is $5", "a fee of $5"), and at
// most one of "on", "in", "at" after a verb ("arrested on March 26", "founded in 1998").
constexpr std::string_view kArticles[] = {"a",      "an",      "the",  "about",   "around", "approximately", "roughly",
                                          "nearly", "almost",  "over", "upwards", "upward", "some",          "just",
                                          "only",   "exactly", "its",  "his",     "her",    "their"};
bool is_article(std::string_view w) { return listed(w, kArticles); }
constexpr std::string_view kLinks[] = {"is", "was",    "were",   "are",   "be",    "been",
                                       "of", "equals", "stands", "stood", "totals"};
bool is_link(std::string_view w) { return listed(w, kLinks); }
constexpr std::string_view kPlacePrepositions[] = {"on", "in", "at", "since"};
bool is_place_preposition(std::string_view w) { return listed(w, kPlacePrepositions); }
// A verb that a date or place preposition follows: a past form ("arrested", "founded") or one of
// the common irregular ones.
bool is_verb_form(std::string_view w) {
  if (w.size() >= 5 && (w.ends_with("ed") || w.ends_with("ED"))) return true;
  return one_of(w, {"born", "held", "won", "began", "begun", "made", "paid", "sold", "built", "died", "met", "left",
                    "took", "taken", "set", "signed", "opened", "closed", "due", "expires", "ends", "starts", "open",
                    "operating", "operated",
                    // the second word of a phrasal verb: "went public", "took office", "came to power"
                    "public", "bankrupt", "office", "power", "online"});
}

// Words read right before a value that say nothing about what it is the value of: connectors,
// other prepositions ("since 2010", "for 45 minutes"), reporting verbs, units of time.
constexpr std::string_view kGeneric[] = {
    "and", "or", "but", "than", "more", "less", "which", "who", "whom", "what", "with", "said", "says", "say", "told",
    "according", "reported", "per", "each", "every", "all", "between", "least", "most", "mid", "late", "early",
    "another", "other", "next", "last", "first", "same", "while", "when", "where", "during", "into", "through",
    "within", "across", "among", "against", "like", "such", "including", "include", "includes", "plus", "minus",
    "number", "amount", "value", "figure", "date", "time", "year", "years", "day", "days", "month", "months", "it",
    "they", "we", "you", "she", "he", "there", "here", "not", "any", "both", "since", "for", "until", "till", "before",
    "after", "from", "by", "to", "up", "down", "now", "then", "still", "also", "again", "this", "that", "these",
    "those", "has", "have", "had", "will", "would", "can", "could", "may", "might", "about", "around", "over", "under",
    "than", "via", "off", "out", "onto", "upon", "toward", "towards", "approximately", "nearly", "almost", "just",
    "only", "some", "page", "step", "item", "part", "line", "note", "see",
    // verbs of estimating and reporting: "estimated at $212 million" says how, not what
    "estimated", "expected", "projected", "forecast", "predicted", "stated", "listed", "given", "recorded", "measured",
    "put", "seen", "valued", "priced", "rated", "ranked", "scheduled", "planned", "set"};
bool is_generic(std::string_view w) { return w.size() < 3 || listed(w, kGeneric); }

// Chinese role words written right before a value (after 为/是/：...): the field names of invoices,
// forms and notices.
constexpr std::string_view kCnRoles[] = {"联系电话", "电话",   "手机", "传真", "合计", "总计", "小计", "总额", "总价",
                                         "应付",     "实付",   "已付", "余额", "押金", "定金", "税额", "单价", "编号",
                                         "发票号",   "订单号", "账号", "出生", "成立", "逮捕", "截至", "罚款", "赔偿",
                                         "违约金",   "保证金", "首付", "月租", "租金", "工资", "年薪", "月薪", "报价"};
constexpr std::string_view kCnLinks[] = {"为", "是", "：", "达", "约", "共", "于"};
// Two characters before a link that name no field: how a value changed, is split or is qualified.
constexpr std::string_view kCnNoRole[] = {
    "分别", "同比", "环比", "其中", "目前", "现在", "已经", "大约", "总共", "一共", "增长", "下降", "提高", "降低",
    "增加", "减少", "上涨", "下跌", "达到", "超过", "不足", "至少", "最多", "仅仅", "只有", "均为", "都是", "还是",
    "就是", "也是", "可能", "应该", "大概", "估计", "预计", "预期", "计划", "认为", "表示", "指出"};

bool s_has_colon(std::string_view gap) { return gap.find(':') != std::string_view::npos; }

// Two characters of the main CJK block, the first one in `first`: the field names and verbs read
// around Chinese values.
constexpr size_t kTwoHan = 6;
bool two_han(std::string_view s, char32_t& first) {
  if (s.size() < kTwoHan) return false;
  for (size_t k = 0; k < kTwoHan; k += 3) {
    const auto d = utf8::decode(s, k);
    if (d.length != 3 || !(d.cp >= 0x4E00 && d.cp <= 0x9FFF)) return false;
    if (k == 0) first = d.cp;
  }
  return true;
}

// The two characters before `end` as a role: not a number, an ordinal or a word that names no field.
// A head that says only what kind of value follows (出院日期：, 付款金额为, 期末考试：) names the field
// by the two characters before it.
std::string_view cn_word_before(std::string_view text, size_t end) {
  for (std::string_view head : {"日期", "时间", "金额", "数额", "号码", "考试", "费用"}) {
    char32_t lead = 0;
    if (end >= 2 * kTwoHan && text.substr(end - kTwoHan, kTwoHan) == head &&
        two_han(text.substr(end - 2 * kTwoHan, kTwoHan), lead) && !is_cn_numeral(lead)) {
      end -= kTwoHan;
      break;
    }
  }
  if (end < kTwoHan) return {};
  const std::string_view two = text.substr(end - kTwoHan, kTwoHan);
  char32_t first = 0;
  if (!two_han(two, first) || is_cn_numeral(first) || first == U'第') return {};
  for (std::string_view w : kCnNoRole) {
    if (two == w) return {};
  }
  return two;
}

std::string_view cn_role_before(std::string_view text, size_t end) {
  // A century before a decade qualifies the value, not its role (成立于上世纪九十年代).
  for (std::string_view q : {"上个世纪", "上世纪", "本世纪"}) {
    if (end >= q.size() && text.substr(end - q.size(), q.size()) == q) {
      end -= q.size();
      break;
    }
  }
  bool linked_any = false;
  bool by_yu = false;  // 于 follows subjects too (该公司于2005年): only the listed field words then
  bool after_colon = false;
  for (int links = 0; links < 2; ++links) {
    bool linked = false;
    for (std::string_view l : kCnLinks) {
      // Before a colon, 达 and 于 end the label's word ("送达：", "抵达：", "位于："), not a link.
      if (after_colon && (l == "达" || l == "于")) continue;
      if (end >= l.size() && text.substr(end - l.size(), l.size()) == l) {
        end -= l.size();
        linked = true;
        linked_any = true;
        by_yu = by_yu || l == "于";
        after_colon = l == "：";
        break;
      }
    }
    if (!linked) break;
  }
  for (std::string_view r : kCnRoles) {
    if (end >= r.size() && text.substr(end - r.size(), r.size()) == r) return text.substr(end - r.size(), r.size());
  }
  // Any other field name before a link: its last two characters ("责任上限为", "月费为", "客户经理："),
  // as the other side writes the same field; not words that say how the value changed or is split.
  if (!linked_any || by_yu || end < kTwoHan) return {};
  // An item of an enumeration ("报销比例为85%；二级为75%"): the field is the list's, not "二级".
  return cn_word_before(text, end);
}

}  // namespace

// Looked up in one table of lower-case words, built once: clause words ask for every word of every
// value's clause, and the lists above compared one by one cost more than the rest of the indexing.
bool says_nothing(std::string_view w) {
  static constexpr std::string_view kMagnitudes[] = {"million", "billion", "trillion", "thousand",
                                                     "hundred", "percent", "cent"};
  static const std::unordered_set<std::string_view> kWords = [] {
    std::unordered_set<std::string_view> words;
    for (const std::span<const std::string_view> list :
         {std::span<const std::string_view>(kGeneric), std::span<const std::string_view>(kArticles),
          std::span<const std::string_view>(kLinks), std::span<const std::string_view>(kPlacePrepositions),
          std::span<const std::string_view>(kMagnitudes)}) {
      words.insert(list.begin(), list.end());
    }
    return words;
  }();
  constexpr size_t kLongest = 16;  // no listed word is longer
  if (w.size() < 3) return true;
  if (w.size() > kLongest) return false;
  std::array<char, kLongest> lower{};
  for (size_t i = 0; i < w.size(); ++i) lower[i] = static_cast<char>(to_lower(static_cast<unsigned char>(w[i])));
  return kWords.contains(std::string_view(lower.data(), w.size()));
}

namespace {
// "Discharge date: 11 March", "the commencement date is", "Final exam:", "Filing deadline:": a head
// noun that says only what kind of value follows takes the word before it ("Commencement Date" as a
// defined term too).
std::string_view head_of_kind(std::string_view text, size_t w, std::string_view word, bool labelled) {
  if (!one_of(word, {"date", "time", "amount", "number", "deadline", "exam", "examination", "fee", "payment"}) ||
      w < 2 || text[w - 1] != ' ') {
    return {};
  }
  const size_t w2 = hyphened_start(text, word_start_back(text, w - 1));
  const std::string_view head = text.substr(w2, w - 1 - w2);
  const bool titled = is_upper(static_cast<unsigned char>(word.front()));
  if (!head.empty() && !is_generic(head) && !is_article(head) && !is_link(head) &&
      (!is_upper(static_cast<unsigned char>(head.front())) || titled || labelled)) {
    return head;
  }
  return {};
}
}  // namespace

std::string_view role_before(std::string_view text, size_t start) {
  start = std::min(start, text.size());
  // A value glued to a word (the rest of a value cut at kMaxAnchorBytes, digits after a run too
  // long for a word) has no word of its own before it.
  if (start > 0 && is_alnum(static_cast<unsigned char>(text[start - 1]))) return {};
  size_t i = start;
  const size_t stop = start > kRoleReach ? start - kRoleReach : 0;
  // What stands right before a value's first character: a space, a separator, an opening quote.
  while (i > stop && (text[i - 1] == ' ' || text[i - 1] == ':' || text[i - 1] == '"' || text[i - 1] == '\'' ||
                      text[i - 1] == '=' || text[i - 1] == '\t' || text[i - 1] == '|')) {
    --i;
  }
  if (i > 0 && static_cast<unsigned char>(text[i - 1]) >= 0x80) {
    if (const auto r = cn_role_before(text, start); !r.empty()) return r;
    return cn_role_before(text, i);
  }
  // "Total due: $5", and a table's row "| Total due | $5 |": the words before are a label.
  const bool labelled = i < start && (s_has_colon(text.substr(i, start - i)) ||
                                      text.substr(i, start - i).find('|') != std::string_view::npos);
  bool linked = false;
  bool placed = false;
  for (int step = 0; step < 5 && i > stop; ++step) {
    const size_t last = word_start_back(text, i);
    if (last == i) return {};  // a digit, a value, a sentence end, a bracket: no word before
    const size_t w = hyphened_start(text, last);
    const std::string_view word = text.substr(w, i - w);
    const bool next_ok = w > 0 && text[w - 1] == ' ';
    auto go_on = [&] {
      i = w;
      while (i > stop && text[i - 1] == ' ') --i;
    };
    // "The follow-up is on 3 June", "Check-out is at 11 am": a subject linked to its place in time.
    if (placed && !linked && one_of(word, {"is", "was", "are", "were"}) && next_ok) {
      placed = false;
      linked = true;
      go_on();
      continue;
    }
    if (placed) return is_verb_form(word) && !is_generic(word) ? word : std::string_view{};
    // "The hearing is scheduled for 5 May": what is set for a time is the subject's.
    if (!linked && one_of(word, {"for"}) && next_ok) {
      const size_t v = word_start_back(text, w - 1);
      if (v < w - 1 &&
          one_of(text.substr(v, w - 1 - v), {"scheduled", "set", "planned", "booked", "slated", "fixed"})) {
        i = v;
        while (i > stop && text[i - 1] == ' ') --i;
        placed = true;
        continue;
      }
    }
    if (is_article(word) || (!linked && is_link(word))) {
      if (is_link(word)) {
        linked = true;
        // "The due date on invoice 7 is": the subject's head before its phrase.
        if (const size_t head = head_before_phrase(text, stop, w); head != std::string_view::npos) {
          i = head;
          while (i < w && is_alpha(static_cast<unsigned char>(text[i]))) ++i;  // after "date"
          continue;
        }
      }
      if (!next_ok) return {};
      go_on();
      continue;
    }
    if (!linked && is_place_preposition(word)) {
      placed = true;
      if (!next_ok) return {};
      go_on();
      continue;
    }
    if (const std::string_view head = head_of_kind(text, w, word, labelled); !head.empty()) return head;
    if (is_generic(word)) return {};
    // A capitalised word is a name, not a role, unless it is a label ("Total due: $5") or opens its
    // sentence before a link ("Rent is $2,400").
    const bool opens = w == 0 || text[w - 1] == '\n' || (linked && w >= 2 && text[w - 2] == '.');
    if (is_upper(static_cast<unsigned char>(word.front())) && !labelled && !opens) return {};
    return word;
  }
  return {};
}

namespace {
// A value that opens its sentence ("On March 26 he was charged", "In 2014, the firm moved"): the
// text before it is empty or a sentence end, after at most "On", "In", "At", "By".
bool opens_sentence(std::string_view before) {
  size_t i = before.size();
  while (i > 0 && before[i - 1] == ' ') --i;
  const size_t w = word_start_back(before, i);
  if (w < i && one_of(before.substr(w, i - w), {"on", "in", "at", "by"})) {
    i = w;
    while (i > 0 && before[i - 1] == ' ') --i;
  }
  if (i == 0) return true;
  const char c = before[i - 1];
  return c == '\n' || c == '.' || c == '!' || c == '?' || c == ';';
}
}  // namespace

// The clause's verb after a value that opens its sentence: "charged" in "On March 26 he was charged".
std::string_view role_after(std::string_view after) {
  constexpr int kMaxWords = 5;
  size_t i = 0;
  for (int n = 0; n < kMaxWords; ++n) {
    while (i < after.size() && (after[i] == ' ' || after[i] == ',')) ++i;
    const size_t w = i;
    while (i < after.size() && is_alpha(static_cast<unsigned char>(after[i]))) ++i;
    if (i == w) return {};  // a digit, a sentence end, a bracket
    const std::string_view word = after.substr(w, i - w);
    if (is_verb_form(word) && !is_generic(word)) return word;
  }
  return {};
}

namespace {
// A Chinese clause opens right before the value: after ，。；、 or a line break, or at the start.
bool opens_cn_clause(std::string_view before) {
  if (before.empty() || before.back() == '\n') return true;
  for (std::string_view p : {"，", "。", "；", "、"}) {
    if (before.ends_with(p)) return true;
  }
  return false;
}

// Characters that start no verb of the value's clause right after it: particles, prepositions and
// the adverbs they start (由双方代表签署, 依法作出, 全额支付, 被抓获), words of time or range (2005年的,
// 3月起, 30日内, 1998年至今), and the unit of an age or a number that the value reads bare (32岁的她:
// 岁的 is no verb; 2号种子).
constexpr std::u32string_view kCnNotVerbAfter =
    U"的起以至前后内左右和与及或中间底初末是为在就也都还又才共约达之到时年月日岁号由依全被经向对将把从";

// The verb right after a value that opens a Chinese clause: "，2005年上市" → 上市, past an adverb
// ("，2024年5月3日正式开业" → 开业).
std::string_view cn_role_after(std::string_view after) {
  for (std::string_view adverb : {"正式", "首次", "首度", "重新", "再次", "成功", "先后", "相继", "分别", "已经",
                                  "率先", "同时", "共同", "顺利", "最终", "开始"}) {
    if (after.starts_with(adverb)) {
      after.remove_prefix(adverb.size());
      break;
    }
  }
  char32_t first = 0;
  if (!two_han(after, first) || kCnNotVerbAfter.find(first) != std::u32string_view::npos) return {};
  return after.substr(0, kTwoHan);
}
}  // namespace

std::string_view role_of(std::string_view before, std::string_view after) {
  const std::string_view r = role_before(before, before.size());
  if (!r.empty()) return r;
  if (opens_sentence(before)) return role_after(after);
  if (!after.empty() && static_cast<unsigned char>(after.front()) >= 0x80 && opens_cn_clause(before)) {
    return cn_role_after(after);
  }
  return {};
}

namespace {
// The verb before a short object that stands before "on"/"in" and a value: "adopted the budget on
// June 17", "was elected a Royal Academician in 1998". Not past a phrasal verb's particle ("passed
// away in 2001") or a pronoun ("released him on 6 March"), whose event is read elsewhere.
std::string_view verb_before_object(std::string_view before) {
  size_t i = before.size();
  while (i > 0 && before[i - 1] == ' ') --i;
  size_t w = word_start_back(before, i);
  if (w == i || !is_place_preposition(before.substr(w, i - w))) return {};
  constexpr int kObjectWords = 3;
  for (int k = 0; k <= kObjectWords && w > 1 && before[w - 1] == ' '; ++k) {
    const size_t v = word_start_back(before, w - 1);
    if (v == w - 1) return {};  // a digit, a value, punctuation: no plain object
    const std::string_view word = before.substr(v, w - 1 - v);
    if (k == 0 && one_of(word, {"away", "out", "up", "off", "down", "over", "back", "him", "her", "it", "them"})) {
      return {};
    }
    if (k > 0 && is_verb_form(word)) return is_generic(word) ? std::string_view{} : word;
    if (k == 0 && is_verb_form(word)) return {};  // role_before's own reading
    if (is_link(word) || (says_nothing(word) && !is_article(word))) return {};
    w = v;
  }
  return {};
}
}  // namespace

// Only the answer's side: in the sources, such readings would set a paraphrase of the same event
// ("that deal closed in 2020", 2009年病故) against the answer's word as another role's value.
std::string_view answer_role_of(std::string_view before, std::string_view after) {
  if ((before.ends_with("于") || before.ends_with("在")) && !after.empty() &&
      static_cast<unsigned char>(after.front()) >= 0x80) {
    if (const std::string_view verb = cn_role_after(after); !verb.empty()) return verb;
    // "复诊定于6月3日", "复诊安排在6月3日": what is set for a time is the word before.
    for (std::string_view set : {"定于", "定在", "安排在", "安排于", "是在", "在"}) {
      if (before.ends_with(set)) return cn_word_before(before, before.size() - set.size());
    }
    return {};
  }
  return verb_before_object(before);
}

namespace {
// Han characters that make a pair of no word of what a value is of: particles and prepositions.
constexpr std::u32string_view kCnLinkChars = U"于在的了是为和与及将已被把也都并而又着过从对向以至";
bool links(char32_t c) { return kCnLinkChars.find(c) != std::u32string_view::npos; }
}  // namespace

size_t subject_words(std::string_view before, std::string_view role,
                     std::array<std::string_view, kSubjectWords>& words) {
  constexpr size_t kReach = 160;  // bytes of the sentence read back from the value
  size_t n = 0;
  size_t i = before.size();
  const size_t stop = before.size() > kReach ? before.size() - kReach : 0;
  char32_t later = 0;  // the Han character after the one read, in a run
  while (i > stop && n < words.size()) {
    const auto c = static_cast<unsigned char>(before[i - 1]);
    if (c >= 0x80) {
      size_t k = i - 1;
      while (k > 0 && (static_cast<unsigned char>(before[k]) & 0xC0) == 0x80) --k;
      const auto d = utf8::decode(before, k);
      if (d.cp == U'。' || d.cp == U'！' || d.cp == U'？' || d.cp == U'；') break;
      const bool han = d.cp >= 0x4E00 && d.cp <= 0x9FFF;
      if (han && later != 0 && !links(d.cp) && !links(later)) {
        const std::string_view pair = before.substr(k, i - k + 3);
        if (pair != role) words[n++] = pair;
      }
      later = han ? d.cp : 0;
      i = k;
      continue;
    }
    later = 0;
    if (c == '\n' || ((c == '.' || c == '!' || c == '?') && i < before.size() && before[i] == ' ')) break;
    if (!is_alpha(c)) {
      --i;
      continue;
    }
    const size_t w = word_start_back(before, i);
    std::string_view word = before.substr(w, i - w);
    if (word.ends_with("'s") || word.ends_with("'")) word = word.substr(0, word.rfind('\''));  // "Yuen's": Yuen
    if (!says_nothing(word) && !same_role(word, role)) words[n++] = word;
    i = w == i ? i - 1 : w;
  }
  return n;
}

}  // namespace sfcl::anchor
