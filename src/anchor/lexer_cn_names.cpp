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
constexpr std::array<std::string_view, 63> kNotNames = {
    "程序", "程度", "曾经", "许可", "许多", "董事", "陈述", "陈列", "张贴", "陈旧", "韩国", "唐朝", "谢谢",
    "罗列", "郑重", "徐徐", "沈阳", "杜绝", "熊猫", "熊市", "黎明", "王国", "上述", "上海", "萧条", "卢布",
    "孙子", "朱红", "林业", "黄金", "黄色", "高度", "高级", "高速", "高新", "高于", "高达", "高校", "高层",
    "高管", "贝壳", "王室", "王者", "王牌", "王子", "王朝", "王位", "高峰", "高原", "高温", "高中", "高考",
    "高铁", "高价", "高手", "高潮", "黄河", "黄昏", "宋朝", "秦朝", "罗马", "胡同", "张开"};
// Japanese surnames as Chinese text writes them (山口遥, 佐藤健, 长谷川博己): two or three
// characters, read like a Chinese name after them. Ones that are also everyday words or places
// (中山, 清水, 山下, 大西, 和田, 大桥) are left out.
constexpr std::array<std::string_view, 125> kJpSurnames = {
    "上田", "上野", "中岛", "中川", "中村", "中野", "丸山",   "久保", "井上", "今井", "伊藤", "佐佐木", "佐藤", "佐野",
    "关口", "内田", "冈崎", "冈本", "冈田", "前田", "加藤",   "北村", "北野", "原田", "古川", "吉田",   "后藤", "坂本",
    "堀江", "增田", "大塚", "大谷", "大野", "太田", "宇野",   "安倍", "安藤", "宫崎", "宫本", "小岛",   "小松", "小林",
    "小池", "小野", "山口", "山崎", "山本", "山田", "岛田",   "岩崎", "岸田", "川口", "川崎", "工藤",   "市川", "平野",
    "斋藤", "新井", "早田", "服部", "木下", "木村", "本田",   "杉山", "杉本", "村上", "村田", "松井",   "松冈", "松尾",
    "松岛", "松本", "松田", "柴田", "桥本", "森田", "横山",   "樱井", "武田", "水野", "永井", "池田",   "河野", "浅野",
    "渡边", "渡部", "滨田", "片山", "田中", "田村", "石井",   "石原", "石川", "石田", "福井", "福田",   "秋山", "竹内",
    "细川", "羽生", "荒木", "菅原", "菊地", "藤井", "藤原",   "藤本", "藤田", "西村", "西田", "谷口",   "近藤", "远藤",
    "酒井", "野口", "野村", "野田", "金子", "铃木", "长谷川", "阿部", "青木", "高木", "高桥", "高田",   "鸠山"};

static_assert(std::is_sorted(kJpSurnames.begin(), kJpSurnames.end()));

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
// 第 starts an ordinal after a name ("杨旭第61分钟扳平"), 虽 a clause ("王蔷虽在第8局反破发"), 又 an
// adverb ("杨旭又在第79分钟").
constexpr std::array<char32_t, 64> kAfterName = [] {
  std::array<char32_t, 64> s = {
      U'是', U'的', U'在', U'于', U'和', U'与', U'及', U'等', U'为', U'说', U'称', U'任', U'先', U'女', U'教', U'博',
      U'医', U'律', U'经', U'主', U'院', U'老', U'同', U'被', U'将', U'已', U'曾', U'也', U'都', U'就', U'对', U'向',
      U'从', U'获', U'出', U'当', U'带', U'负', U'签', U'提', U'指', U'认', U'作', U'表', U'担', U'了', U'以', U'因',
      U'后', U'来', U'宣', U'发', U'介', U'讲', U'回', U'强', U'透', U'还', U'现', U'则', U'所', U'第', U'虽', U'又'};
  std::sort(s.begin(), s.end());
  return s;
}();

// Two-character words that follow a name and whose first character could be a given name's (李瑞
// 共同策划, 李明一起, 王强报道): after one given-name character they end the name.
constexpr std::array<std::string_view, 16> kAfterNameWords = {"共同", "一起", "一同", "一直", "一行", "报道",
                                                              "今年", "近日", "日前", "目前", "此前", "随后",
                                                              "正在", "亲自", "坦言", "直言"};

bool in(const auto& sorted, char32_t c) { return std::binary_search(sorted.begin(), sorted.end(), c); }

bool after_name_word(Src& src, size_t i) {
  return std::any_of(kAfterNameWords.begin(), kAfterNameWords.end(),
                     [&](std::string_view w) { return src.match(i, w); });
}

// The character at i ends a name: punctuation, a non-Han character, or a word that follows names.
bool ends_name(Src& src, size_t i) {
  const auto d = src.cp(i);
  if (d.length == 0) return src.final;
  return !is_han(d.cp) || in(kAfterName, d.cp) || after_name_word(src, i);
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

constexpr std::array<uint64_t, (kHanLast - kHanFirst + 64) / 64> kJpFirstBits = [] {
  std::array<uint64_t, (kHanLast - kHanFirst + 64) / 64> bits{};
  for (std::string_view w : kJpSurnames) {
    const auto c = static_cast<char32_t>(((static_cast<unsigned char>(w[0]) & 0x0F) << 12) |
                                         ((static_cast<unsigned char>(w[1]) & 0x3F) << 6) |
                                         (static_cast<unsigned char>(w[2]) & 0x3F));
    bits[(c - kHanFirst) / 64] |= uint64_t{1} << ((c - kHanFirst) % 64);
  }
  return bits;
}();

bool cn_surname(char32_t c) {
  if (c < kHanFirst || c > kHanLast) return false;
  return ((kSurnameBits[(c - kHanFirst) / 64] >> ((c - kHanFirst) % 64)) & 1U) != 0;
}

bool jp_surname_first(char32_t c) {
  if (c < kHanFirst || c > kHanLast) return false;
  return ((kJpFirstBits[(c - kHanFirst) / 64] >> ((c - kHanFirst) % 64)) & 1U) != 0;
}

namespace {
// One or two given-name characters from j, then a character that ends a name: the name's end, or 0.
size_t given_name_end(Src& src, size_t j) {
  const auto g1 = src.cp(j);
  if (g1.length == 0 || !is_han(g1.cp) || in(kAfterName, g1.cp)) return 0;
  const size_t after1 = j + static_cast<size_t>(g1.length);
  const auto g2 = src.cp(after1);
  if (g2.length == 0 && !src.final) return 0;  // undecided until more text comes
  if (ends_name(src, after1)) return after1;
  const size_t after2 = after1 + static_cast<size_t>(g2.length);
  return ends_name(src, after2) ? after2 : 0;
}

bool name_may_start(Src& src, size_t p) {
  if (p < 3) return true;
  const auto before = utf8::decode(src.s, p - 3);  // already read by the scan
  return !(before.length == 3 && is_han(before.cp) && !in(kBeforeName, before.cp));
}
}  // namespace

size_t scan_jp_person(Src& src, size_t p, Anchor& a) {
  if (!name_may_start(src, p)) return 0;
  // kJpSurnames is sorted: only the surnames that start with the character at p are tried.
  const std::string_view first = src.s.substr(p, 3);
  const auto* it = std::lower_bound(kJpSurnames.begin(), kJpSurnames.end(), first,
                                    [](std::string_view w, std::string_view f) { return w.substr(0, 3) < f; });
  for (; it != kJpSurnames.end() && it->substr(0, 3) == first; ++it) {
    const std::string_view w = *it;
    if (!src.match(p, w)) continue;
    const size_t end = given_name_end(src, p + w.size());
    if (end == 0) return 0;
    set_norm(a, Type::name, std::string(src.s.substr(p, end - p)));
    return end;
  }
  return 0;
}

size_t scan_cn_person(Src& src, size_t p, Anchor& a) {
  // After the dot of a transliterated name (豪伊·李, 马泰奥·伦齐) a surname's character is the foreign
  // name's: "豪伊·李预测" names no 李预测.
  const std::string_view lead = src.s.substr(0, p);
  if (lead.ends_with("·") || lead.ends_with("・") || lead.ends_with("•")) return 0;
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
  if (g1.length == 0 || !is_han(g1.cp)) return 0;
  const size_t after1 = j + static_cast<size_t>(g1.length);
  const auto g2 = src.cp(after1);
  if (g2.length == 0 && !src.final) return 0;  // undecided until more text comes
  // 强 and 博 also start words after names (强调, 博士) and are given names as often: one of them
  // is a given name only where the name visibly ends right after it (王强说, 王博表示).
  if (in(kAfterName, g1.cp) && !((g1.cp == U'强' || g1.cp == U'博') && ends_name(src, after1))) return 0;
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
