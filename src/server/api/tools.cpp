// Request side of tools: tools and tool_choice in both APIs, tool calls and results in the
// history, and the prompt that render_chat makes of them.
#include "server/api/tools.h"

#include "anchor/anchor.h"
#include "server/api/infill.h"
#include "server/api/params.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

ApiError bad(const std::string& message, const std::string& param) {
  return {400, "invalid_request_error", message, param};
}

std::string string_field(const json& o, const char* key, const std::string& where, bool required) {
  if (!o.contains(key) || o[key].is_null()) {
    if (required) throw bad(where + "." + key + ": field required", where + "." + key);
    return {};
  }
  if (!o[key].is_string()) throw bad(where + "." + key + " must be a string", where + "." + key);
  check_text(o[key].get_ref<const std::string&>(), where + "." + key);
  return o[key].get<std::string>();
}

std::string schema_text(const json& schema, const std::string& where) {
  if (schema.is_null()) return "{\"type\":\"object\"}";
  if (!schema.is_object()) throw bad(where + " must be a JSON schema object", where);
  check_schema_satisfiable(schema, where);
  return schema.dump();
}

// Tool results and text blocks are plain text; images and documents are not supported.
std::string blocks_text(const json& content, const std::string& where) {
  if (content.is_null()) return {};
  if (content.is_string()) {
    check_text(content.get_ref<const std::string&>(), where);
    return content.get<std::string>();
  }
  if (!content.is_array()) throw bad(where + " must be a string or an array of text blocks", where);
  std::string out;
  for (const auto& b : content) {
    if (!b.is_object() || type_of(b, where) != "text" || !b.contains("text") || !b["text"].is_string()) {
      throw bad(where + ": only text blocks are supported", where);
    }
    out += b["text"].get<std::string>();
  }
  check_text(out, where);
  return out;
}

std::string name_of_call(const std::vector<engine::ChatMessage>& history, const std::string& id) {
  for (auto m = history.rbegin(); m != history.rend(); ++m) {
    for (const auto& c : m->tool_calls) {
      if (c.id == id) return c.name;
    }
  }
  return {};
}

void filter_to(GenerationRequest& r, const std::string& name, const std::string& param) {
  std::erase_if(r.tools, [&](const engine::ChatTool& t) { return t.name != name; });
  if (r.tools.empty()) throw bad(param + ": no tool named \"" + name + "\" in tools", param);
  r.tool_choice = engine::ToolChoice::required;
}

void anthropic_tools(const json& body, GenerationRequest& r) {
  if (body.contains("tools") && !body["tools"].is_null()) {
    if (!body["tools"].is_array()) throw bad("tools must be an array", "tools");
    for (size_t i = 0; i < body["tools"].size(); ++i) {
      const json& t = body["tools"][i];
      const std::string where = "tools." + std::to_string(i);
      if (!t.is_object()) throw bad(where + " must be an object", where);
      if (t.contains("type") && t["type"] != "custom") {
        throw bad(where + ".type: server tools (" + t["type"].dump() + ") are not supported", where + ".type");
      }
      engine::ChatTool tool;
      tool.name = string_field(t, "name", where, true);
      if (tool.name.empty()) throw bad(where + ".name must not be empty", where + ".name");
      tool.description = string_field(t, "description", where, false);
      if (!t.contains("input_schema")) throw bad(where + ".input_schema: field required", where + ".input_schema");
      tool.parameters = schema_text(t["input_schema"], where + ".input_schema");
      r.tools.push_back(std::move(tool));
    }
  }
  if (!body.contains("tool_choice") || body["tool_choice"].is_null()) return;
  const json& c = body["tool_choice"];
  const std::string type = type_of(c, "tool_choice");
  if (c.is_object() && c.contains("disable_parallel_tool_use") && !c["disable_parallel_tool_use"].is_null() &&
      !c["disable_parallel_tool_use"].is_boolean()) {
    throw bad("tool_choice.disable_parallel_tool_use must be a boolean", "tool_choice.disable_parallel_tool_use");
  }
  if (type == "auto") {
    r.tool_choice = engine::ToolChoice::automatic;
  } else if (type == "any") {
    r.tool_choice = engine::ToolChoice::required;
  } else if (type == "none") {
    r.tool_choice = engine::ToolChoice::none;
  } else if (type == "tool") {
    filter_to(r, string_field(c, "name", "tool_choice", true), "tool_choice.name");
  } else {
    throw bad("tool_choice must be {\"type\": \"auto\" | \"any\" | \"tool\" | \"none\"}", "tool_choice");
  }
  if ((r.tool_choice == engine::ToolChoice::required) && r.tools.empty()) {
    throw bad("tool_choice: no tools to choose from", "tool_choice");
  }
}

void openai_tools(const json& body, GenerationRequest& r) {
  if (body.contains("tools") && !body["tools"].is_null()) {
    if (!body["tools"].is_array()) throw bad("tools must be an array", "tools");
    for (size_t i = 0; i < body["tools"].size(); ++i) {
      const json& t = body["tools"][i];
      const std::string where = "tools[" + std::to_string(i) + "]";
      if (!t.is_object() || type_of(t, where) != "function" || !t.contains("function") || !t["function"].is_object()) {
        throw bad(where + " must be {\"type\": \"function\", \"function\": {...}}", where);
      }
      const json& f = t["function"];
      engine::ChatTool tool;
      tool.name = string_field(f, "name", where + ".function", true);
      if (tool.name.empty()) throw bad(where + ".function.name must not be empty", where + ".function.name");
      tool.description = string_field(f, "description", where + ".function", false);
      tool.parameters =
          schema_text(f.contains("parameters") ? f["parameters"] : json(nullptr), where + ".function.parameters");
      r.tools.push_back(std::move(tool));
    }
  }
  if (body.contains("parallel_tool_calls") && !body["parallel_tool_calls"].is_null() &&
      !body["parallel_tool_calls"].is_boolean()) {
    throw bad("parallel_tool_calls must be a boolean", "parallel_tool_calls");
  }
  r.parallel_tool_calls = body.contains("parallel_tool_calls") && body["parallel_tool_calls"] == true;
  if (!body.contains("tool_choice") || body["tool_choice"].is_null()) return;
  const json& c = body["tool_choice"];
  if (c == "auto") {
    r.tool_choice = engine::ToolChoice::automatic;
  } else if (c == "required") {
    r.tool_choice = engine::ToolChoice::required;
  } else if (c == "none") {
    r.tool_choice = engine::ToolChoice::none;
  } else if (c.is_object() && type_of(c, "tool_choice") == "function" && c.contains("function") &&
             c["function"].is_object()) {
    filter_to(r, string_field(c["function"], "name", "tool_choice.function", true), "tool_choice.function.name");
  } else {
    throw bad("tool_choice must be \"auto\", \"none\", \"required\" or {\"type\": \"function\", ...}", "tool_choice");
  }
  if (r.tool_choice == engine::ToolChoice::required && r.tools.empty()) {
    throw bad("tool_choice: no tools to choose from", "tool_choice");
  }
}

}  // namespace

void parse_tools(Api api, const json& body, GenerationRequest& r) {
  if (api == Api::anthropic) {
    anthropic_tools(body, r);
  } else if (api == Api::openai_chat) {
    openai_tools(body, r);
  } else {
    for (const char* key : {"tools", "tool_choice"}) {
      if (body.contains(key) && !body[key].is_null()) {
        throw bad(std::string(key) + " is not supported on /v1/completions (use /v1/chat/completions)", key);
      }
    }
  }
}

bool has_tool_blocks(const json& content) {
  if (!content.is_array()) return false;
  for (const auto& b : content) {
    if (!b.is_object() || !b.contains("type") || !b["type"].is_string()) continue;  // text_of says why
    const std::string type = b["type"].get<std::string>();
    if (type == "tool_use" || type == "tool_result" || type == "thinking" || type == "redacted_thinking") return true;
  }
  return false;
}

std::vector<engine::ChatMessage> anthropic_tool_messages(const std::string& role, const json& content,
                                                         const std::string& where,
                                                         const std::vector<engine::ChatMessage>& history) {
  std::vector<engine::ChatMessage> out;
  engine::ChatMessage own{role, {}, {}, {}, {}};
  for (size_t i = 0; i < content.size(); ++i) {
    const json& b = content[i];
    const std::string at = where + "." + std::to_string(i);
    if (!b.is_object()) throw bad(at + " must be a content block", at);
    const std::string type = type_of(b, at);
    if (type == "text") {
      own.content += string_field(b, "text", at, true);
    } else if (type == "thinking" || type == "redacted_thinking") {
      continue;  // earlier reasoning is not part of the prompt
    } else if (type == "tool_use") {
      if (role != "assistant") throw bad(at + ": tool_use blocks belong to assistant messages", at);
      engine::ToolCall call;
      call.id = string_field(b, "id", at, true);
      call.name = string_field(b, "name", at, true);
      const json input = b.contains("input") ? b["input"] : json::object();
      if (!input.is_object()) throw bad(at + ".input must be an object", at + ".input");
      call.arguments = input.dump();
      own.tool_calls.push_back(std::move(call));
    } else if (type == "tool_result") {
      if (role != "user") throw bad(at + ": tool_result blocks belong to user messages", at);
      engine::ChatMessage result{"tool", {}, {}, {}, {}};
      result.tool_call_id = string_field(b, "tool_use_id", at, true);
      result.tool_name = name_of_call(history, result.tool_call_id);
      if (result.tool_name.empty()) {
        throw bad(at + ".tool_use_id \"" + result.tool_call_id + "\" answers no tool_use block of an earlier message",
                  at + ".tool_use_id");
      }
      result.content = blocks_text(b.contains("content") ? b["content"] : json(nullptr), at + ".content");
      if (b.contains("is_error") && !b["is_error"].is_null()) {
        if (!b["is_error"].is_boolean()) throw bad(at + ".is_error must be a boolean", at + ".is_error");
        if (b["is_error"].get<bool>()) result.content = "Error: " + result.content;
      }
      out.push_back(std::move(result));
    } else {
      throw bad(at + ": content block type \"" + type + "\" is not supported", at);
    }
  }
  if (!own.content.empty() || !own.tool_calls.empty()) out.push_back(std::move(own));
  return out;
}

bool is_openai_tool_message(const json& m) {
  const std::string role = m.value("role", "");
  return role == "tool" || (role == "assistant" && m.contains("tool_calls") && !m["tool_calls"].is_null());
}

engine::ChatMessage openai_tool_message(const json& m, const std::string& where,
                                        const std::vector<engine::ChatMessage>& history) {
  engine::ChatMessage out{m["role"].get<std::string>(), {}, {}, {}, {}};
  out.content = blocks_text(m.contains("content") ? m["content"] : json(nullptr), where + ".content");
  if (out.role == "tool") {
    out.tool_call_id = string_field(m, "tool_call_id", where, true);
    out.tool_name = name_of_call(history, out.tool_call_id);
    if (out.tool_name.empty()) {
      throw bad(where + ".tool_call_id \"" + out.tool_call_id + "\" answers no tool_calls entry of an earlier message",
                where + ".tool_call_id");
    }
    return out;
  }
  const json& calls = m["tool_calls"];
  if (!calls.is_array()) throw bad(where + ".tool_calls must be an array", where + ".tool_calls");
  for (size_t i = 0; i < calls.size(); ++i) {
    const std::string at = where + ".tool_calls[" + std::to_string(i) + "]";
    const json& c = calls[i];
    if (!c.is_object() || !c.contains("function") || !c["function"].is_object() ||
        !(type_of(c, at).empty() || type_of(c, at) == "function")) {
      throw bad(at + " must be {\"id\", \"type\": \"function\", \"function\": {...}}", at);
    }
    engine::ToolCall call;
    call.id = string_field(c, "id", at, true);
    call.name = string_field(c["function"], "name", at + ".function", true);
    call.arguments = string_field(c["function"], "arguments", at + ".function", false);
    if (call.arguments.empty()) call.arguments = "{}";
    if (const json args = json::parse(call.arguments, nullptr, false); !args.is_object()) {
      throw bad(at + ".function.arguments must be a JSON object's text", at + ".function.arguments");
    }
    out.tool_calls.push_back(std::move(call));
  }
  return out;
}

engine::ChatPrompt render_request(const engine::Model& model, const GenerationRequest& req) {
  try {
    if (req.raw) {
      engine::ChatPrompt p;
      p.text = req.raw_prompt;
      p.tokens = req.infill ? infill_tokens(model, *req.infill) : model.tokenize(req.raw_prompt, true, true);
      if (!req.grammar.empty()) {
        p.grammar.gbnf = req.grammar;
      } else if (!req.json_schema.empty()) {
        p.grammar.gbnf = engine::json_schema_grammar(req.json_schema);
      }
      return p;
    }
    engine::ChatInput in;
    in.messages = req.messages;
    in.prefill = req.prefill;
    in.tools = req.tools;
    in.tool_choice = req.tool_choice;
    in.parallel_tool_calls = req.parallel_tool_calls;
    in.json_schema = req.json_schema;
    in.grammar = req.grammar;
    in.template_kwargs = req.template_kwargs;
    in.enable_thinking = req.enable_thinking;
    in.reasoning_format = req.reasoning_format;
    return model.render_chat(in);
  } catch (const engine::EngineError& e) {
    throw ApiError(400, "invalid_request_error", e.what());
  }
}

void prepare_job(const engine::Model& model, const GenerationRequest& req, Job& job) {
  engine::ChatPrompt prompt = render_request(model, req);
  job.prompt = prompt.tokens;
  if (!prompt.grammar.gbnf.empty()) {
    // Checked here, so a grammar llama.cpp rejects is the client's 400, not the decode thread's error.
    engine::Sampler probe(model, {});
    try {
      probe.set_grammar(prompt.grammar);
    } catch (const engine::EngineError& e) {
      throw ApiError(400, "invalid_request_error", std::string(e.what()),
                     req.grammar.empty() ? "json_schema" : "grammar");
    }
    job.options.grammar = prompt.grammar;
  }
  for (const auto& s : prompt.stops) job.options.stop.push_back(s);
  if (prompt.tool_format != engine::ToolFormat::none || prompt.splits_reasoning()) {
    auto shape = std::make_shared<ReplyShape>();
    shape->prompt = std::move(prompt);
    shape->model = &model;
    job.shape = std::move(shape);
  }
}

}  // namespace sfcl::server
