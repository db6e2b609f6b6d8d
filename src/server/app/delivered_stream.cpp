// Streams as the official SDKs accumulate them: Anthropic content blocks by their index (text,
// tool_use input from its partial_json, thinking), OpenAI choices by their index (content,
// reasoning_content, tool_calls by theirs); every event and every field of every chunk is read.
#include <algorithm>
#include <array>
#include <map>

#include "server/api/signing.h"
#include "server/app/delivered_fields.h"
#include "server/app/sse_reader.h"

namespace sfcl::server::delivered {

using nlohmann::json;

namespace {

// Above any n a server allows (server/api/params.cpp caps it at 128): an index beyond is no choice.
constexpr uint64_t kMaxChoice = 1024;

constexpr std::array<const char*, 4> kCheckEvents = {"anchor_confirmed", "anchor_checked", "backtrack", "fallback"};

bool is_check_event(const std::string& name) {
  return std::find(kCheckEvents.begin(), kCheckEvents.end(), name) != kCheckEvents.end();
}

struct AnthropicBlock {
  json block;
  std::string partial_json;  // tool_use: the input as streamed
  bool open = true;
};

// The open block a delta or stop event names by its index; nullptr (and noted) when none is.
AnthropicBlock* block_at(std::vector<AnthropicBlock>& blocks, const json& j, const std::string& at, Delivered& d) {
  const json index = j.value("index", json());
  if (!index.is_number_unsigned() || index.get<size_t>() >= blocks.size() || !blocks[index.get<size_t>()].open) {
    d.unsigned_parts.push_back(at + ".index " + index.dump() + " is no open content block");
    return nullptr;
  }
  return &blocks[index.get<size_t>()];
}

void anthropic_message_start(const json& e, const std::string& at, Delivered& d) {
  only(d, e, at, {"type", "message"});
  const json m = e.value("message", json::object());
  if (!only(d, m, at + ".message",
            {"id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"})) {
    return;
  }
  expect(d, m, "type", "message", at + ".message");
  expect(d, m, "role", "assistant", at + ".message");
  expect(d, m, "content", json::array(), at + ".message");
  expect(d, m, "stop_reason", nullptr, at + ".message");
  expect(d, m, "stop_sequence", nullptr, at + ".message");
  if (m.contains("usage")) check_usage(d, m["usage"], true, at + ".message.usage");
  d.id = string_at(d, m, "id", at + ".message");
  d.model = string_at(d, m, "model", at + ".message");
}

// A delta appends to its block: text, thinking, or a tool_use's partial JSON input.
void anthropic_block_delta(const json& e, const std::string& at, std::vector<AnthropicBlock>& blocks, Delivered& d) {
  AnthropicBlock* b = block_at(blocks, e, at, d);
  const json delta = e.value("delta", json());
  const std::string kind = type_of(delta);
  const std::string block_type = b != nullptr ? b->block["type"].get<std::string>() : "";
  const char* field = kind == "text_delta" ? "text" : kind == "input_json_delta" ? "partial_json" : "thinking";
  const bool fits = (kind == "text_delta" && block_type == "text") ||
                    (kind == "input_json_delta" && block_type == "tool_use") ||
                    (kind == "thinking_delta" && block_type == "thinking");
  if (!fits) {
    d.unsigned_parts.push_back(at + ".delta (" + (kind.empty() ? "untyped" : kind) + ")" +
                               (b != nullptr ? " on a " + block_type + " block" : ""));
    return;
  }
  only(d, delta, at + ".delta", {"type", field});
  const std::string piece = string_at(d, delta, field, at + ".delta");
  if (kind == "input_json_delta") {
    b->partial_json += piece;
  } else {
    std::string text = b->block[kind == "text_delta" ? "text" : "thinking"].get<std::string>();
    b->block[kind == "text_delta" ? "text" : "thinking"] = text + piece;
  }
}

void anthropic_event(const SseEvent& ev, const json& e, const std::string& at, std::vector<AnthropicBlock>& blocks,
                     bool& started, bool& stopped, Delivered& d) {
  DeliveredChoice& choice = d.choices.front();
  const std::string type = type_of(e);
  // The SDKs dispatch on the event's name, this client and the server on the data's type: a
  // stream where the two differ reads differently in each.
  if (ev.event != type) d.unsigned_parts.push_back(at + ": event \"" + ev.event + "\" carries type \"" + type + "\"");
  if (stopped) d.unsigned_parts.push_back(at + ": after message_stop");
  if (!started && type != "message_start" && type != "ping") d.unsigned_parts.push_back(at + ": before message_start");
  if (type == "message_start") {
    if (started) d.unsigned_parts.push_back(at + ": a second message_start");
    started = true;
    anthropic_message_start(e, at, d);
  } else if (type == "content_block_start") {
    only(d, e, at, {"type", "index", "content_block"});
    if (e.value("index", json()) != json(blocks.size())) {
      d.unsigned_parts.push_back(at + ".index " + e.value("index", json()).dump() + " is not the next block");
    }
    json block = anthropic_block(d, e.value("content_block", json()), at + ".content_block");
    if (!block.is_null()) blocks.push_back({std::move(block)});
  } else if (type == "content_block_delta") {
    only(d, e, at, {"type", "index", "delta"});
    anthropic_block_delta(e, at, blocks, d);
  } else if (type == "content_block_stop") {
    only(d, e, at, {"type", "index"});
    if (AnthropicBlock* b = block_at(blocks, e, at, d); b != nullptr) b->open = false;
  } else if (type == "message_delta") {
    only(d, e, at, {"type", "delta", "usage", "sfcl"});
    const json delta = e.value("delta", json::object());
    only(d, delta, at + ".delta", {"stop_reason", "stop_sequence"});
    choice.stop = string_at(d, delta, "stop_reason", at + ".delta");
    choice.stop_sequence = delta.value("stop_sequence", json());
    d.usage = e.value("usage", json());
    if (d.usage.is_object()) check_usage(d, d.usage, true, at + ".usage");
    final_sfcl_of(d, choice, e.value("sfcl", json()), at);
  } else if (type == "message_stop") {
    only(d, e, at, {"type"});
    stopped = true;
  } else if (type == "ping") {
    only(d, e, at, {"type"});
  } else if (is_check_event(type)) {
    json event = e;
    event.erase("type");
    choice.events.push_back(std::move(event));
  } else {
    d.unsigned_parts.push_back(at + " (a \"" + type + "\" event)");
  }
}

void read_anthropic_stream(const std::vector<SseEvent>& events, Delivered& d) {
  d.anthropic = true;
  d.choices.emplace_back();
  std::vector<AnthropicBlock> blocks;
  bool started = false;
  bool stopped = false;
  for (size_t i = 0; i < events.size(); ++i) {
    const std::string at = "event " + std::to_string(i + 1);
    const json e = json::parse(events[i].data, nullptr, false);
    if (!e.is_object()) {
      d.unsigned_parts.push_back(at + ": data that is not a JSON object");
      continue;
    }
    anthropic_event(events[i], e, at, blocks, started, stopped, d);
  }
  if (!stopped) d.unsigned_parts.push_back("the stream has no message_stop");
  for (auto& b : blocks) {
    if (b.open) d.unsigned_parts.push_back("a content block is never stopped");
    // As the SDK: the streamed JSON replaces the start's input (an empty object) once there is one.
    if (!b.partial_json.empty()) b.block["input"] = tool_input(b.partial_json);
    d.choices.front().blocks.push_back(std::move(b.block));
  }
}

// One OpenAI choice as the SDK's accumulator holds it.
struct OpenAIChoice {
  json reasoning;  // null until a reasoning_content delta
  json text;       // null until a content delta
  json calls = json::array();
  int finishes = 0;
  DeliveredChoice delivered;  // its stop reason, final sfcl and check events
};

void openai_delta(Delivered& d, const json& delta, const std::string& at, OpenAIChoice& c) {
  if (!only(d, delta, at, {"role", "content", "reasoning_content", "tool_calls", "refusal"})) return;
  expect(d, delta, "role", "assistant", at);
  expect(d, delta, "refusal", nullptr, at);
  for (const char* key : {"content", "reasoning_content"}) {
    if (!delta.contains(key) || delta[key].is_null()) continue;
    json& into = std::string(key) == "content" ? c.text : c.reasoning;
    into = (into.is_string() ? into.get<std::string>() : "") + string_at(d, delta, key, at);
  }
  if (!delta.contains("tool_calls")) return;
  const json& calls = delta["tool_calls"];
  if (!calls.is_array()) {
    d.unsigned_parts.push_back(at + ".tool_calls is not an array");
    return;
  }
  for (size_t i = 0; i < calls.size(); ++i) {
    const std::string cat = at + ".tool_calls[" + std::to_string(i) + "]";
    const json& call = calls[i];
    if (!only(d, call, cat, {"index", "id", "type", "function"})) continue;
    expect(d, call, "type", "function", cat);
    const json index = call.value("index", json());
    if (!index.is_number_unsigned() || index.get<size_t>() > c.calls.size()) {
      d.unsigned_parts.push_back(cat + ".index " + index.dump() + " skips a call");
      continue;
    }
    if (index.get<size_t>() == c.calls.size()) {
      c.calls.push_back({{"type", "tool_use"}, {"id", ""}, {"name", ""}, {"arguments", ""}});
    }
    json& into = c.calls[index.get<size_t>()];
    if (call.contains("id")) into["id"] = string_at(d, call, "id", cat);
    const json fn = call.value("function", json::object());
    only(d, fn, cat + ".function", {"name", "arguments"});
    if (fn.contains("name") && !(fn["name"].is_string() && fn["name"].get<std::string>().empty())) {
      into["name"] = string_at(d, fn, "name", cat + ".function");
    }
    into["arguments"] = into["arguments"].get<std::string>() + string_at(d, fn, "arguments", cat + ".function");
  }
}

// llama-server's return_progress and timings_per_token fields of a chunk: counts and times, no
// content, so unsigned; only numbers pass.
void llama_stream_fields(const json& e, const std::string& at, Delivered& d) {
  if (e.contains("timings") &&
      (!e["timings"].is_object() ||
       !std::all_of(e["timings"].begin(), e["timings"].end(), [](const json& v) { return v.is_number(); }))) {
    d.unsigned_parts.push_back(at + ".timings = " + e["timings"].dump());
  }
  if (e.contains("prompt_progress")) {  // return_progress: counts of the prompt's processing, no content
    const json& p = e["prompt_progress"];
    if (only(d, p, at + ".prompt_progress", {"total", "cache", "processed", "time_ms"})) {
      for (const auto& [key, value] : p.items()) {
        if (!value.is_number_unsigned())
          d.unsigned_parts.push_back(at + ".prompt_progress." + key + " = " + value.dump());
      }
    }
  }
}

void openai_chunk(const json& e, const std::string& at, bool first, std::map<int64_t, OpenAIChoice>& choices,
                  Delivered& d) {
  only(d, e, at,
       {"id", "object", "created", "model", "system_fingerprint", "choices", "usage", "sfcl", "prompt_progress",
        "timings"});
  fingerprint_at(d, e, at);
  llama_stream_fields(e, at, d);
  // Every chunk names the same completion: the first says which.
  if (first) {
    d.id = string_at(d, e, "id", at);
    d.model = string_at(d, e, "model", at);
    d.created = e.value("created", json());
  } else {
    expect(d, e, "id", d.id, at);
    expect(d, e, "model", d.model, at);
    expect(d, e, "created", d.created, at);
  }
  const json object = e.value("object", json());
  if (object != "chat.completion.chunk" && object != "text_completion") {
    d.unsigned_parts.push_back(at + ".object = " + object.dump());
  }
  if (e.contains("usage") && !e["usage"].is_null()) {
    if (d.usage.is_object()) d.unsigned_parts.push_back(at + ".usage: a second usage");
    d.usage = e["usage"];
    check_usage(d, d.usage, false, at + ".usage");
  }
  const json list = e.value("choices", json());
  if (!list.is_array()) d.unsigned_parts.push_back(at + ".choices is not an array");
  OpenAIChoice* finished = nullptr;     // the choice this chunk finishes
  OpenAIChoice* only_choice = nullptr;  // the chunk's choice, when it has exactly one entry
  for (size_t i = 0; list.is_array() && i < list.size(); ++i) {
    const std::string cat = at + ".choices[" + std::to_string(i) + "]";
    const json& c = list[i];
    if (!only(d, c, cat, {"index", "delta", "text", "logprobs", "finish_reason"})) continue;
    const json index = c.value("index", json());
    // The SDKs merge entries by index; each choice is signed on its own (its finish chunk).
    if (!index.is_number_unsigned() || index.get<uint64_t>() > kMaxChoice) {
      d.unsigned_parts.push_back(cat + ".index " + index.dump());
      continue;
    }
    OpenAIChoice& choice = choices[index.get<int64_t>()];
    only_choice = list.size() == 1 ? &choice : nullptr;
    expect(d, c, "logprobs", nullptr, cat);
    if (c.contains("delta") == c.contains("text")) d.unsigned_parts.push_back(cat + ": neither a delta nor a text");
    if (c.contains("delta")) {
      if (object != "chat.completion.chunk") d.unsigned_parts.push_back(cat + ".delta in a " + object.dump());
      openai_delta(d, c["delta"], cat + ".delta", choice);
    } else if (c.contains("text")) {
      if (object != "text_completion") d.unsigned_parts.push_back(cat + ".text in a " + object.dump());
      choice.text = (choice.text.is_string() ? choice.text.get<std::string>() : "") + string_at(d, c, "text", cat);
    }
    if (c.contains("finish_reason") && !c["finish_reason"].is_null()) {
      if (++choice.finishes > 1) d.unsigned_parts.push_back(cat + ": a second finish_reason");
      choice.delivered.stop = string_at(d, c, "finish_reason", cat);
      if (finished != nullptr) d.unsigned_parts.push_back(cat + ": a second choice finished in one chunk");
      finished = &choice;
    }
  }
  if (!e.contains("sfcl")) return;
  const json& sfcl = e["sfcl"];
  const bool event = sfcl.is_object() && sfcl.contains("event") && sfcl["event"].is_string() &&
                     is_check_event(sfcl["event"].get<std::string>());
  if (event && only_choice != nullptr && finished == nullptr) {
    only_choice->delivered.events.push_back(sfcl);  // an event rides in a chunk of its choice
  } else if (!event && finished != nullptr) {
    final_sfcl_of(d, finished->delivered, sfcl, at);  // a choice's final sfcl rides in its finish chunk
  } else {
    d.unsigned_parts.push_back(at + ".sfcl (neither a check event of one choice nor a choice's final object)");
  }
}

void read_openai_stream(const std::vector<SseEvent>& events, Delivered& d) {
  std::map<int64_t, OpenAIChoice> choices;
  bool done = false;
  bool first = true;
  for (size_t i = 0; i < events.size(); ++i) {
    const std::string at = "event " + std::to_string(i + 1);
    if (done) d.unsigned_parts.push_back(at + ": after [DONE]");
    // The SDKs read every event's data as a chunk, named or not, and stop at "[DONE]".
    if (events[i].named) d.unsigned_parts.push_back(at + ": a named event (\"" + events[i].event + "\")");
    if (events[i].data.starts_with("[DONE]")) {
      if (events[i].data != "[DONE]") d.unsigned_parts.push_back(at + ": " + events[i].data);
      done = true;
      continue;
    }
    const json e = json::parse(events[i].data, nullptr, false);
    if (!e.is_object()) {
      d.unsigned_parts.push_back(at + ": data that is not a JSON object");
      continue;
    }
    if (e.contains("error")) {
      d.unsigned_parts.push_back(at + ": an error");
      continue;
    }
    openai_chunk(e, at, first, choices, d);
    first = false;
  }
  if (!done) d.unsigned_parts.push_back("the stream has no [DONE]");
  choices.try_emplace(0);  // a stream without chunks still has a choice 0, with no blocks
  for (auto& [index, c] : choices) {
    if (index != static_cast<int64_t>(d.choices.size())) {
      d.unsigned_parts.push_back("choice " + std::to_string(index) + " follows no choice " +
                                 std::to_string(d.choices.size()));
    }
    json calls = json::array();
    for (auto& call : c.calls) {
      calls.push_back({{"type", "tool_use"},
                       {"id", call["id"]},
                       {"name", call["name"]},
                       {"input", tool_input(call["arguments"].get<std::string>())}});
    }
    c.delivered.blocks = neutral_blocks(c.reasoning, c.text, std::move(calls));
    d.choices.push_back(std::move(c.delivered));
  }
}

}  // namespace

void read_stream(const std::string& body, Delivered& d) {
  const std::vector<SseEvent> events = parse_sse(body);
  if (events.empty()) {
    d.unsigned_parts.push_back("neither a JSON body nor an SSE stream");
    return;
  }
  // Anthropic streams open with message_start; OpenAI ones are data-only.
  const json first = json::parse(events.front().data, nullptr, false);
  if (events.front().event == "message_start" || type_of(first) == "message_start") {
    read_anthropic_stream(events, d);
  } else {
    read_openai_stream(events, d);
  }
}

}  // namespace sfcl::server::delivered
