// Synthetic grounded-QA corpus for the demo model: short business documents (EN and ZH) and
// questions whose answers copy values from them. Deterministic from a seed; the eval split uses
// other document templates and values no training document contains.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace sfcl::demo {

enum class Split : uint8_t { train, eval };

struct QA {
  std::string question;
  std::string answer;
};

struct Document {
  std::string id;
  std::string lang;  // en | zh
  std::string kind;  // invoice | contract | purchase_order | visit_note | ticket
  std::string text;
  std::vector<QA> qas;              // every fact of the document asked
  std::vector<std::string> values;  // the fact values as written
};

// One document; the same (seed, split, index) always gives the same bytes.
Document make_document(uint64_t seed, Split split, uint64_t index);

// Every non-ASCII character the generator can emit (the demo vocabulary adds them as tokens).
std::vector<std::string> corpus_characters();

// True when a value string may appear in that split (hash partition: eval values never occur in
// training documents).
bool value_in_split(const std::string& value, Split split);

// Template ids a document of that split may use (for the disjointness test).
std::vector<std::string> template_ids(Split split);

}  // namespace sfcl::demo
