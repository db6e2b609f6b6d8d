// Small I/O helpers for the CLI: read a file or stdin, JSON shapes shared by subcommands.
#pragma once
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "anchor/anchor.h"
#include "cli/commands.h"
#include "decode/decode.h"
#include "util/utf8.h"

namespace sfcl::cli {

// "-" (or empty) is stdin. A terminal or an empty stdin is an error: a command that read nothing
// would otherwise print nothing and exit 0, which looks like a pass.
inline std::string read_input(const std::string& path) {
  if (path.empty() || path == "-") {
    if (::isatty(STDIN_FILENO) != 0) throw UsageError("no input: give a FILE, or pipe text to stdin (-)");
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    if (ss.str().empty()) throw UsageError("stdin is empty: give a FILE, or pipe text to stdin (-)");
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read file: " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline nlohmann::json anchor_json(const anchor::Anchor& a, const std::string& id, std::string_view text) {
  nlohmann::json j = {{"id", id},
                      {"kind", std::string(anchor::kind_name(anchor::kind_of(a.type)))},
                      {"type", std::string(anchor::type_name(a.type))},
                      {"text", std::string(text)},
                      {"start", a.start},
                      {"end", a.end},
                      {"norm", a.norm}};
  if (a.ambiguous) {
    j["ambiguous"] = true;
    j["alt_norm"] = a.alt_norm;
  }
  return j;
}

inline nlohmann::json record_json(const decode::AnchorRecord& r) {
  nlohmann::json j = anchor_json(r.anchor, r.id, r.text);
  j["verdict"] = std::string(verify::verdict_name(r.verdict));
  j["confidence"] = r.confidence;
  j["checked"] = r.checked;
  if (r.flagged) j["flagged"] = true;
  if (r.constrained) j["constrained"] = true;
  if (r.other_field) j["other_field"] = true;
  if (r.attempts > 0) j["backtracks"] = r.attempts;
  if (r.verdict == verify::Verdict::confirmed && r.checked) {
    j["source"] = {{"message", r.support_source}, {"start", r.support_start}, {"end", r.support_end}};
  }
  return j;
}

}  // namespace sfcl::cli
