#include "server/api/infill.h"

#include <algorithm>

#include "anchor/anchor.h"
#include "server/api/params.h"
#include "server/api/request.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

std::string text_field(const json& body, const char* key, const ServerOptions& server) {
  if (!body.contains(key) || body[key].is_null()) return {};
  if (!body[key].is_string()) throw bad_param(std::string(key) + " must be a string", key);
  std::string s = body[key].get<std::string>();
  check_text(s, key);
  return server.strip_zero_width ? anchor::strip_zero_width(s) : s;
}

std::vector<std::pair<std::string, std::string>> extra_of(const json& body, const ServerOptions& server) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!body.contains("input_extra") || body["input_extra"].is_null()) return out;
  const json& extra = body["input_extra"];
  static const char* kShape = R"('input_extra' must be an array of {"filename": string, "text": string})";
  if (!extra.is_array()) throw bad_param(kShape, "input_extra");
  for (const json& chunk : extra) {
    if (!chunk.is_object()) throw bad_param(kShape, "input_extra");
    for (const auto& [key, value] : chunk.items()) {
      if ((key != "filename" && key != "text") || !value.is_string()) throw bad_param(kShape, "input_extra");
    }
    if (!chunk.contains("text")) throw bad_param(kShape, "input_extra");  // llama-server requires it
    out.emplace_back(text_field(chunk, "filename", server), text_field(chunk, "text", server));
    if (!chunk.contains("filename")) out.back().first = "tmp";  // llama-server's default
  }
  return out;
}

void append(std::vector<engine::Token>& out, const std::vector<engine::Token>& more) {
  out.insert(out.end(), more.begin(), more.end());
}

}  // namespace

GenerationRequest parse_infill_request(const json& body, const ServerOptions& server, const ModelSpec& model) {
  if (!body.is_object()) throw bad_param("the request body must be a JSON object");
  InfillInput in;
  in.prefix = text_field(body, "input_prefix", server);
  in.suffix = text_field(body, "input_suffix", server);
  in.prompt = text_field(body, "prompt", server);
  in.extra = extra_of(body, server);
  in.n_batch = static_cast<int32_t>(server.scheduler.n_batch);
  in.n_ctx = static_cast<int32_t>(server.scheduler.n_ctx_per_slot);
  in.n_predict = server.n_predict > 0 ? server.n_predict : -1;
  // The rest is a /completion body; its prompt stands in until the FIM prompt is built.
  json native = body;
  for (const char* key : {"input_prefix", "input_suffix", "input_extra"}) native.erase(key);
  native["prompt"] = "infill";
  GenerationRequest r = parse_request(Api::llama_completion, native, server, model);
  r.raw_prompt = in.prompt;
  r.infill = std::move(in);
  return r;
}

std::vector<engine::Token> infill_tokens(const engine::Model& model, const InfillInput& in) {
  const engine::Model::FimTokens fim = model.fim_tokens();
  std::string missing;
  if (fim.pre < 0) missing += "prefix token is missing. ";
  if (fim.suf < 0) missing += "suffix token is missing. ";
  if (fim.mid < 0) missing += "middle token is missing. ";
  if (!missing.empty()) {
    missing.pop_back();
    throw ApiError(501, "not_supported_error", "Infill is not supported by this model: " + missing);
  }
  std::vector<engine::Token> extra;
  if (fim.rep >= 0) {
    extra.push_back(fim.rep);
    append(extra, model.tokenize("myproject\n", false, false));
  }
  for (const auto& [filename, text] : in.extra) {
    if (fim.sep >= 0) {
      extra.push_back(fim.sep);
      append(extra, model.tokenize(filename + "\n", false, false));
    } else {
      append(extra, model.tokenize("\n\n--- snippet ---\n\n", false, false));
    }
    append(extra, model.tokenize(text, false, false));
  }
  if (fim.sep >= 0) {
    extra.push_back(fim.sep);
    append(extra, model.tokenize("filename\n", false, false));
  }
  std::vector<engine::Token> prefix = model.tokenize(in.prefix, false, false);
  std::vector<engine::Token> suffix = model.tokenize(in.suffix, false, false);
  const std::vector<engine::Token> prompt = model.tokenize(in.prompt, false, true);  // special tokens read, as there
  const auto quarter = static_cast<int64_t>(in.n_batch / 4);
  const auto take_prefix = std::min<int64_t>(static_cast<int64_t>(prefix.size()), 3 * quarter);
  const auto take_suffix = std::min<int64_t>(static_cast<int64_t>(suffix.size()),
                                             std::max<int64_t>(0, quarter - (2 + static_cast<int64_t>(prompt.size()))));
  const auto take_extra =
      std::min<int64_t>(std::max<int64_t>(0, int64_t{in.n_ctx} - in.n_batch - 2 * int64_t{in.n_predict}),
                        static_cast<int64_t>(extra.size()));
  prefix.erase(prefix.begin(), prefix.end() - take_prefix);
  suffix.resize(static_cast<size_t>(take_suffix));
  std::vector<engine::Token> out;
  out.reserve(static_cast<size_t>(take_extra) + prefix.size() + suffix.size() + prompt.size() + 4);
  out.insert(out.end(), extra.end() - take_extra, extra.end());
  if (model.adds_bos()) out.push_back(model.bos());  // after the extra files, as llama-server puts it
  out.push_back(fim.pre);
  append(out, prefix);
  append(out, prompt);
  out.push_back(fim.suf);
  append(out, suffix);
  out.push_back(fim.mid);
  return out;
}

}  // namespace sfcl::server
