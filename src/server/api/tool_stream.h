// Tool calls streamed as the checked text is released: the prose before the calls, each call's
// start (id, name) and its arguments go out as they arrive, so a client sees the arguments grow.
// Replies in the JSON-object tool format ({"name": ..., "arguments": {...}} per call) are scanned
// here: the arguments are streamed as written, minus whitespace outside strings, and since
// released text is never retracted each delta extends the last. Replies in a template's native
// format are read by llama.cpp's partial parse (tool_reply.cpp); there too only what extends the
// text already sent goes out.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sfcl::server {

// What a JSON-object tool reply's text says so far.
struct ScannedCall {
  std::string name;
  std::string arguments;  // the arguments object as written so far, without whitespace outside strings
  bool arguments_done = false;
};
struct ScannedReply {
  size_t content_end = 0;          // prose that is surely not the beginning of a call: text[0, content_end)
  std::vector<ScannedCall> calls;  // calls whose name is complete
};
// `final`: the text is the whole reply (nothing is held back as a possible beginning).
ScannedReply scan_tool_reply(std::string_view text, bool final);

// One tool reply stream: what of its text, blocks and calls the client already has.
struct ToolStream {
  struct Call {
    std::string id;
    std::string name;
    std::string arguments;  // sent so far
    bool stopped = false;   // Anthropic: its block was closed
  };
  // Anthropic: a block started, with what it said (text, thinking) or which call it is (tool_use).
  struct Block {
    std::string type;
    std::string text;
    size_t call = 0;
  };
  std::string text;         // released reply text so far
  std::string content;      // prose sent
  std::vector<Call> calls;  // calls started
  int blocks = 0;           // Anthropic content blocks started
  bool block_open = false;  // Anthropic: the last block is not stopped yet
  std::vector<Block> sent;  // Anthropic: the blocks started, in order
  std::string reasoning;    // the reasoning split off the reply, sent whole at the end
  bool called = false;      // the reply's parse has tool calls
  // The reply's last blocks are written into `tail` before the closing event, so that the
  // signature in that event covers all the stream's blocks (server/api/tool_reply.cpp).
  bool finished = false;
  std::string tail;
  // Responses API: the next event's sequence_number; `blocks` counts its output items and
  // `sent` holds them ("message" with its text, "function_call" with its call, "reasoning").
  int64_t sequence = 0;
};

}  // namespace sfcl::server
