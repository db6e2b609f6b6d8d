// sfcl::report — the one JSON shape of anchors, check events and results, shared by everything
// that prints them (the server's responses and streams, the CLI).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "decode/decode.h"

namespace sfcl::report {

// An anchor found in text, before any check: anchor_id, anchor_type, anchor_kind, text, norm,
// start/end, and ambiguous/alt_norm for a date read two ways.
nlohmann::json raw_anchor_json(const anchor::Anchor& a, const std::string& id, std::string_view text);
// An anchor and its check (sfcl anchors check): the raw fields plus verdict, confidence, checked,
// field, reason, verbatim, derivation with its operands, and support {source, start, end}. The
// verdict of an anchor of a type that is never checked (JSON, XML, code, connectives other than
// obligations) is "unchecked", here and in anchor_json.
nlohmann::json check_json(const anchor::Anchor& a, const std::string& id, std::string_view text, std::string_view field,
                          const verify::CheckResult& r, const anchor::SourceIndex& index);
// Every anchor of a finished text, checked against the checker's sources (with the field label it
// is written under and the words around it), as check_json gives it: sfcl anchors check and
// sfcl eval-spans.
std::vector<nlohmann::json> check_text(std::string_view text, const anchor::LexerOptions& lo, verify::Checker& checker);

// One anchor: anchor_id, anchor_type, anchor_kind, text, norm, start/end (byte offsets in the
// delivered text), verdict, confidence, checked, source {message, start, end} when supported, and
// flagged / constrained / other_field (with reason "other_field") / backtracks when they apply.
nlohmann::json anchor_json(const decode::AnchorRecord& a);

// The event's name: "anchor_confirmed", "anchor_checked", "backtrack", "fallback" ("token" for text).
std::string_view event_name(decode::Event::Kind kind);

// A check event: {"event": name} plus the anchor's fields, plus attempt/removed/reason for a
// backtrack and policy for a fallback. Token events have no JSON (null).
nlohmann::json event_json(const decode::Event& e);
// The event an anchor that was delivered without a check (verdict unverifiable) gets.
nlohmann::json unchecked_anchor_event(const decode::AnchorRecord& a);

// anchor_count: anchors in the delivered text that were checked (an anchor backtracked and
// written again counts once); avg_backtrack: backtracks per such anchor.
int64_t anchor_count(const decode::Result& r);
double avg_backtrack(const decode::Result& r);
// "active; anchor_count=N; avg_backtrack=X", "inactive" (no sources) or "off".
// Delivered anchors that nothing could check (no source text at all).
int64_t unverifiable_count(const decode::Result& r);
// Confirmed values of a type with roles whose role was not read (`role: null`).
int64_t role_unread_count(const decode::Result& r);
// Checked anchors of the delivered text with verdict `v` (unverifiable ones count unchecked too).
int64_t delivered_count(const decode::Result& r, verify::Verdict v);
std::string status_line(const decode::Result& r, decode::Mode mode);

// The result's summary: mode, status, counts of checks, verdicts, backtracks, fallbacks.
nlohmann::json summary_json(const decode::Result& r, decode::Mode mode);
// Every anchor of the result, in output order.
nlohmann::json anchors_json(const decode::Result& r);

}  // namespace sfcl::report
