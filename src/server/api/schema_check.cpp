// JSON schemas that no value satisfies. llama.cpp's json_schema_to_grammar builds a grammar for
// them anyway (an integer's minimum above its maximum, an empty enum, `not: {}`, two types at
// once), and the reply then breaks the schema or is empty; such a schema is the request's error.
// A keyword constrains only values of its type (JSON Schema 2020-12, 6.2-6.5): bounds that cross
// make a schema unsatisfiable only where every type it allows is one they constrain.
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <tuple>

#include "server/api/tools.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

constexpr int kMaxDepth = 64;        // deeper schemas are left to the converter
constexpr size_t kMaxNodes = 20000;  // subschemas visited per request, at most

// Where a subschema sits, as a chain to the root; written out only for the error.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;  // ".properties.a", ".anyOf", ...
  int64_t index = -1;    // [i] after the key, or -1
};

std::string render(const Path& p) {
  std::string out = p.parent != nullptr ? render(*p.parent) : std::string();
  out += p.key;
  if (p.index >= 0) out += "[" + std::to_string(p.index) + "]";
  return out;
}

struct Walk {
  size_t nodes = 0;
  std::optional<std::string> no_value(const json& s, const Path& at, int depth);
  std::optional<std::string> object_fields(const json& s, const Path& at, int depth);
  std::optional<std::string> combinations(const json& s, const Path& at, int depth);
  std::optional<std::string> items(const json& s, const Path& at, int depth);
};

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

// The types `s` allows, or nullopt when it names none (then any type, which no keyword bounds all of).
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

// Whether every type `s` allows is one of `only`.
bool only_types(const json& s, std::initializer_list<std::string_view> only) {
  const auto t = types_of(s);
  return t && !t->empty() && std::all_of(t->begin(), t->end(), [&](const std::string& x) {
           return std::find(only.begin(), only.end(), x) != only.end();
         });
}

const json* number_at(const json& s, const char* key) {
  return s.contains(key) && s[key].is_number() ? &s[key] : nullptr;
}

// A JSON number's value, exact for every 64-bit integer (a long double's 64-bit mantissa), so that
// bounds past 2^53 compare as written.
long double exact(const json& v) {
  if (v.is_number_unsigned()) return static_cast<long double>(v.get<uint64_t>());
  if (v.is_number_integer()) return static_cast<long double>(v.get<int64_t>());
  return static_cast<long double>(v.get<double>());
}

bool less(const json& a, const json& b) { return exact(a) < exact(b); }

std::optional<std::string> bounds(const json& s, const Path& at) {
  const json* lo = number_at(s, "minimum");
  const json* xlo = number_at(s, "exclusiveMinimum");
  const json* hi = number_at(s, "maximum");
  const json* xhi = number_at(s, "exclusiveMaximum");
  const json* low = lo != nullptr ? lo : xlo;
  const json* high = hi != nullptr ? hi : xhi;
  if (low != nullptr && high != nullptr && only_types(s, {"integer", "number"})) {
    // Empty when the upper bound is below the lower, or equal to it with either end exclusive.
    if (less(*high, *low) || (!less(*low, *high) && (lo == nullptr || hi == nullptr))) {
      return render(at) + ": its lower bound " + low->dump() + " is not below its upper bound " + high->dump();
    }
    if (only_types(s, {"integer"})) {
      bool none = false;
      if (low->is_number_integer() && high->is_number_integer()) {
        // Whole bounds: only (a, b), both exclusive, can be empty now, when b - a < 2.
        none = lo == nullptr && hi == nullptr && exact(*high) - exact(*low) < 2;
      } else {
        const double l = low->get<double>();
        const double h = high->get<double>();
        const double first = lo != nullptr ? std::ceil(l) : std::floor(l) + 1;
        const double last = hi != nullptr ? std::floor(h) : std::ceil(h) - 1;
        none = first > last;
      }
      if (none) return render(at) + ": no integer lies within its bounds";
    }
  }
  for (const auto& [min, max, type] :
       {std::tuple{"minLength", "maxLength", "string"}, std::tuple{"minItems", "maxItems", "array"},
        std::tuple{"minProperties", "maxProperties", "object"}}) {
    const json* a = number_at(s, min);
    const json* b = number_at(s, max);
    if (a != nullptr && b != nullptr && only_types(s, {type}) && less(*b, *a)) {
      return render(at) + ": " + min + " " + a->dump() + " is above " + max + " " + b->dump();
    }
  }
  return std::nullopt;
}

std::optional<std::string> values(const json& s, const Path& at) {
  if (s.contains("enum") && s["enum"].is_array()) {
    const json& e = s["enum"];
    if (e.empty()) return render(at) + ".enum is empty";
    if (s.contains("const") && std::find(e.begin(), e.end(), s["const"]) == e.end()) {
      return render(at) + ": its const is not in its enum";
    }
    if (const auto t = types_of(s)) {
      const bool any = std::any_of(e.begin(), e.end(), [&](const json& v) {
        return std::any_of(t->begin(), t->end(), [&](const std::string& ty) { return is_type(v, ty); });
      });
      if (!any) return render(at) + ": no value of its enum has its type";
    }
  }
  if (s.contains("const") && !s.contains("enum")) {
    if (const auto t = types_of(s)) {
      if (std::none_of(t->begin(), t->end(), [&](const std::string& ty) { return is_type(s["const"], ty); })) {
        return render(at) + ": its const does not have its type";
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> Walk::object_fields(const json& s, const Path& at, int depth) {
  // Property names matched by a pattern are allowed too: nothing is decided about them here.
  if (!only_types(s, {"object"}) || s.contains("patternProperties")) return std::nullopt;
  const json empty = json::object();
  const json& props = s.contains("properties") && s["properties"].is_object() ? s["properties"] : empty;
  const bool closed = s.contains("additionalProperties") && s["additionalProperties"] == false;
  const json* min_props = number_at(s, "minProperties");
  if (closed && min_props != nullptr && min_props->get<double>() > static_cast<double>(props.size())) {
    return render(at) + ": minProperties " + min_props->dump() + " is more than the " + std::to_string(props.size()) +
           " properties additionalProperties: false allows";
  }
  if (!s.contains("required") || !s["required"].is_array()) return std::nullopt;
  std::set<std::string_view> required;
  for (const auto& name : s["required"]) {
    if (name.is_string()) required.insert(name.get_ref<const std::string&>());
  }
  const json* max_props = number_at(s, "maxProperties");
  if (max_props != nullptr && max_props->get<double>() < static_cast<double>(required.size())) {
    return render(at) + ": it requires more properties than maxProperties allows";
  }
  for (const std::string_view key : required) {  // each name once: a repeated name is one property
    if (!props.contains(key)) {
      if (closed)
        return render(at) + ": it requires \"" + std::string(key) + "\", which additionalProperties: false forbids";
      continue;
    }
    const std::string key_path = ".properties." + std::string(key);
    if (auto why = no_value(props[std::string(key)], Path{&at, key_path, -1}, depth + 1)) return why;
  }
  return std::nullopt;
}

std::optional<std::string> Walk::combinations(const json& s, const Path& at, int depth) {
  for (const char* key : {"anyOf", "oneOf"}) {
    if (!s.contains(key) || !s[key].is_array()) continue;
    const std::string key_path = std::string(".") + key;
    if (s[key].empty()) return render(at) + key_path + " is empty";
    std::optional<std::string> first;
    size_t dead = 0;
    for (size_t i = 0; i < s[key].size(); ++i) {
      auto why = no_value(s[key][i], Path{&at, key_path, static_cast<int64_t>(i)}, depth + 1);
      if (!why) break;  // one member some value satisfies: the whole does
      if (!first) first = std::move(why);
      ++dead;
    }
    if (dead == s[key].size()) return first;
  }
  if (!s.contains("allOf") || !s["allOf"].is_array()) return std::nullopt;
  auto types = types_of(s);
  for (size_t i = 0; i < s["allOf"].size(); ++i) {
    const json& part = s["allOf"][i];
    if (auto why = no_value(part, Path{&at, ".allOf", static_cast<int64_t>(i)}, depth + 1)) return why;
    const auto t = types_of(part);
    if (!t) continue;
    if (!types) {
      types = t;
      continue;
    }
    std::set<std::string> both;
    std::set_intersection(types->begin(), types->end(), t->begin(), t->end(), std::inserter(both, both.end()));
    if (both.empty()) return render(at) + ".allOf asks for types no value has at once";
    types = both;
  }
  return std::nullopt;
}

std::optional<std::string> Walk::items(const json& s, const Path& at, int depth) {
  if (!only_types(s, {"array"})) return std::nullopt;
  const json* min_items = number_at(s, "minItems");
  const double required = min_items != nullptr ? min_items->get<double>() : 0;
  size_t fixed = 0;
  if (s.contains("prefixItems") && s["prefixItems"].is_array()) {
    fixed = s["prefixItems"].size();
    // Only the elements an array must have: a shorter array leaves the later ones out.
    for (size_t i = 0; i < fixed && static_cast<double>(i) < required; ++i) {
      if (auto why = no_value(s["prefixItems"][i], Path{&at, ".prefixItems", static_cast<int64_t>(i)}, depth + 1)) {
        return why;
      }
    }
  }
  // `items` holds for the elements after the prefix: needed only when more are required.
  if (s.contains("items") && required > static_cast<double>(fixed)) {
    return no_value(s["items"], Path{&at, ".items", -1}, depth + 1);
  }
  return std::nullopt;
}

std::optional<std::string> Walk::no_value(const json& s, const Path& at, int depth) {
  if (++nodes > kMaxNodes || depth > kMaxDepth) return std::nullopt;  // past the budget: the converter's
  if (s.is_boolean()) return s.get<bool>() ? std::nullopt : std::optional<std::string>(render(at) + " is false");
  if (!s.is_object()) return std::nullopt;
  if (s.contains("not") && (s["not"] == true || s["not"] == json::object())) {
    return render(at) + ".not matches every value";
  }
  if (s.contains("type") && s["type"].is_array() && s["type"].empty()) return render(at) + ".type is empty";
  if (auto why = bounds(s, at)) return why;
  if (auto why = values(s, at)) return why;
  if (auto why = object_fields(s, at, depth)) return why;
  if (auto why = combinations(s, at, depth)) return why;
  return items(s, at, depth);
}

}  // namespace

void check_schema_satisfiable(const json& schema, const std::string& where) {
  Walk walk;
  if (auto why = walk.no_value(schema, Path{nullptr, where, -1}, 0)) {
    throw ApiError{400, "invalid_request_error", "no value satisfies this JSON schema: " + *why, where};
  }
}

}  // namespace sfcl::server
