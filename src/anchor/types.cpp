#include <array>
#include <cstdio>
#include <string>

#include "anchor/anchor.h"

namespace sfcl::anchor {
namespace {
constexpr std::array<std::string_view, kTypeCount> kNames = {
    "number",         "amount", "percent", "date",  "duration", "identifier", "clause", "name",
    "code_signature", "json",   "xml",     "logic", "citation", "quantity",   "score",  "title", "time"};
}

Kind kind_of(Type type) {
  switch (type) {
    case Type::code_signature:
    case Type::json:
    case Type::xml:
      return Kind::structural;
    case Type::logic:
      return Kind::logic;
    default:
      return Kind::entity;
  }
}

bool is_numeric(Type type) {
  return type == Type::number || type == Type::amount || type == Type::percent || type == Type::duration ||
         type == Type::quantity;
}

bool is_obligation(const Anchor& a) { return a.type == Type::logic && (a.norm == "must" || a.norm == "must_not"); }

std::string_view type_name(Type type) { return kNames[static_cast<size_t>(type)]; }

std::string_view kind_name(Kind kind) {
  switch (kind) {
    case Kind::entity:
      return "entity";
    case Kind::structural:
      return "structural";
    case Kind::logic:
      return "logic";
  }
  return "entity";
}

std::string anchor_id(Type type, size_t n) {
  char buf[48];
  switch (kind_of(type)) {
    case Kind::entity:
      std::snprintf(buf, sizeof buf, "entity_%03zu", n);
      break;
    case Kind::structural:
      std::snprintf(buf, sizeof buf, "struct_%s_%03zu", std::string(type_name(type)).c_str(), n);
      break;
    case Kind::logic:
      std::snprintf(buf, sizeof buf, "logic_%03zu", n);
      break;
  }
  return buf;
}

bool parse_type(std::string_view name, Type& out) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) {
      out = static_cast<Type>(i);
      return true;
    }
  }
  return false;
}

}  // namespace sfcl::anchor
