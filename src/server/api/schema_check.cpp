// JSON schemas that no value satisfies. llama.cpp's json_schema_to_grammar builds a grammar for
// them anyway (an integer's minimum above its maximum, an empty enum, `not: {}`, two types at
// once), and the reply then breaks the schema or is empty; such a schema is the request's error.
#include <cmath>
#include <optional>
#include <set>

#include "server/api/tools.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

constexpr int kMaxDepth = 64;  // deeper schemas are left to the converter

std::optional<std::string> no_value(const json& s, const std::string& at, int depth);

bool is_type(const json& v, const std::string& type) {
  if (type == "integer") return v.is_number_integer() || (v.is_number_float() && std::trunc(v.get<double>()) == v);
  if (type == "number") return v.is_number();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  return true;  // a type the converter does not know is its error to report
}

// The types `s` allows, or nullopt when it names none.
std::optional<std::set<std::string>> types_of(const json& s) {
  if (!s.is_object() || !s.contains("type")) return std::nullopt;
  std::set<std::string> out;
  if (s["type"].is_string()) out.insert(s["type"].get<std::string>());
  if (s["type"].is_array()) {
    for (const auto& t : s["type"]) {
      if (t.is_string()) out.insert(t.get<std::string>());
    }
  }
  if (out.contains("number")) out.insert("integer");
  return out;
}

// 10 for 10.0: bounds are written as the schema wrote them, mostly whole.
std::string show(double v) {
  return v == std::trunc(v) && std::fabs(v) < 1e15 ? std::to_string(static_cast<int64_t>(v)) : json(v).dump();
}

std::optional<double> number_at(const json& s, const char* key) {
  if (s.contains(key) && s[key].is_number()) return s[key].get<double>();
  return std::nullopt;
}

std::optional<std::string> bounds(const json& s, const std::string& at) {
  const auto lo = number_at(s, "minimum");
  const auto xlo = number_at(s, "exclusiveMinimum");
  const auto hi = number_at(s, "maximum");
  const auto xhi = number_at(s, "exclusiveMaximum");
  const auto low = lo ? lo : xlo;
  const auto high = hi ? hi : xhi;
  if (low && high && (*low > *high || (*low == *high && (!lo || !hi)))) {
    return at + ": its lower bound " + show(*low) + " is not below its upper bound " + show(*high);
  }
  const auto t = types_of(s);
  if (low && high && t && t->size() == 1 && t->contains("integer")) {
    const double first = lo ? std::ceil(*low) : std::floor(*low) + 1;
    const double last = hi ? std::floor(*high) : std::ceil(*high) - 1;
    if (first > last) return at + ": no integer lies within its bounds";
  }
  for (const auto& [min, max] : {std::pair{"minLength", "maxLength"}, std::pair{"minItems", "maxItems"},
                                 std::pair{"minProperties", "maxProperties"}}) {
    const auto a = number_at(s, min);
    const auto b = number_at(s, max);
    if (a && b && *a > *b) return at + ": " + min + " " + show(*a) + " is above " + max + " " + show(*b);
  }
  return std::nullopt;
}

std::optional<std::string> values(const json& s, const std::string& at) {
  if (s.contains("enum") && s["enum"].is_array()) {
    const json& e = s["enum"];
    if (e.empty()) return at + ".enum is empty";
    if (s.contains("const") && std::find(e.begin(), e.end(), s["const"]) == e.end()) {
      return at + ": its const is not in its enum";
    }
    if (const auto t = types_of(s)) {
      const bool any = std::any_of(e.begin(), e.end(), [&](const json& v) {
        return std::any_of(t->begin(), t->end(), [&](const std::string& ty) { return is_type(v, ty); });
      });
      if (!any) return at + ": no value of its enum has its type";
    }
  }
  if (s.contains("const") && !s.contains("enum")) {
    if (const auto t = types_of(s)) {
      if (std::none_of(t->begin(), t->end(), [&](const std::string& ty) { return is_type(s["const"], ty); })) {
        return at + ": its const does not have its type";
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> object_fields(const json& s, const std::string& at, int depth) {
  const json empty = json::object();
  const json& props = s.contains("properties") && s["properties"].is_object() ? s["properties"] : empty;
  const bool closed = s.contains("additionalProperties") && s["additionalProperties"] == false;
  const auto min_props = number_at(s, "minProperties");
  if (closed && min_props && *min_props > static_cast<double>(props.size())) {
    return at + ": minProperties " + show(*min_props) + " is more than the " + std::to_string(props.size()) +
           " properties additionalProperties: false allows";
  }
  if (!s.contains("required") || !s["required"].is_array()) return std::nullopt;
  const auto max_props = number_at(s, "maxProperties");
  if (max_props && *max_props < static_cast<double>(s["required"].size())) {
    return at + ": it requires more properties than maxProperties allows";
  }
  for (const auto& name : s["required"]) {
    if (!name.is_string()) continue;
    const auto& key = name.get_ref<const std::string&>();
    if (!props.contains(key)) {
      if (closed) return at + ": it requires \"" + key + "\", which additionalProperties: false forbids";
      continue;
    }
    if (auto why = no_value(props[key], at + ".properties." + key, depth + 1)) return why;
  }
  return std::nullopt;
}

std::optional<std::string> combinations(const json& s, const std::string& at, int depth) {
  for (const char* key : {"anyOf", "oneOf"}) {
    if (!s.contains(key) || !s[key].is_array()) continue;
    std::optional<std::string> first;
    size_t dead = 0;
    for (size_t i = 0; i < s[key].size(); ++i) {
      auto why = no_value(s[key][i], at + "." + key + "[" + std::to_string(i) + "]", depth + 1);
      if (why && !first) first = why;
      dead += why ? 1 : 0;
    }
    if (s[key].empty()) return at + "." + key + " is empty";
    if (dead == s[key].size()) return *first;
  }
  if (!s.contains("allOf") || !s["allOf"].is_array()) return std::nullopt;
  auto types = types_of(s);
  for (size_t i = 0; i < s["allOf"].size(); ++i) {
    const json& part = s["allOf"][i];
    if (auto why = no_value(part, at + ".allOf[" + std::to_string(i) + "]", depth + 1)) return why;
    const auto t = types_of(part);
    if (!t) continue;
    if (!types) {
      types = t;
      continue;
    }
    std::set<std::string> both;
    std::set_intersection(types->begin(), types->end(), t->begin(), t->end(), std::inserter(both, both.end()));
    if (both.empty()) return at + ".allOf asks for types no value has at once";
    types = both;
  }
  return std::nullopt;
}

std::optional<std::string> no_value(const json& s, const std::string& at, int depth) {
  if (s.is_boolean()) return s.get<bool>() ? std::nullopt : std::optional<std::string>(at + " is false");
  if (!s.is_object() || depth > kMaxDepth) return std::nullopt;
  if (s.contains("not") && (s["not"] == true || s["not"] == json::object())) return at + ".not matches every value";
  if (s.contains("type") && s["type"].is_array() && s["type"].empty()) return at + ".type is empty";
  if (auto why = bounds(s, at)) return why;
  if (auto why = values(s, at)) return why;
  if (auto why = object_fields(s, at, depth)) return why;
  if (auto why = combinations(s, at, depth)) return why;
  if (s.contains("prefixItems") && s["prefixItems"].is_array()) {
    for (size_t i = 0; i < s["prefixItems"].size(); ++i) {
      const std::string where = at + ".prefixItems[" + std::to_string(i) + "]";
      if (auto why = no_value(s["prefixItems"][i], where, depth + 1)) return why;
    }
  }
  const auto min_items = number_at(s, "minItems");
  if (s.contains("items") && min_items && *min_items > 0) return no_value(s["items"], at + ".items", depth + 1);
  return std::nullopt;
}

}  // namespace

void check_schema_satisfiable(const json& schema, const std::string& where) {
  if (auto why = no_value(schema, where, 0)) {
    throw ApiError{400, "invalid_request_error", "no value satisfies this JSON schema: " + *why, where};
  }
}

}  // namespace sfcl::server
