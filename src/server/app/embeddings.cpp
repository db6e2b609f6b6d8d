#include "server/app/embeddings.h"

#include <sodium.h>

#include <chrono>

#include "server/api/params.h"
#include "server/app/state.h"
#include "server/http/http_util.h"

namespace sfcl::server {

using nlohmann::json;

namespace {

constexpr size_t kMaxInputs = 2048;  // OpenAI's limit of inputs per request

ApiError bad(const std::string& message, const std::string& param, const std::string& code = {}) {
  return {400, "invalid_request_error", message, param, code};
}

// Token ids, with pieces of text among them as llama-server takes them (tokenised in place,
// without special tokens).
std::vector<engine::Token> token_ids(const json& a, const engine::Model& m, const std::string& where) {
  std::vector<engine::Token> ids;
  for (const auto& v : a) {
    if (v.is_string()) {
      check_text(v.get_ref<const std::string&>(), where);
      const auto piece = m.tokenize(v.get_ref<const std::string&>(), false, true);
      ids.insert(ids.end(), piece.begin(), piece.end());
      continue;
    }
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= m.n_vocab()) {
      throw bad(where + ": token ids are integers in 0.." + std::to_string(m.n_vocab() - 1), where);
    }
    ids.push_back(static_cast<engine::Token>(v.get<int64_t>()));
  }
  return ids;
}

// OpenAI's input (and llama-server's content): a string, strings, token ids, or arrays of them.
std::vector<std::vector<engine::Token>> inputs_of(const State& st, const json& v, const engine::Model& m,
                                                  const std::string& name) {
  size_t bytes = 0;
  const auto text = [&](const json& s, const std::string& where) {
    const std::string& t = s.get_ref<const std::string&>();
    check_text(t, where);
    if (t.empty()) throw bad(where + " is empty", where);  // a BOS alone embeds nothing of the input
    bytes += t.size();
    if (st.opt.max_prompt_bytes != 0 && bytes > st.opt.max_prompt_bytes) {
      throw ApiError(
          413, "invalid_request_error",
          "the input text is over " + std::to_string(st.opt.max_prompt_bytes) + " bytes (--max-prompt-bytes)");
    }
    return m.tokenize(t, true, true);
  };
  std::vector<std::vector<engine::Token>> out;
  if (v.is_string()) {
    out.push_back(text(v, name));
  } else if (v.is_array() && !v.empty() && v[0].is_number()) {
    out.push_back(token_ids(v, m, name));
  } else if (v.is_array() && !v.empty()) {
    if (v.size() > kMaxInputs) {
      throw bad(name + " has " + std::to_string(v.size()) + " inputs; at most " + std::to_string(kMaxInputs), name);
    }
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string where = name + "[" + std::to_string(i) + "]";
      if (v[i].is_string()) {
        out.push_back(text(v[i], where));
      } else if (v[i].is_array()) {
        out.push_back(token_ids(v[i], m, where));
      } else {
        throw bad(where + " must be a string or an array of token ids", where);
      }
    }
  } else {
    throw bad(name + " must be a string, an array of strings, or token ids", name);
  }
  return out;
}

std::string base64_of(const std::vector<float>& v) {
  const size_t n = v.size() * sizeof(float);
  std::string out(sodium_base64_encoded_len(n, sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(v.data()), n,
                    sodium_base64_VARIANT_ORIGINAL);
  out.pop_back();  // the terminating NUL sodium writes
  return out;
}

// Holds the embedder for one request; more than --queue requests waiting get 429.
class Turn {
 public:
  Turn(EmbeddingService& e, int32_t limit) : e_(e) {
    if (e_.waiting.fetch_add(1) > limit) {
      e_.waiting.fetch_sub(1);
      throw ApiError(429, "rate_limit_error",
                     "embeddings queue is full (" + std::to_string(limit) + " waiting); retry later");
    }
    lock_ = std::unique_lock(e_.mu);
  }
  ~Turn() {
    lock_.unlock();
    e_.waiting.fetch_sub(1);
  }
  Turn(const Turn&) = delete;
  Turn& operator=(const Turn&) = delete;

 private:
  EmbeddingService& e_;
  std::unique_lock<std::mutex> lock_;
};

}  // namespace

void load_embeddings(State& st) {
  if (!st.opt.embeddings && st.opt.embedding_model.empty()) return;
  auto e = std::make_unique<EmbeddingService>();
  if (!st.opt.embedding_model.empty()) {
    engine::ModelOptions mo = st.opt.model_options;
    mo.path = st.opt.embedding_model;
    mo.on_progress = nullptr;
    e->own = engine::Model::load(mo);
    e->model = e->own.get();
    e->model_id = std::filesystem::path(st.opt.embedding_model).stem().string();
  } else {
    e->model = st.models.front()->model.get();
    e->model_id = st.models.front()->spec.id;
  }
  engine::EmbedderOptions eo;
  eo.n_ctx = st.opt.scheduler.n_ctx_per_slot;
  if (const int32_t trained = e->model->n_ctx_train(); trained > 0) {
    eo.n_ctx = std::min(eo.n_ctx, static_cast<uint32_t>(trained));
  }
  eo.n_threads = st.opt.scheduler.n_threads;
  eo.pooling = st.opt.pooling;
  e->embedder = std::make_unique<engine::Embedder>(*e->model, eo);
  std::fprintf(stderr, "sfcl: embeddings: %s, %d dimensions, pooling %s, inputs up to %u tokens\n", e->model_id.c_str(),
               e->embedder->n_embd(), e->embedder->pooling_name(), e->embedder->n_ctx());
  st.embeddings = std::move(e);
}

void handle_embeddings(State& st, const http::Request& http, http::Response& res, bool openai) {
  if (!st.ready) throw ApiError(503, "server_error", "model is loading");
  if (!st.embeddings) {
    throw ApiError(501, "not_supported_error",
                   "this server serves no embeddings: start sfcl serve with --embeddings (the served model's "
                   "weights) or --embedding-model FILE");
  }
  EmbeddingService& e = *st.embeddings;
  engine::Embedder& embedder = *e.embedder;
  const json body = parse_body_json(http.body);
  if (!body.is_object()) throw bad("the request body must be a JSON object", "");
  refuse_unknown_fields(body, openai ? std::vector<std::string_view>{"input", "model", "encoding_format", "dimensions",
                                                                     "user", "embd_normalize"}
                                     : std::vector<std::string_view>{"content", "input", "model", "embd_normalize"});
  if (openai && !embedder.pooled()) {
    throw bad(
        "pooling none gives one vector per token, which /v1/embeddings cannot carry: use /embedding, or "
        "--pooling mean, cls or last",
        "");
  }
  const char* key = body.contains("input") ? "input" : "content";
  if (!body.contains(key)) throw bad(std::string(openai ? "input" : "content") + ": field required", key);
  const auto normalize = static_cast<int>(integer_in(body, "embd_normalize", -1, 1000, st.opt.embd_normalize));
  bool base64 = false;
  if (body.contains("encoding_format") && !body["encoding_format"].is_null()) {
    const json& f = body["encoding_format"];
    if (f != "float" && f != "base64") throw bad("encoding_format must be \"float\" or \"base64\"", "encoding_format");
    base64 = f == "base64";
  }
  if (body.contains("dimensions") && !body["dimensions"].is_null() && body["dimensions"] != embedder.n_embd()) {
    throw bad("dimensions: this model's embeddings have " + std::to_string(embedder.n_embd()) +
                  " dimensions and are not shortened",
              "dimensions");
  }
  const auto inputs = inputs_of(st, body[key], *e.model, key);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string where = inputs.size() > 1 ? std::string(key) + "[" + std::to_string(i) + "]" : key;
    if (inputs[i].empty()) throw bad(where + " is empty", where);
    if (inputs[i].size() > embedder.n_ctx()) {
      throw bad(where + " is " + std::to_string(inputs[i].size()) + " tokens, too large: embeddings take at most " +
                    std::to_string(embedder.n_ctx()) + " (--ctx per slot, and the model's training context)",
                where, "context_length_exceeded");
    }
  }
  json data = json::array();
  int64_t tokens = 0;
  {
    const Turn turn(e, st.opt.scheduler.queue_limit);
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (http.client_gone()) {
        res.status = 499;
        return;
      }
      std::vector<std::vector<float>> v = embedder.embed(inputs[i], normalize);
      tokens += static_cast<int64_t>(inputs[i].size());
      if (!openai) {
        data.push_back({{"index", i}, {"embedding", std::move(v)}});
      } else if (base64) {
        data.push_back({{"object", "embedding"}, {"index", i}, {"embedding", base64_of(v[0])}});
      } else {
        data.push_back({{"object", "embedding"}, {"index", i}, {"embedding", std::move(v[0])}});
      }
    }
    if (st.metrics)
      st.metrics->embedded(tokens, static_cast<int64_t>(inputs.size()),
                           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  if (!openai) {
    set_json(res, 200, data);
    return;
  }
  set_json(res, 200,
           {{"object", "list"},
            {"data", std::move(data)},
            {"model", e.model_id},
            {"usage", {{"prompt_tokens", tokens}, {"total_tokens", tokens}}}});
}

}  // namespace sfcl::server
