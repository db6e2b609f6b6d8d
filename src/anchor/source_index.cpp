// Anchors of a request's sources (prompt, documents) and knowledge base, indexed for the checker.
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "anchor/anchor.h"

namespace sfcl::anchor {

namespace {
std::string exact_key(Type type, std::string_view norm) {
  std::string k;
  k.reserve(norm.size() + 1);
  k.push_back(static_cast<char>(type));
  k.append(norm);
  return k;
}
}  // namespace

void SourceIndex::add(const Anchor& a, int32_t source, std::string_view text) {
  const auto idx = static_cast<uint32_t>(anchors_.size());
  anchors_.push_back({a, source, std::string(text)});
  by_type_[static_cast<size_t>(a.type)].push_back(idx);
  exact_.emplace(exact_key(a.type, a.norm), idx);
  if (!a.alt_norm.empty()) exact_.emplace(exact_key(a.type, a.alt_norm), idx);
}

int32_t SourceIndex::add_source(std::string_view text) {
  const int32_t id = n_sources_++;
  std::vector<Anchor> found;
  extract_into(text, found, options_);
  for (const auto& a : found) add(a, id, text.substr(a.start, a.end - a.start));
  return id;
}

void SourceIndex::add_knowledge(const std::vector<KnowledgeEntry>& entries) {
  std::vector<Anchor> found;
  for (const auto& e : entries) {
    for (const std::string* text : {&e.term, &e.value}) {
      if (text->empty()) continue;
      found.clear();
      extract_into(*text, found, options_);
      for (auto a : found) {
        const std::string_view surface = std::string_view(*text).substr(a.start, a.end - a.start);
        a.start = a.end = 0;
        add(a, -1, surface);
      }
      // A term is support in itself (names, terms of art): indexed as a name.
      Anchor term;
      term.type = Type::name;
      term.norm = fold_name(*text);
      Type declared;
      if (!e.type.empty() && parse_type(e.type, declared) && declared != Type::name && found.size() == 1) continue;
      add(term, -1, *text);
    }
    for (const auto& alias : e.aliases) {
      Anchor term;
      term.type = Type::name;
      term.norm = fold_name(alias);
      add(term, -1, alias);
    }
  }
}

std::span<const uint32_t> SourceIndex::of_type(Type type) const { return by_type_[static_cast<size_t>(type)]; }

int64_t SourceIndex::find_exact(Type type, std::string_view norm) const {
  const auto it = exact_.find(exact_key(type, norm));
  return it == exact_.end() ? -1 : static_cast<int64_t>(it->second);
}

std::vector<KnowledgeEntry> load_knowledge(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read knowledge file: " + path.string());
  std::vector<KnowledgeEntry> out;
  std::string line;
  size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      const auto j = nlohmann::json::parse(line);
      if (!j.is_object() || !j.contains("term") || !j["term"].is_string()) {
        throw std::runtime_error("an object with a string \"term\" is required");
      }
      KnowledgeEntry e;
      e.term = j["term"].get<std::string>();
      e.value = j.value("value", std::string());
      e.type = j.value("type", std::string());
      if (j.contains("aliases")) {
        for (const auto& a : j["aliases"]) e.aliases.push_back(a.get<std::string>());
      }
      out.push_back(std::move(e));
    } catch (const std::exception& ex) {
      throw std::runtime_error(path.string() + ":" + std::to_string(n) + ": " + ex.what());
    }
  }
  return out;
}

}  // namespace sfcl::anchor
