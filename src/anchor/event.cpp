// What happened to what a count counts (docs/ANCHORS.md, "Roles"): "Two people were killed and nine
// injured" gives 2 the event killed and 9 injured, "造成3人死亡、12人受伤" 3 死亡 and 12 受伤. News states
// several counts of one kind of thing in one sentence, and an answer that moves a count to another
// event ("killed nine people") writes a value of the sources in the wrong place.
#include <algorithm>
#include <array>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

namespace {
struct EventWord {
  std::string_view word;
  Event event;
};

// English words (whole words, lower case) and Chinese words that name each event.
constexpr std::array<EventWord, 40> kEventWords = {{
    {"killed", Event::killed},        {"died", Event::killed},         {"dead", Event::killed},
    {"deaths", Event::killed},        {"fatalities", Event::killed},   {"perished", Event::killed},
    {"injured", Event::injured},      {"wounded", Event::injured},     {"hurt", Event::injured},
    {"injuries", Event::injured},     {"missing", Event::missing},     {"arrested", Event::arrested},
    {"apprehended", Event::arrested}, {"detained", Event::detained},   {"rescued", Event::rescued},
    {"evacuated", Event::evacuated},  {"displaced", Event::evacuated}, {"opened", Event::opened},
    {"closed", Event::closed},        {"shut", Event::closed},         {"死亡", Event::killed},
    {"遇难", Event::killed},          {"身亡", Event::killed},         {"丧生", Event::killed},
    {"罹难", Event::killed},          {"受伤", Event::injured},        {"伤者", Event::injured},
    {"轻伤", Event::injured},         {"重伤", Event::injured},        {"失踪", Event::missing},
    {"抓获", Event::arrested},        {"被捕", Event::arrested},       {"逮捕", Event::arrested},
    {"拘留", Event::detained},        {"刑拘", Event::detained},       {"获救", Event::rescued},
    {"救出", Event::rescued},         {"伤员", Event::injured},        {"疏散", Event::evacuated},
    {"关闭", Event::closed},
}};

constexpr size_t kEnWords = 4;   // words read after an English count ("people were later killed")
constexpr size_t kZhBytes = 24;  // Chinese: eight characters each side

Event english_word(std::string_view w) {
  for (const EventWord& e : kEventWords) {
    if (static_cast<unsigned char>(e.word[0]) < 0x80 && e.word == w) return e.event;
  }
  return Event::none;
}

// Whether a clause of Chinese text ends at byte i: a digit (the next count's), ASCII, or punctuation.
bool zh_clause_end(std::string_view t, size_t i) {
  if (static_cast<unsigned char>(t[i]) < 0x80) return true;
  // 在, 时 and 后 open or close another clause inside it ("3名消防员在救出被困群众时受伤").
  for (std::string_view p : {"，", "、", "；", "。", "：", "（", "）", "在", "时", "后"}) {
    if (t.substr(i).starts_with(p)) return true;
  }
  return false;
}

// The first event word in the Han text `t` within its clause (at most kZhBytes), or none.
Event chinese_in(std::string_view t, bool from_end) {
  constexpr size_t kChar = 3;
  if (from_end) {
    size_t i = t.size();
    while (i >= kChar && t.size() - i < kZhBytes && !zh_clause_end(t, i - kChar)) i -= kChar;
    t = t.substr(i);
  } else {
    size_t i = 0;
    while (i + kChar <= t.size() && i < kZhBytes && !zh_clause_end(t, i)) i += kChar;
    t = t.substr(0, i);
  }
  // The last event word of the clause on either side: a Chinese clause ends with its predicate
  // ("3名消防员在救出被困群众时受伤" stops at 在; "12名群众在疏散过程中受伤" reads 受伤). 转移 is no event:
  // a patient is transferred to hospital as often as a resident is evacuated.
  Event found = Event::none;
  size_t best = std::string_view::npos;
  for (const EventWord& e : kEventWords) {
    if (static_cast<unsigned char>(e.word[0]) < 0x80) continue;
    const size_t at = t.rfind(e.word);
    if (at == std::string_view::npos) continue;
    if (best == std::string_view::npos || at > best) {
      best = at;
      found = e.event;
    }
  }
  // Negated: 无人受伤, 未受伤, 没有死亡.
  if (found != Event::none) {
    const std::string_view lead = t.substr(0, best);
    for (std::string_view no : {"无人", "未", "没有", "不", "无"}) {
      if (lead.ends_with(no)) return Event::none;
    }
  }
  return found;
}
}  // namespace

Event event_of(std::string_view before, std::string_view after) {
  if (!after.empty() && static_cast<unsigned char>(after[0]) >= 0x80) {
    if (const Event e = chinese_in(after, false); e != Event::none) return e;
    return chinese_in(before, true);
  }
  // After the count, its noun and what happened to them, up to the next value or punctuation: a
  // passive ("were killed"), or a participle or adjective with no object after it ("nine injured",
  // "12 people dead"); "2 gunmen killed 12 people" is what they did. Words are lower-cased into
  // buffers: the checker reads an answer's counts as they are written, with no allocation.
  constexpr size_t kWordBytes = 16;  // longer words are none of those compared here
  std::array<char, kWordBytes> word_bytes{};
  std::array<char, kWordBytes> previous_bytes{};
  std::string_view previous;
  size_t i = 0;
  for (size_t n = 0; n < kEnWords; ++n) {
    while (i < after.size() && after[i] == ' ') ++i;
    const size_t w = i;
    while (i < after.size() && is_alpha(static_cast<unsigned char>(after[i]))) ++i;
    if (i == w) break;
    std::string_view word;
    if (i - w <= kWordBytes) {
      for (size_t k = 0; k < i - w; ++k)
        word_bytes[k] = static_cast<char>(to_lower(static_cast<unsigned char>(after[w + k])));
      word = std::string_view(word_bytes.data(), i - w);
    }
    if (const Event e = english_word(word); e != Event::none) {
      if (one_of(previous, {"not", "no", "never"})) return Event::none;
      const bool passive = one_of(previous, {"were", "was", "are", "is", "been", "being", "got", "remain", "remained"});
      size_t k = i;
      while (k < after.size() && after[k] == ' ') ++k;
      const bool object = k < after.size() && k > i &&
                          (is_digit(after[k]) || after.substr(k).starts_with("the ") ||
                           after.substr(k).starts_with("at least") || after.substr(k).starts_with("some "));
      return passive || (!object && (n == 0 || one_of(word, {"dead", "missing", "injured", "wounded", "hurt"})))
                 ? e
                 : Event::none;
    }
    if ((i < after.size() && after[i] != ' ') ||
        one_of(word, {"and", "but", "while", "whereas", "or", "as", "with", "that", "who", "which"})) {
      break;  // another clause's verb: "opened 14 new stores and closed 5", "stores that opened"
    }
    previous_bytes = word_bytes;
    previous = std::string_view(previous_bytes.data(), word.size());
  }
  // Before it: the verb whose object it is ("killed nine people", "closed 5", "arrested at least 4").
  size_t j = before.size();
  for (size_t n = 0; n < 3; ++n) {
    while (j > 0 && before[j - 1] == ' ') --j;
    const size_t end = j;
    while (j > 0 && is_alpha(static_cast<unsigned char>(before[j - 1]))) --j;
    if (j == end) break;
    const std::string_view word = before.substr(j, end - j);
    if (const Event e = english_word(word); e != Event::none) return e;
    if (!one_of(word, {"at", "least", "about", "some", "nearly", "almost", "around", "the", "another", "over"})) break;
  }
  return Event::none;
}

}  // namespace sfcl::anchor
