// Chinese personal names: a common surname and one or two given-name characters, read only where
// the text after them shows the name ended (a particle, a title, a verb such as 担任, punctuation).
// Surnames that also begin everyday words (金额, 方面, 周期, 任何, 余额, 顾问 ...) are left out.
#include <algorithm>
#include <array>

#include "anchor/anchor.h"
#include "anchor/lexer_internal.h"

namespace sfcl::anchor::lex {
namespace {

// Sorted (binary search): single-character surnames kept.
constexpr std::array<char32_t, 79> kSurnames = [] {
  std::array<char32_t, 79> s = {
      U'李', U'张', U'刘', U'陈', U'杨', U'赵', U'吴', U'徐', U'孙', U'胡', U'朱', U'郭', U'邢', U'罗', U'梁', U'宋',
      U'郑', U'谢', U'韩', U'唐', U'冯', U'董', U'萧', U'程', U'曹', U'袁', U'邓', U'许', U'傅', U'沈', U'曾', U'彭',
      U'吕', U'卢', U'蒋', U'蔡', U'贾', U'丁', U'魏', U'薛', U'阎', U'潘', U'杜', U'戴', U'汪', U'姜', U'姚', U'谭',
      U'廖', U'邹', U'熊', U'郝', U'孔', U'崔', U'邱', U'秦', U'侯', U'邵', U'孟', U'尹', U'黎', U'乔', U'贺', U'赖',
      U'龚', U'覃', U'王', U'欧', U'诸', U'司', U'上', U'伍', U'殷', U'柳', U'邬', U'林', U'黄', U'高', U'贝'};
  std::sort(s.begin(), s.end());
  return s;
}();
// Double surnames: their first character is in kSurnames and the second follows here.
constexpr std::array<std::string_view, 4> kDoubleSurnames = {"欧阳", "诸葛", "司马", "上官"};
// Everyday words that start with a kept surname.
constexpr std::array<std::string_view, 41> kNotNames = {
    "程序", "程度", "曾经", "许可", "许多", "董事", "陈述", "陈列", "张贴", "陈旧", "韩国", "唐朝", "谢谢", "罗列",
    "郑重", "徐徐", "沈阳", "杜绝", "熊猫", "熊市", "黎明", "王国", "上述", "上海", "萧条", "卢布", "孙子", "朱红",
    "林业", "黄金", "黄色", "高度", "高级", "高速", "高新", "高于", "高达", "高校", "高层", "高管", "贝壳"};
// A name begins at the start of text, after a non-Han character, or after a word that introduces a
// person (是, 由, 和, 人, 长, 师 ...); after any other character the surname is inside a word
// ("新陈代谢", "经济萧条").
constexpr std::array<char32_t, 72> kBeforeName = [] {
  std::array<char32_t, 72> s = {U'是', U'由', U'和', U'与', U'及', U'为', U'对', U'向', U'给', U'被', U'让', U'请',
                                U'经', U'据', U'、', U'人', U'长', U'员', U'师', U'者', U'理', U'任', U'生', U'士',
                                U'授', U'家', U'告', U'方', U'致', U'谢', U'委', U'派', U'叫', U'称', U'见', U'同',
                                U'跟', U'把', U'将', U'从', U'在', U'于', U'了', U'即', U'府', U'科', U'手', U'监',
                                U'官', U'席', U'记', U'书', U'局', U'处', U'部', U'厅', U'院', U'所', U'队', U'组',
                                U'馆', U'警', U'父', U'母', U'兄', U'姐', U'弟', U'妹', U'友', U'妻', U'夫', U'总'};
  std::sort(s.begin(), s.end());
  return s;
}();
// A character right after a name: particles, verbs and titles that follow names, punctuation.
constexpr std::array<char32_t, 61> kAfterName = [] {
  std::array<char32_t, 61> s = {
      U'是', U'的', U'在', U'于', U'和', U'与', U'及', U'等', U'为', U'说', U'称', U'任', U'先', U'女', U'教', U'博',
      U'医', U'律', U'经', U'主', U'院', U'老', U'同', U'被', U'将', U'已', U'曾', U'也', U'都', U'就', U'对', U'向',
      U'从', U'获', U'出', U'当', U'带', U'负', U'签', U'提', U'指', U'认', U'作', U'表', U'担', U'了', U'以', U'因',
      U'后', U'来', U'宣', U'发', U'介', U'讲', U'回', U'强', U'透', U'还', U'现', U'则', U'所'};
  std::sort(s.begin(), s.end());
  return s;
}();

bool in(const auto& sorted, char32_t c) { return std::binary_search(sorted.begin(), sorted.end(), c); }

// The character at i ends a name: punctuation, a non-Han character, or a word that follows names.
bool ends_name(Src& src, size_t i) {
  const auto d = src.cp(i);
  if (d.length == 0) return src.final;
  return !is_han(d.cp) || in(kAfterName, d.cp);
}
}  // namespace

// One bit per character of the CJK block: the lexer asks at every Han character.
constexpr uint32_t kHanFirst = 0x4E00;
constexpr uint32_t kHanLast = 0x9FFF;
constexpr std::array<uint64_t, (kHanLast - kHanFirst + 64) / 64> kSurnameBits = [] {
  std::array<uint64_t, (kHanLast - kHanFirst + 64) / 64> bits{};
  for (char32_t c : kSurnames) bits[(c - kHanFirst) / 64] |= uint64_t{1} << ((c - kHanFirst) % 64);
  return bits;
}();

bool cn_surname(char32_t c) {
  if (c < kHanFirst || c > kHanLast) return false;
  return ((kSurnameBits[(c - kHanFirst) / 64] >> ((c - kHanFirst) % 64)) & 1U) != 0;
}

size_t scan_cn_person(Src& src, size_t p, Anchor& a) {
  if (p >= 3) {  // the character before, already read by the scan
    const auto before = utf8::decode(src.s, p - 3);
    if (before.length == 3 && is_han(before.cp) && !in(kBeforeName, before.cp)) return 0;
  }
  size_t j = p + 3;  // after the surname (every surname is a 3-byte character)
  bool double_surname = false;
  for (auto d : kDoubleSurnames) {
    if (src.match(p, d)) {
      j = p + d.size();
      double_surname = true;
      break;
    }
  }
  const auto d0 = src.cp(p);
  if (!double_surname && (d0.cp == U'欧' || d0.cp == U'诸' || d0.cp == U'司' || d0.cp == U'上')) return 0;
  for (auto w : kNotNames) {
    if (src.match(p, w)) return 0;
  }
  // One or two given-name characters, the shorter when the second already reads as "after a name".
  size_t end = 0;
  const auto g1 = src.cp(j);
  if (g1.length == 0 || !is_han(g1.cp) || in(kAfterName, g1.cp)) return 0;
  const size_t after1 = j + static_cast<size_t>(g1.length);
  const auto g2 = src.cp(after1);
  if (g2.length == 0 && !src.final) return 0;  // undecided until more text comes
  if (ends_name(src, after1)) {
    end = after1;
  } else {
    const size_t after2 = after1 + static_cast<size_t>(g2.length);
    if (!ends_name(src, after2)) return 0;
    end = after2;
  }
  set_norm(a, Type::name, std::string(src.s.substr(p, end - p)));
  return end;
}

}  // namespace sfcl::anchor::lex
