// Roles (docs/ANCHORS.md, "Roles"): a value is right only in its place. A confirmed value whose text
// says what it is the value of ("the total due is $18,240.00", "arrested on March 26", "Monday to
// Thursday from 5:00 PM") is compared with the source values stated under that same role. The
// evidence must be positive on both sides: the sources state a value of the type under that role,
// none of those equals the answer's, and every source occurrence of the answer's value is stated
// under another role. Then the value is `unsupported` with reason `other_field`, as a value under
// another field's label is. A role that the answer does not write, or that the sources never use,
// binds nothing.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "util/utf8.h"
#include "verify/derived.h"
#include "verify/verify.h"

namespace sfcl::verify {

using anchor::Anchor;
using anchor::Type;

bool has_role(Type t) {
  switch (t) {
    case Type::number:
    case Type::amount:
    case Type::percent:
    case Type::date:
    case Type::duration:
    case Type::quantity:
    case Type::time:
    case Type::identifier:
      return true;
    default:
      return false;
  }
}

void Checker::cap_unread_role(const Anchor& a, CheckResult& r) const {
  if (r.verdict != Verdict::confirmed || r.role_matched || !has_role(a.type)) return;
  r.confidence = std::min(r.confidence, std::max(kRoleUnread, options_.threshold_for(a.type)));
}

void Checker::misattributed(CheckResult& r) {
  r.verdict = Verdict::unsupported;
  r.reason = Reason::other_field;
  r.other_field = true;
  r.support = -1;
  r.span = {};
  r.verbatim = false;
  r.role_matched = false;
  r.role = {};
}

// A time of day stated for days of the week ("Monday to Thursday from 5:00 PM to 9:00 PM") must be
// one of the times the sources state for each of those days they list (a record's "'Monday':
// '17:0-21:0'"), the days the sentence later gives another time aside. True when the days decided
// the verdict.
bool Checker::bind_to_days(const Anchor& a, std::string_view before, std::string_view after, CheckResult& r) {
  const uint8_t named = anchor::weekdays_of_time(before, after);
  // Days the sentence gives another time later are its exceptions, not this time's.
  const auto days = static_cast<uint8_t>(named & ~anchor::weekdays_excepted(before, after));
  if (days == 0) return false;
  const auto& all = index_.anchors();
  const float threshold = options_.threshold_for(a.type);
  uint8_t stated = 0;   // days the sources state times for
  uint8_t matched = 0;  // days one of whose times is this one
  int64_t hit = -1;
  for (uint32_t i : index_.of_type(Type::time)) {
    const auto d = static_cast<uint8_t>(all[i].days & days);
    // Records write "0:0-0:0" for a day whose hours they do not know (or round the clock).
    if (d == 0 || (all[i].anchor.norm == "00:00" && a.norm != "00:00")) continue;
    stated = static_cast<uint8_t>(stated | d);
    if (similarity(a, i) >= threshold) {
      matched = static_cast<uint8_t>(matched | d);
      if (hit < 0) hit = i;
    }
  }
  if (stated == 0) return false;
  if (matched != stated) {
    misattributed(r);
    return true;
  }
  r.support = hit;
  r.verbatim = false;
  r.role_matched = true;
  r.role = "days of the week";
  cite(r);
  return true;
}

namespace {
// The role a field label gives its values: its last word ("Account manager": "manager"), or its
// last two characters in Chinese (客户经理: 经理), as role_before reads an answer's role.
std::string_view field_role(std::string_view field) {
  while (!field.empty() && (field.back() == ' ' || field.back() == ':')) field.remove_suffix(1);
  if (field.size() >= 6 && static_cast<unsigned char>(field.back()) >= 0x80) return field.substr(field.size() - 6);
  const size_t sp = field.rfind(' ');
  return sp == std::string_view::npos ? field : field.substr(sp + 1);
}
}  // namespace

// A name the answer gives a role ("the account manager is Jane Smith", 客户经理是张伟) against the
// names the sources list under a field of that role ("Account manager: Bob Lee"): names in prose
// carry too many incidental words before them to compare, so only labelled source names count, and
// the answer's name is misattributed only where every source occurrence of it is under another label.
void Checker::bind_name_to_field(const Anchor& a, std::string_view before, std::string_view after, CheckResult& r) {
  // "the account manager of Jane Smith": the name the role is of, not the role's holder.
  std::string_view b = before;
  while (!b.empty() && b.back() == ' ') b.remove_suffix(1);
  if (b.ends_with(" of") || b.ends_with(" for") || b.ends_with("的")) return;
  const std::string_view role = anchor::role_of(before, after);
  if (role.empty()) return;
  const auto& all = index_.anchors();
  const float threshold = options_.threshold_for(a.type);
  bool stated = false;
  for (uint32_t i : index_.of_type(Type::name)) {
    if (all[i].field.empty() || !anchor::same_role(field_role(all[i].field), role)) continue;
    stated = true;
    if (similarity(a, i) >= threshold) return;
  }
  if (!stated) return;
  bool elsewhere = false;
  for (uint32_t i : index_.of_type(Type::name)) {
    if (similarity(a, i) < threshold) continue;
    if (all[i].field.empty()) return;
    elsewhere = true;
  }
  if (elsewhere) misattributed(r);
}

void Checker::bind_to_role(const Anchor& a, std::string_view before, std::string_view after, CheckResult& r) {
  if (r.verdict == Verdict::confirmed && a.type == Type::name) return bind_name_to_field(a, before, after, r);
  if (r.verdict != Verdict::confirmed || !has_role(a.type)) return;
  if (a.type == Type::time && bind_to_days(a, before, after, r)) return;
  std::string_view role = anchor::role_of(before, after);
  // A role read only in an answer (the verb after 于, or past an object) is one reading of several:
  // a source occurrence with a role of its own then needs its sentence to share nothing with the
  // answer's clause before it counts as another role's ("5床李某……，2025年3月14日回家" may be "李某于
  // 2025年3月14日出院").
  const bool answer_only = role.empty();
  if (answer_only) role = anchor::answer_role_of(before, after);
  if (role.empty()) return;
  if (is_decade(a)) return bind_decade_to_role(a, role, r);
  const auto& all = index_.anchors();
  const auto candidates = a.type == Type::number ? std::span<const uint32_t>(numeric_) : index_.of_type(a.type);
  const float threshold = options_.threshold_for(a.type);
  bool stated = false;
  // Stated under a field's label with a value of the answer's type and unit ("Discharged: 11 March
  // 2025"; "6 feet" states no length a bare 70 is of).
  bool stated_in_field = false;
  for (uint32_t i : candidates) {
    if (!anchor::same_role(all[i].role, role)) continue;
    stated = true;
    // The role read from the label itself, not from prose after a heading's colon ("price list: the
    // consultation fee is $150").
    stated_in_field = stated_in_field || (all[i].field.find(all[i].role) != std::string::npos &&
                                          all[i].anchor.type == a.type && unit_of(all[i].anchor) == unit_of(a));
    if (similarity(a, i) >= threshold) {
      r.support = i;
      r.verbatim = false;
      r.role_matched = true;
      r.role = all[i].role;
      cite(r);
      return;
    }
  }
  if (!stated) return;
  // The value under the role the answer gives is another one. Misattributed only where every source
  // occurrence of this value has a role of its own, or, where the sources state the role under a
  // field's label, has none read and a sentence that writes neither the role nor anything the
  // answer's clause says the value is of ("Patient B … went home on 6 March 2025" may be "Patient B
  // was discharged on 6 March 2025"). Prose states one event in too many words, across sentences and
  // pronouns ("She took over the role in 2021", 始建于1952年), for its silence to say anything.
  std::array<std::string_view, anchor::kSubjectWords> subject{};
  size_t subject_size = 0;
  bool subject_read = false;
  bool elsewhere = false;
  for (uint32_t i : candidates) {
    if (similarity(a, i) < threshold) continue;
    if (all[i].role.empty() && (!stated_in_field || sentence_states_role(i, role))) return;
    if (all[i].role.empty() || answer_only) {
      if (!subject_read) subject_size = anchor::subject_words(before, role, subject);
      subject_read = true;
      if (subject_size > 0 && index_.sentence_writes(i, std::span(subject).first(subject_size))) return;
    }
    elsewhere = true;
  }
  if (elsewhere) misattributed(r);
}

// Whether the sentence of source value `i` writes the role (or a word of its group) anywhere:
// "She was a married 34-year-old teacher … in 1996" may state 1996 as the year she was married where
// role_before read nothing, while "Echocardiography on 5 March 2025 showed" states no discharge.
bool Checker::sentence_states_role(uint32_t i, std::string_view role) const {
  if (index_.anchors()[i].source < 0) return true;  // a knowledge entry has no sentence to read
  const auto words = anchor::role_words(role);
  return index_.sentence_writes(i, words);
}

// "founded in the 1960s": the sources' years and dates of that role must fall in the decade ("founded
// in 1995" does not; the CEO "born in 1962" is another role's year).
void Checker::bind_decade_to_role(const Anchor& a, std::string_view role, CheckResult& r) {
  const auto& all = index_.anchors();
  bool stated = false;
  bool elsewhere = false;
  for (Type t : {Type::date, Type::number}) {
    for (uint32_t i : index_.of_type(t)) {
      const bool year = t == Type::date || year_of(all[i].anchor.norm);
      if (!year) continue;
      const bool inside = year_in_decade(a, i);
      if (anchor::same_role(all[i].role, role)) {
        stated = true;
        if (inside) {
          r.support = i;
          r.role_matched = true;
          r.role = all[i].role;
          cite(r);
          return;
        }
      } else if (inside) {
        if (all[i].role.empty()) return;  // a year in the decade with no role read may be this one
        elsewhere = true;
      }
    }
  }
  if (stated && elsewhere) misattributed(r);
}

namespace {
// Chinese measure words that count things, whose noun follows them (15个进球, 10位球员); not the
// ones that count events or ranks (两次, 3轮, 第2届), nor units of measure (normalised to ASCII).
constexpr std::string_view kNominalMeasures[] = {"个", "人", "台", "家", "件", "座", "项", "架", "艘", "只",
                                                 "条", "所", "户", "套", "部", "枚", "颗", "张", "篇", "首",
                                                 "支", "批", "株", "头", "间", "栋", "处", "份", "辆", "册",
                                                 "本", "床"};
// The first two Han characters of `text`, past opening quotes; empty when it has no two.
std::string_view han_lead(std::string_view text) {
  for (std::string_view q : {"“", "「", "《", "\""}) {
    if (text.starts_with(q)) {
      text.remove_prefix(q.size());
      break;
    }
  }
  constexpr size_t kTwo = 6;
  for (size_t i = 0; i < kTwo; i += 3) {
    if (i + 3 > text.size()) return {};
    const auto d = utf8::decode(text, i);
    if (d.length != 3 || d.cp < 0x4E00 || d.cp > 0x9FFF) return {};
  }
  return text.substr(0, kTwo);
}

constexpr double kFirstYear = 1000;  // whole numbers from here to kLastYear may be years ("In 2019 prices rose")
constexpr double kLastYear = 2100;

// What a count counts as the answer wrote it: the plural noun after a whole number ("80 owners"; not
// a year), an English unit that counts ("14 flights"), or what follows a Chinese measure word that
// counts things ("15个进球"). Empty when the value counts nothing that can be read.
std::string_view noun_of(const Anchor& a, std::string_view surface, std::string_view before, std::string_view after) {
  if (a.type == Type::number) {
    const bool count = a.value >= 2 && a.value == std::floor(a.value) && (a.value < kFirstYear || a.value > kLastYear);
    return count ? anchor::counted_noun(before, after, false) : std::string_view{};
  }
  if (a.type != Type::quantity || a.norm.starts_with('#')) return {};
  // In words the number may itself be hyphenated ("thirty-one passengers"): its noun is the last word.
  const size_t sp =
      std::isalpha(static_cast<unsigned char>(surface.front())) && surface.find(' ') != std::string_view::npos
          ? surface.rfind(' ')
          : surface.find_first_of(" -");
  if (sp != std::string_view::npos) return anchor::counted_noun(before, surface.substr(sp), false);
  const size_t unit_at = a.norm.find(' ');
  if (unit_at == std::string::npos) return {};
  const std::string_view unit = std::string_view(a.norm).substr(unit_at + 1);
  const bool counts_things =
      std::find(std::begin(kNominalMeasures), std::end(kNominalMeasures), unit) != std::end(kNominalMeasures);
  // 人 is itself what is counted ("两万人坚守"): a verb follows it, not a noun.
  return counts_things && !surface.ends_with("人") ? anchor::counted_noun(before, after, true) : std::string_view{};
}
}  // namespace

// Whether a source counts what the count counts with another number: the same English unit ("five
// members" against the answer's "Ann, Bob and Cy, three members in all"), or the same measure word
// before the same two characters ("四场比赛" against "三场比赛：…"; the noun right after, as a clause
// that merely mentions it says nothing of the count), where that count is one a list could give
// (12 at most). Then the answer's own list is not the whole of it, and its count no list_count.
bool Checker::counted_otherwise(const Anchor& a, std::string_view surface, std::string_view before,
                                std::string_view after) const {
  // Days of the week the answer names ("just two days, Sunday and Monday") against the sources' own
  // count of days in a week ("three days a week: Sunday, Monday and Friday").
  if (a.type == Type::duration) {
    constexpr double kWeek = 7;
    const auto days = index_.of_type(Type::duration);
    const auto& all = index_.anchors();
    return a.norm.ends_with(" day") && std::any_of(days.begin(), days.end(), [&](uint32_t i) {
             const Anchor& s = all[i].anchor;
             return s.norm.ends_with(" day") && s.value != a.value && s.value <= kWeek;
           });
  }
  if (a.norm.starts_with('#') || (a.type != Type::quantity && a.type != Type::number)) return false;
  const size_t unit_at = a.norm.find(' ');
  const std::string_view unit =
      unit_at == std::string::npos ? std::string_view{} : std::string_view(a.norm).substr(unit_at + 1);
  const bool han = !unit.empty() && static_cast<unsigned char>(unit.back()) >= 0x80;
  // What is counted: in English the noun bind_to_count reads ("three laureates"; a quantity's own in
  // a stream too), in Chinese the two characters after the measure word (三场比赛, 三个“首次”).
  const std::string_view noun = han ? han_lead(after) : noun_of(a, surface, before, after);
  if (noun.empty()) return false;
  const auto& all = index_.anchors();
  for (uint32_t i : numeric_) {
    const Anchor& s = all[i].anchor;
    // Only a count one could list: "376只股票" traded gives no count of the four the answer names.
    if (s.value == a.value || s.value > kMaxListed || s.norm.starts_with('#')) continue;
    const std::string_view clause = index_.counted(i);
    if (!han) {
      if (anchor::counts(noun, clause, all[i].counted_after) == anchor::Counted::same) return true;
    } else if (s.norm.ends_with(unit) &&
               han_lead(clause.substr(std::min<size_t>(all[i].counted_after, clause.size()))) == noun) {
      return true;
    }
  }
  return false;
}

// A confirmed count is right only for what it counts: "80 owners" where every source 80 counts
// something else ("80 residents") is another value in the same digits, and so is "15个进球" against
// the sources' "15个国家". One source occurrence that counts the same noun, or whose noun cannot be
// read, keeps the confirmation. Only where the whole sentence is known (`after` not null).
void Checker::bind_to_count(const Anchor& a, std::string_view surface, std::string_view before,
                            std::string_view after, CheckResult& r) {
  if (r.verdict != Verdict::confirmed || after.data() == nullptr) return;
  const std::string_view noun = noun_of(a, surface, before, after);
  if (noun.empty()) return;
  const auto& all = index_.anchors();
  const float threshold = options_.threshold_for(a.type);
  bool other = false;
  for (uint32_t i : numeric_) {
    const Anchor& s = all[i].anchor;
    // The same value: equal, or a quantity's number written alone (quantity_by_number).
    const bool equal = static_cast<int64_t>(i) == r.support || similarity(a, i) >= threshold ||
                       (a.type == Type::quantity && s.type == Type::number && s.value == a.value);
    if (!equal) continue;
    if (all[i].text.ends_with("人")) return;  // persons: any noun of people is theirs
    // The same English unit in another spelling ("20 kilometres", "20 kilometers"): the lexer's norm
    // decided. (A Chinese measure word's norm says nothing of the noun after it.)
    if (s.type == Type::quantity && s.norm == a.norm && static_cast<unsigned char>(a.norm.back()) < 0x80) return;
    switch (anchor::counts(noun, index_.counted(i), all[i].counted_after)) {
      case anchor::Counted::same:
        // Cited where it counts the same noun, unless bind_to_role cited the occurrence of its role.
        if (!r.role_matched) {
          r.support = i;
          r.verbatim = false;
          r.role_matched = true;
          r.role = noun;
          cite(r);
        }
        return;
      case anchor::Counted::unknown:
        return;
      case anchor::Counted::other:
        other = true;
        break;
    }
  }
  if (!other) return;
  // The count of a list the answer writes beside it ("…天津港补贴资金和社会捐助四部分"): its own count,
  // whatever the sources count with the same number.
  if (counts_own_list(a, before, after) && !counted_otherwise(a, surface, before, after)) {
    r.verdict = Verdict::derived;
    r.derivation = Derivation::list_count;
    r.support = -1;
    r.confidence = 1.0F;
    r.span = {};
    r.verbatim = false;
    return;
  }
  // A small count in words that the sources give only for other nouns is the answer's own count
  // ("the two men" where they write "two players" and name both): unverifiable, not misattributed.
  if (count_in_words_unverifiable(a, surface, before, after)) {
    r.verdict = Verdict::unverifiable;
    r.support = -1;
    r.confidence = 0.0F;
    return;
  }
  misattributed(r);
}

// A small count written in English words ("two films", "three tries") that no source value supports is most often
// counted by the answer itself from what the sources list ("the passage describes two films"), so
// it is unsupported only where a source gives the same noun another count ("twelve floors" against
// "12 floors"); elsewhere it stays unverifiable (docs/ANCHORS.md, "Numbers in words").
bool Checker::count_in_words_unverifiable(const Anchor& a, std::string_view surface, std::string_view before,
                                          std::string_view after) const {
  constexpr double kListed = 10;  // longer lists are rarely counted by the answer
  if ((a.type != Type::number && a.type != Type::quantity) || !(a.value <= kListed) || after.data() == nullptr ||
      surface.empty() || !std::isalpha(static_cast<unsigned char>(surface.front()))) {
    return false;
  }
  if (a.type == Type::quantity) {  // a measure ("two kilograms") or how often ("three times") counts no list
    anchor::UnitScale scale;
    const size_t sp = a.norm.find(' ');
    if (a.norm.starts_with('#') || sp == std::string::npos || anchor::unit_scale(a.norm.substr(sp + 1), scale)) {
      return false;
    }
    // How often ("married twice", "three times a day"): unsupported where the sources say how often
    // with another count ("twice daily"), else counted by the answer from the events listed.
    if (a.norm.ends_with("次")) {
      const auto& all = index_.anchors();
      for (uint32_t i : index_.of_type(Type::quantity)) {
        if (all[i].anchor.norm.ends_with("次") && all[i].anchor.value != a.value) return false;
      }
      return true;
    }
  }
  const std::string_view noun = noun_of(a, surface, before, after);
  if (noun.empty()) return true;
  const auto& all = index_.anchors();
  for (uint32_t i : numeric_) {
    const Anchor& s = all[i].anchor;
    const bool year = s.type == Type::number && s.value >= kFirstYear && s.value <= kLastYear;
    if (s.value != a.value && !year &&
        anchor::counts(noun, index_.counted(i), all[i].counted_after) == anchor::Counted::same) {
      return false;
    }
  }
  return true;
}

}  // namespace sfcl::verify
