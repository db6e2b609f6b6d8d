// Deterministic mixed English/Chinese business text for benchmarks.
#pragma once
#include <random>
#include <string>

namespace sfcl::bench {
inline std::string mixed_document(size_t bytes, unsigned seed = 7) {
  static const char* kParts[] = {
      "The Client shall pay the total fee of $12,500.00 within 30 days of the invoice INV-2024-0042. ",
      "This agreement between Acme Robotics Ltd. and Harbor Logistics LLC is dated June 15, 2024. ",
      "Under Section 7.2, late payments accrue interest at 1.5% per month, and the Supplier shall not subcontract. ",
      "甲方应当在30日内向乙方支付人民币5000元，逾期按百分之十计算违约金，见第七条。 ",
      "上海华东科技有限公司于2024年6月15日签署本合同，服务期为两年。 ",
      "Our support team answered the ticket quickly and the customer was satisfied with the outcome overall. ",
      "客户表示满意，我们将继续改进服务质量，并在下个季度进行回访。 ",
  };
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, std::size(kParts) - 1);
  std::string s;
  s.reserve(bytes + 256);
  while (s.size() < bytes) s += kParts[pick(rng)];
  s.resize(bytes);
  // Do not end inside a UTF-8 character.
  while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();
  if (!s.empty() && static_cast<unsigned char>(s.back()) >= 0xC0) s.pop_back();
  return s;
}
}  // namespace sfcl::bench
