// The characters a Chinese organisation name stops at, and those its suffixes start with
// (lex::scan_org_name, lexer_cjk.cpp).
#pragma once

namespace sfcl::anchor::lex {

// Characters that end an organisation name (particles, pronouns, verbs of motion).
constexpr bool org_stop(char32_t c) {
  switch (c) {
    case U'的':
    case U'与':
    case U'及':
    case U'在':
    case U'由':
    case U'向':
    case U'是':
    case U'为':
    case U'于':
    case U'将':
    case U'从':
    case U'对':
    case U'把':
    case U'被':
    case U'给':
    case U'了':
    case U'并':
    case U'或':
    case U'请':
    case U'我':
    case U'您':
    case U'你':
    case U'他':
    case U'她':
    case U'该':
    case U'此':
    case U'其':
    case U'已':
    case U'经':
    // adverbs and verbs that end a clause's subject: 从未去医院, 美方支持示范中心, 近年来公司
    case U'去':
    case U'来':
    case U'到':
    case U'未':
    case U'不':
    case U'没':
    case U'也':
    case U'还':
    case U'又':
    case U'就':
    case U'让':
    case U'说':
    case U'称':
    case U'持':
    case U'要':
    case U'曾':
    case U'却':
      return true;
    default:
      return false;
  }
}
// First characters of kOrgSuffixes.
constexpr bool org_suffix_start(char32_t c) {
  switch (c) {
    case U'有':
    case U'股':
    case U'公':
    case U'集':
    case U'银':
    case U'医':
    case U'大':
    case U'事':
    case U'研':
    case U'诊':
    case U'中':
      return true;
    default:
      return false;
  }
}

}  // namespace sfcl::anchor::lex
