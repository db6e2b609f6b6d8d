#include "server/app/llama_routes.h"

#include <charconv>
#include <cmath>
#include <filesystem>

#include "server/api/dialect.h"
#include "server/api/params.h"
#include "server/api/request.h"
#include "server/api/tools.h"
#include "server/api/verdicts.h"
#include "server/app/admission.h"
#include "server/http/http_util.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

void require_ready(const State& st) {
  if (!st.ready) throw ApiError(503, openai_chat_dialect().errors().unavailable, "model is loading");
}

const ServedModel& model_of(const State& st, const json& body) {
  require_ready(st);
  if (body.is_object() && body.contains("model") && !body["model"].is_null() && !body["model"].is_string()) {
    throw bad_param("model must be a string", "model");
  }
  return pick_model(st, requested_model(body), Api::openai_chat);
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The percent-decoded value of `key` in the target's query ("" when absent).
std::string query_value(const std::string& target, const std::string& key) {
  const size_t q = target.find('?');
  if (q == std::string::npos) return {};
  size_t pos = q + 1;
  while (pos <= target.size()) {
    size_t end = target.find('&', pos);
    if (end == std::string::npos) end = target.size();
    const std::string pair = target.substr(pos, end - pos);
    const size_t eq = pair.find('=');
    if (pair.substr(0, eq) == key && eq != std::string::npos) {
      std::string out;
      for (size_t i = eq + 1; i < pair.size(); ++i) {
        if (pair[i] == '+') {
          out.push_back(' ');
        } else if (pair[i] == '%' && i + 2 < pair.size() && hex_digit(pair[i + 1]) >= 0 &&
                   hex_digit(pair[i + 2]) >= 0) {
          out.push_back(static_cast<char>(hex_digit(pair[i + 1]) * 16 + hex_digit(pair[i + 2])));
          i += 2;
        } else {
          out.push_back(pair[i]);
        }
      }
      return out;
    }
    pos = end + 1;
  }
  return {};
}

bool flag_of(const json& body, const char* key, bool fallback) {
  if (!body.contains(key) || body[key].is_null()) return fallback;
  if (!body[key].is_boolean()) throw bad_param(std::string(key) + " must be a boolean", key);
  return body[key].get<bool>();
}

// A token's piece may be part of a UTF-8 character; such pieces are given as byte arrays, as
// llama-server does.
bool is_utf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

// A float setting as the decimal it was written as (0.8, not 0.800000011920929).
double decimal(float v) { return std::round(static_cast<double>(v) * 1e6) / 1e6; }

json piece_json(const std::string& piece) {
  if (is_utf8(piece)) return piece;
  json bytes = json::array();
  for (const char c : piece) bytes.push_back(static_cast<unsigned char>(c));
  return bytes;
}

}  // namespace

json model_object(const State&, const ServedModel& model) {
  return {{"id", model.spec.id},
          {"object", "model"},
          {"type", "model"},
          {"created", unix_now()},
          {"created_at", "1970-01-01T00:00:00Z"},
          {"owned_by", "sfcl"},
          {"display_name", model.spec.id},
          {"aliases", model.spec.aliases},
          {"sfcl", {{"mode", std::string(decode::mode_name(model.mode))}, {"layer_status", layer_status(model.mode)}}}};
}

json model_by_id(const State& st, const std::string& id) {
  for (const auto& m : st.models) {
    if (m->named(id)) return model_object(st, *m);
  }
  throw ApiError(404, "not_found_error", "model " + id + " is not served here (GET /v1/models lists the models)",
                 "model", "model_not_found");
}

json props(const State& st, const std::string& target) {
  const ServedModel& m = model_of(st, {{"model", query_value(target, "model")}});
  const engine::SamplingOptions& s = st.opt.sampling;
  const int32_t n_predict = st.opt.n_predict > 0 ? st.opt.n_predict : -1;
  return {{"default_generation_settings",
           {{"n_ctx", st.opt.scheduler.n_ctx_per_slot},
            {"params",
             {{"temperature", decimal(s.temperature)},
              {"top_k", s.top_k},
              {"top_p", decimal(s.top_p)},
              {"min_p", decimal(s.min_p)},
              {"seed", s.seed == 0xFFFFFFFFU ? json(-1) : json(s.seed)},
              {"n_predict", n_predict},
              {"max_tokens", st.opt.default_max_tokens}}}}},
          {"total_slots", st.opt.scheduler.n_parallel},
          {"model_path", m.spec.path},
          {"model_alias", m.spec.id},
          {"aliases", m.spec.aliases},
          {"chat_template", m.model->chat_template()},
          {"modalities", {{"vision", false}, {"audio", false}}},
          {"sfcl",
           {{"mode", std::string(decode::mode_name(m.mode))},
            {"threshold", decimal(st.opt.checks.checker.threshold)},
            {"max_backtracks", st.opt.checks.max_backtracks},
            {"fallback", std::string(decode::fallback_name(st.opt.checks.fallback))}}}};
}

json slots(const State& st, const std::string& target) {
  if (!st.opt.slots) {
    throw ApiError(501, "not_supported_error",
                   "this server does not serve /slots (started with --no-slots); start it with --slots");
  }
  const ServedModel& m = model_of(st, {{"model", query_value(target, "model")}});
  const json params = props(st, target)["default_generation_settings"]["params"];
  json out = json::array();
  bool idle = false;
  for (const SlotState& s : m.scheduler->slot_states()) {
    idle = idle || !s.is_processing;
    json slot = {{"id", s.id},
                 {"n_ctx", s.n_ctx},
                 {"speculative", false},
                 {"is_processing", s.is_processing},
                 {"n_cached", s.n_cached}};
    if (s.id_task >= 0) {  // as llama-server: the task fields once a request has taken the slot
      slot["id_task"] = s.id_task;
      slot["params"] = params;
    }
    out.push_back(std::move(slot));
  }
  // llama-server's ?fail_on_no_slot=1: a 503 while every slot is busy (load balancers probe it).
  if (query_value(target, "fail_on_no_slot") == "1" && !idle) {
    throw ApiError(503, openai_chat_dialect().errors().unavailable, "no slot available");
  }
  return out;
}

json slot_action(const State& st, const std::string& id_slot, const std::string& target, const std::string& body) {
  if (st.opt.slot_save_path.empty()) {
    throw ApiError(501, "not_supported_error",
                   "this server does not save or restore slots; start it with --slot-save-path DIR");
  }
  int32_t id = -1;
  const auto [end, ec] = std::from_chars(id_slot.data(), id_slot.data() + id_slot.size(), id);
  if (ec != std::errc{} || end != id_slot.data() + id_slot.size()) {
    throw bad_param("the slot in /slots/{id_slot} must be an integer (GET /slots lists them)", "id_slot");
  }
  const std::string action = query_value(target, "action");
  SlotAction a;
  if (action == "save") {
    a.kind = SlotAction::Kind::save;
  } else if (action == "restore") {
    a.kind = SlotAction::Kind::restore;
  } else if (action == "erase") {
    a.kind = SlotAction::Kind::erase;
  } else {
    throw bad_param("action must be save, restore or erase (?action=...)", "action");
  }
  a.slot = id;
  std::string filename;
  if (a.kind != SlotAction::Kind::erase) {
    const json b = parse_body_json(body);
    if (!b.is_object() || !b.contains("filename") || !b["filename"].is_string()) {
      throw bad_param("filename: a string field required (a file name under --slot-save-path)", "filename");
    }
    filename = b["filename"].get<std::string>();
    if (!engine::valid_file_name(filename)) {
      throw bad_param("filename must be a plain file name: no directories, \"..\" or control characters", "filename");
    }
    a.path = (std::filesystem::path(st.opt.slot_save_path) / filename).string();
    std::error_code ec;
    if (a.kind == SlotAction::Kind::restore && !std::filesystem::is_regular_file(a.path, ec)) {
      throw bad_param("no file " + filename + " in --slot-save-path", "filename");
    }
  }
  const ServedModel& m = model_of(st, {{"model", query_value(target, "model")}});
  const SlotActionResult r = m.scheduler->slot_action(a).get();
  if (!r.error.empty()) {
    if (r.bad_request) throw bad_param(r.error, "id_slot");
    throw ApiError(500, openai_chat_dialect().errors().server, r.error);
  }
  switch (a.kind) {
    case SlotAction::Kind::save:
      return {{"id_slot", id},
              {"filename", filename},
              {"n_saved", r.n_tokens},
              {"n_written", r.n_bytes},
              {"timings", {{"save_ms", r.ms}}}};
    case SlotAction::Kind::restore:
      return {{"id_slot", id},
              {"filename", filename},
              {"n_restored", r.n_tokens},
              {"n_read", r.n_bytes},
              {"timings", {{"restore_ms", r.ms}}}};
    case SlotAction::Kind::erase:
      break;
  }
  return {{"id_slot", id}, {"n_erased", r.n_tokens}};
}

namespace {

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// 413 in OpenAI's shape when `bytes` of text are over the prompt limit.
void check_text_bytes(const State& st, size_t bytes, const char* what) {
  if (st.opt.max_prompt_bytes == 0 || bytes <= st.opt.max_prompt_bytes) return;
  if (st.metrics) st.metrics->admission_rejected("prompt_bytes");
  throw ApiError(413, openai_chat_dialect().errors().too_large,
                 std::string(what) + " is over " + std::to_string(st.opt.max_prompt_bytes) +
                     " bytes; this server accepts at most that (--max-prompt-bytes)");
}

}  // namespace

std::string tokenize(const State& st, const json& body) {
  if (!body.is_object()) throw bad_param("the request body must be a JSON object");
  refuse_unknown_fields(body, {"content", "add_special", "parse_special", "with_pieces", "model"});
  const engine::Model& model = *model_of(st, body).model;
  if (!body.contains("content") || !body["content"].is_string()) {
    throw bad_param("content must be a string", "content");
  }
  const auto& content = body["content"].get_ref<const std::string&>();
  check_text_bytes(st, content.size(), "the content");
  const bool with_pieces = flag_of(body, "with_pieces", false);
  const auto tokens =
      model.tokenize(content, flag_of(body, "add_special", false), flag_of(body, "parse_special", true));
  std::string out = R"({"tokens":[)";
  std::string piece;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0) out += ',';
    if (!with_pieces) {
      out += std::to_string(tokens[i]);
      continue;
    }
    piece.clear();
    model.append_piece(tokens[i], piece);
    out += R"({"id":)" + std::to_string(tokens[i]) + R"(,"piece":)" + dump(piece_json(piece)) + '}';
  }
  out += "]}";
  return out;
}

std::string detokenize(const State& st, const json& body) {
  if (!body.is_object() || !body.contains("tokens") || !body["tokens"].is_array()) {
    throw bad_param("tokens must be an array of token ids", "tokens");
  }
  refuse_unknown_fields(body, {"tokens", "model"});
  const engine::Model& model = *model_of(st, body).model;
  std::string text;
  const json& tokens = body["tokens"];
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string name = "tokens[" + std::to_string(i) + "]";
    const json one = {{name, tokens[i]}};
    const auto id = integer_in(one, name.c_str(), 0, model.n_vocab() - 1, -1);
    if (id < 0) throw bad_param(name + " must be a token id", name);
    model.append_piece(static_cast<engine::Token>(id), text);
    check_text_bytes(st, text.size(), "the text of these tokens");
  }
  return dump({{"content", text}});
}

std::string apply_template(const State& st, const json& body) {
  const ServedModel& m = model_of(st, body);
  const GenerationRequest req = parse_request(Api::openai_chat, body, st.opt, m.spec);
  check_prompt_bytes(st, Api::openai_chat, req);  // as a chat request with this body is
  // The prompt a chat request with this body gets: template options, tools and prefill included.
  return dump({{"prompt", render_request(*m.model, req).text}});
}

json count_input_tokens(const State& st, Api api, const json& body) {
  const ServedModel& m = pick_model(st, requested_model(body), api);
  const GenerationRequest req =
      api == Api::anthropic ? parse_count_tokens(body, st.opt, m.spec) : parse_request(api, body, st.opt, m.spec);
  check_prompt_bytes(st, api, req);  // before tokenising: its cost grows with the text
  json out = {{"input_tokens", tokenize_request(*m.model, req).size()}};
  if (api != Api::anthropic) out["object"] = "response.input_tokens";
  return out;
}

const std::vector<std::pair<const char*, JsonRoute>>& llama_post_routes() {
  static const std::vector<std::pair<const char*, JsonRoute>> kRoutes = {
      {"/tokenize", tokenize}, {"/detokenize", detokenize}, {"/apply-template", apply_template}};
  return kRoutes;
}

}  // namespace sfcl::server
