// A count of the items the answer itself lists beside it (docs/ANCHORS.md, "Checking"): "易建联、朱
// 芳雨、周鹏三名首发", "井村雅代和藤木麻佑子两位教练", "收涨的品种仅有两个：普麦期货…；棉花期货…", "前两届分别
// 获得亚军和季军", "two daughters: Ann and Bea", "…, Claire Danes and David Strathairn, eleven names in
// all". The count is the answer's own arithmetic over what it shows the reader; each
// listed item is checked as itself. Reported as `derived` (list_count) with no source operand.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string_view>

#include "verify/verify.h"

namespace sfcl::verify {
namespace {

using anchor::Anchor;
using anchor::Type;

constexpr size_t kMaxItem = 45;         // bytes of one listed item (15 CJK characters)
constexpr size_t kMaxCountedNoun = 24;  // bytes between the count and the colon of its list

constexpr std::array<std::string_view, 10> kClauseEnds = {"。", "；", "，", "：", "\n", "！", "？", ", ", ": ", "; "};
constexpr std::array<std::string_view, 4> kZhJoins = {"和", "与", "及", "或"};
constexpr std::array<std::string_view, 4> kSentenceEnds = {"。", "\n", ". ", "！"};
constexpr size_t kMaxLastItem = 18;  // bytes before the count where a clause word says it ends no list
// Words the item before a count does not hold: then the count ends a clause ("A、B和C分别获得了3枚"),
// not a list.
constexpr std::array<std::string_view, 12> kClauseWords = {"了", "为", "是", "获", "得", "的",
                                                           "在", "有", "到", "达", "将", "被"};
// A joining character inside a word (和平, 共和国, 参与, 涉及): no list there.
constexpr std::array<std::string_view, 14> kJoinInWord = {"和平", "和解", "和谐", "共和", "缓和", "温和", "总和",
                                                          "参与", "与会", "涉及", "普及", "波及", "及时", "或许"};

// An item's length without what it adds in brackets ("李方华（2003年）"): the brackets say which,
// not what, is listed.
size_t item_size(std::string_view item) {
  size_t size = item.size();
  for (const auto& [open, close] : {std::pair<std::string_view, std::string_view>{"（", "）"}, {"(", ")"}}) {
    for (size_t at = item.find(open); at != std::string_view::npos; at = item.find(open, at + open.size())) {
      const size_t end = item.find(close, at);
      if (end == std::string_view::npos) break;
      size -= std::min(size, end + close.size() - at);
    }
  }
  return size;
}

bool all_short(std::string_view text, std::string_view sep, size_t& items, bool first_free) {
  size_t from = 0;
  while (true) {
    const size_t to = std::min(text.find(sep, from), text.size());
    const std::string_view item = text.substr(from, to - from);
    if (item.empty() || (item_size(item) > kMaxItem && !(first_free && items == 0))) return false;
    ++items;
    if (to == text.size()) return true;
    from = to + sep.size();
  }
}

// Items of a Chinese list "A、B、C和D" (or "A和B"): split at 、, the last item once more at its
// joining word. `first_free`: the first item may carry the clause's lead-in ("论坛先后在南京").
size_t zh_items(std::string_view list, bool first_free) {
  size_t items = 0;
  const size_t last = list.rfind("、");
  const std::string_view head = last == std::string_view::npos ? std::string_view{} : list.substr(0, last);
  std::string_view tail = last == std::string_view::npos ? list : list.substr(last + std::string_view("、").size());
  if (!head.empty() && !all_short(head, "、", items, first_free)) return 0;
  // Only the last item is split at a joining word: one inside a word there makes no list.
  for (std::string_view w : kJoinInWord) {
    if (tail.find(w) != std::string_view::npos) return 0;
  }
  size_t join = std::string_view::npos;
  size_t join_size = 0;
  // 以及 joins the last item whole, whatever 和 it holds ("人文以及国际和地区事务").
  if (const size_t at = tail.find("以及"); at != std::string_view::npos && at > 0) {
    const std::string_view item = tail.substr(0, at);
    // "A、B和C以及D": which joins split items is not known.
    if (std::any_of(kZhJoins.begin(), kZhJoins.end(), [&](std::string_view j) { return item.find(j) != item.npos; })) {
      return 0;
    }
    if (item_size(item) > kMaxItem && !(first_free && items == 0)) return 0;
    tail.remove_prefix(at + std::string_view("以及").size());
    return tail.empty() || item_size(tail) > kMaxItem ? 0 : items + 2;
  }
  for (std::string_view j : kZhJoins) {
    const size_t at = tail.find(j);
    if (at != std::string_view::npos && at > 0 && at < join) {
      join = at;
      join_size = j.size();
    }
  }
  if (join != std::string_view::npos) {
    if (tail.find("和", join + join_size) != std::string_view::npos) return 0;  // "A和B和C": not one list
    if (item_size(tail.substr(0, join)) > kMaxItem && !(first_free && items == 0)) return 0;
    ++items;
    tail.remove_prefix(join + join_size);
  }
  if (tail.empty() || item_size(tail) > kMaxItem) return 0;
  return items + 1;
}

// Titles written one after another at the end of `list` ("《A》《B》及《C》", "《A》、《B》"): how many,
// or 0 when the list does not end in two or more.
size_t title_items(std::string_view list) {
  size_t items = 0;
  while (list.ends_with("》")) {
    const size_t open = list.rfind("《");
    if (open == std::string_view::npos) return 0;
    ++items;
    list = list.substr(0, open);
    bool joined = false;
    for (std::string_view j : {"、", "和", "与", "及", "以及"}) {
      if (list.ends_with(j) && list.substr(0, list.size() - j.size()).ends_with("》")) {
        list.remove_suffix(j.size());
        joined = true;
        break;
      }
    }
    if (!joined && !list.ends_with("》")) break;
  }
  return items >= 2 ? items : 0;
}

// Clauses split at "，" that each open with the next of 一是, 二是, 三是, or with the same two characters
// that the counted noun holds: "两点要求：一是…，二是…", "三个“首次”：首次开展…，首次开展…，首次开展…".
// How many, or 0 when the clauses do not all open so.
size_t repeated_openings(std::string_view rest, std::string_view noun) {
  constexpr size_t kOpening = 6;  // two Han characters
  static constexpr std::array<std::string_view, 12> kOrdinalOpenings = {
      "一是", "二是", "三是", "四是", "五是", "六是", "七是", "八是", "九是", "十是", "十一是", "十二是"};
  if (rest.size() < kOpening) return 0;
  const std::string_view opening = rest.substr(0, kOpening);
  const bool ordinal = opening == kOrdinalOpenings[0];
  if (!ordinal && noun.find(opening) == std::string_view::npos) return 0;
  size_t items = 0;
  size_t from = 0;
  while (from < rest.size()) {
    const std::string_view clause = rest.substr(from);
    if (items == kOrdinalOpenings.size()) return 0;
    if (!clause.starts_with(ordinal ? kOrdinalOpenings[items] : opening)) return 0;
    ++items;
    const size_t comma = clause.find("，");
    if (comma == std::string_view::npos) break;
    from += comma + std::string_view("，").size();
  }
  return items >= 2 ? items : 0;
}

// Items of an English list "Ann, Bob(,) and Cy" (or "or"); `first_free`: the first item may carry
// the sentence's lead-in ("The cast includes Ann"). 0 when `text` is no such list.
size_t en_items(std::string_view text, bool first_free) {
  for (std::string_view join :
       {std::string_view(", and "), std::string_view(" and "), std::string_view(", or "), std::string_view(" or ")}) {
    const size_t at = text.rfind(join);
    if (at == std::string_view::npos) continue;
    size_t items = 0;
    if (!all_short(text.substr(0, at), ", ", items, first_free)) return 0;
    const std::string_view last = text.substr(at + join.size());
    return !last.empty() && last.size() <= kMaxItem && last.find(", ") == std::string_view::npos ? items + 1 : 0;
  }
  return 0;
}

// Items of a list after a colon (`noun`: what stands between the count and it): "；"-separated
// clauses when there are any, else a Chinese list, else
// an English one ("Ann, Bob(,) and Cy").
size_t listed_after_colon(std::string_view rest, std::string_view noun) {
  size_t end = rest.size();
  for (std::string_view e : kSentenceEnds) end = std::min(end, rest.find(e));
  rest = rest.substr(0, end);
  while (!rest.empty() && (rest.back() == '.' || rest.back() == ' ')) rest.remove_suffix(1);
  if (rest.empty()) return 0;
  size_t items = 0;
  for (std::string_view sep : {std::string_view("；"), std::string_view("; ")}) {
    if (rest.find(sep) != std::string_view::npos) {
      size_t from = 0;
      for (size_t at = rest.find(sep); at != std::string_view::npos; at = rest.find(sep, from)) {
        ++items;
        from = at + sep.size();
      }
      return from < rest.size() ? items + 1 : items;
    }
  }
  if (static_cast<unsigned char>(rest.front()) >= 0x80) {
    if (const size_t n = zh_items(rest, false); n > 0) return n;
    return repeated_openings(rest, noun);
  }
  // English: commas, the last item after "and"/"or" (with or without the serial comma).
  return en_items(rest, false);
}

// A Chinese list the count's clause gives after it: after 分别 ("前两届分别获得亚军和季军": the first
// item carries the verb) or right after the counted noun and 是 ("前三位是A、B和C").
size_t listed_in_clause(std::string_view after) {
  size_t end = after.size();
  for (std::string_view e : {"。", "；", "，", "\n", "！", "？"}) end = std::min(end, after.find(e));
  const std::string_view clause = after.substr(0, end);
  const size_t reach = std::min(clause.size(), kMaxCountedNoun + 3);
  if (const size_t at = clause.substr(0, reach).find("分别"); at != std::string_view::npos) {
    return zh_items(clause.substr(at + std::string_view("分别").size()), true);
  }
  // Not 为, which is as often "for" ("两名球员为湖人和凯尔特人效力").
  const size_t at = clause.substr(0, reach).find("是");
  return at == std::string_view::npos ? 0 : zh_items(clause.substr(at + std::string_view("是").size()), false);
}

// The English list right before a count that sums it up: "…, Claire Danes and David Strathairn,
// eleven names in all", "…, Rome and Oslo, all four". Its sentence only; the first item may carry the
// sentence's lead-in. Only a count said to sum it up: "Smith, Jones and Brown, 3 goals each" counts
// goals.
size_t en_list_before(std::string_view before, std::string_view after) {
  while (before.ends_with(' ')) before.remove_suffix(1);
  bool sums_up = false;
  for (std::string_view all : {", all", ", all of", ", a total of"}) {
    if (before.ends_with(all)) {
      before.remove_suffix(all.size() - 1);
      sums_up = true;
      break;
    }
  }
  constexpr size_t kReach = 24;  // the counted noun, then the words that sum up
  const std::string_view next = after.substr(0, std::min(after.size(), kReach));
  for (std::string_view w : {" in all", " in total", " altogether", " all told"}) {
    const size_t at = next.find(w);
    const size_t end = at + w.size();
    const bool word_end = end >= next.size() || std::isalpha(static_cast<unsigned char>(next[end])) == 0;
    if (at != std::string_view::npos && word_end && next.find(',') >= at) sums_up = true;  // not "in alliance"
  }
  if (!sums_up || !before.ends_with(',')) return 0;
  before.remove_suffix(1);
  size_t from = 0;
  for (std::string_view e : {". ", ": ", "\n", "; "}) {
    const size_t at = before.rfind(e);
    if (at != std::string_view::npos) from = std::max(from, at + e.size());
  }
  return en_items(before.substr(from), true);
}

// An English list set after its count's noun by a comma, every word of every item capitalised: "three
// reviewers, Ann Lee, Bob and Cy, agreed"; with `days`, the items are days of the week ("just two days,
// Sunday and Monday"). The list ends at the comma or the sentence end after its last item; 0 when
// `after` holds no such list ("2 trophies, Smith and Jones said": "Jones said" is no item).
size_t en_list_after_noun(std::string_view after, bool noun_in_value, bool days) {
  const size_t comma = after.substr(0, std::min(after.size(), kMaxCountedNoun)).find(", ");
  if (comma == std::string_view::npos) return 0;
  const std::string_view noun = after.substr(0, comma);
  // The noun is the value's own ("two days") or the words right after it ("Three reviewers").
  if (noun.empty() != noun_in_value) return 0;
  if ((!noun.empty() && noun.front() != ' ') || std::any_of(noun.begin(), noun.end(), [](char c) {
        return std::isalpha(static_cast<unsigned char>(c)) == 0 && c != ' ' && c != '-';
      })) {
    return 0;
  }
  std::string_view list = after.substr(comma + 2);
  size_t join = std::string_view::npos;
  for (std::string_view j : {" and ", " or "}) join = std::min(join, list.find(j));
  if (join == std::string_view::npos) return 0;
  size_t end = list.size();
  for (std::string_view e : {", ", ". ", "; ", ": ", "\n"}) end = std::min(end, list.find(e, join));
  if (end == list.size() && list.ends_with('.')) --end;
  list = list.substr(0, end);
  constexpr std::array<std::string_view, 7> kDays = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                                     "Friday", "Saturday", "Sunday"};
  // Every word capitalised, but the joining words; with `days`, every item a day.
  for (size_t at = 0; at < list.size();) {
    const size_t space = std::min(list.find(' ', at), list.size());
    std::string_view word = list.substr(at, space - at);
    if (word.ends_with(',')) word.remove_suffix(1);
    const bool joining = word == "and" || word == "or";
    if (!joining && (word.empty() || std::isupper(static_cast<unsigned char>(word.front())) == 0 ||
                     (days && std::find(kDays.begin(), kDays.end(), word) == kDays.end()))) {
      return 0;
    }
    at = space + 1;
  }
  return en_items(list, false);
}

// The items of the nearest Chinese list in `text`, searched back clause by clause: separators (、,
// 和, 与, 及) no further apart than an item's length make one list ("《A》和《B》", "伍助前、游水姣夫妇");
// 0 when no clause holds one.
size_t nearest_zh_list(std::string_view text) {
  size_t end = text.size();
  while (end > 0) {
    size_t start = 0;
    for (std::string_view e : kClauseEnds) {
      const size_t at = text.substr(0, end).rfind(e);
      if (at != std::string_view::npos) start = std::max(start, at + e.size());
    }
    const std::string_view clause = text.substr(start, end - start);
    size_t separators = 0;
    size_t last = std::string_view::npos;  // where the last separator of the chain ended
    for (size_t i = 0; i < clause.size();) {
      size_t len = 0;
      for (std::string_view sep :
           {std::string_view("、"), std::string_view("和"), std::string_view("与"), std::string_view("及")}) {
        if (clause.substr(i).starts_with(sep)) len = sep.size();
      }
      const bool in_word = std::any_of(kJoinInWord.begin(), kJoinInWord.end(), [&](std::string_view w) {
        return (i >= 3 && clause.substr(i - 3).starts_with(w)) || clause.substr(i).starts_with(w);
      });
      if (len == 0 || in_word) {
        i += (static_cast<unsigned char>(clause[i]) >= 0xE0) ? 3 : 1;
        continue;
      }
      // A separator further than an item from the last one starts another list: the nearest counts.
      separators = last != std::string_view::npos && i - last <= kMaxItem ? separators + 1 : 1;
      last = i + len;
      i += len;
    }
    if (separators > 0) return separators + 1;
    // The clause before: drop the mark that ended it.
    end = start;
    bool dropped = false;
    for (std::string_view e : kClauseEnds) {
      if (!dropped && text.substr(0, end).ends_with(e)) {
        end -= e.size();
        dropped = true;
      }
    }
    if (!dropped) break;
  }
  return 0;
}

}  // namespace

// A count that opens a clause and refers back to what the answer listed before it: "…伍助前、游水姣
// 夫妇…。二人共向…", "《A》和《B》…落幕。两项展览是…". The nearest list, in its sentence or the one
// before, must have as many items.
bool Checker::counts_list_before(const Anchor& a, std::string_view before) {
  constexpr size_t kBack = 300;  // about two sentences
  if (before.empty() || static_cast<unsigned char>(before.back()) < 0x80) return false;
  std::string_view head = before;
  for (std::string_view d : {"这", "该", "上述", "以上", "此"}) {
    if (head.ends_with(d)) {
      head.remove_suffix(d.size());
      break;
    }
  }
  size_t end = head.size();
  for (std::string_view e : kClauseEnds) {
    if (end == head.size() && head.ends_with(e)) end -= e.size();
  }
  if (end == head.size()) return false;  // the count opens no clause
  // Its sentence and the one before.
  size_t from = head.size() > kBack ? head.size() - kBack : 0;
  size_t ends = 0;
  for (size_t i = end; i > from; --i) {
    const std::string_view upto = head.substr(0, i);
    if (upto.ends_with("。") || upto.ends_with("！") || upto.ends_with("？") || upto.ends_with("\n")) {
      if (++ends == 2) {
        from = i;
        break;
      }
    }
  }
  while (from < end && (static_cast<unsigned char>(head[from]) & 0xC0) == 0x80) ++from;  // a character's start
  return nearest_zh_list(head.substr(from, end - from)) == static_cast<size_t>(a.value);
}

bool Checker::counts_own_list(const Anchor& a, std::string_view before, std::string_view after) {
  if ((a.type != Type::number && a.type != Type::quantity && a.type != Type::duration) ||
      !(a.value >= 2 && a.value <= kMaxListed) || a.value != std::floor(a.value) ||
      a.norm.starts_with('#')) {  // a rank counts no list
    return false;
  }
  const auto n = static_cast<size_t>(a.value);
  // A span of days counts the days of the week it names after it ("just two days, Sunday and Monday"),
  // and only so.
  if (a.type == Type::duration) {
    return after.data() != nullptr && a.norm.ends_with(" day") && en_list_after_noun(after, true, true) == n;
  }
  // The list just before the count, in its clause ("易建联、朱芳雨、周鹏三名").
  while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
  // A Chinese list may end in a Latin name ("PTA、橡胶、玻璃、PVC四个品种").
  constexpr size_t kLatinReach = 60;
  const bool latin_last =
      !before.empty() && std::isalnum(static_cast<unsigned char>(before.back())) != 0 &&
      before.substr(before.size() > kLatinReach ? before.size() - kLatinReach : 0).find("、") != std::string_view::npos;
  if (!before.empty() && (static_cast<unsigned char>(before.back()) >= 0x80 || latin_last)) {
    size_t from = 0;
    for (std::string_view e : kClauseEnds) {
      const size_t at = before.rfind(e);
      if (at != std::string_view::npos) from = std::max(from, at + e.size());
    }
    std::string_view list = before.substr(from);
    // "A、B、C这五项": the list's own count after a demonstrative.
    // Not after 的: "美国、英国和法国的3名记者" counts the journalists, not the countries.
    for (std::string_view d : {"这", "这些", "上述", "共"}) {
      if (list.ends_with(d)) {
        list.remove_suffix(d.size());
        break;
      }
    }
    // Titles one after another are items however they are joined ("《A》《B》及《C》": three).
    const size_t titles = title_items(list);
    if (titles == n) return true;
    // The last item's words only ("只有水星和金星两颗": 有 is the first item's lead-in), and not the 有
    // of a legal form (文化传媒有限公司).
    size_t cut = list.size() > kMaxLastItem ? list.size() - kMaxLastItem : 0;
    for (std::string_view sep : {"、", "和", "与", "及", "或"}) {
      if (const size_t at = list.rfind(sep); at != std::string_view::npos) cut = std::max(cut, at + sep.size());
    }
    while (cut < list.size() && (static_cast<unsigned char>(list[cut]) & 0xC0) == 0x80) ++cut;  // a character's start
    const std::string_view last_words = list.substr(cut);
    const bool clause_word = std::any_of(kClauseWords.begin(), kClauseWords.end(), [&](std::string_view w) {
      for (size_t at = last_words.find(w); at != std::string_view::npos; at = last_words.find(w, at + w.size())) {
        if (w != "有" || !last_words.substr(at).starts_with("有限")) return true;
      }
      return false;
    });
    if (titles == 0 && !clause_word && zh_items(list, true) == n) return true;
  }
  if (counts_list_before(a, before) || en_list_before(before, after) == n) return true;
  // The list after a colon that closes the count's noun ("两个：…；…", "two daughters: Ann and Bea"),
  // where the text after the count is known (not while a stream writes it).
  if (after.data() == nullptr) return false;
  if (en_list_after_noun(after, a.norm.find(' ') != std::string::npos, false) == n) return true;
  const size_t reach = std::min(after.size(), kMaxCountedNoun + 3);
  for (std::string_view colon : {std::string_view("："), std::string_view(": ")}) {
    const size_t at = after.substr(0, reach).find(colon);
    if (at == std::string_view::npos) continue;
    const std::string_view noun = after.substr(0, at);
    const bool plain =
        std::none_of(noun.begin(), noun.end(), [](char c) { return c == ',' || c == '.' || c == ';'; }) &&
        noun.find("，") == std::string_view::npos && noun.find("。") == std::string_view::npos;
    if (plain && listed_after_colon(after.substr(at + colon.size()), noun) == n) return true;
  }
  return !after.empty() && static_cast<unsigned char>(after.front()) >= 0x80 && listed_in_clause(after) == n;
}

}  // namespace sfcl::verify
