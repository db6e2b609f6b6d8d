// Table-driven lexer cases: every normalisation example of the anchor issue and many more,
// English and Chinese. A positive row names one anchor exactly (type, the text it covers, norm);
// the rows for one text together list every entity anchor the lexer may find in it, so a stray or
// a wider or narrower span fails. A negative row ("!type") rules out that type, or with a norm
// only that norm.
#include <gtest/gtest.h>

#include <cstring>
#include <ostream>
#include <string>
#include <string_view>

#include "anchor/anchor.h"

namespace sfcl::anchor {
namespace {

// Letter runs around the lexer's bound (kMaxLetterRun = 40): one letter over it, and exactly at it.
#define RUN41 "ScoresScoresScoresScoresScoresScoresScore"
#define RUN40 "ScoresScoresScoresScoresScoresScoresScor"
#define RUN41_LOWER "scoresscoresscoresscoresscoresscoresscore"
static_assert(sizeof(RUN41) - 1 == 41 && sizeof(RUN40) - 1 == 40 && sizeof(RUN41_LOWER) - 1 == 41);

struct Case {
  const char* text;
  const char* type;  // "amount", or "!date" for "no date anchor" (with a norm: none with that norm)
  const char* span;  // the covered text of a positive row ("" for a negative one)
  const char* norm;
};

const Case kCases[] = {
    // numbers
    {"It was 1,000.50 in total", "number", "1,000.50", "1000.5"},
    {"about 1.2 million units", "quantity", "1.2 million units", "1200000 unit"},
    {"共120万件", "quantity", "120万件", "1200000 件"},
    {"三千五百", "number", "三千五百", "3500"},
    {"1.000,50 net", "number", "1.000,50", "1000.5"},
    {"version 2.0 shipped", "number", "2.0", "2"},
    {"version 2.0 shipped", "!date", "", ""},
    {"we sold 42 units", "quantity", "42 units", "42 unit"},
    {"a 0.50 share", "number", "0.50", "0.5"},
    {"007 agents", "number", "007", "7"},
    {"1,234,567 people", "quantity", "1,234,567 people", "1234567 person"},
    {"3.14159 is pi", "number", "3.14159", "3.14159"},
    {"grew 2.5 billion", "number", "2.5 billion", "2500000000"},
    {"12 thousand", "number", "12 thousand", "12000"},
    {"10k followers", "number", "10k", "10000"},
    {"the 3rd item", "quantity", "3rd", "#3"},
    {"the 21st item", "quantity", "21st", "#21"},
    {"12,5 kg", "quantity", "12,5 kg", "12.5 kg"},
    {"1.000.000 Einwohner", "number", "1.000.000", "1000000"},
    {"一百二十万", "number", "一百二十万", "1200000"},
    {"两千零五", "number", "两千零五", "2005"},
    {"一亿二千万", "number", "一亿二千万", "120000000"},
    {"page 7.", "number", "7", "7"},
    {"items: 5, 6", "number", "6", "6"},
    {"items: 5, 6", "number", "5", "5"},
    {"plain words only", "!number", "", ""},
    {"统一安排", "!number", "", ""},
    // amounts
    {"Total $12,500.00 due", "amount", "$12,500.00", "12500 USD"},
    {"US$5 each", "amount", "US$5", "5 USD"},
    {"HK$5 each", "amount", "HK$5", "5 HKD"},
    {"€3.5m budget", "amount", "€3.5m", "3500000 EUR"},
    {"£20 fee", "amount", "£20", "20 GBP"},
    {"RMB 5,000 deposit", "amount", "RMB 5,000", "5000 CNY"},
    {"人民币5000元", "amount", "人民币5000元", "5000 CNY"},
    {"5千元", "amount", "5千元", "5000 CNY"},
    {"伍万元整", "amount", "伍万元整", "50000 CNY"},
    {"¥3,000 paid", "amount", "¥3,000", "3000 CNY"},
    {"¥3,000 yen", "amount", "¥3,000 yen", "3000 JPY"},
    {"5万元", "amount", "5万元", "50000 CNY"},
    {"人民币五千元", "amount", "人民币五千元", "5000 CNY"},
    {"USD 12500 wired", "amount", "USD 12500", "12500 USD"},
    {"12,500 USD wired", "amount", "12,500 USD", "12500 USD"},
    {"EUR 99.90", "amount", "EUR 99.90", "99.9 EUR"},
    {"GBP 1,250", "amount", "GBP 1,250", "1250 GBP"},
    {"cost 300 dollars", "amount", "300 dollars", "300 USD"},
    {"cost 40 euros", "amount", "40 euros", "40 EUR"},
    {"A$100 rebate", "amount", "A$100", "100 AUD"},
    {"S$2,000", "amount", "S$2,000", "2000 SGD"},
    {"$1.2 million grant", "amount", "$1.2 million", "1200000 USD"},
    {"$3bn deal", "amount", "$3bn", "3000000000 USD"},
    // a magnitude's letter after a currency prefix, as headlines write it
    {"$1.6B deal", "amount", "$1.6B", "1600000000 USD"},
    {"a $1.6b loss", "amount", "$1.6b", "1600000000 USD"},
    {"$2.3M raised", "amount", "$2.3M", "2300000 USD"},
    {"$4MM note", "amount", "$4MM", "4000000 USD"},
    {"$1.2T economy", "amount", "$1.2T", "1200000000000 USD"},
    {"£1.2tn debt", "amount", "£1.2tn", "1200000000000 GBP"},
    {"$5Bx", "amount", "$5", "5 USD"},  // no magnitude inside a longer word
    {"Grade 6B students", "!amount", "", ""},
    {"$0.99 app", "amount", "$0.99", "0.99 USD"},
    {"3000円", "amount", "3000円", "3000 JPY"},
    {"100 yuan", "amount", "100 yuan", "100 CNY"},
    {"支付8000元", "amount", "8000元", "8000 CNY"},
    {"$ alone", "!amount", "", ""},
    {"USDA approved", "!amount", "", ""},
    // percents
    {"12.5 % rate", "percent", "12.5 %", "12.5%"},
    {"12.5% rate", "percent", "12.5%", "12.5%"},
    {"百分之十", "percent", "百分之十", "10%"},
    {"12.5 percent", "percent", "12.5 percent", "12.5%"},
    {"3 per cent", "percent", "3 per cent", "3%"},
    {"百分之二十五", "percent", "百分之二十五", "25%"},
    {"5％折扣", "percent", "5％", "5%"},
    {"ten percent", "percent", "ten percent", "10%"},
    {"百分之5", "percent", "百分之5", "5%"},
    // Chinese decimals: 点 and digit numerals
    {"增长了百分之三点五", "percent", "百分之三点五", "3.5%"},
    {"增长了百分之3.5", "percent", "百分之3.5", "3.5%"},
    {"营收三点五亿元", "amount", "三点五亿元", "350000000 CNY"},
    {"产量十二点五万吨", "quantity", "十二点五万吨", "125000 t"},
    {"是去年的三点五倍", "quantity", "三点五倍", "3.5 倍"},
    {"只差一点点", "!number", "", ""},
    {"100% sure", "percent", "100%", "100%"},
    {"percent alone", "!percent", "", ""},
    // dates
    {"June 15, 2024", "date", "June 15, 2024", "2024-06-15"},
    {"15 June 2024", "date", "15 June 2024", "2024-06-15"},
    {"2024-06-15", "date", "2024-06-15", "2024-06-15"},
    {"2024/6/15", "date", "2024/6/15", "2024-06-15"},
    {"2024年6月15日", "date", "2024年6月15日", "2024-06-15"},
    {"June 2024", "date", "June 2024", "2024-06"},
    {"Q3 2024", "date", "Q3 2024", "2024-Q3"},
    {"2024年第三季度", "date", "2024年第三季度", "2024-Q3"},
    {"03/04/2024", "date", "03/04/2024", "2024-03-04"},
    {"15/06/2024", "date", "15/06/2024", "2024-06-15"},
    {"06/15/2024", "date", "06/15/2024", "2024-06-15"},
    {"Jun. 15, 2024", "date", "Jun. 15, 2024", "2024-06-15"},
    {"Sept 1, 2023", "date", "Sept 1, 2023", "2023-09-01"},
    {"December 31 2025", "date", "December 31 2025", "2025-12-31"},
    {"1st March 2022", "date", "1st March 2022", "2022-03-01"},
    {"March 3rd, 2022", "date", "March 3rd, 2022", "2022-03-03"},
    {"2024年6月", "date", "2024年6月", "2024-06"},
    {"6月15日", "date", "6月15日", "--06-15"},
    {"on June 15", "date", "June 15", "--06-15"},
    {"2023年", "date", "2023年", "2023"},
    {"2024.06.15", "date", "2024.06.15", "2024-06-15"},
    {"Q1, 2025", "date", "Q1, 2025", "2025-Q1"},
    {"2024年第1季度", "date", "2024年第1季度", "2024-Q1"},
    {"2024年6月15号", "date", "2024年6月15号", "2024-06-15"},
    {"may 2024 plans", "!date", "", ""},
    {"2024-13-45", "!date", "", ""},
    {"Qatar and Q2 2025", "date", "Q2 2025", "2025-Q2"},
    {"Q5 2024", "!date", "", ""},
    {"June is warm", "!date", "", ""},
    // durations
    {"within 30 days", "duration", "30 days", "30 day"},
    {"within thirty days", "duration", "thirty days", "30 day"},
    {"30日内", "duration", "30日", "30 day"},
    {"三十天", "duration", "三十天", "30 day"},
    {"a 30-day window", "duration", "30-day", "30 day"},
    {"12 months", "duration", "12 months", "12 month"},
    {"2 weeks", "duration", "2 weeks", "2 week"},
    {"3 years", "duration", "3 years", "3 year"},
    {"1 year", "duration", "1 year", "1 year"},
    {"10 business days", "duration", "10 business days", "10 workday"},
    {"thirty (30) days", "duration", "thirty (30) days", "30 day"},
    {"6个月", "duration", "6个月", "6 month"},
    {"2周", "duration", "2周", "2 week"},
    {"3年", "duration", "3年", "3 year"},
    {"15个工作日", "duration", "15个工作日", "15 workday"},
    {"两年", "duration", "两年", "2 year"},
    {"ninety days", "duration", "ninety days", "90 day"},
    {"after 45 minutes", "duration", "45 minutes", "45 minute"},
    {"a 30-minute drive", "duration", "30-minute", "30 minute"},
    {"in 90 mins", "duration", "90 mins", "90 minute"},
    {"within 5 seconds", "duration", "5 seconds", "5 second"},
    {"比赛进行了26分钟", "duration", "26分钟", "26 minute"},
    {"耗时3小时", "duration", "3小时", "3 hour"},
    {"飞行了12个小时", "duration", "12个小时", "12 hour"},
    {"仅用12秒", "duration", "12秒", "12 second"},
    {"2 second-half goals", "!duration", "", ""},
    {"3秒杀活动", "!duration", "", ""},
    {"40 sq mi of land", "quantity", "40 sq mi", "40 sqmi"},
    {"得到26分", "quantity", "26分", "26 分"},
    {"面积30平方公里", "quantity", "30平方公里", "30 km2"},
    {"占地5公顷", "quantity", "5公顷", "5 ha"},
    {"an area of 30 square kilometres", "quantity", "30 square kilometres", "30 km2"},
    {"30 sq km of forest", "quantity", "30 sq km", "30 km2"},
    {"120 square metres", "quantity", "120 square metres", "120 m2"},
    {"days ago", "!duration", "", ""},
    // clauses
    {"Section 7.2", "clause", "Section 7.2", "7.2"},
    {"Sec. 7.2", "clause", "Sec. 7.2", "7.2"},
    {"Art. 7.2", "clause", "Art. 7.2", "7.2"},
    {"§7.2", "clause", "§7.2", "7.2"},
    {"clause 7.2", "clause", "clause 7.2", "7.2"},
    {"第7条", "clause", "第7条", "7"},
    {"第七条", "clause", "第七条", "7"},
    {"第三款", "clause", "第三款", "3"},
    {"Article 12", "clause", "Article 12", "12"},
    {"Clause 4", "clause", "Clause 4", "4"},
    {"§ 3", "clause", "§ 3", "3"},
    {"Section 10.1.3", "clause", "Section 10.1.3", "10.1.3"},
    {"第十二条", "clause", "第十二条", "12"},
    {"第2章", "clause", "第2章", "2"},
    {"Paragraph 5", "clause", "Paragraph 5", "5"},
    {"Section alone", "!clause", "", ""},
    {"Section", "!clause", "", ""},
    {"第一名", "!clause", "", ""},
    // identifiers
    {"invoice INV-2024-0042", "identifier", "INV-2024-0042", "INV-2024-0042"},
    // a decade, in both languages one norm (not ninety years)
    {"in the 1990s", "identifier", "1990s", "1990s"},
    {"上世纪90年代", "identifier", "90年代", "1990s"},
    {"2010年代以来", "identifier", "2010年代", "2010s"},
    {"服役90年", "duration", "90年", "90 year"},
    {"mail John.Doe@Example.com", "identifier", "John.Doe@Example.com", "john.doe@example.com"},
    {"see https://example.com/a?b=1.", "identifier", "https://example.com/a?b=1", "https://example.com/a?b=1"},
    {"order PO-7781 shipped", "identifier", "PO-7781", "PO-7781"},
    {"call 555-010-2233", "identifier", "555-010-2233", "555-010-2233"},
    {"ticket A12B", "identifier", "A12B", "A12B"},
    {"COVID-19 rules", "identifier", "COVID-19", "COVID-19"},
    {"write to ops+billing@acme-corp.com today", "identifier", "ops+billing@acme-corp.com",
     "ops+billing@acme-corp.com"},
    {"user_name@host.org", "identifier", "user_name@host.org", "user_name@host.org"},
    {"Hi.Bob@corp.com", "identifier", "Hi.Bob@corp.com", "hi.bob@corp.com"},
    {"see http://x.io/a_b, then", "identifier", "http://x.io/a_b", "http://x.io/a_b"},
    {"a.b.c@d.e", "!identifier", "", ""},
    {"https://", "!identifier", "", ""},
    {"v1.2.3 release", "!identifier", "", ""},
    {"well-known fact", "!identifier", "", ""},
    // names
    {"Acme Robotics Ltd. signed", "name", "Acme Robotics Ltd.", "acme robotics ltd"},
    {"John Smith agreed", "name", "John Smith", "john smith"},
    {"Harbor Logistics LLC", "name", "Harbor Logistics LLC", "harbor logistics llc"},
    {"Bank of China", "name", "Bank of China", "bank of china"},
    {"Dr. Wang", "name", "Dr. Wang", "dr. wang"},
    {"上海华东科技有限公司", "name", "上海华东科技有限公司", "上海华东科技有限公司"},
    {"北京协和医院", "name", "北京协和医院", "北京协和医院"},
    {"招商银行", "name", "招商银行", "招商银行"},
    // a count's measure word opens a description, not a name
    {"他创办了一家造船公司。", "!name", "", ""},
    {"那间医院很大", "!name", "", ""},
    {"两所大学参加", "!name", "", ""},
    {"一家上海华东科技有限公司", "name", "上海华东科技有限公司", "上海华东科技有限公司"},
    // a clause's verb before the suffix names no one; a name after the verb still is one
    {"办法要求网贷机构选择银行作为存管机构", "!name", "", ""},
    {"款项通过中国银行支付", "name", "中国银行", "中国银行"},
    // the second of two ordinals that share one 第; a day after a dateline
    {"分列第二、三名", "quantity", "三名", "#3"},
    {"专电）24日，土地拍卖开始", "date", "24日", "---24"},
    {"可选期限为7日，15日，30日。", "!date", "", ""},
    {"他获得第一、三人获得第二", "quantity", "三人", "3 人"},
    {"Ａｃｍｅ Ｃｏｒｐ", "!name", "", ""},
    {"The Buyer pays", "!name", "", ""},
    {"Hello there", "!name", "", ""},
    {"Acme Corp", "name", "Acme Corp", "acme corp"},
    {"Mary Ann Lee", "name", "Mary Ann Lee", "mary ann lee"},
    // "and" joins a one-word name to the next ("Johnson and Johnson"), never two full names.
    {"Johnson and Johnson", "name", "Johnson and Johnson", "johnson and johnson"},
    {"Procter & Gamble", "name", "Procter & Gamble", "procter & gamble"},
    {"Grace Hughes and Henry Foster", "name", "Grace Hughes", "grace hughes"},
    {"Grace Hughes and Henry Foster", "name", "Henry Foster", "henry foster"},
    {"Grace Hughes and Henry Foster", "!name", "", "grace hughes and henry foster"},
    {"Royal Bank of Canada", "name", "Royal Bank of Canada", "royal bank of canada"},
    // A capitalised word that prefixes an identifier belongs to the identifier, not the name.
    {"Dr. Chloe Turner MRN-534782.", "name", "Dr. Chloe Turner", "dr. chloe turner"},
    {"Dr. Chloe Turner MRN-534782.", "!name", "", "dr. chloe turner mrn"},
    {"Dr. Chloe Turner MRN-534782.", "identifier", "MRN-534782", "MRN-534782"},
    {"Jean-Luc Picard", "name", "Jean-Luc Picard", "jean-luc picard"},
    // A capitalised run longer than six words is a heading, not a name, nor is any part of it.
    {"Annual Report Board Directors Fiscal Year Summary filed", "!name", "", ""},
    {"The Annual Report Board Directors Fiscal Year Summary filed", "!name", "", ""},
    {"Acme Robotics North America Holdings Group signed", "name", "Acme Robotics North America Holdings Group",
     "acme robotics north america holdings group"},
    // A company suffix ends the run: the name after it stands on its own.
    {"Acme Corp Grace Hughes signed", "name", "Acme Corp", "acme corp"},
    {"Acme Corp Grace Hughes signed", "name", "Grace Hughes", "grace hughes"},
    // code, json, xml
    {"def total(x):", "code_signature", "def total", "def total"},
    {"class Invoice:", "code_signature", "class Invoice", "class Invoice"},
    {"fn parse(s: &str)", "code_signature", "fn parse", "fn parse"},
    {"function render() {}", "code_signature", "function render", "function render"},
    {"a class of shares", "!code_signature", "", ""},
    {"{\"amount\": 5}", "json", "{", "{"},
    {"{\"amount\": 5}", "number", "5", "5"},
    {"{\"amount\": 5}", "json", "\"amount\"", "key:amount"},
    {"[{\"a\":1}]", "json", "[", "["},
    {"[{\"a\":1}]", "number", "1", "1"},
    {"<invoice id=\"1\">", "xml", "<invoice id=\"1\">", "<invoice>"},
    {"</invoice>", "xml", "</invoice>", "</invoice>"},
    {"a < b", "!xml", "", ""},
    // logic
    {"if paid", "logic", "if", "if"},
    {"else return", "logic", "else", "else"},
    {"otherwise void", "logic", "otherwise", "else"},
    {"unless agreed", "logic", "unless", "unless"},
    {"therefore due", "logic", "therefore", "therefore"},
    {"thus due", "logic", "thus", "therefore"},
    {"hence due", "logic", "hence", "therefore"},
    {"如果付款", "logic", "如果", "if"},
    {"否则无效", "logic", "否则", "else"},
    {"因此到期", "logic", "因此", "therefore"},
    {"所以到期", "logic", "所以", "therefore"},
    {"The Supplier shall not assign", "logic", "shall not", "must_not"},
    {"must not disclose", "logic", "must not", "must_not"},
    {"不得转让", "logic", "不得", "must_not"},
    {"The Buyer shall pay", "logic", "shall", "must"},
    {"乙方应当支付", "logic", "应当", "must"},
    {"x = 5", "logic", "=", "equals"},
    {"x = 5", "number", "5", "5"},
    {"Buyer agrees", "logic", "agrees", "commit"},
    {"ifs and buts", "!logic", "", ""},
    {"IF ONLY", "!logic", "", ""},
    // Keywords and numerals inside a long run of plain Han characters (the scan skips plain
    // characters after a failed organisation-name scan, never a keyword or numeral).
    {"客户表示非常满意应当付款。", "logic", "应当", "must"},
    {"客户表示非常满意三千五百元。", "amount", "三千五百元", "3500 CNY"},
    {"客户表示非常满意见第七条。", "clause", "第七条", "7"},
    {"客户表示非常满意支付人民币5000元。", "amount", "人民币5000元", "5000 CNY"},
    {"客户表示非常满意百分之十。", "percent", "百分之十", "10%"},
    {"客户表示非常满意华东科技有限公司", "name", "客户表示非常满意华东科技有限公司",
     "客户表示非常满意华东科技有限公司"},
    // Words that only begin like a keyword (the keyword matchers run for exact leading words).
    {"thirtyish days", "!duration", "", ""},
    {"Sections 7 and 8", "!clause", "", ""},
    {"shallow water", "!logic", "", ""},
    {"Thirty days", "duration", "Thirty days", "30 day"},
    {"Sec. 4.2 applies", "clause", "Sec. 4.2", "4.2"},
    // citations: references to published work
    {"as reported in Nature 615, 452–458 (2023).", "citation", "Nature 615, 452–458 (2023)", "nature 615 452 458 2023"},
    {"see doi:10.1038/s41586-023-05995-9.", "citation", "doi:10.1038/s41586-023-05995-9", "10 1038 s41586 023 05995 9"},
    {"arXiv:2301.01234v2 shows", "citation", "arXiv:2301.01234v2", "arxiv 2301 01234v2"},
    {"Chen et al. (2021) found", "citation", "Chen et al. (2021)", "chen et al 2021"},
    {"as noted (Graves, 2018).", "citation", "Graves, 2018", "graves 2018"},
    {"Olsen-Vick and Okafor, 2017 showed", "citation", "Olsen-Vick and Okafor, 2017", "olsen vick and okafor 2017"},
    {"Smith v. Jones, 512 U.S. 218 (1994).", "citation", "512 U.S. 218 (1994)", "512 u s 218 1994"},
    {"见《自然》2023年第615卷第452–458页。", "citation", "《自然》2023年第615卷第452–458页",
     "自然 2023年第615卷第452 458页"},
    {"在《自然·地球科学》（Nature Geoscience）2024年第17卷发表", "citation",
     "《自然·地球科学》（Nature Geoscience）2024年第17卷", "自然 地球科学 2024年第17卷"},
    {"王等（2021）指出", "citation", "王等（2021）", "王等 2021"},
    {"出自Liu等（2020）的研究", "citation", "Liu等（2020）", "liu等 2020"},
    {"Acme 5, 6 and 7", "!citation", "", ""},
    {"the Treaty of Paris (1783)", "!citation", "", ""},
    // Chinese personal names: a surname and one or two characters before a word that ends a name
    {"项目负责人是陈建华。", "name", "陈建华", "陈建华"},
    {"张伟于2003年获得博士学位", "name", "张伟", "张伟"},
    {"张伟于2003年获得博士学位", "date", "2003年", "2003"},
    {"王芳和李娜出席。", "name", "李娜", "李娜"},
    {"王芳和李娜出席。", "name", "王芳", "王芳"},
    {"金额为人民币5万元", "!name", "", ""},
    {"董事会决定", "!name", "", ""},
    // Quantities: a count or measure with its unit or measure word, and ordinals, as one value
    {"订购了6台交换机", "quantity", "6台", "6 台"},
    {"共有612例患者入组", "quantity", "612例", "612 人"},
    {"两名队员受伤", "quantity", "两名", "2 人"},
    {"年产量3.1万吨", "quantity", "3.1万吨", "31000 t"},
    {"排名第12位", "quantity", "第12位", "#12"},
    {"获得第三名", "quantity", "第三名", "#3"},
    {"finished in 12th place", "quantity", "12th", "#12"},
    {"carrying 229 passengers", "quantity", "229 passengers", "229 person"},
    {"rated at 480 MW", "quantity", "480 MW", "480 MW"},
    {"十分重要", "!quantity", "", ""},
    {"这是一个问题", "!quantity", "", ""},
    {"用时5分钟", "!quantity", "", ""},
    {"于19时35分开赛", "!quantity", "", ""},
    {"全场拿下31分", "quantity", "31分", "31 分"},
    {"占三分之一", "!quantity", "", ""},
    {"6个月内付清", "!quantity", "", ""},
    {"within 30 days", "!quantity", "", ""},
    // Scores: two whole numbers read as one value
    {"Leicester beat Saracens 27-24.", "score", "27-24", "27-24"},
    {"won 21–13 in the final", "score", "21–13", "21-13"},
    {"以3比1战胜日本队", "score", "3比1", "3-1"},
    {"战绩为17胜6负", "score", "17胜6负", "17-6 w-l"},
    {"ballot measure 24-07 passed", "identifier", "24-07", "24-07"},
    {"for 3-5 years", "!score", "", ""},
    {"from 12–15 June", "!score", "", ""},
    {"call 1-800-555-0199", "!score", "", ""},
    {"rose 10-20%", "!score", "", ""},
    {"in 2019-2021", "!score", "", ""},
    {"同比增长12.5%", "!score", "", ""},
    // Titles in 《》 with no venue or year
    {"依据《中华人民共和国行政强制法》作出决定", "title", "《中华人民共和国行政强制法》", "《行政强制法》"},
    {"《民法典》规定", "title", "《民法典》", "《民法典》"},
    {"under 《Civil Aviation Regulations》 today", "title", "《Civil Aviation Regulations》",
     "《civil aviation regulations》"},
    // Japanese names in Chinese text, and in English
    {"选手山口遥在比赛中", "name", "山口遥", "山口遥"},
    {"由佐藤健主演", "name", "佐藤健", "佐藤健"},
    {"长谷川润是演员", "name", "长谷川润", "长谷川润"},
    {"横跨大西洋的航线", "!name", "", ""},
    {"the title went to Haruka Yamaguchi today", "name", "Haruka Yamaguchi", "haruka yamaguchi"},
    // Latin letters with diacritics inside names
    {"Hans-Peter Lüscher signed", "name", "Hans-Peter Lüscher", "hans-peter lüscher"},
    {"met Siobhán McGarrity today", "name", "Siobhán McGarrity", "siobhán mcgarrity"},
    // A run of more than 40 letters in a row is no word (docs/DESIGN.md, 'Hold-back and emission'):
    // it starts no anchor and is part of none, and a value glued to it is still found on its own.
    {RUN41 "2031 next", "number", "2031", "2031"},
    {RUN41 "2031" RUN41 "2032.", "number", "2031", "2031"},
    {RUN41 "2031" RUN41 "2032.", "number", "2032", "2032"},
    {"2031" RUN41 " next", "number", "2031", "2031"},
    {"abc123" RUN41 " next", "identifier", "abc123", "abc123"},
    // "INV" glued to the run is part of it; the code's numbers are still checked.
    {"ref " RUN41 "INV-2024-0117 filed", "number", "2024", "2024"},
    {"ref " RUN41 "INV-2024-0117 filed", "number", "0117", "117"},
    {"paid " RUN41 "$12,500.00 today", "amount", "$12,500.00", "12500 USD"},
    {"mail " RUN41_LOWER "@example.com now", "!identifier", "", ""},
    {"Signed by Tom " RUN41 " today", "!name", "", ""},
    {"def " RUN41 "(x): pass", "!code_signature", "", ""},
    // ... up to 40 letters it is a word like any other.
    {RUN40 "2031 next", "identifier", RUN40 "2031", RUN40 "2031"},
    {"def " RUN40 "(x): pass", "code_signature", "def " RUN40, "def " RUN40},
    {"class AbstractSingletonProxyFactoryBean {", "code_signature", "class AbstractSingletonProxyFactoryBean",
     "class AbstractSingletonProxyFactoryBean"},
    {"Signed by Wolfeschlegelsteinhausenbergerdorff Smith today", "name", "Wolfeschlegelsteinhausenbergerdorff Smith",
     "wolfeschlegelsteinhausenbergerdorff smith"},
    {"commit 3f2a9b7c0d1e4f5a6b7c8d9e0f1a2b3c4d5e6f7a merged", "identifier", "3f2a9b7c0d1e4f5a6b7c8d9e0f1a2b3c4d5e6f7a",
     "3f2a9b7c0d1e4f5a6b7c8d9e0f1a2b3c4d5e6f7a"},
    // Chinese has no spaces: values and names inside a long run of characters are found as in a
    // short one, and a Latin run glued to Chinese ends at the first Chinese character.
    {"项目建设资金统筹安排按照进度分期拨付三千五百万元用于建设", "amount", "三千五百万元", "35000000 CNY"},
    {"项目建设资金统筹安排按照进度分期拨付给上海华东科技有限公司", "name", "上海华东科技有限公司",
     "上海华东科技有限公司"},
    {"项目建设资金统筹安排按照进度分期拨付人民币5000元用于建设", "amount", "人民币5000元", "5000 CNY"},
    {"项目建设资金统筹安排按照进度由张伟于2003年主持", "name", "张伟", "张伟"},
    {"项目建设资金统筹安排按照进度由张伟于2003年主持", "date", "2003年", "2003"},
    {RUN41 "人民币5000元", "amount", "人民币5000元", "5000 CNY"},
    // times of day: one anchor, 24-hour norm; a 1-11 o'clock time without am/pm reads both halves
    {"open from 9:00 am daily", "time", "9:00 am", "09:00"},
    {"until 9:30 pm daily", "time", "9:30 pm", "21:30"},
    {"until 8 PM tonight", "time", "8 PM", "20:00"},
    {"from 11am on", "time", "11am", "11:00"},
    {"at 10 a.m. sharp", "time", "10 a.m.", "10:00"},
    {"at 12 am sharp", "time", "12 am", "00:00"},
    {"hours 14:0 to close", "time", "14:0", "14:00"},
    {"at 14:00 pm sharp", "time", "14:00 pm", "14:00"},
    {"won in 2:19:37 flat", "time", "2:19:37", "02:19:37"},
    {"won 3:1 at home", "!time", "", ""},
    {"I am 5 and more", "!time", "", ""},
    // Chinese times of day: a part of the day before the hour, or minutes, 半, 刻, 整, 钟 or 许 after it
    {"会议于19时35分开始", "time", "19时35分", "19:35"},
    {"营业至晚上9点半", "time", "9点半", "21:30"},
    {"下午3点开会", "time", "3点", "15:00"},
    {"凌晨两点出发", "time", "两点", "02:00"},
    {"三点一刻出发", "time", "三点一刻", "03:15"},
    {"约9时许到达", "time", "9时许", "09:00"},
    {"晚上十一点五十到", "time", "十一点五十", "23:50"},
    {"晚上12点关门", "time", "12点", "00:00"},
    {"于17时发布预警", "time", "17时", "17:00"},
    {"夜里一点才睡", "time", "一点", "01:00"},
    {"晚上8点见", "time", "8点", "20:00"},
    {"请晚一点到", "!time", "", ""},
    {"早一点出发", "!time", "", ""},
    {"他一时难以接受", "!time", "", ""},
    {"提出3点意见", "!time", "", ""},
    // an hour with no part of the day, read as one by a range or a word of time around it
    {"早上7点到10点", "time", "10点", "10:00"},
    {"早上7点到10点", "time", "7点", "07:00"},
    {"上午，9点到12点之间", "time", "9点", "09:00"},
    {"上午，9点到12点之间", "time", "12点", "12:00"},
    {"7点开始晚宴", "time", "7点", "07:00"},
    {"3点前到达", "time", "3点", "03:00"},
    {"两点要求", "!time", "", ""},
    // two digits of minutes after an hour in digits, unless a unit follows them
    {"10点20到昆明", "time", "10点20", "10:20"},
    {"增长3点45个百分点", "!time", "", ""},
    {"提出3点12项措施", "!time", "", ""},
    {"2点15吨", "!time", "", ""},
    {"9点05开始", "time", "9点05", "09:05"},
    {"基于以下三点前提", "!time", "", ""},
    {"这两点后来都被证实", "!time", "", ""},
    {"沪指上涨15点至3050点", "!time", "", ""},
    {"道指收盘上涨10点左右", "!time", "", ""},
    {"下月1号线将开通", "!date", "", ""},
    // 号 is a day of the month after a month word only
    {"每月10号发工资", "date", "10号", "---10"},
    {"10号楼", "!date", "", ""},
    // ... and before a part of the day, or joined to another day in a sentence that wrote its month
    {"复试3月27日开始，27号上午报到", "date", "27号", "---27"},
    {"复试3月27日开始，27号上午报到", "date", "3月27日", "--03-27"},
    {"19号晚上9:20开演", "date", "19号", "---19"},
    {"19号晚上9:20开演", "time", "9:20", "09:20"},  // either half of the day, as any H:MM
    {"3月5日，10号和23号队员受伤", "number", "10", "10"},
    {"3月5日，10号和23号队员受伤", "number", "23", "23"},
    {"3月5日，10号和23号队员受伤", "date", "3月5日", "--03-05"},
    {"复试在3月27日到29日进行，28号和29号面试", "date", "3月27日", "--03-27"},
    {"复试在3月27日到29日进行，28号和29号面试", "date", "29日", "---29"},
    {"复试在3月27日到29日进行，28号和29号面试", "date", "28号", "---28"},
    {"复试在3月27日到29日进行，28号和29号面试", "date", "29号", "---29"},
    {"5月20日，上海华通1号、2号白银定盘价", "date", "5月20日", "--05-20"},  // grades
    {"5月20日，上海华通1号、2号白银定盘价", "number", "1", "1"},
    {"5月20日，上海华通1号、2号白银定盘价", "number", "2", "2"},
    {"3号和5号楼", "!date", "", ""},
    {"2号到5号", "!date", "", ""},
    // a bare hour before a word of time, and as a range's first end before a part of the day
    {"晚上9点，8点停止入馆", "time", "8点", "08:00"},
    {"晚上9点，8点停止入馆", "time", "9点", "21:00"},
    {"11点到中午12点是圆桌对话", "time", "12点", "12:00"},
    {"赵晓青从10点讲到10点45", "time", "10点45", "10:45"},
    {"赵晓青从10点讲到10点45", "name", "赵晓青", "赵晓青"},
    {"11点到中午12点是圆桌对话", "time", "11点", "11:00"},
    {"赵晓青从10点讲到10点45", "time", "10点", "10:00"},
    {"指数从3000点涨到3050点", "!time", "", ""},
    {"24小时营业", "!time", "", ""},
    {"下午3点99分", "!time", "", ""},
    // a number opening a list line is the step's number, no value
    {"Steps:\n6. Rinse well", "!number", "", ""},
    {"2) Sign here", "!number", "", ""},
    // a phone number with its area code in parentheses is the number written with dashes
    {"Call (555) 010-2233 now", "identifier", "(555) 010-2233", "555-010-2233"},
    {"Call (555)010-2233.", "identifier", "(555)010-2233", "555-010-2233"},
    {"in (2021) 123-45678 cases", "!identifier", "", ""},
    // an ordinal after "on the", "by the" ... with no noun after it is a day of the month, as 3日 is
    {"He arrived on the 3rd.", "date", "3rd", "---03"},
    {"Pay by the 15th at noon.", "date", "15th", "---15"},
    {"He lives on the 3rd floor.", "!date", "", ""},
    {"She finished 3rd.", "quantity", "3rd", "#3"},
    {"1、打开盖子", "!number", "", ""},
    {"Step 1: Open the lid.", "!number", "", ""},
    {"Open the lid. Step 2: Pour water.", "!number", "", ""},
    {"步骤1：打开盖子", "!number", "", ""},
    {"Refer to Step 3: the filter", "number", "3", "3"},
    {"Step 3 of the contract applies", "number", "3", "3"},
    {"in 2024. Then", "number", "2024", "2024"},
    // compounds of a number and a unit, and compound Chinese magnitudes
    {"a 4-star rating", "quantity", "4-star", "4 star"},
    {"a 26-point lead", "quantity", "26-point", "26 point"},
    {"a 24-hour service", "duration", "24-hour", "24 hour"},
    // a count hyphenated to the noun it counts is the count; codes stay identifiers
    {"a 2-bedroom flat", "number", "2", "2"},
    {"the 18-hole course", "number", "18", "18"},
    {"a 2-bedroom-flat", "identifier", "2-bedroom-flat", "2-bedroom-flat"},
    {"in block 2-A", "identifier", "2-A", "2-A"},
    {"a 9-to-5 job", "identifier", "9-to-5", "9-to-5"},
    // units of measure, spaced or glued, in both languages; the denominator of a fraction has none
    {"Take 500 mg twice daily.", "quantity", "500 mg", "500 mg"},
    {"Take 500mg twice daily.", "quantity", "500mg", "500 mg"},
    {"Take 500 mg twice daily.", "quantity", "twice", "2 次"},
    // Chinese news: a month alone and its parts, spans after a word of duration, approximate
    // numerals, full-width colons, 整 that begins a word
    {"9月是民族团结月", "date", "9月", "--09"},
    {"金秋九月", "date", "九月", "--09"},
    {"9月份", "date", "9月份", "--09"},
    {"从2月中旬开始", "date", "2月中旬", "--02/11-20"},
    {"2024年3月底", "date", "2024年3月底", "2024-03/21-31"},
    {"三月初", "date", "三月初", "--03/01-10"},
    {"第3月", "quantity", "第3", "#3"},
    {"一个第8结束了", "quantity", "第8", "#8"},
    {"贝尔在第57分钟接球", "duration", "57分钟", "57 minute"},
    {"贝尔在第57分钟接球", "name", "贝尔", "贝尔"},
    {"she appeared in Cafe\u0301 Society", "name", "Cafe\u0301 Society", "cafe\u0301 society"},
    {"第一时间", "!quantity", "", ""},
    {"以109:87客场大胜", "score", "109:87", "109-87"},
    {"以1:0战胜杭州", "score", "1:0", "1-0"},
    {"'Friday': '11:30-20:0'", "time", "20:0", "20:00"},
    {"'Friday': '11:30-20:0'", "time", "11:30", "11:30"},
    {"一连三日在香港举办", "duration", "三日", "3 day"},
    {"为期五日", "duration", "五日", "5 day"},
    {"数千名观众", "!quantity", "", ""},
    {"数百万元", "!amount", "", ""},
    {"十几个人", "!quantity", "", ""},
    {"以65：76告负", "score", "65：76", "65-76"},
    {"3：1获胜", "score", "3：1", "3-1"},
    {"19：30开始", "time", "19：30", "19:30"},
    {"提出七点整改要求", "!time", "", ""},
    {"早上七点整出发", "time", "七点整", "07:00"},
    {"他打进3球", "quantity", "3球", "3 goal"},
    {"3-oz. cups", "quantity", "3-oz", "3 oz"},
    {"a 500-mg dose", "quantity", "500-mg", "500 mg"},
    {"Take 500mg twice daily.", "quantity", "twice", "2 次"},
    {"Add 0.5 g of salt.", "quantity", "0.5 g", "0.5 g"},
    {"每次服用500毫克。", "quantity", "500毫克", "500 mg"},
    {"每次服用0.5克。", "quantity", "0.5克", "0.5 g"},
    {"Fever of 38.5°C.", "quantity", "38.5°C", "38.5 degC"},
    {"体温38.5℃。", "quantity", "38.5℃", "38.5 degC"},
    {"Drink 2 L a day.", "quantity", "2 L", "2 l"},
    {"每天喝2升水。", "quantity", "2升", "2 l"},
    {"从3升至5", "!quantity", "", ""},
    {"BP 120 mmHg", "quantity", "120 mmHg", "120 mmHg"},
    {"a 64GB phone", "quantity", "64GB", "64 GB"},
    {"Cut it at 7 3/4 inches.", "!quantity", "", ""},
    {"Cut it 3/4 inches thick.", "identifier", "3/4", "3/4"},
    {"a 1/2 lb burger", "!quantity", "", ""},
    {"rated 4/5 by critics", "identifier", "4/5", "4/5"},
    {"a 5G network", "!quantity", "", ""},
    {"a 4g network", "!quantity", "", ""},
    {"runway 27L", "!quantity", "", ""},
    {"10,000 TB deaths", "!quantity", "", ""},
    {"Store at -18°C.", "quantity", "18°C", "-18 degC"},
    {"冷冻温度为零下18℃。", "quantity", "18℃", "-18 degC"},
    {"Heat the oven (205° C).", "quantity", "205° C", "205 degC"},
    {"每份含200千卡", "quantity", "200千卡", "200 kcal"},
    {"净重3千克", "quantity", "3千克", "3 kg"},
    {"钻石重1克拉", "!quantity", "", ""},
    {"两国12日元首会晤", "!amount", "", ""},
    {"本月1日元旦", "!amount", "", ""},
    // currencies named in Chinese after the number ("500日元" is no span of 500 days)
    {"费用为500日元。", "amount", "500日元", "500 JPY"},
    {"费用为150万日元。", "amount", "150万日元", "1500000 JPY"},
    {"投资三亿美元", "amount", "三亿美元", "300000000 USD"},
    {"票价20英镑", "amount", "20英镑", "20 GBP"},
    // half a unit of a duration in English
    {"It takes half an hour.", "duration", "half an hour", "0.5 hour"},
    {"It takes two and a half hours.", "duration", "two and a half hours", "2.5 hour"},
    {"It takes 2 and a half hours.", "duration", "2 and a half hours", "2.5 hour"},
    {"half the time", "!duration", "", ""},
    {"half-year results", "!duration", "", ""},
    // half a unit of a duration (半) in Chinese
    {"保修期为一年半。", "duration", "一年半", "1.5 year"},
    {"飞行两个半小时。", "duration", "两个半小时", "2.5 hour"},
    {"等了3个半小时。", "duration", "3个半小时", "3.5 hour"},
    {"保修期为半年。", "duration", "半年", "0.5 year"},
    {"上半年营收增长", "!duration", "", ""},
    {"发布半年报", "!duration", "", ""},
    {"一年半载", "duration", "一年", "1 year"},
    {"近5年半导体出口", "duration", "5年", "5 year"},
    {"两年半岛局势", "duration", "两年", "2 year"},
    {"一年半后", "duration", "一年半", "1.5 year"},
    // tenths (成) are a percentage, in numerals or digits; not in words that begin with 成
    {"营收同比增长三成。", "percent", "三成", "30%"},
    {"超过3成的用户", "percent", "3成", "30%"},
    {"七成半的受访者", "percent", "七成半", "75%"},
    {"九成九的订单", "percent", "九成九", "99%"},
    {"方案一成不变", "!percent", "", ""},
    {"约三成一线城市", "percent", "三成", "30%"},
    {"三成五的人", "percent", "三成五", "35%"},
    {"他八成是忘了", "!percent", "", ""},
    {"三成为首批会员", "!percent", "", ""},
    {"涉案金额约3千亿元", "amount", "3千亿元", "300000000000 CNY"},
    {"总额达2万亿元", "amount", "2万亿元", "2000000000000 CNY"},
    // "N日" before a verb is the day of the month; a span of days otherwise
    {"智利外交部25日发表声明", "date", "25日", "---25"},
    {"应于30日内付款", "duration", "30日", "30 day"},
    {"近30日以来", "!date", "", ""},
    // dates written in Chinese numerals, and "the 15th of March"
    {"签订于二〇二四年三月十五日。", "date", "二〇二四年三月十五日", "2024-03-15"},
    {"成立于一九九八年。", "date", "一九九八年", "1998"},
    {"成立于一九九八年", "!duration", "", ""},
    {"会议定于三月十五日召开。", "date", "三月十五日", "--03-15"},
    {"截至十二月三十一日。", "date", "十二月三十一日", "--12-31"},
    {"2024年三月起施行", "date", "2024年三月", "2024-03"},
    {"本月十五日召开", "date", "十五日", "---15"},
    {"十五日内付款", "duration", "十五日", "15 day"},
    {"两月", "!date", "", ""},
    {"上世纪九十年代初", "identifier", "九十年代初", "early-1990s"},
    {"九十年代末期", "identifier", "九十年代末期", "late-1990s"},
    {"20世纪90年代中期", "identifier", "90年代中期", "mid-1990s"},
    {"20世纪90年代中期", "number", "20", "20"},
    {"in the early 1990s", "identifier", "1990s", "early-1990s"},
    {"in the late '90s", "identifier", "90s", "late-1990s"},
    {"in the ’80s", "identifier", "80s", "1980s"},
    {"the 1990's", "identifier", "1990's", "1990s"},
    {"in her 90s", "identifier", "90s", "90s"},
    {"一九九〇年代", "identifier", "一九九〇年代", "1990s"},
    {"signed on the 15th of March 2024.", "date", "15th of March 2024", "2024-03-15"},
    {"due on the 3rd of May.", "date", "3rd of May", "--05-03"},
    {"15 of March", "!date", "", ""},
    // Chinese numerals said short, digit by digit, and ranges that state no value
    {"月薪一万五。", "number", "一万五", "15000"},
    {"售价三千五百元", "amount", "三千五百元", "3500 CNY"},
    {"售价三千五元", "amount", "三千五元", "3500 CNY"},
    {"万一下雨", "!number", "", ""},
    {"成交金额近万亿元。", "amount", "万亿元", "1000000000000 CNY"},
    {"过三五天再来", "!duration", "", ""},
    {"来了七八个人", "!quantity", "", ""},
    {"一两万元的藏獒", "amount", "一两万元", "10000-20000 CNY"},
    // number words with a hyphen
    {"Revenue rose twenty-five percent.", "percent", "twenty-five percent", "25%"},
    {"a term of thirty-six months", "duration", "thirty-six months", "36 month"},
    {"fifty percent of staff", "percent", "fifty percent", "50%"},
    {"eighteen months later", "duration", "eighteen months", "18 month"},
    // counts in words: what they count, as "3 women" and "3 goals" are
    {"Three women were charged.", "number", "Three", "3"},
    {"The building has eleven floors.", "number", "eleven", "11"},
    {"He scored three goals.", "quantity", "three goals", "3 goal"},
    {"Thirty-one passengers were seen.", "quantity", "Thirty-one passengers", "31 person"},
    {"two million people", "quantity", "two million people", "2000000 person"},
    {"two of them left", "!number", "", ""},
    {"two to three weeks", "!number", "", ""},
    {"employs two thousand four hundred people", "quantity", "two thousand four hundred people", "2400 person"},
    {"three hundred and twelve passengers", "quantity", "three hundred and twelve passengers", "312 person"},
    {"three times a day", "quantity", "three times", "3 次"},
    {"two hundred hundred people", "number", "two hundred", "200"},
    {"one hundred people were hurt", "quantity", "one hundred people", "100 person"},
    {"one of them", "!number", "", ""},
    {"two thousand three million people", "number", "two thousand three", "2003"},
    {"3 times a day", "quantity", "3 times", "3 次"},
    {"每天三次", "quantity", "三次", "3 次"},
    {"one of the best", "!number", "", ""},
    {"The Three Musketeers", "!number", "", ""},
    // basis points and percentage points
    {"cut by 25 basis points", "quantity", "25 basis points", "25 bp"},
    {"up 0.25 percentage points", "quantity", "0.25 percentage points", "0.25 pp"},
    {"利率下调25个基点", "quantity", "25个基点", "25 bp"},
    // paragraphs of an article, in both languages; fiscal years
    {"Under Article 12(3) the seller", "clause", "Article 12(3)", "12(3)"},
    {"Under Article 12(3) the seller", "!number", "", ""},
    {"see clause 7(a)(ii).", "clause", "clause 7(a)(ii)", "7(a)(ii)"},
    {"根据第十二条第三款，卖方", "clause", "第十二条第三款", "12(3)"},
    {"第十二条第三款第二项", "clause", "第十二条第三款第二项", "12(3)(2)"},
    {"(see Section 3)", "clause", "Section 3", "3"},
    {"Revenue for FY2024 was", "date", "FY2024", "2024"},
    {"in FY24 and", "date", "FY24", "2024"},
    {"FYI 2024", "!date", "", ""},
    {"in FY99 and", "date", "FY99", "1999"},
    {"一日三餐", "!date", "", ""},
    {"五日游", "!date", "", ""},
    {"Revenue rose twenty five percent.", "percent", "twenty five percent", "25%"},
    {"一一一一一一一一一一一一一一一一一一一一一元", "!amount", "", ""},
    // race times and marks as Chinese sports news writes them: hundredths after 秒 or 米, minutes
    // (not points) before 秒
    {"他以59秒08夺冠", "duration", "59秒08", "59.08 second"},
    {"叶诗文游出1分09秒99", "duration", "1分09秒99", "69.99 second"},
    {"成绩为3分19秒", "duration", "3分19秒", "199 second"},
    {"掷出76米33的成绩", "quantity", "76米33", "76.33 m"},
    {"跑完100米50名选手", "quantity", "100米", "100 m"},
    {"跑完100米50名选手", "quantity", "50名", "50 人"},
    {"以3分领先", "quantity", "3分", "3 分"},
    {"叶诗文以1分09秒99名列第六", "duration", "1分09秒99", "69.99 second"},
    {"叶诗文以1分09秒99名列第六", "!quantity", "", "99 人"},
    {"叶诗文以1分09秒99名列第六", "quantity", "第六", "#6"},
    // a source written in lower case; a lower-case "may", or "march" with no year, is a word
    {"on november 25, 1980, controversy", "date", "november 25, 1980", "1980-11-25"},
    {"it may 5 times", "!date", "", ""},
    {"they march 20 miles", "!date", "", ""},
    {"on march 8, 1971 at the garden", "date", "march 8, 1971", "1971-03-08"},
    {"the august 12 judges", "!date", "", ""},
    // units glued to their number
    {"a depth of 15.5km north", "quantity", "15.5km", "15.5 km"},
    {"it weighs 5kg", "quantity", "5kg", "5 kg"},
    // a day of the month before a verb in the past tense; not before a noun
    {"a reviewer on the 17th called it perfect", "date", "17th", "---17"},
    {"a room on the 3rd floor", "!date", "", ""},
    {"after the 3rd failed attempt", "!date", "", ""},
    {"a reviewer on the 17th called everything perfect", "date", "17th", "---17"},
    // hours of the morning and the night in words, after a word of time; counts stay counts
    {"open from 8 in the morning until 2 at night", "time", "8 in the morning", "08:00"},
    {"open from 8 in the morning until 2 at night", "time", "2 at night", "02:00"},
    {"until 11 at night", "time", "11 at night", "23:00"},
    {"he made 5 in the morning and 2 in the afternoon", "!time", "", ""},
    {"the temperature fell to 3 at night", "!time", "", ""},
    // a title's abbreviation ends the words before a name
    {"Republican Rep. Anthony D'Esposito filed it", "!name", "", "republican rep"},
    {"Republican Rep. Anthony D'Esposito filed it", "name", "Anthony D'Esposito", "anthony d'esposito"},
    {"Cambodia is led by Hun Sen. He rules", "name", "Hun Sen", "hun sen"},
    // a middle initial is part of the name; a king's numeral, a thing's letter before a sentence is none
    {"Utah Gov. Gary R. Herbert signed", "name", "Gary R. Herbert", "gary r. herbert"},
    {"Plan B. Then we go", "!name", "", ""},
    {"He has Hepatitis B. Doctors said so", "!name", "", ""},
    {"Utah Sen. Mike Lee spoke", "name", "Mike Lee", "mike lee"},
    {"队员呈8字形排列", "!quantity", "", ""},
    {"leaves at 6 in the morning", "time", "6 in the morning", "06:00"},
    {"open from 9 in the morning to 5 in the afternoon", "time", "9 in the morning", "09:00"},
    {"open from 9 in the morning to 5 in the afternoon", "time", "5 in the afternoon", "17:00"},
    {"he died on 12 august , his family said", "date", "12 august", "--08-12"},
    // an anniversary counts years; an age in 周岁 no weeks
    {"诞辰100周年之际", "duration", "100周年", "100 year"},
    {"年满18周岁", "!duration", "", "18 week"},
    // a range's first end with its own magnitude takes the second end's unit
    {"约合2.6万至3.2万元人民币", "amount", "2.6万", "26000 CNY"},
    {"约合2.6万至3.2万元人民币", "amount", "3.2万元", "32000 CNY"},
    {"收入增加0.6万至3.2万元", "number", "0.6万", "6000"},
    {"收入增加0.6万至3.2万元", "amount", "3.2万元", "32000 CNY"},
    {"约有3万至5万人参加", "quantity", "3万", "30000 人"},
    {"约有3万至5万人参加", "quantity", "5万人", "50000 人"},
    {"约合2.6万至3.2亿元", "number", "2.6万", "26000"},
    {"约合2.6万至3.2亿元", "amount", "3.2亿元", "320000000 CNY"},
    {"revenue of 2.6 million to 3.2 million dollars", "amount", "2.6 million", "2600000 USD"},
    {"revenue of 2.6 million to 3.2 million dollars", "amount", "3.2 million dollars", "3200000 USD"},
    // 一天 after 前 or 后 says which day (the one before, the last), 一年中 a rate's period; 提前一天 is a span
    {"此前一天证监会核发了批文", "!duration", "", "1 day"},
    {"最后一年他回到了家乡", "!duration", "", "1 year"},
    {"工程提前一天完成", "duration", "一天", "1 day"},
    {"一年中有超过200天在飞行", "duration", "200天", "200 day"},
    {"一年中有超过200天在飞行", "!duration", "", "1 year"},
    // a margin of points; a three-pointer is a kind of shot
    {"仅以3分之差险胜", "quantity", "3分", "3 分"},
    {"全场投中5个3分球", "quantity", "5个", "5 个"},
    {"全场投中5个3分球", "!quantity", "", "3 分"},
    {"全场投中5个3分球", "number", "3", "3"},
    // a Latin name after a Chinese personal name's adverb
    {"杨旭又在第79分钟领到黄牌", "name", "杨旭", "杨旭"},
    {"杨旭又在第79分钟领到黄牌", "duration", "79分钟", "79 minute"},
    // rings an archer scores; not 环节, 环比
    {"朱珏蔓射出7环后", "quantity", "7环", "7 环"},
    {"共3环节开始", "!quantity", "", "3 环"},
    {"约合2.6万至3.2万亿元", "number", "2.6万", "26000"},
    {"约合2.6万至3.2万亿元", "amount", "3.2万亿元", "3200000000000 CNY"},
    {"过去一年中营收持续增长", "duration", "一年", "1 year"},
    {"今后一年内完成", "duration", "一年", "1 year"},
    // "times" before a comparison is a multiple, as 倍 is; alone it says how often
    {"prices were 3 times as high as last year", "quantity", "3 times", "3 倍"},
    {"the winner earns 3 times the runner-up's prize", "quantity", "3 times", "3 倍"},
    {"she visited 3 times last year", "quantity", "3 times", "3 次"},
    {"she visited 3 times", "quantity", "3 times", "3 次"},
    // a rank without 第 after a word of ranking
    {"不丹队世界排名159位，由", "quantity", "159位", "#159"},
    {"攀石赛中位列27，以均衡", "quantity", "27", "#27"},
    {"组合排名第三，获得", "quantity", "第三", "#3"},
    {"排名第三方", "!quantity", "", ""},
    {"目前排名10位以外", "!quantity", "", "#10"},
    {"三人分别获得第1、2和3名", "quantity", "三人", "3 人"},
    {"三人分别获得第1、2和3名", "quantity", "第1", "#1"},
    {"三人分别获得第1、2和3名", "quantity", "2", "#2"},
    {"三人分别获得第1、2和3名", "quantity", "3名", "#3"},
    // a Chinese list of numbers shares its last item's unit
    {"在第21、48和85分钟连入三球", "duration", "21", "21 minute"},
    {"在第21、48和85分钟连入三球", "duration", "48", "48 minute"},
    {"在第21、48和85分钟连入三球", "duration", "85分钟", "85 minute"},
    {"在第21、48和85分钟连入三球", "quantity", "三球", "3 goal"},
    {"分别获得3、5和8个", "quantity", "3", "3 个"},
    {"分别获得3、5和8个", "quantity", "5", "5 个"},
    {"分别获得3、5和8个", "quantity", "8个", "8 个"},
    {"增长12、15和20%", "percent", "12", "12%"},
    {"增长12、15和20%", "percent", "15", "15%"},
    {"增长12、15和20%", "percent", "20%", "20%"},
    {"于3、4日举行", "!duration", "", "3 day"},
    // organisation names start after a conjunction, a verb of office or 包括, and 市中心 is none
    {"叶玉如（2004年）和香港大学教授任咏华", "date", "2004年", "2004"},
    {"叶玉如（2004年）和香港大学教授任咏华", "name", "香港大学", "香港大学"},
    {"全国共设血站452个，包括血液中心32个", "quantity", "452个", "452 个"},
    {"全国共设血站452个，包括血液中心32个", "name", "血液中心", "血液中心"},
    {"全国共设血站452个，包括血液中心32个", "quantity", "32个", "32 个"},
    {"杨少林曾任亚洲开发银行中国副执行董事", "name", "杨少林", "杨少林"},
    {"杨少林曾任亚洲开发银行中国副执行董事", "name", "亚洲开发银行", "亚洲开发银行"},
    {"陈某等人租下市中心一处原夜总会", "!name", "", "市中心"},
    {"患者被送往洛阳市中心医院", "!name", "", "中心医院"},
    // glued units: not before a slash; "+" after a number says "at least"
    {"it goes 60km/h", "!quantity", "", ""},
    {"lived there for 30+ years", "duration", "30+ years", "30 year"},
    // a run of wins and a count of characters are counts of their own; 十字 is a cross
    {"已经以6连胜开局", "quantity", "6连胜", "6 连胜"},
    {"稿件约1500字", "quantity", "1500字", "1500 字"},
    {"走到十字路口", "!quantity", "", ""},
    {"在展台参观了约半个小时。", "duration", "半个小时", "0.5 hour"},
    {"制造出6×9cm的假体", "quantity", "6", "6 cm"},
    {"制造出6×9cm的假体", "quantity", "9cm", "9 cm"},
    {"a 6 x 9 cm card", "quantity", "6", "6 cm"},
    {"a 6 x 9 cm card", "quantity", "9 cm", "9 cm"},
    {"能有3万5或4万球迷", "number", "3万5", "35000"},
    {"能有3万5或4万球迷", "number", "4万", "40000"},
    {"3万5千人", "number", "3万", "30000"},
    {"3万5千人", "quantity", "5千人", "5000 人"},
    {"打进3球。球迷欢呼", "quantity", "3球", "3 goal"},
    {"438票赞成，86票反对", "quantity", "438票", "438 票"},
    {"438票赞成，86票反对", "quantity", "86票", "86 票"},
    // 亿 or 万 alone after a bound is one of it; without a bound it is a word (亿万, 万一)
    {"付出超过亿元人民币", "amount", "亿元", "100000000 CNY"},
    {"逾万人参加", "quantity", "万人", "10000 人"},
    {"亿万富翁", "!amount", "", ""},
    {"万一下雨", "!number", "", ""},
    // 口 counts people, not wells
    {"一家五口吃了一顿", "quantity", "五口", "5 人"},
    {"打了3口井", "!quantity", "", ""},
    // a name ends before 第 and an ordinal; 和 between two words joins them, not an organisation's
    {"杨旭第61分钟扳平", "name", "杨旭", "杨旭"},
    {"杨旭第61分钟扳平", "duration", "61分钟", "61 minute"},
    {"高校的营员和清华大学学生", "name", "清华大学", "清华大学"},
    {"高校的营员和清华大学学生", "!name", "", "营员和清华大学"},
    // two days of a month joined by 至 or 和; a span's ends stay spans ("30日至60日内")
    {"于23日至29日完成轮换", "date", "23日", "---23"},
    {"于23日至29日完成轮换", "date", "29日", "---29"},
    {"于5日和6日举行", "date", "5日", "---05"},
    {"于5日和6日举行", "date", "6日", "---06"},
    {"收到后30日至60日内付款", "duration", "30日", "30 day"},
    {"收到后30日至60日内付款", "duration", "60日", "60 day"},
    // a race time in hours, minutes and seconds is one span; a time of day keeps its reading
    {"跑出2小时27分05秒，", "duration", "2小时27分05秒", "8825 second"},
    {"成绩为2时27分05秒。", "duration", "2时27分05秒", "8825 second"},
    {"测定：1月5日14时30分15秒", "date", "1月5日", "--01-05"},
    {"测定：1月5日14时30分15秒", "time", "14时30分", "14:30"},
    {"测定：1月5日14时30分15秒", "duration", "15秒", "15 second"},
    {"早晨6时30分15秒", "!duration", "", "23415 second"},
    {"距离大选还有一个月", "duration", "一个月", "1 month"},
    {"只有一天时间", "duration", "一天", "1 day"},
    {"成千上万名游客", "!quantity", "", ""},
    {"5日和6日的比赛", "date", "5日", "---05"},
    {"5日和6日的比赛", "date", "6日", "---06"},
    {"北京时间2时27分05秒", "!duration", "", "8825 second"},
    {"共成交40万零6手", "number", "40万零6", "400006"},
    // which day, or every day, is no span of one
    {"同一天，中国女足晋级", "!duration", "", ""},
    {"每一天都训练", "!duration", "", ""},
    {"比赛前一天", "!duration", "", "1 day"},
    // a day of the month before punctuation, unless a word of a span stands before it
    {"一直持续到本月30日。", "date", "30日", "---30"},
    {"前一天（即8日）值班", "date", "8日", "---08"},
    {"前一天（即8日）值班", "!duration", "", "1 day"},
    {"2月18日至24日的7天", "date", "2月18日", "--02-18"},
    {"2月18日至24日的7天", "date", "24日", "---24"},
    {"2月18日至24日的7天", "duration", "7天", "7 day"},
    {"付款期限为30日。", "duration", "30日", "30 day"},
    {"付款期限是30日。", "duration", "30日", "30 day"},
    {"11日，婚礼在丹巴县举行", "date", "11日", "---11"},
    {"6天后的10日重启广播", "date", "10日", "---10"},
    {"6天后的10日重启广播", "duration", "6天", "6 day"},
    // the first end of a range takes the magnitude or unit the second end carries
    {"损失3至4亿元", "amount", "3", "300000000 CNY"},
    {"损失3至4亿元", "amount", "4亿元", "400000000 CNY"},
    {"约3到5万人", "quantity", "3", "30000 人"},
    {"约3到5万人", "quantity", "5万人", "50000 人"},
    {"It costs $3-4 million.", "amount", "$3", "3000000 USD"},
    {"It costs $3-4 million.", "number", "4 million", "4000000"},
    {"between £ 3.35 and £ 4.5 million", "amount", "£ 3.35", "3350000 GBP"},
    {"between £ 3.35 and £ 4.5 million", "amount", "£ 4.5 million", "4500000 GBP"},
    {"between 10 and 20 percent", "percent", "10", "10%"},
    {"between 10 and 20 percent", "percent", "20 percent", "20%"},
    {"from 2 to 3 billion dollars", "amount", "2", "2000000000 USD"},
    {"from 2 to 3 billion dollars", "amount", "3 billion dollars", "3000000000 USD"},
    {"3-5 years", "duration", "3", "3 year"},
    {"3-5 years", "duration", "5 years", "5 year"},
    // ... not where the first end is larger, "and" without "between", or no unit at all
    {"from 500 to 4 million", "number", "500", "500"},
    {"from 500 to 4 million", "number", "4 million", "4000000"},
    {"scored 10 and 20 percent", "number", "10", "10"},
    {"scored 10 and 20 percent", "percent", "20 percent", "20%"},
    {"pages 55-1234", "number", "55", "55"},
    {"pages 55-1234", "number", "1234", "1234"},
    // a holiday on a fixed day is its date; May, June and April in names
    {"On New Year's Day 2022 we ate.", "date", "New Year's Day 2022", "2022-01-01"},
    {"seated on New Year’s Eve", "date", "New Year’s Eve", "--12-31"},
    {"a reservation for New Year\\'s Eve", "date", "New Year\\'s Eve", "--12-31"},
    {"Christmas Eve, 2021", "date", "Christmas Eve, 2021", "2021-12-24"},
    {"Prime Minister Theresa May said", "name", "Prime Minister Theresa May", "prime minister theresa may"},
    {"Singer June Carter sang", "name", "Singer June Carter", "singer june carter"},
    {"Last May the board met.", "!name", "", ""},
    {"Throughout April the company grew.", "!name", "", ""},
    {"In May Microsoft announced it.", "!name", "", "may microsoft"},
    {"May God bless America.", "!name", "", "may god"},
    {"合同签订后的30日，付清", "duration", "30日", "30 day"},
    {"零下5至10℃", "!quantity", "", "5 degC"},
    {"3 - 4 million", "number", "3", "3000000"},
    {"3 - 4 million", "number", "4 million", "4000000"},
    {"on lunar New Year's Day", "!date", "", ""},
    // a count that opens a sentence starts no name; four digits before a time zone are a time
    {"Three of Utah's eight inmates", "!name", "", ""},
    {"Bank of China grew", "name", "Bank of China", "bank of china"},
    {"from 2130 BST on BBC", "time", "2130", "21:30"},
    {"at 1400 hrs", "time", "1400", "14:00"},
    // over N months, hours, years: 个多 and 多 before a unit of time
    {"这七个多月间拍摄的图像", "duration", "七个多月", "7 month"},
    {"比赛持续了两个多小时", "duration", "两个多小时", "2 hour"},
    {"3个多月后", "duration", "3个多月", "3 month"},
    {"这20多年来", "duration", "20多年", "20 year"},
    {"来了3个多人", "quantity", "3个", "3 个"},
    {"有20多年轻人参加", "number", "20多", "20"},
    {"30余天津市民", "number", "30余", "30"},
    {"in 2130 BC", "number", "2130", "2130"},
    {"Brian May, the guitarist", "name", "Brian May", "brian may"},
    {"Another December visitor", "!name", "", ""},
    {"The May issue", "!name", "", ""},
    {"On Tuesday May 5 we met", "date", "May 5", "--05-05"},
    // 分别 is "respectively", not a count of points; no organisation starts with a conjunction
    {"均以0：2分别负于对手", "!quantity", "", ""},
    {"但田管中心主任杜兆才并未满足", "!name", "", "但田管中心"},
    {"王蔷虽在第8局反破发", "name", "王蔷", "王蔷"},
    {"王蔷虽在第8局反破发", "quantity", "第8", "#8"},
    // a unit glued to the digits; one word that describes the span between; spans in words
    {"waited 30minutes", "duration", "30minutes", "30 minute"},
    {"took 2hours", "duration", "2hours", "2 hour"},
    {"after eight agonizing months", "duration", "eight agonizing months", "8 month"},
    {"for three long years", "duration", "three long years", "3 year"},
    {"for 3 more days", "duration", "3 more days", "3 day"},
    {"3 teams", "!duration", "", ""},
    {"for an hour and a half", "duration", "an hour and a half", "1.5 hour"},
    {"a quarter-hour later", "duration", "quarter-hour", "15 minute"},
    {"a quarter of an hour", "duration", "quarter of an hour", "15 minute"},
    {"a half-hour show", "duration", "half-hour", "30 minute"},
    {"an hour later", "!duration", "", ""},
    // money in slang
    {"spent 65 bucks", "amount", "65 bucks", "65 USD"},
    {"花了80块钱", "amount", "80块钱", "80 CNY"},
    {"水价从3块45调到3块9", "amount", "3块45", "3.45 CNY"},
    {"水价从3块45调到3块9", "amount", "3块9", "3.9 CNY"},
    {"买了3块蛋糕", "!amount", "", ""},
    {"cost 20 quid", "amount", "20 quid", "20 GBP"},
    // 多 and 余 after a number say "over": the magnitude or unit after them is the number's
    {"2000多人参加", "quantity", "2000多人", "2000 人"},
    {"出动500余艘船", "quantity", "500余艘", "500 艘"},
    {"高出20多万元", "amount", "20多万元", "200000 CNY"},
    // the first hour of a range takes the meridiem written once at its end
    {"open 12–8 pm daily", "time", "12", "12:00"},
    {"open 12–8 pm daily", "time", "8 pm", "20:00"},
    {"open 11-3pm", "time", "11", "11:00"},
    {"open 11-3pm", "time", "3pm", "15:00"},
    {"from 9 to 5 pm", "time", "9", "09:00"},
    // an hour before one with minutes or noon; a dot before am/pm ("6.30pm", British usage)
    {"between 8 and 8:30 in the morning", "time", "8", "08:00"},
    {"between 8 and 8:30 in the morning", "time", "8:30", "08:30"},
    {"from 9 to 11:30", "time", "9", "09:00"},
    {"from 9 to 11:30", "time", "11:30", "11:30"},
    {"between 9 and noon", "time", "9", "09:00"},
    {"from 9 to 11", "!time", "", ""},
    // a bare hour ending a range whose first end is a time
    {"Breakfast from 7:30 to 11 at weekends", "time", "11", "11:00"},
    {"Breakfast from 7:30 to 11 at weekends", "time", "7:30", "07:30"},
    {"Open 7 am - 11 daily", "time", "11", "11:00"},
    {"Open 7 am - 11 daily", "time", "7 am", "07:00"},
    {"from half past seven to 11.", "time", "11", "11:00"},
    {"the score was 2:30 - 4 goals", "quantity", "4 goals", "4 goal"},
    {"the score was 2:30 - 4 goals", "time", "2:30", "02:30"},
    // a range of months or days with a dash is no score
    {"1—8月份，全国房地产开发投资", "date", "1", "--01"},
    {"1—8月份，全国房地产开发投资", "date", "8月份", "--08"},
    {"3-5日举行", "date", "3", "---03"},
    {"3-5日举行", "date", "5日", "---05"},
    // a list of scores in a Chinese sentence that speaks of the score
    {"比分为11:8、9:11", "score", "9:11", "9-11"},
    {"比分为11:8、9:11", "score", "11:8", "11-8"},
    {"比分：28:22，下午3:30结束", "time", "3:30", "03:30"},
    {"比分：28:22，下午3:30结束", "score", "28:22", "28-22"},
    {"最终比分2:1，开球时间为19:30。", "time", "19:30", "19:30"},
    {"最终比分2:1，开球时间为19:30。", "score", "2:1", "2-1"},
    // ages are a range of two numbers, not a score; two digits after a year end a range of years
    {"patients aged 45–85 with stroke", "number", "45", "45"},
    {"patients aged 45–85 with stroke", "number", "85", "85"},
    {"ages 18-30", "!score", "", ""},
    {"won 3–2 on Saturday", "score", "3–2", "3-2"},
    {"measured in 2011–13, for", "number", "13", "2013"},
    {"measured in 2011–13, for", "number", "2011", "2011"},
    {"the 2019-20 season", "number", "20", "2020"},
    {"the 2019-20 season", "number", "2019", "2019"},
    {"born 1999-01", "!date", "", ""},
    // a time said aloud
    {"from half past seven to 11.", "time", "half past seven", "07:30"},
    {"at quarter to nine in the evening", "time", "quarter to nine in the evening", "20:45"},
    {"by quarter past 8 pm", "time", "quarter past 8 pm", "20:15"},
    {"a quarter to the company", "!time", "", ""},
    {"half past the hour", "!time", "", ""},
    // the next hours of a list whose first a word of time leads
    {"at 8 in the morning, 3 in the afternoon and 11 at night", "time", "3 in the afternoon", "15:00"},
    {"at 8 in the morning, 3 in the afternoon and 11 at night", "time", "8 in the morning", "08:00"},
    {"At 8 in the morning and 3 in the afternoon", "time", "3 in the afternoon", "15:00"},
    {"at 8 in the morning, 3 in the afternoon and 11 at night", "time", "11 at night", "23:00"},
    {"At 8 in the morning and 3 in the afternoon", "time", "8 in the morning", "08:00"},
    // two bare hours after "from" and a word that opens something for hours
    {"The shop opens from 9 to 5.", "time", "9", "09:00"},
    {"The shop opens from 9 to 5.", "time", "5", "05:00"},
    {"It runs from 10 to 4 players", "!time", "", ""},
    {"Doors open at 6.30pm", "time", "6.30pm", "18:30"},
    {"It costs 6.30 now", "!time", "", ""},
    // a range of days: the first end takes the month and year of the second, the second those of the first
    {"from 14 to 18 August 2025", "date", "14", "2025-08-14"},
    {"from 14 to 18 August 2025", "date", "18 August 2025", "2025-08-18"},
    {"14-18 August", "date", "14", "--08-14"},
    {"14-18 August", "date", "18 August", "--08-18"},
    {"August 14 to 18, 2025", "date", "18, 2025", "2025-08-18"},
    {"August 14 to 18, 2025", "date", "August 14", "--08-14"},
    {"Aug 14-18", "date", "18", "--08-18"},
    {"Aug 14-18", "date", "Aug 14", "--08-14"},
    // an ordinal day after a weekday and "the", and the second of two days after one cue
    {"on Thursday the 24th from 2 pm", "date", "24th", "---24"},
    {"on Thursday the 24th from 2 pm", "time", "2 pm", "14:00"},
    {"closed on the 25th and 26th", "date", "25th", "---25"},
    {"closed on the 25th and 26th", "date", "26th", "---26"},
    {"He finished the 3rd and 4th laps", "!date", "", ""},
    {"dates from around the 5th or 6th century", "!date", "", ""},
    {"On Saturday the 2nd-ranked player lost", "!date", "", ""},
    {"on the 3rd from the left", "!date", "", ""},
    // not a day where the number counts, nor a year that counts runners
    {"Protests broke out on May 1 and 30 protesters were arrested.", "!date", "", "--05-30"},
    {"On March 3 to 4 more patients died.", "!date", "", "--03-04"},
    {"From August 14 to 18, 2500 runners took part", "!date", "", "2500-08-18"},
    {"between August 14 and 18, 2025", "date", "18, 2025", "2025-08-18"},
    {"between August 14 and 18, 2025", "date", "August 14", "--08-14"},
    // an hour before one with minutes, without "from" or "between", is a number; a dose is no time
    {"Hall 2 - 10:30 Keynote", "!time", "", "02:00"},
    {"Clonazepam 0.25 am", "!time", "", ""},
    {"from 9 to 5 pm", "time", "5 pm", "17:00"},
    {"open 10-2 am", "time", "10", "22:00"},
    {"open 10-2 am", "time", "2 am", "02:00"},
    {"for 3 hundred years", "!duration", "", "3 year"},
    {"won 12-8 at home", "score", "12-8", "12-8"},
    {"won 12-8 at home", "!time", "", ""},
    // adverbs and verbs end an organisation's name: no name takes in the clause before its suffix
    {"她从未去医院检查", "!name", "", ""},
    {"近年来公司在藏区开展改造", "!name", "", ""},
    {"美方支持示范中心成为区域性中心", "!name", "", "美方支持示范中心"},
    // a quantifier that opens a sentence starts no name; a surname after a foreign name's dot is its part
    {"Many Bank officials believed it.", "!name", "", ""},
    {"Johann Most spoke.", "name", "Johann Most", "johann most"},
    {"Most Labour voters stayed home.", "!name", "", ""},
    {"投资分析师豪伊·李预测，金价企稳。", "!name", "", ""},
    // a match's verb, or a placing, stands between two sides' names
    {"东北电力大学队力压预赛小组头名江汉大学队夺冠。", "name", "东北电力大学", "东北电力大学"},
    {"东北电力大学队力压预赛小组头名江汉大学队夺冠。", "name", "江汉大学", "江汉大学"},
    {"东北电力大学队力压预赛小组头名江汉大学队夺冠。", "!name", "", "预赛小组头名江汉大学"},
    {"东北电力大学队力压江汉大学队", "name", "东北电力大学", "东北电力大学"},
    {"东北电力大学队力压江汉大学队", "name", "江汉大学", "江汉大学"},
    {"上海战胜影业有限公司发布公告", "name", "上海战胜影业有限公司", "上海战胜影业有限公司"},
    // part of a year hyphenated to it is no identifier
    {"Its three late-2018 reviews", "number", "three", "3"},
    {"Its three late-2018 reviews", "number", "2018", "2018"},
    {"Its three late-2018 reviews", "!identifier", "", ""},
    {"since mid-2015", "number", "2015", "2015"},
    {"since the mid-1990s", "identifier", "mid-1990s", "mid-1990s"},
    {"pre-2008 rules", "identifier", "pre-2008", "pre-2008"},
    // points after a Chinese numeral of two characters or more; not 十分 ("very")
    {"中国队落后十一分。", "quantity", "十一分", "11 分"},
    {"这十分重要。", "!quantity", "", ""},
    {"用时一小时二十分", "!quantity", "", "20 分"},
    {"十二万分的感谢", "!quantity", "", ""},
};

// Failure messages name the row, not its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.text << " | " << c.type << " '" << c.span << "' " << c.norm; }

class LexerTable : public ::testing::TestWithParam<Case> {};

std::string_view span_of(std::string_view text, const Anchor& a) { return text.substr(a.start, a.end - a.start); }

std::string describe(std::string_view text, const std::vector<Anchor>& anchors) {
  std::string seen;
  for (const auto& a : anchors) {
    seen += std::string(type_name(a.type)) + " '" + std::string(span_of(text, a)) + "' " + a.norm + "; ";
  }
  return seen;
}

// Whether a positive row for `text` names this anchor exactly.
bool expected_in_table(const char* text, const Anchor& a, std::string_view span) {
  for (const Case& c : kCases) {
    if (std::strcmp(c.text, text) != 0 || c.type[0] == '!') continue;
    if (type_name(a.type) == c.type && span == c.span && a.norm == c.norm) return true;
  }
  return false;
}

TEST_P(LexerTable, FindsExactAnchorsAndNoOthers) {
  const Case& c = GetParam();
  const std::string_view text = c.text;
  const auto anchors = extract(text);
  std::string type = c.type;
  const bool negative = type[0] == '!';
  if (negative) type = type.substr(1);
  Type t{};
  ASSERT_TRUE(parse_type(type, t)) << type;
  if (negative) {
    // A negative case with a norm rules out only that norm; without one, the whole type.
    for (const auto& a : anchors) {
      EXPECT_FALSE(a.type == t && (c.norm[0] == '\0' || a.norm == c.norm)) << text << " -> " << describe(text, anchors);
    }
    return;
  }
  int matches = 0;
  for (const auto& a : anchors) {
    if (a.type == t && span_of(text, a) == c.span && a.norm == c.norm) ++matches;
  }
  EXPECT_EQ(matches, 1) << text << " expected " << type << " '" << c.span << "' " << c.norm << ", got "
                        << describe(text, anchors);
  for (const auto& a : anchors) {
    if (kind_of(a.type) != Kind::entity) continue;
    EXPECT_TRUE(expected_in_table(c.text, a, span_of(text, a)))
        << text << ": unexpected " << type_name(a.type) << " '" << span_of(text, a) << "' " << a.norm;
  }
}

// Each row's text fed in two chunks, at every split, and byte by byte: the same anchors as one
// batch pass (the incremental lexer holds back any decision that read past the text seen).
TEST_P(LexerTable, IncrementalMatchesBatchAtEverySplit) {
  const std::string_view text = GetParam().text;
  const auto batch = extract(text);
  const auto same = [&](const std::vector<Anchor>& got, const std::string& how) {
    ASSERT_EQ(got.size(), batch.size()) << text << " " << how;
    for (size_t k = 0; k < got.size(); ++k) {
      EXPECT_TRUE(got[k].type == batch[k].type && got[k].start == batch[k].start && got[k].end == batch[k].end &&
                  got[k].norm == batch[k].norm && got[k].alt_norm == batch[k].alt_norm)
          << text << " " << how << " anchor " << k << ": " << got[k].norm << " vs " << batch[k].norm;
    }
  };
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    Incremental inc;
    std::vector<Anchor> got;
    inc.feed(text.substr(0, cut), got);
    inc.feed(text.substr(cut), got);
    inc.finish(got);
    same(got, "split at " + std::to_string(cut));
  }
  Incremental inc;
  std::vector<Anchor> got;
  for (size_t k = 0; k < text.size(); ++k) inc.feed(text.substr(k, 1), got);
  inc.finish(got);
  same(got, "byte by byte");
}

INSTANTIATE_TEST_SUITE_P(Cases, LexerTable, ::testing::ValuesIn(kCases));

TEST(Lexer, AmbiguousDateIsMarkedAndFollowsLocale) {
  auto a = extract("03/04/2024");
  ASSERT_EQ(a.size(), 1U);
  EXPECT_TRUE(a[0].ambiguous);
  EXPECT_EQ(a[0].norm, "2024-03-04");
  EXPECT_EQ(a[0].alt_norm, "2024-04-03");
  LexerOptions day_first;
  day_first.date_order = DateOrder::day_first;
  a = extract("03/04/2024", day_first);
  ASSERT_EQ(a.size(), 1U);
  EXPECT_EQ(a[0].norm, "2024-04-03");
  EXPECT_FALSE(extract("15/06/2024")[0].ambiguous);
}

TEST(Lexer, SpansAreInputByteOffsets) {
  const std::string text = "付款人民币5000元 by June 15, 2024";
  const auto a = extract(text);
  ASSERT_EQ(a.size(), 2U);
  EXPECT_EQ(text.substr(a[0].start, a[0].end - a[0].start), "人民币5000元");
  EXPECT_EQ(text.substr(a[1].start, a[1].end - a[1].start), "June 15, 2024");
}

TEST(Lexer, InvalidUtf8NeverCrashesAndKeepsOffsets) {
  const std::string text = "\xff\xfe pay $5 \xe4\xb8 then \xc3";
  const auto a = extract(text);
  ASSERT_EQ(a.size(), 1U);
  EXPECT_EQ(a[0].norm, "5 USD");
  EXPECT_EQ(text.substr(a[0].start, a[0].end - a[0].start), "$5");
}

TEST(Lexer, KindsAreReported) {
  EXPECT_EQ(kind_of(Type::amount), Kind::entity);
  EXPECT_EQ(kind_of(Type::json), Kind::structural);
  EXPECT_EQ(kind_of(Type::logic), Kind::logic);
}

}  // namespace
}  // namespace sfcl::anchor
