// Every word list the lexer matches, in one place; not part of the public API. Tables are in
// match order: where one entry is a prefix of another ("days"/"day"), the longer comes first.
#pragma once
#include <array>
#include <string_view>
#include <utility>

namespace sfcl::anchor {

// Lowercase words that join two capitalised words into one name ("Bank of China"); the source
// index splits joined names at the same words.
constexpr std::array<std::string_view, 6> kNameConnectors = {"of", "and", "&", "de", "van", "von"};
constexpr std::array<std::string_view, 6> kHonorifics = {"Mr.", "Mrs.", "Ms.", "Dr.", "Prof.", "Mx."};

}  // namespace sfcl::anchor

namespace sfcl::anchor::lex {

struct Word {
  std::string_view text;
  std::string_view norm;
};
struct CurrencyWord {
  std::string_view text;
  std::string_view code;
};
struct DurationUnit {
  std::string_view text;
  std::string_view unit;
};
struct Prefix {
  std::string_view text;
  std::string_view code;
  bool word;  // a letter code that must end at a word boundary ("USD 5", not "USDA")
};
struct ClauseWord {
  std::string_view text;
  bool needs_space;
};
struct CodeKeyword {
  std::string_view kw;
  bool needs_paren;
};

// ---------------------------------------------------------------------------- dates
inline constexpr std::array<std::string_view, 12> kMonths = {"january",   "february", "march",    "april",
                                                             "may",       "june",     "july",     "august",
                                                             "september", "october",  "november", "december"};
inline constexpr std::array<std::string_view, 4> kOrdinalSuffixes = {"st", "nd", "rd", "th"};

// ---------------------------------------------------------------------------- numbers
// After a space ("5 million") or attached ("5m"); the shift is the power of ten.
inline constexpr std::array<std::pair<std::string_view, int>, 4> kMultiplierWords = {
    {{"thousand", 3}, {"million", 6}, {"billion", 9}, {"trillion", 12}}};
inline constexpr std::array<std::pair<std::string_view, int>, 5> kAttachedMultipliers = {
    {{"bn", 9}, {"mn", 6}, {"m", 6}, {"k", 3}, {"K", 3}}};
// Attached only after a currency prefix ("$1.6B", "$2.3MM", "$1.6tn"): after a bare number they
// name other things ("6B" a grade, "3M" a company, "5T" a size). Longer spellings first.
inline constexpr std::array<std::pair<std::string_view, int>, 8> kCurrencyMultipliers = {
    {{"MM", 6}, {"Bn", 9}, {"BN", 9}, {"tn", 12}, {"b", 9}, {"B", 9}, {"M", 6}, {"T", 12}}};
// Currency after a number: codes (case-sensitive) and words (any case).
// Currency names right after a number in Chinese ("500日元", "3亿美元"); 元 alone is the yuan.
inline constexpr std::array<CurrencyWord, 18> kCurrencyWordsZh = {{{"日元", "JPY"},
                                                                   {"日圆", "JPY"},
                                                                   {"美元", "USD"},
                                                                   {"美金", "USD"},
                                                                   {"欧元", "EUR"},
                                                                   {"英镑", "GBP"},
                                                                   {"港元", "HKD"},
                                                                   {"港币", "HKD"},
                                                                   {"澳元", "AUD"},
                                                                   {"加元", "CAD"},
                                                                   {"新加坡元", "SGD"},
                                                                   {"瑞士法郎", "CHF"},
                                                                   {"韩元", "KRW"},
                                                                   {"泰铢", "THB"},
                                                                   {"卢布", "RUB"},
                                                                   {"卢比", "INR"},
                                                                   {"新台币", "TWD"},
                                                                   {"人民币", "CNY"}}};
inline constexpr std::array<CurrencyWord, 14> kCurrencyCodes = {{{"USD", "USD"},
                                                                 {"EUR", "EUR"},
                                                                 {"GBP", "GBP"},
                                                                 {"CNY", "CNY"},
                                                                 {"RMB", "CNY"},
                                                                 {"JPY", "JPY"},
                                                                 {"HKD", "HKD"},
                                                                 {"CHF", "CHF"},
                                                                 {"CAD", "CAD"},
                                                                 {"AUD", "AUD"},
                                                                 {"SGD", "SGD"},
                                                                 {"INR", "INR"},
                                                                 {"KRW", "KRW"},
                                                                 {"NZD", "NZD"}}};
inline constexpr std::array<CurrencyWord, 9> kCurrencyWords = {{{"dollars", "USD"},
                                                                {"dollar", "USD"},
                                                                {"bucks", "USD"},
                                                                {"quid", "GBP"},
                                                                {"euros", "EUR"},
                                                                {"euro", "EUR"},
                                                                {"pounds", "GBP"},
                                                                {"yuan", "CNY"},
                                                                {"yen", "JPY"}}};
// Duration units after a number: English after a space or '-', Chinese attached. No singular
// "second": "2 second-half goals" counts goals.
inline constexpr std::array<DurationUnit, 19> kDurationUnitsEn = {{{"business days", "workday"},
                                                                   {"calendar days", "day"},
                                                                   {"working days", "workday"},
                                                                   {"days", "day"},
                                                                   {"day", "day"},
                                                                   {"weeks", "week"},
                                                                   {"week", "week"},
                                                                   {"months", "month"},
                                                                   {"month", "month"},
                                                                   {"years", "year"},
                                                                   {"year", "year"},
                                                                   {"hours", "hour"},
                                                                   {"hour", "hour"},
                                                                   {"minutes", "minute"},
                                                                   {"minute", "minute"},
                                                                   {"mins", "minute"},
                                                                   {"min", "minute"},
                                                                   {"seconds", "second"},
                                                                   {"secs", "second"}}};
// 分钟 before the measure word 分 (points) is tried: a duration's unit is read first.
// 周年 (an anniversary) counts years, before 周 (weeks) is tried.
inline constexpr std::array<DurationUnit, 14> kDurationUnitsZh = {{{"个工作日", "workday"},
                                                                   {"工作日", "workday"},
                                                                   {"天", "day"},
                                                                   {"日", "day"},
                                                                   {"个月", "month"},
                                                                   {"周年", "year"},
                                                                   {"周", "week"},
                                                                   {"个星期", "week"},
                                                                   {"年", "year"},
                                                                   {"个小时", "hour"},
                                                                   {"小时", "hour"},
                                                                   {"分钟", "minute"},
                                                                   {"秒钟", "second"},
                                                                   {"秒", "second"}}};

// ---------------------------------------------------------------------------- quantities
struct QuantityUnit {
  std::string_view text;
  std::string_view unit;  // one class for words that count the same thing (人, 名, 位, 例, 口: people)
};
// Measure words and units right after a Chinese number; where one is a prefix of another, the
// longer comes first. 分 is not followed by 钟 or 之 (scan_quantity checks).
inline constexpr std::array<QuantityUnit, 82> kQuantityUnitsZh = {
    {{"个百分点", "pp"}, {"个基点", "bp"},    {"基点", "bp"},      {"个", "个"},     {"人次", "人次"},
     {"人", "人"},       {"名", "人"},        {"位", "人"},        {"例", "人"},     {"口", "人"},
     {"台", "台"},       {"家", "家"},        {"件", "件"},        {"次", "次"},     {"场", "场"},
     {"辆", "辆"},       {"座", "座"},        {"项", "项"},        {"架", "架"},     {"艘", "艘"},
     {"只", "只"},       {"条", "条"},        {"所", "所"},        {"户", "户"},     {"套", "套"},
     {"部", "部"},       {"枚", "枚"},        {"颗", "颗"},        {"张", "张"},     {"篇", "篇"},
     {"首", "首"},       {"支", "支"},        {"批", "批"},        {"轮", "轮"},     {"届", "届"},
     {"期", "期"},       {"床", "床"},        {"株", "株"},        {"头", "头"},     {"间", "间"},
     {"层", "层"},       {"栋", "栋"},        {"处", "处"},        {"份", "份"},     {"倍", "倍"},
     {"分", "分"},       {"吨", "t"},         {"公里", "km"},      {"千米", "km"},   {"千克", "kg"},
     {"公斤", "kg"},     {"平方公里", "km2"}, {"平方千米", "km2"}, {"公顷", "ha"},   {"平方米", "m2"},
     {"毫安时", "mAh"},  {"英寸", "inch"},    {"千瓦时", "kWh"},   {"兆瓦", "MW"},   {"亩", "亩"},
     {"册", "册"},       {"本", "本"},        {"级", "级"},        {"米", "m"},      {"毫克", "mg"},
     {"毫升", "ml"},     {"毫米", "mm"},      {"微克", "mcg"},     {"克", "g"},      {"升", "l"},
     {"厘米", "cm"},     {"斤", "jin"},       {"摄氏度", "degC"},  {"千卡", "kcal"}, {"大卡", "kcal"},
     {"票", "票"},       {"球", "goal"},      {"连胜", "连胜"},    {"连败", "连败"}, {"连冠", "连冠"},
     {"字", "字"},       {"环", "环"}}};  // 打进3球: goals, as "3 goals" counts them; 字 after digits only (十字 is a
                                          // cross); 环: rings scored
// Nouns and units after an English number and a space (any case): what is counted is part of the
// value ("6 units" is not "6 stores").
inline constexpr std::array<QuantityUnit, 117> kQuantityUnitsEn = {{{"units", "unit"},
                                                                    {"times", "次"},
                                                                    {"percentage points", "pp"},
                                                                    {"percentage point", "pp"},
                                                                    {"basis points", "bp"},
                                                                    {"basis point", "bp"},
                                                                    {"bps", "bp"},
                                                                    {"stars", "star"},
                                                                    {"star", "star"},
                                                                    {"unit", "unit"},
                                                                    {"points", "point"},
                                                                    {"point", "point"},
                                                                    {"goals", "goal"},
                                                                    {"goal", "goal"},
                                                                    {"tries", "try"},
                                                                    {"runs", "run"},
                                                                    {"wickets", "wicket"},
                                                                    {"votes", "vote"},
                                                                    {"seats", "seat"},
                                                                    {"games", "game"},
                                                                    {"matches", "match"},
                                                                    {"wins", "win"},
                                                                    {"victories", "win"},
                                                                    {"losses", "loss"},
                                                                    {"defeats", "loss"},
                                                                    {"draws", "draw"},
                                                                    {"medals", "medal"},
                                                                    {"titles", "title"},
                                                                    {"laps", "lap"},
                                                                    {"appearances", "appearance"},
                                                                    {"caps", "cap"},
                                                                    {"assists", "assist"},
                                                                    {"rebounds", "rebound"},
                                                                    {"penalties", "penalty"},
                                                                    {"stores", "store"},
                                                                    {"branches", "branch"},
                                                                    {"sites", "site"},
                                                                    {"hospitals", "hospital"},
                                                                    {"vehicles", "vehicle"},
                                                                    {"cars", "car"},
                                                                    {"beds", "bed"},
                                                                    {"copies", "copy"},
                                                                    {"shares", "share"},
                                                                    {"jobs", "job"},
                                                                    {"flights", "flight"},
                                                                    {"aircraft", "aircraft"},
                                                                    {"plants", "plant"},
                                                                    {"factories", "factory"},
                                                                    {"projects", "project"},
                                                                    {"offices", "office"},
                                                                    {"countries", "country"},
                                                                    {"cities", "city"},
                                                                    {"companies", "company"},
                                                                    {"schools", "school"},
                                                                    {"homes", "home"},
                                                                    {"houses", "house"},
                                                                    {"households", "household"},
                                                                    {"buildings", "building"},
                                                                    {"deaths", "death"},
                                                                    {"injuries", "injury"},
                                                                    {"cases", "case"},
                                                                    {"people", "person"},
                                                                    {"persons", "person"},
                                                                    {"person", "person"},
                                                                    {"passengers", "person"},
                                                                    {"patients", "person"},
                                                                    {"employees", "person"},
                                                                    {"staff", "person"},
                                                                    {"workers", "person"},
                                                                    {"members", "person"},
                                                                    {"participants", "person"},
                                                                    {"residents", "person"},
                                                                    {"students", "person"},
                                                                    {"adults", "person"},
                                                                    {"children", "person"},
                                                                    {"volunteers", "person"},
                                                                    {"subjects", "person"},
                                                                    {"players", "person"},
                                                                    {"athletes", "person"},
                                                                    {"spectators", "person"},
                                                                    {"visitors", "person"},
                                                                    {"kilograms", "kg"},
                                                                    {"kg", "kg"},
                                                                    {"square kilometres", "km2"},
                                                                    {"square kilometers", "km2"},
                                                                    {"sq km", "km2"},
                                                                    {"km2", "km2"},
                                                                    {"square miles", "sqmi"},
                                                                    {"sq mi", "sqmi"},
                                                                    {"square metres", "m2"},
                                                                    {"square meters", "m2"},
                                                                    {"sq m", "m2"},
                                                                    {"kilometres", "km"},
                                                                    {"kilometers", "km"},
                                                                    {"km", "km"},
                                                                    {"miles", "mile"},
                                                                    {"tonnes", "t"},
                                                                    {"tons", "t"},
                                                                    {"megawatts", "MW"},
                                                                    {"MWh", "MWh"},
                                                                    {"MW", "MW"},
                                                                    {"GWh", "GWh"},
                                                                    {"GW", "GW"},
                                                                    {"kWh", "kWh"},
                                                                    {"mAh", "mAh"},
                                                                    {"metres", "m"},
                                                                    {"meters", "m"},
                                                                    {"inches", "inch"},
                                                                    {"hectares", "ha"},
                                                                    {"acres", "acre"},
                                                                    {"square feet", "sqft"},
                                                                    {"sq ft", "sqft"},
                                                                    {"pages", "page"},
                                                                    {"episodes", "episode"},
                                                                    {"languages", "language"},
                                                                    {"crew", "person"},
                                                                    {"fans", "person"}}};

// Units of measure after an English number, with or without a space ("500 mg", "500mg", "37.5°C"),
// matched as written (case-sensitive: "mL" and "ml", never "Mg"); where one begins another, the
// longer comes first. Their norms are the ones units.cpp converts between. Not "m" (metres,
// minutes or millions), "ft" ("ft." is "featuring") nor "TB" (tuberculosis): their words
// ("metres", "feet") are units.
inline constexpr std::array<QuantityUnit, 61> kMeasureUnitsEn = {{{"mg/dL", "mg/dl"},
                                                                  {"mg/dl", "mg/dl"},
                                                                  {"mmol/L", "mmol/l"},
                                                                  {"mmol/l", "mmol/l"},
                                                                  {"mmHg", "mmHg"},
                                                                  {"mcg", "mcg"},
                                                                  {"µg", "mcg"},
                                                                  {"μg", "mcg"},
                                                                  {"mg", "mg"},
                                                                  {"mL", "ml"},
                                                                  {"ml", "ml"},
                                                                  {"mm", "mm"},
                                                                  {"g", "g"},
                                                                  {"dL", "dl"},
                                                                  {"L", "l"},
                                                                  {"cm", "cm"},
                                                                  {"lbs", "lb"},
                                                                  {"lb", "lb"},
                                                                  {"oz", "oz"},
                                                                  {"°C", "degC"},
                                                                  {"° C", "degC"},
                                                                  {"° F", "degF"},
                                                                  {"°F", "degF"},
                                                                  {"℃", "degC"},
                                                                  {"℉", "degF"},
                                                                  {"kcal", "kcal"},
                                                                  {"km2", "km2"},
                                                                  {"km", "km"},
                                                                  {"kg", "kg"},
                                                                  {"kWh", "kWh"},
                                                                  {"MWh", "MWh"},
                                                                  {"MW", "MW"},
                                                                  {"GWh", "GWh"},
                                                                  {"GW", "GW"},
                                                                  {"mAh", "mAh"},
                                                                  {"IU", "IU"},
                                                                  {"bpm", "bpm"},
                                                                  {"GB", "GB"},
                                                                  {"MB", "MB"},
                                                                  {"GHz", "GHz"},
                                                                  {"MHz", "MHz"},
                                                                  {"Mbps", "Mbps"},
                                                                  {"milligrams", "mg"},
                                                                  {"milligram", "mg"},
                                                                  {"micrograms", "mcg"},
                                                                  {"grams", "g"},
                                                                  {"gram", "g"},
                                                                  {"millilitres", "ml"},
                                                                  {"milliliters", "ml"},
                                                                  {"litres", "l"},
                                                                  {"liters", "l"},
                                                                  {"litre", "l"},
                                                                  {"liter", "l"},
                                                                  {"centimetres", "cm"},
                                                                  {"centimeters", "cm"},
                                                                  {"millimetres", "mm"},
                                                                  {"millimeters", "mm"},
                                                                  {"ounces", "oz"},
                                                                  {"feet", "ft"},
                                                                  {"degrees Celsius", "degC"},
                                                                  {"degrees Fahrenheit", "degF"}}};

// ---------------------------------------------------------------------------- amounts
inline constexpr std::array<Prefix, 24> kPrefixes = {
    {{"US$", "USD", false},  {"HK$", "HKD", false}, {"A$", "AUD", false}, {"C$", "CAD", false},
     {"S$", "SGD", false},   {"NZ$", "NZD", false}, {"$", "USD", false},  {"€", "EUR", false},
     {"£", "GBP", false},    {"¥", "CNY", false},   {"￥", "CNY", false}, {"人民币", "CNY", false},
     {"RMB¥", "CNY", false}, {"USD", "USD", true},  {"EUR", "EUR", true}, {"GBP", "GBP", true},
     {"CNY", "CNY", true},   {"RMB", "CNY", true},  {"JPY", "JPY", true}, {"HKD", "HKD", true},
     {"CHF", "CHF", true},   {"CAD", "CAD", true},  {"AUD", "AUD", true}, {"SGD", "SGD", true}}};

// ---------------------------------------------------------------------------- Chinese
inline constexpr std::array<Word, 11> kZhLogic = {{{"如果", "if"},
                                                   {"否则", "else"},
                                                   {"除非", "unless"},
                                                   {"因此", "therefore"},
                                                   {"所以", "therefore"},
                                                   {"不得", "must_not"},
                                                   {"禁止", "must_not"},
                                                   {"应当", "must"},
                                                   {"必须", "must"},
                                                   {"同意", "commit"},
                                                   {"保证", "commit"}}};
inline constexpr std::array<std::string_view, 12> kOrgSuffixes = {"有限责任公司", "股份有限公司", "有限公司", "公司",
                                                                  "集团",         "银行",         "医院",     "大学",
                                                                  "事务所",       "研究所",       "诊所",     "中心"};
// Units after 第N: article, paragraph, chapter, section, item.
inline constexpr std::array<std::string_view, 5> kClauseUnitsZh = {"条", "款", "章", "节", "项"};

// ---------------------------------------------------------------------------- English keywords
inline constexpr std::array<Word, 22> kLogic = {{{"shall not", "must_not"},
                                                 {"must not", "must_not"},
                                                 {"may not", "must_not"},
                                                 {"will not", "must_not"},
                                                 {"shall", "must"},
                                                 {"must", "must"},
                                                 {"if", "if"},
                                                 {"else", "else"},
                                                 {"otherwise", "else"},
                                                 {"unless", "unless"},
                                                 {"therefore", "therefore"},
                                                 {"thus", "therefore"},
                                                 {"hence", "therefore"},
                                                 {"agrees", "commit"},
                                                 {"agreed", "commit"},
                                                 {"agree", "commit"},
                                                 {"consents", "commit"},
                                                 {"consent", "commit"},
                                                 {"warrants", "commit"},
                                                 {"warrant", "commit"},
                                                 {"guarantees", "commit"},
                                                 {"guarantee", "commit"}}};
inline constexpr std::array<ClauseWord, 12> kClauseWords = {{{"Section", true},
                                                             {"section", true},
                                                             {"Sec.", false},
                                                             {"Sect.", false},
                                                             {"Article", true},
                                                             {"article", true},
                                                             {"Art.", false},
                                                             {"Clause", true},
                                                             {"clause", true},
                                                             {"Paragraph", true},
                                                             {"Para.", false},
                                                             {"§", false}}};
inline constexpr std::array<CodeKeyword, 4> kCodeKeywords = {
    {{"def", true}, {"fn", true}, {"function", true}, {"class", false}}};
// Number words before a unit of time or "percent" (scan_spelled); a tens word takes a unit word
// after a hyphen ("twenty-five").
inline constexpr std::array<Word, 29> kSpelled = {
    {{"one", "1"},      {"two", "2"},        {"three", "3"},     {"four", "4"},      {"five", "5"},
     {"six", "6"},      {"seven", "7"},      {"eight", "8"},     {"nine", "9"},      {"ten", "10"},
     {"eleven", "11"},  {"twelve", "12"},    {"thirteen", "13"}, {"fourteen", "14"}, {"fifteen", "15"},
     {"sixteen", "16"}, {"seventeen", "17"}, {"eighteen", "18"}, {"nineteen", "19"}, {"twenty", "20"},
     {"thirty", "30"},  {"forty", "40"},     {"fifty", "50"},    {"sixty", "60"},    {"seventy", "70"},
     {"eighty", "80"},  {"ninety", "90"},    {"half", "0.5"},    {"twice", "2"}}};

// ---------------------------------------------------------------------------- names
// Capitalised words that start no name.
inline constexpr std::array<std::string_view, 56> kNameStop = {
    "The",       "A",        "An",     "This",     "That",   "These", "Those", "It",     "Its",    "Our",
    "We",        "You",      "Your",   "He",       "She",    "They",  "His",   "Her",    "Their",  "In",
    "On",        "At",       "For",    "To",       "By",     "With",  "From",  "As",     "Of",     "And",
    "Or",        "But",      "Yes",    "No",       "Please", "Dear",  "Thank", "Thanks", "All",    "Any",
    "Each",      "Every",    "When",   "Where",    "What",   "Who",   "Why",   "How",    "Monday", "Tuesday",
    "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Answer"};
inline constexpr std::array<std::string_view, 14> kNameStopMore = {"Section",   "Sec",    "Article", "Art",    "Clause",
                                                                   "Paragraph", "Para",   "See",     "Per",    "Under",
                                                                   "Total",     "Amount", "Date",    "Invoice"};
// Quantifiers that start no name ("Many Bank officials", "Most Labour voters"), though a name may end
// in one ("Johann Most").
inline constexpr std::array<std::string_view, 7> kQuantifierStop = {"Many", "Most",    "Some",   "Both",
                                                                    "Few",  "Several", "Another"};
inline constexpr std::array<std::string_view, 14> kCorpSuffix = {"Ltd.", "Ltd",  "LLC", "Inc.", "Inc",   "Co.", "Corp.",
                                                                 "Corp", "GmbH", "PLC", "LLP",  "Group", "AG",  "S.A."};

}  // namespace sfcl::anchor::lex
