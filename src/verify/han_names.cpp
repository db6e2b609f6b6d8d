// A Chinese name the sources write with other characters around it (docs/ANCHORS.md, "Written
// another way"). The lexer cannot tell where a name without spaces begins, so an organisation name may
// have taken in the words before it ("当年带动宁波甬能新材料有限公司"): it is also looked up without up
// to four leading characters, as long as seven remain. A company is one company whatever legal form
// is written after it: "福建省电力有限公司" is the sources' "国家电网福建省电力公司", and "股份有限公司" their
// "有限公司", as "Acme Holdings Inc." is "Acme Holdings"; the name before the form as the sources write
// it, never with fewer leading characters.
#include <array>
#include <string_view>

#include "util/utf8.h"
#include "verify/verify.h"

namespace sfcl::verify {

namespace {
constexpr size_t kHan = 3;  // bytes of one Han character
// Legal forms, longest first, so that "股份有限公司" is not read as "...有限公司".
constexpr std::array<std::string_view, 5> kLegalForms = {"股份有限公司", "有限责任公司", "股份公司", "有限公司",
                                                         "公司"};
// What identifies the company is what stands before its legal form or kind: at least four characters
// of it must remain ("新材料有限公司" alone names no one, nor "电力公司" a company).
constexpr size_t kMinOwn = 4;

size_t kind_chars(std::string_view name) {
  for (std::string_view s : {"股份有限公司", "有限责任公司", "有限公司", "公司", "集团", "银行", "医院", "大学"}) {
    if (name.size() > s.size() && name.ends_with(s)) return s.size() / kHan;
  }
  return 0;
}
}  // namespace

bool Checker::han_name_in_sources(std::string_view name, anchor::TextSpan& span) const {
  constexpr size_t kMaxLead = 4;
  constexpr size_t kMinRest = 7;
  std::array<size_t, kMaxLead + 1> starts{};  // byte offsets of the first code points
  size_t chars = 0;
  for (size_t i = 0; i < name.size();) {
    const auto d = utf8::decode(name, i);
    if (d.cp < 0x4E00 || d.cp > 0x9FFF) return false;  // Han names only
    if (chars <= kMaxLead) starts[chars] = i;
    ++chars;
    i += static_cast<size_t>(d.length);
  }
  const size_t own = kind_chars(name);
  for (size_t k = 1; k <= kMaxLead && k < chars && chars - k >= kMinRest && chars - k - own >= kMinOwn; ++k) {
    if (index_.find_verbatim(name.substr(starts[k]), span)) return true;
  }
  // A shorter name is accepted when a source names exactly it ("云栖公司" for "二审判决云栖公司"):
  // equal to a whole source name, not a piece of one.
  for (size_t k = 1; k <= kMaxLead && k + 3 <= chars; ++k) {
    const int64_t hit = index_.find_exact(anchor::Type::name, name.substr(starts[k]));
    if (hit < 0) continue;
    const auto& s = index_.anchors()[static_cast<size_t>(hit)];
    span = {s.source, s.anchor.start, s.anchor.end};
    return true;
  }
  return false;
}

bool Checker::han_legal_form(anchor::TextSpan& span) const {
  const std::string_view name = folded_;
  for (std::string_view form : kLegalForms) {
    if (name.size() <= form.size() || !name.ends_with(form)) continue;
    const std::string_view stem = name.substr(0, name.size() - form.size());
    if (stem.size() < kMinOwn * kHan) return false;
    for (std::string_view other : kLegalForms) {
      if (other == form) continue;
      // As written: a company with fewer leading characters may be another one (大唐国际电力有限公司
      // is no 华能国际电力股份有限公司).
      scratch_.assign(stem).append(other);
      if (index_.find_verbatim(scratch_, span)) return true;
    }
    return false;
  }
  return false;
}

}  // namespace sfcl::verify
