// The "Label: value" field an anchor sits in. Records, forms, summaries and JSON state a value
// under a label; a value copied from the source under another field's label ("Opened by: Acme
// Ltd." when Acme is the account) is in the source, yet wrong. The checker binds such an anchor
// to the source values stated under the same label.
#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"

namespace sfcl::anchor {

namespace {
// What may stand between the separator and the anchor: a unit or qualifier ("within ", "Dr. ",
// "reduced by ", "每月"), not a clause. "Note: the invoice total is $5,000" states the total, not
// the note, so it binds nothing.
constexpr size_t kMaxValuePrefix = 16;
constexpr int kMaxValuePrefixWords = 2;
// FieldScope::line looks this far back for the separator: a field's line, not a whole paragraph
// (the scan runs once per source anchor, so it must stay short).
constexpr size_t kMaxLineReach = 256;
// A longer "label" is a sentence ("The parties agree as follows: ..."), not a field name.
constexpr size_t kMaxLabel = 40;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool ends_with_at(std::string_view text, size_t end, std::string_view s) {
  return end >= s.size() && text.substr(end - s.size(), s.size()) == s;
}

// Length of a segment boundary ending at byte `end` (exclusive), or 0: a line break, ';', '{',
// ',', or the CJK '；' '。' '，'.
size_t boundary_before(std::string_view text, size_t end) {
  if (end == 0) return 0;
  const char c = text[end - 1];
  if (c == '\n' || c == ';' || c == '{' || c == ',') return 1;
  for (std::string_view s : {"；", "。", "，"}) {
    if (ends_with_at(text, end, s)) return s.size();
  }
  return 0;
}

// Whether the full-width colon ending at `end` joins two numbers of a score or time ("以7：6（3）",
// "比分为2：1"): digits on both sides, the first standing alone (after punctuation, a space or a
// word that leads to a score), not the end of a label ("方案2：300万元").
bool score_colon(std::string_view text, size_t end) {
  if (end < 4 || end >= text.size() || !is_digit(text[end - 4]) || !is_digit(text[end])) return false;
  size_t start = end - 4;
  while (start > 0 && is_digit(text[start - 1])) --start;
  if (start == 0) return true;
  const std::string_view lead = text.substr(0, start);
  if (!is_alpha(static_cast<unsigned char>(lead.back())) && static_cast<unsigned char>(lead.back()) < 0x80) return true;
  for (std::string_view w : {"以", "为", "分", "是", "成", "到", "至", "、", "，", "（", "。", "；", "："}) {
    if (lead.ends_with(w)) return true;
  }
  return false;
}

// Length of a field separator ending at byte `end`: ": " (':' then a space, or '"' before it
// as in JSON) or '：'; 0 when none. "10:30" is not one, nor a score or time in full-width form
// ("以7：6（3）、6：1": no label "以7").
size_t separator_before(std::string_view text, size_t end) {
  if (ends_with_at(text, end, "：")) return score_colon(text, end) ? 0 : 3;
  if (end >= 2 && text[end - 2] == ':' && (text[end - 1] == ' ' || text[end - 1] == '\t')) return 2;
  if (end >= 2 && text[end - 1] == ':' && text[end - 2] == '"') return 1;
  return 0;
}

// The label that ends `sep_len` bytes before `sep_end`: from the segment start (or a sentence end)
// to the separator, trimmed; empty when longer than kMaxLabel.
std::string_view label_before(std::string_view text, size_t sep_end, size_t sep_len) {
  const size_t label_end = sep_end - sep_len;
  size_t label_start = label_end;
  while (label_start > 0 && label_end - label_start <= kMaxLabel) {
    if (boundary_before(text, label_start) > 0) break;
    if (label_start >= 2 && text[label_start - 1] == ' ' && text[label_start - 2] == '.') break;  // ". Label:"
    --label_start;
  }
  if (label_end - label_start > kMaxLabel) return {};
  std::string_view label = text.substr(label_start, label_end - label_start);
  while (!label.empty() &&
         (is_space(label.front()) || label.front() == '"' || label.front() == '-' || label.front() == '*')) {
    label.remove_prefix(1);
  }
  while (!label.empty() && (is_space(label.back()) || label.back() == '"')) label.remove_suffix(1);
  return label;
}

// A comma separates list items inside one field's line ("Parties: Acme Ltd., Beta LLC").
bool is_comma_before(std::string_view text, size_t end) {
  return (end >= 1 && text[end - 1] == ',') || ends_with_at(text, end, "，");
}

}  // namespace

LineFieldScanner::LineFieldScanner(std::string_view text) : text_(text) {}

std::string_view LineFieldScanner::label_at(size_t start) {
  start = std::min(start, text_.size());
  if (start < pos_) *this = LineFieldScanner(text_);  // callers go forward; restart if not
  for (; pos_ < start; ++pos_) {
    // Only these bytes can end a boundary or a separator: skip the rest quickly.
    switch (static_cast<unsigned char>(text_[pos_])) {
      case ' ':
      case '\t':
      case ':':
      case '\n':
      case ';':
      case '{':
      case ',':
      case 0x9A:
      case 0x9B:
      case 0x82:
      case 0x8C:  // last bytes of ： ； 。 ，
        break;
      default:
        continue;
    }
    const size_t end = pos_ + 1;
    if (boundary_before(text_, end) > 0 && !is_comma_before(text_, end)) {
      sep_end_ = std::string_view::npos;
      continue;
    }
    const size_t len = separator_before(text_, end);
    if (len > 0) {
      sep_end_ = end;
      sep_len_ = len;
    }
  }
  if (sep_end_ == std::string_view::npos || start - sep_end_ > kMaxLineReach) return {};
  if (sep_end_ != label_sep_end_) {  // anchors of one field share its label: compute it once
    label_ = label_before(text_, sep_end_, sep_len_);
    label_sep_end_ = sep_end_;
  }
  return label_;
}

std::string_view field_label(std::string_view text, size_t start, FieldScope scope) {
  start = std::min(start, text.size());
  if (scope == FieldScope::line) return LineFieldScanner(text).label_at(start);
  // The separator, within kMaxValuePrefix bytes before the anchor and in the same segment, with at
  // most kMaxValuePrefixWords words between it and the anchor.
  for (size_t end = start; end + kMaxValuePrefix >= start && end > 0; --end) {
    if (boundary_before(text, end) > 0) return {};
    const size_t sep_len = separator_before(text, end);
    if (sep_len == 0) continue;
    int words = 0;
    for (size_t i = end; i < start; ++i) {
      if (!is_space(text[i]) && (i == end || is_space(text[i - 1]))) ++words;
    }
    return words > kMaxValuePrefixWords ? std::string_view{} : label_before(text, end, sep_len);
  }
  return {};
}

bool same_label(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace sfcl::anchor
