#include "corpus.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <set>

namespace sfcl::demo {
namespace {

using Rng = std::mt19937_64;
using Vars = std::map<std::string, std::string>;

uint64_t fnv(const std::string& s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

template <size_t N>
const char* pick(Rng& r, const std::array<const char*, N>& a) {
  return a[std::uniform_int_distribution<size_t>(0, N - 1)(r)];
}
int uniform(Rng& r, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(r); }

std::string fill(std::string t, const Vars& v) {
  for (const auto& [k, val] : v) {
    const std::string key = "{" + k + "}";
    for (size_t p = t.find(key); p != std::string::npos; p = t.find(key, p + val.size())) t.replace(p, key.size(), val);
  }
  return t;
}

std::string with_commas(long v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

// A value generator retries until the value belongs to the split.
template <typename F>
std::string value(Rng& r, Split split, F gen) {
  for (;;) {
    std::string v = gen(r);
    if (value_in_split(v, split)) return v;
  }
}

// ---------------------------------------------------------------- value pools (train | eval)
const std::array<const char*, 12> kPrefixTrain = {"Acme",       "Harbor",  "Northwind", "Bluestone",
                                                  "Cedar",      "Apex",    "Summit",    "Redwood",
                                                  "Silverline", "Granite", "Meridian",  "Oakridge"};
const std::array<const char*, 6> kPrefixEval = {"Zenith", "Orchid", "Falcon", "Ironbridge", "Lakeside", "Crescent"};
const std::array<const char*, 10> kNoun = {"Robotics", "Logistics", "Foods",    "Systems", "Textiles",
                                           "Energy",   "Labs",      "Partners", "Health",  "Capital"};
const std::array<const char*, 5> kSuffix = {"Ltd.", "LLC", "Inc.", "GmbH", "Corp."};
const std::array<const char*, 8> kFirstTrain = {"John", "Mary", "David", "Sarah", "Michael", "Linda", "James", "Emma"};
const std::array<const char*, 4> kFirstEval = {"Oliver", "Grace", "Henry", "Chloe"};
const std::array<const char*, 8> kLastTrain = {"Smith",  "Johnson", "Brown", "Lee",
                                               "Garcia", "Miller",  "Davis", "Wilson"};
const std::array<const char*, 4> kLastEval = {"Turner", "Hughes", "Price", "Foster"};
const std::array<const char*, 6> kCityTrain = {"上海", "北京", "深圳", "杭州", "南京", "成都"};
const std::array<const char*, 4> kCityEval = {"广州", "武汉", "苏州", "天津"};
const std::array<const char*, 6> kWordTrain = {"华东科技", "远航物流", "金桥贸易", "星辰软件", "安康医疗", "恒信机械"};
const std::array<const char*, 3> kWordEval = {"瑞丰电子", "长青食品", "宏达建设"};
const std::array<const char*, 3> kZhSuffix = {"有限公司", "股份有限公司", "集团"};
const std::array<const char*, 12> kMonths = {"January", "February", "March",     "April",   "May",      "June",
                                             "July",    "August",   "September", "October", "November", "December"};

std::string company(Rng& r, Split s) {
  return value(r, s, [&](Rng& g) {
    return std::string(s == Split::train ? pick(g, kPrefixTrain) : pick(g, kPrefixEval)) + " " + pick(g, kNoun) + " " +
           pick(g, kSuffix);
  });
}
std::string company_zh(Rng& r, Split s) {
  return value(r, s, [&](Rng& g) {
    return std::string(s == Split::train ? pick(g, kCityTrain) : pick(g, kCityEval)) +
           (s == Split::train ? pick(g, kWordTrain) : pick(g, kWordEval)) + pick(g, kZhSuffix);
  });
}
std::string person(Rng& r, Split s) {
  return value(r, s, [&](Rng& g) {
    return std::string(s == Split::train ? pick(g, kFirstTrain) : pick(g, kFirstEval)) + " " +
           (s == Split::train ? pick(g, kLastTrain) : pick(g, kLastEval));
  });
}
std::string amount_usd(Rng& r, Split s) {
  return value(r, s, [](Rng& g) {
    const std::array<const char*, 4> cents = {"00", "00", "50", "75"};
    const std::string sym = uniform(g, 0, 9) < 7 ? "$" : (uniform(g, 0, 1) ? "€" : "£");
    return sym + with_commas(uniform(g, 120, 98000)) + "." + pick(g, cents);
  });
}
std::string amount_cny(Rng& r, Split s) {
  return value(r, s, [](Rng& g) { return "人民币" + std::to_string(uniform(g, 10, 990) * 100) + "元"; });
}
std::string date_en(Rng& r, Split s) {
  return value(r, s, [](Rng& g) {
    return std::string(kMonths[static_cast<size_t>(uniform(g, 0, 11))]) + " " + std::to_string(uniform(g, 1, 28)) +
           ", " + std::to_string(uniform(g, 2021, 2027));
  });
}
std::string date_zh(Rng& r, Split s) {
  return value(r, s, [](Rng& g) {
    return std::to_string(uniform(g, 2021, 2027)) + "年" + std::to_string(uniform(g, 1, 12)) + "月" +
           std::to_string(uniform(g, 1, 28)) + "日";
  });
}
std::string percent(Rng& r, Split s) {
  return value(r, s, [](Rng& g) {
    const int tenths = uniform(g, 5, 250);
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "%";
  });
}
std::string days(Rng& r, Split s, bool zh) {
  return value(r, s, [zh](Rng& g) {
    const std::array<int, 9> d = {7, 10, 14, 15, 20, 30, 45, 60, 90};
    const int n = d[static_cast<size_t>(uniform(g, 0, 8))];
    return zh ? std::to_string(n) + "日" : std::to_string(n) + " days";
  });
}
std::string section(Rng& r, Split s) {
  return value(r, s, [](Rng& g) {
    return "Section " + std::to_string(uniform(g, 1, 14)) + "." + std::to_string(uniform(g, 1, 9));
  });
}
std::string clause_zh(Rng& r, Split s) {
  return value(r, s, [](Rng& g) { return "第" + std::to_string(uniform(g, 1, 30)) + "条"; });
}
std::string ident(Rng& r, Split s, const char* prefix, int digits) {
  return value(r, s, [prefix, digits](Rng& g) {
    std::string d;
    for (int i = 0; i < digits; ++i) d.push_back(static_cast<char>('0' + uniform(g, 0, 9)));
    return std::string(prefix) + d;
  });
}

// ---------------------------------------------------------------- document kinds
struct Kind {
  const char* name;
  const char* lang;
  std::vector<const char*> train;  // document templates
  std::vector<const char*> eval;
  std::vector<std::pair<const char*, const char*>> qas;  // question, answer templates
};

const std::vector<Kind>& kinds() {
  static const std::vector<Kind> k = {
      {"invoice",
       "en",
       {"Invoice {id} from {company}. Total due: {amount}. Due date: {date}. Late fee: {pct} per month.",
        "{company} invoice {id}: amount {amount}, due {date}, late fee {pct} per month."},
       {"{company} issued invoice {id} for {amount}, payable by {date}; overdue balances accrue {pct} monthly."},
       {{"What is the invoice number?", "The invoice number is {id}."},
        {"Who issued the invoice?", "The invoice was issued by {company}."},
        {"What is the total amount?", "The total amount is {amount}."},
        {"When is the payment due?", "The payment is due on {date}."},
        {"What is the late fee?", "The late fee is {pct} per month."},
        {"Summarize the invoice.", "Invoice {id} for {amount} is due on {date}."}}},
      {"contract",
       "en",
       {"Service agreement between {company} and {company2}, signed on {date}. The Client shall pay {amount} within "
        "{days}. Termination is governed by {section}. The Supplier {polarity} assign this agreement.",
        "Agreement of {date} between {company} and {company2}: fee {amount}, payable within {days}; termination under "
        "{section}. The Supplier {polarity} assign this agreement."},
       {"This contract, dated {date}, binds {company} and {company2}. A fee of {amount} is payable within {days} in "
        "full. "
        "{section} covers termination. The Supplier {polarity} assign this agreement."},
       {{"Who are the parties?", "The parties are {company} and {company2}."},
        {"When was the agreement signed?", "The agreement was signed on {date}."},
        {"What is the fee?", "The fee is {amount}."},
        {"What is the payment term?", "The payment term is {days}."},
        {"Which section covers termination?", "Termination is covered by {section}."},
        {"Can the Supplier assign this agreement?", "The Supplier {polarity} assign this agreement."},
        {"Summarize the payment terms.", "The fee of {amount} is payable within {days}."}}},
      {"purchase_order",
       "en",
       {"Purchase order {id} placed by {company} on {date} for {amount}, delivery within {days}.",
        "PO {id}: buyer {company}, ordered {date}, value {amount}, delivery within {days}."},
       {"On {date}, {company} raised purchase order {id} worth {amount}; goods arrive within {days}."},
       {{"What is the purchase order number?", "The purchase order number is {id}."},
        {"Who placed the order?", "The order was placed by {company}."},
        {"When was the order placed?", "The order was placed on {date}."},
        {"What is the order value?", "The order value is {amount}."},
        {"What is the delivery time?", "The delivery time is {days}."}}},
      {"visit_note",
       "en",
       {"Visit note for patient {id}, seen by Dr. {person} on {date}. Dose reduced by {pct}. Follow-up in {days}.",
        "Patient {id} visited Dr. {person} on {date}; dose change {pct}; next review in {days}."},
       {"Dr. {person} examined patient {id} on {date}, lowered the dose by {pct} and booked a review in {days}."},
       {{"What is the patient number?", "The patient number is {id}."},
        {"Who saw the patient?", "The patient was seen by Dr. {person}."},
        {"When was the visit?", "The visit was on {date}."},
        {"How much was the dose reduced?", "The dose was reduced by {pct}."},
        {"When is the follow-up?", "The follow-up is in {days}."}}},
      {"ticket",
       "en",
       {"Support ticket {id} opened by {person} of {company} on {date}. Refund approved: {amount}.",
        "Ticket {id}: customer {person} ({company}), opened {date}, refund {amount}."},
       {"{person} from {company} filed ticket {id} on {date} and was granted a refund of {amount}."},
       {{"What is the ticket number?", "The ticket number is {id}."},
        {"Who opened the ticket?", "The ticket was opened by {person}."},
        {"Which company is the customer?", "The customer is {company}."},
        {"When was the ticket opened?", "The ticket was opened on {date}."},
        {"What refund was approved?", "The refund approved is {amount}."}}},
      {"invoice",
       "zh",
       {"发票{id}，开票方{company}，总金额{amount}，付款截止日期{date}，逾期费率每月{pct}。",
        "{company}开具发票{id}：金额{amount}，{date}前付款，逾期每月{pct}。"},
       {"{company}于本期开出{id}号发票，应付{amount}，最迟{date}支付，逾期按月加收{pct}。"},
       {{"发票号码是多少？", "发票号码是{id}。"},
        {"开票方是谁？", "开票方是{company}。"},
        {"总金额是多少？", "总金额是{amount}。"},
        {"付款截止日期是哪天？", "付款截止日期是{date}。"},
        {"逾期费率是多少？", "逾期费率是每月{pct}。"}}},
      {"contract",
       "zh",
       {"甲方{company}与乙方{company2}于{date}签订合同。甲方应当在{days}内支付{amount}。终止条款见{clause}。乙方{"
        "polarity_zh}转让本合同。",
        "合同签订日期{date}，甲方{company}，乙方{company2}，金额{amount}，付款期限{days}，终止见{clause}。乙方{"
        "polarity_zh}转让本合同。"},
       {"{date}，{company}（甲方）与{company2}（乙方）订立本合同，约定{days}内一次性付清{amount}，{clause}"
        "规定终止事项。乙方{polarity_zh}转让本合同。"},
       {{"甲方是谁？", "甲方是{company}。"},
        {"乙方是谁？", "乙方是{company2}。"},
        {"合同签订日期是哪天？", "合同签订日期是{date}。"},
        {"合同金额是多少？", "合同金额是{amount}。"},
        {"付款期限是多久？", "付款期限是{days}。"},
        {"终止条款在哪一条？", "终止条款在{clause}。"},
        {"乙方能否转让本合同？", "乙方{polarity_zh}转让本合同。"}}},
  };
  return k;
}

}  // namespace

bool value_in_split(const std::string& value, Split split) {
  const bool eval = fnv(value) % 5 == 0;
  return split == Split::eval ? eval : !eval;
}

std::vector<std::string> template_ids(Split split) {
  std::vector<std::string> out;
  for (size_t k = 0; k < kinds().size(); ++k) {
    const auto& list = split == Split::train ? kinds()[k].train : kinds()[k].eval;
    for (const char* t : list) out.emplace_back(t);
  }
  return out;
}

Document make_document(uint64_t seed, Split split, uint64_t index) {
  Rng r(seed * 0x9E3779B97F4A7C15ULL + index * 0xBF58476D1CE4E5B9ULL +
        (split == Split::eval ? 0x94D049BB133111EBULL : 0));
  const auto& all = kinds();
  const Kind& kind = all[static_cast<size_t>(uniform(r, 0, static_cast<int>(all.size()) - 1))];
  const bool zh = std::string(kind.lang) == "zh";
  Vars v;
  v["company"] = zh ? company_zh(r, split) : company(r, split);
  do {
    v["company2"] = zh ? company_zh(r, split) : company(r, split);
  } while (v["company2"] == v["company"]);
  v["person"] = person(r, split);
  v["amount"] = zh ? amount_cny(r, split) : amount_usd(r, split);
  v["date"] = zh ? date_zh(r, split) : date_en(r, split);
  v["pct"] = percent(r, split);
  v["days"] = days(r, split, zh);
  v["section"] = section(r, split);
  v["clause"] = clause_zh(r, split);
  const std::string kname = kind.name;
  v["id"] = kname == "invoice"          ? ident(r, split, "INV-2024-", 4)
            : kname == "purchase_order" ? ident(r, split, "PO-", 5)
            : kname == "visit_note"     ? ident(r, split, "MRN-", 6)
            : kname == "ticket"         ? ident(r, split, "TCK-", 5)
                                        : ident(r, split, "C-", 4);
  const bool negative = uniform(r, 0, 1) == 1;
  v["polarity"] = negative ? "shall not" : "shall";
  v["polarity_zh"] = negative ? "不得" : "可以";
  const auto& templates = split == Split::train ? kind.train : kind.eval;
  Document d;
  d.lang = kind.lang;
  d.kind = kind.name;
  d.text = fill(templates[static_cast<size_t>(uniform(r, 0, static_cast<int>(templates.size()) - 1))], v);
  for (const auto& [q, a] : kind.qas) d.qas.push_back({q, fill(a, v)});
  for (const char* key :
       {"company", "company2", "person", "amount", "date", "pct", "days", "section", "clause", "id"}) {
    if (d.text.find(v[key]) != std::string::npos) d.values.push_back(v[key]);
  }
  char id[64];
  std::snprintf(id, sizeof id, "%s-%06llu", split == Split::train ? "train" : "eval",
                static_cast<unsigned long long>(index));
  d.id = id;
  return d;
}

std::vector<std::string> corpus_characters() {
  std::set<std::string> chars;
  auto add = [&](const std::string& s) {
    for (size_t i = 0; i < s.size();) {
      const auto c = static_cast<unsigned char>(s[i]);
      const size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      if (c >= 0x80) chars.insert(s.substr(i, n));
      i += n;
    }
  };
  for (const auto& k : kinds()) {
    for (const char* t : k.train) add(t);
    for (const char* t : k.eval) add(t);
    for (const auto& [q, a] : k.qas) {
      add(q);
      add(a);
    }
  }
  for (auto* a : {&kCityTrain})
    for (const char* s : *a) add(s);
  for (const char* s : kCityEval) add(s);
  for (const char* s : kWordTrain) add(s);
  for (const char* s : kWordEval) add(s);
  for (const char* s : kZhSuffix) add(s);
  for (const char* s : {"复述文件。", "人民币", "元", "年", "月", "日", "第", "条", "不得", "可以", "€", "£"}) add(s);
  return {chars.begin(), chars.end()};
}

}  // namespace sfcl::demo
