// Anchors of a request's sources (prompt, documents) and knowledge base, indexed for the checker.
#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"
#include "anchor/source_dates.h"
#include "util/lines.h"

namespace sfcl::anchor {

namespace {
std::string exact_key(Type type, std::string_view norm) {
  std::string k;
  k.reserve(norm.size() + 1);
  k.push_back(static_cast<char>(type));
  k.append(norm);
  return k;
}

}  // namespace

SourceIndex::SourceIndex(std::shared_ptr<const SourceIndex> base)
    : options_(base->options_),
      base_(std::move(base)),
      base_size_(base_->size()),
      by_type_(base_->by_type_),
      n_sources_(base_->n_sources_) {
  // A base is flat (its own base merged away would need a chain); one level is what the server uses.
  if (base_->base_) throw std::logic_error("SourceIndex: the base index must not have a base itself");
}

void SourceIndex::add(const Anchor& a, int32_t source, std::string_view text, std::string_view field, bool part) {
  const auto idx = static_cast<uint32_t>(size());
  anchors_.push_back({a, source, std::string(text), std::string(field), {}, part});
  if (a.type == Type::name) name_trigrams(a.norm, anchors_.back().grams);
  by_type_[static_cast<size_t>(a.type)].push_back(idx);
  exact_.emplace(exact_key(a.type, a.norm), idx);
  if (!a.alt_norm.empty()) exact_.emplace(exact_key(a.type, a.alt_norm), idx);
}

// A name the lexer joined at a connector ("John Smith of Acme Robotics Ltd.", "Grace Hughes and
// Acme Ltd.") also supports each part that is a name on its own, so an answer naming only the
// person or only the company is grounded. "Bank of China" adds nothing: "Bank" and "China" are not
// names by themselves. A name with an honorific supports the name without it ("Dr. Chloe Turner":
// "Chloe Turner"), which answers often write.
void SourceIndex::add_name_parts(const Anchor& joined, int32_t source, std::string_view text, std::string_view field) {
  const std::string_view surface = text.substr(joined.start, joined.end - joined.start);
  std::vector<Anchor> found;
  auto add_part = [&](size_t from, size_t to) {
    const std::string_view part = surface.substr(from, to - from);
    found.clear();
    extract_into(part, found, options_);
    for (auto a : found) {
      if (a.type != Type::name || a.start != 0 || a.end != part.size() || a.norm == joined.norm) continue;
      a.start += static_cast<uint32_t>(joined.start + from);
      a.end += static_cast<uint32_t>(joined.start + from);
      add(a, source, text.substr(a.start, a.end - a.start), field);
    }
  };
  for (std::string_view h : kHonorifics) {
    if (surface.size() > h.size() + 1 && surface.starts_with(h) && surface[h.size()] == ' ') {
      add_part(h.size() + 1, surface.size());
      break;
    }
  }
  // "Gary R. Herbert" supports "Gary Herbert": answers drop a middle initial (a part, so that an
  // answer's other initial finds no support in it: verify/checker.cpp, find_written).
  if (const size_t at = middle_initial_at(joined.norm); at != std::string::npos) {
    Anchor plain = joined;
    plain.norm.erase(at, 3);
    add(plain, source, surface, field, true);
  }
  std::vector<size_t> cuts;  // [part start, part end) pairs, in surface offsets
  size_t from = 0;
  for (size_t i = 0; i < surface.size(); ++i) {
    if (surface[i] != ' ') continue;
    for (std::string_view c : kNameConnectors) {
      if (surface.substr(i + 1, c.size()) == c && i + 1 + c.size() < surface.size() &&
          surface[i + 1 + c.size()] == ' ') {
        cuts.push_back(from);
        cuts.push_back(i);
        from = i + c.size() + 2;
        break;
      }
    }
  }
  if (cuts.empty()) return;
  cuts.push_back(from);
  cuts.push_back(surface.size());
  for (size_t k = 0; k + 1 < cuts.size(); k += 2) add_part(cuts[k], cuts[k + 1]);
  add_shared_surname(joined, source, surface, cuts, field);
}

// "Sharon and Korey Rademacher" names Sharon Rademacher too: two given names share the surname after
// the second. Only a one-word name before the connector and a two-word one after it.
void SourceIndex::add_shared_surname(const Anchor& joined, int32_t source, std::string_view surface,
                                     const std::vector<size_t>& cuts, std::string_view field) {
  if (cuts.size() != 4) return;
  const std::string_view first = surface.substr(cuts[0], cuts[1] - cuts[0]);
  const std::string_view second = surface.substr(cuts[2], cuts[3] - cuts[2]);
  const size_t sp = second.find(' ');
  if (first.find(' ') != std::string_view::npos || sp == std::string_view::npos ||
      second.find(' ', sp + 1) != std::string_view::npos) {
    return;
  }
  std::string alias(first);
  alias += second.substr(sp);
  std::vector<Anchor> found;
  extract_into(alias, found, options_);
  if (found.size() != 1 || found[0].type != Type::name || found[0].end != alias.size()) return;
  Anchor a = found[0];
  a.start = joined.start;
  a.end = joined.end;
  add(a, source, surface, field, true);
}

// A person's age written as news writes it, "Burns, 64, died", "Smith (21)", "Richard, who was 8,"
// or "aged 64", is the duration an answer writes as "64 years old" or "a 21-year-old": indexed as
// that duration too (a part, never a value the constrain fallback writes). A bare number only right
// after a capitalised word or a noun for a person ("the man, 30,"), so a list of numbers ("3, 4, 5")
// states no ages.
namespace {
bool age_apposition(std::string_view text, bool uncased, const Anchor& a, Anchor& age) {
  if (a.type != Type::number || !(a.value >= 1 && a.value <= 120) || a.value != static_cast<int>(a.value)) return false;
  if (a.start < 3 || a.end >= text.size()) return false;
  // "Martin Richard, who was 8," "aged 64": the age said in words.
  const std::string_view lead = text.substr(0, a.start);
  for (std::string_view w : {", who was ", ", who is ", " aged "}) {
    if (lead.ends_with(w) && !is_digit(text[a.end])) {
      age = a;
      age.type = Type::duration;
      age.norm += " year";
      return true;
    }
  }
  // Commas around it, spaces or not ("Burns, 64,", an untokenised "hardy,  89,  is").
  size_t b = a.start;
  while (b > 0 && text[b - 1] == ' ') --b;
  size_t e = a.end;
  while (e < text.size() && text[e] == ' ') ++e;
  const bool comma = b > 0 && b < a.start && text[b - 1] == ',' && e < text.size() && text[e] == ',';
  const bool paren = text[a.start - 1] == '(' && text[a.end] == ')';
  if (!comma && !paren) return false;
  size_t k = comma ? b - 1 : a.start - 1;
  while (k > 0 && text[k - 1] == ' ') --k;
  size_t w = k;
  while (w > 0 && is_alpha(static_cast<unsigned char>(text[w - 1]))) --w;
  if (w == k) return false;
  // After a name, or a noun for a person ("The former Manchester City man, 30,").
  static constexpr std::string_view kPersons[] = {
      "man",    "woman",   "boy",        "girl",     "mother",     "father",  "son",    "daughter", "wife",  "husband",
      "player", "striker", "midfielder", "defender", "goalkeeper", "forward", "winger", "teenager", "actor", "actress",
      "singer", "driver",  "officer",    "victim",   "suspect",    "student", "worker", "resident", "mum",   "dad"};
  const std::string_view word = text.substr(w, k - w);
  const bool person = std::find(std::begin(kPersons), std::end(kPersons), word) != std::end(kPersons);
  // A source stored all in lower case ("mr hardy , 89 ,") writes names so too.
  if (!person && !is_upper(static_cast<unsigned char>(text[w])) && !uncased) return false;
  age = a;
  age.type = Type::duration;
  age.norm += " year";
  return true;
}
}  // namespace

// Each side of a score supports the number written alone ("won by 27 points" for "27-24"); like a
// date's year, it is never a value the constrain fallback writes.
void SourceIndex::add_score_sides(const Anchor& score, int32_t source, std::string_view text, std::string_view field) {
  const std::string_view n = score.norm;
  const size_t dash = n.find('-');
  if (dash == std::string_view::npos) return;
  const size_t sp = n.find(' ', dash);
  const std::string_view written = text.substr(score.start, score.end - score.start);
  size_t from = 0;
  for (const std::string_view side :
       {n.substr(0, dash), n.substr(dash + 1, sp == std::string_view::npos ? sp : sp - dash - 1)}) {
    const size_t at = written.find(side, from);
    if (at == std::string_view::npos) return;
    from = at + side.size();
    Anchor part;
    part.type = Type::number;
    part.start = score.start + static_cast<uint32_t>(at);
    part.end = part.start + static_cast<uint32_t>(side.size());
    part.norm = std::string(side);
    part.value = std::stod(part.norm);
    add(part, source, text.substr(part.start, side.size()), field, true);
  }
}

// The values inside a cited title ("《关于开展2017年联合追逃行动的谅解备忘录》", "《办法（试行）》2005年"): the
// title is one anchor, but an answer that writes its year or count alone is grounded by it.
void SourceIndex::add_cited_values(const Anchor& cited, int32_t source, std::string_view text, std::string_view field) {
  const std::string_view surface = text.substr(cited.start, cited.end - cited.start);
  std::vector<Anchor> found;
  size_t from = 0;
  while (from < surface.size()) {
    size_t to = surface.size();
    for (std::string_view mark : {"《", "》", "〈", "〉"}) to = std::min(to, surface.find(mark, from));
    if (to > from) {
      found.clear();
      extract_into(surface.substr(from, to - from), found, options_);
      for (auto a : found) {
        if (a.type == Type::citation || a.type == Type::title || a.type == Type::name) continue;
        a.start += static_cast<uint32_t>(cited.start + from);
        a.end += static_cast<uint32_t>(cited.start + from);
        add(a, source, text.substr(a.start, a.end - a.start), field, true);
      }
    }
    from = to == surface.size() ? to : to + 3;  // every mark is 3 bytes
  }
}

namespace {
// "9:00 to 21:00", "June 3 – June 7", "3月1日至3月5日": two times or two dates written as the ends
// of one range.
bool range_joint(std::string_view text, const Anchor& a, const Anchor& b) {
  if (a.type != b.type || (a.type != Type::time && a.type != Type::date) || b.start < a.end) return false;
  std::string_view gap = text.substr(a.end, b.start - a.end);
  // "Monday, June 3 to Friday, June 7": the weekday of the range's end is no part of the joint.
  for (std::string_view day : {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}) {
    for (std::string_view sep : {", ", " "}) {
      const size_t n = day.size() + sep.size();
      if (a.type == Type::date && gap.size() > n && gap.substr(gap.size() - n, day.size()) == day &&
          gap.ends_with(sep)) {
        gap.remove_suffix(n);
      }
    }
  }
  for (std::string_view j :
       {" to ", "-", " - ", "–", " – ", "—", " through ", " until ", " till ", "至", "到", "~", "～"}) {
    if (gap == j) return true;
  }
  return a.type == Type::time && gap == " and ";  // "between 2 pm and 4 pm" (two dates so joined are a list)
}
}  // namespace

// The year of a date, cited and offered to the constrain fallback as the year's own digits, never
// the whole date.
void SourceIndex::add_year_of_date(const Anchor& a, int32_t id, std::string_view text, std::string_view field) {
  Anchor year;
  if (a.type != Type::date || a.norm.size() <= 4 || !year_of_date(a, year)) return;
  const size_t at = text.substr(a.start, a.end - a.start).find(year.norm);
  if (at == std::string_view::npos) return;
  year.start = a.start + static_cast<uint32_t>(at);
  year.end = year.start + static_cast<uint32_t>(year.norm.size());
  add(year, id, text.substr(year.start, year.norm.size()), field, true);
}

int32_t SourceIndex::add_source(std::string_view given) {
  const int32_t id = n_sources_++;
  const std::string untokenised = untokenise(given);
  const std::string_view text = untokenised.empty() ? given : std::string_view(untokenised);
  if (text.find_first_not_of(" \t\r\n") != std::string_view::npos) {
    add_text(text);
    texts_.back().id = id;
    texts_.back().sentence_starts = sentence_starts(text);
  }
  std::vector<Anchor> found;
  extract_into(text, found, options_);
  LineFieldScanner fields(text);  // anchors come in text order: one pass labels them all
  const bool uncased =
      std::none_of(text.begin(), text.end(), [](char c) { return is_upper(static_cast<unsigned char>(c)); });
  DatelineMonth dateline;
  const int the_year = sole_year(text, found);
  SourceClauses clauses;
  for (const auto& a : found) {
    const std::string_view field = fields.label_at(a.start);
    const size_t first = anchors_.size();
    add(a, id, text.substr(a.start, a.end - a.start), field);
    if (a.type == Type::name) add_name_parts(a, id, text, field);
    if (a.type == Type::score) add_score_sides(a, id, text, field);
    if (a.type == Type::citation || a.type == Type::title) add_cited_values(a, id, text, field);
    if (Anchor age; age_apposition(text, uncased, a, age))
      add(age, id, text.substr(a.start, a.end - a.start), field, true);
    if (Anchor full; dateline.date_of(a, full)) add(full, id, text.substr(a.start, a.end - a.start), field, true);
    if (Anchor full; in_sole_year(a, the_year, full)) add(full, id, text.substr(a.start, a.end - a.start), field, true);
    dateline.see(a);
    add_year_of_date(a, id, text, field);
    // Its role, and its parts' (the year of "born 14 March 1976" was a birth's too).
    const std::string_view role = role_of(text.substr(0, a.start), text.substr(a.end));
    ClauseWords words_before;
    ClauseWords words_after;
    clauses.next(text, a, words_before, words_after);
    uint8_t days = 0;
    if (a.type == Type::time) {
      days = weekdays(field);
      if (days == 0) days = weekdays_of_time(text.substr(0, a.start), text.substr(a.end));
    }
    const bool counts = a.type == Type::number || a.type == Type::quantity || a.type == Type::duration;
    const CountedText counted = counts ? counted_text(text, a) : CountedText{};
    const float share = is_numeric(a.type) ? stated_share(text, a) : 0.0F;
    const Event event = a.type == Type::number || a.type == Type::quantity
                            ? event_of(text.substr(0, a.start), text.substr(a.end))
                            : Event::none;
    const auto counted_at = static_cast<uint32_t>(counted_pool_.size());
    counted_pool_.append(counted.clause);
    for (size_t k = first; k < anchors_.size(); ++k) {
      anchors_[k].role = role;
      anchors_[k].words_before = words_before;
      anchors_[k].words_after = words_after;
      anchors_[k].sentence = clauses.sentence();
      anchors_[k].days = days;
      anchors_[k].counted_at = counted_at;
      anchors_[k].counted_len = static_cast<uint16_t>(counted.clause.size());
      anchors_[k].counted_after = static_cast<uint16_t>(counted.after);
      anchors_[k].event = event;
    }
    if (first < anchors_.size()) anchors_[first].share = share;  // the whole value's, not its parts'
    const size_t next = static_cast<size_t>(&a - found.data()) + 1;
    if (first < anchors_.size() && next < found.size() && range_joint(text, a, found[next])) {
      anchors_[first].range_start = true;
    }
  }
  add_list_counts(text, found);
  if (!texts_.empty() && texts_.back().id == id) {
    auto& t = texts_.back();
    for (const auto& a : found) {
      t.anchor_spans.emplace_back(a.start, a.end);
      t.anchor_ends.push_back(a.end);
    }
    std::sort(t.anchor_spans.begin(), t.anchor_spans.end());
    std::sort(t.anchor_ends.begin(), t.anchor_ends.end());
  }
  return id;
}

std::string_view SourceIndex::counted(size_t i) const {
  const SourceAnchor& s = anchors()[i];
  const std::string& pool = i < base_size_ ? base_->counted_pool_ : counted_pool_;
  return std::string_view(pool).substr(s.counted_at, s.counted_len);
}

namespace {
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kWeekdayNames = {{{"Monday", "星期一"},
                                                                                         {"Tuesday", "星期二"},
                                                                                         {"Wednesday", "星期三"},
                                                                                         {"Thursday", "星期四"},
                                                                                         {"Friday", "星期五"},
                                                                                         {"Saturday", "星期六"},
                                                                                         {"Sunday", "星期日"}}};
}  // namespace

// Lists of three or more names are counted (two names in a sentence are too common to be a list an
// answer counts). Sentences end at a newline, "。", "；", ";" or ". " (not the dot of "Ltd." or "1.5": a dot
// followed by a space and a capital or the end).
void SourceIndex::add_list_counts(std::string_view text, const std::vector<Anchor>& found) {
  auto boundary_between = [&](size_t from, size_t to) {
    const std::string_view gap = text.substr(from, to - from);
    if (gap.find('\n') != std::string_view::npos || gap.find(';') != std::string_view::npos) return true;
    if (gap.find("\xE3\x80\x82") != std::string_view::npos || gap.find("\xEF\xBC\x9B") != std::string_view::npos) {
      return true;
    }
    for (size_t i = gap.find(". "); i != std::string_view::npos; i = gap.find(". ", i + 1)) {
      if (i + 2 >= gap.size() || is_upper(static_cast<unsigned char>(gap[i + 2]))) return true;
    }
    return false;
  };
  // A name the lexer joined at a connector ("Beta LLC and Gamma Inc.") counts each part.
  auto parts = [&](const Anchor& a) {
    const std::string_view s = text.substr(a.start, a.end - a.start);
    uint32_t n = 1;
    for (std::string_view sep : {" and ", " & ", ", "}) {
      for (size_t i = s.find(sep); i != std::string_view::npos; i = s.find(sep, i + 1)) ++n;
    }
    return n;
  };
  lists_the_week_ =
      lists_the_week_ || std::all_of(kWeekdayNames.begin(), kWeekdayNames.end(), [&](auto day) {
        return text.find(day.first) != std::string_view::npos || text.find(day.second) != std::string_view::npos;
      });
  uint32_t names = 0;
  size_t last_end = 0;
  for (const auto& a : found) {
    if (a.type != Type::name) continue;
    if (names > 0 && boundary_between(last_end, a.start)) {
      if (names >= 3) list_counts_.push_back(names);
      names = 0;
    }
    names += parts(a);
    last_end = a.end;
  }
  if (names >= 3) list_counts_.push_back(names);
}

void SourceIndex::add_knowledge(const std::vector<KnowledgeEntry>& entries) {
  std::vector<Anchor> found;
  for (const auto& e : entries) {
    for (const std::string* text : {&e.term, &e.value}) {
      if (text->empty()) continue;
      found.clear();
      extract_into(*text, found, options_);
      for (auto a : found) {
        const std::string_view surface = std::string_view(*text).substr(a.start, a.end - a.start);
        a.start = a.end = 0;
        add(a, -1, surface);
      }
      // A term is support in itself (names, terms of art): indexed as a name.
      Anchor term;
      term.type = Type::name;
      term.norm = fold_name(*text);
      Type declared;
      if (!e.type.empty() && parse_type(e.type, declared) && declared != Type::name && found.size() == 1) continue;
      add(term, -1, *text);
    }
    for (const auto& alias : e.aliases) {
      Anchor term;
      term.type = Type::name;
      term.norm = fold_name(alias);
      add(term, -1, alias);
    }
  }
}

std::span<const uint32_t> SourceIndex::of_type(Type type) const { return by_type_[static_cast<size_t>(type)]; }

int64_t SourceIndex::find_exact(Type type, std::string_view norm) const {
  // The checker looks up every anchor: the key is built in a buffer each thread keeps, so a
  // lookup allocates nothing once the buffer has grown (the index itself is shared, read-only).
  thread_local std::string key;
  key.assign(1, static_cast<char>(type)).append(norm);
  const auto it = exact_.find(key);
  if (it != exact_.end()) return static_cast<int64_t>(it->second);
  return base_ ? base_->find_exact(type, norm) : -1;
}

std::vector<KnowledgeEntry> load_knowledge(const std::filesystem::path& path) {
  std::vector<KnowledgeEntry> out;
  util::for_each_line(path, "knowledge file", [&](std::string_view line) {
    const auto j = nlohmann::json::parse(line);
    if (!j.is_object() || !j.contains("term") || !j["term"].is_string()) {
      throw std::runtime_error("an object with a string \"term\" is required");
    }
    KnowledgeEntry e;
    e.term = j["term"].get<std::string>();
    e.value = j.value("value", std::string());
    e.type = j.value("type", std::string());
    if (j.contains("aliases")) {
      for (const auto& a : j["aliases"]) e.aliases.push_back(a.get<std::string>());
    }
    out.push_back(std::move(e));
  });
  return out;
}

}  // namespace sfcl::anchor
