// Structured output: OpenAI's response_format and llama-server's json_schema and grammar fields.
// The reply is valid by construction (the grammar is in the sampler), and SFCL checks the values
// inside it like prose.
#include "server/api/params.h"
#include "server/api/tools.h"

namespace sfcl::server {

using nlohmann::json;

namespace {
ApiError bad(const std::string& message, const std::string& param) {
  return {400, "invalid_request_error", message, param};
}
bool present(const json& body, const char* key) { return body.contains(key) && !body[key].is_null(); }
}  // namespace

void parse_structured_output(Api api, const json& body, GenerationRequest& r) {
  if (present(body, "response_format")) {
    if (api == Api::anthropic) throw bad("response_format is an OpenAI field; use json_schema", "response_format");
    const json& f = body["response_format"];
    const std::string type = type_of(f, "response_format");
    if (type == "json_object") {
      r.json_schema = R"({"type":"object"})";
    } else if (type == "json_schema") {
      if (!f.contains("json_schema") || !f["json_schema"].is_object()) {
        throw bad("response_format.json_schema must be an object with a \"schema\"", "response_format.json_schema");
      }
      const json& s = f["json_schema"];
      if (present(s, "schema") && !s["schema"].is_object()) {
        throw bad("response_format.json_schema.schema must be a JSON schema object",
                  "response_format.json_schema.schema");
      }
      if (present(s, "schema")) check_schema_satisfiable(s["schema"], "response_format.json_schema.schema");
      r.json_schema = present(s, "schema") ? s["schema"].dump() : R"({"type":"object"})";
    } else if (type != "text") {
      throw bad("response_format.type must be \"text\", \"json_object\" or \"json_schema\"", "response_format.type");
    }
  }
  if (present(body, "json_schema")) {
    if (!body["json_schema"].is_object()) throw bad("json_schema must be a JSON schema object", "json_schema");
    if (!r.json_schema.empty()) throw bad("json_schema: give either response_format or json_schema", "json_schema");
    check_schema_satisfiable(body["json_schema"], "json_schema");
    r.json_schema = body["json_schema"].dump();
  }
  if (present(body, "grammar")) {
    if (!body["grammar"].is_string() || body["grammar"].get<std::string>().empty()) {
      throw bad("grammar must be a non-empty GBNF string", "grammar");
    }
    if (!r.json_schema.empty()) throw bad("grammar: give either a grammar or a JSON schema", "grammar");
    r.grammar = body["grammar"].get<std::string>();
  }
  if ((!r.json_schema.empty() || !r.grammar.empty()) && !r.tools.empty() && r.tool_choice != engine::ToolChoice::none) {
    throw bad("tools cannot be combined with a response format, JSON schema or grammar", "tools");
  }
}

}  // namespace sfcl::server
