#include <array>
#include <cctype>
#include <cstdio>
#include <fstream>

#include "engine/chat_internal.h"
#include "engine/engine.h"
#include "llama-cpp.h"

namespace sfcl::engine {

std::unique_ptr<Model> Model::load(const ModelOptions& options) {
  load_backends();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(options.path, ec)) {
    throw EngineError("model file not found: " + options.path.string());
  }
  {
    std::ifstream in(options.path, std::ios::binary);
    std::array<char, 4> magic{};
    if (!in.read(magic.data(), magic.size()) || std::string_view(magic.data(), 4) != "GGUF") {
      throw EngineError("not a GGUF file: " + options.path.string());
    }
  }
  llama_model_params params = llama_model_default_params();
  params.n_gpu_layers = options.n_gpu_layers;
  params.main_gpu = options.main_gpu;
  params.split_mode = static_cast<llama_split_mode>(split_mode_from_name(options.split_mode));
  // llama.cpp reads llama_max_devices() entries; the rest stay 0.
  std::vector<float> split(llama_max_devices(), 0.0F);
  if (options.tensor_split.size() > split.size()) {
    throw EngineError("--tensor-split has " + std::to_string(options.tensor_split.size()) +
                      " shares, this build supports " + std::to_string(split.size()) + " devices");
  }
  std::copy(options.tensor_split.begin(), options.tensor_split.end(), split.begin());
  if (!options.tensor_split.empty()) params.tensor_split = split.data();
  params.load_mode = options.use_mmap ? (options.use_mlock ? LLAMA_LOAD_MODE_MMAP_MLOCK : LLAMA_LOAD_MODE_MMAP)
                                      : (options.use_mlock ? LLAMA_LOAD_MODE_MLOCK : LLAMA_LOAD_MODE_NONE);
  params.vocab_only = options.vocab_only;
  if (options.on_progress) {
    params.progress_callback = [](float progress, void* user) {
      (*static_cast<const std::function<void(float)>*>(user))(progress);
      return true;
    };
    params.progress_callback_user_data = const_cast<std::function<void(float)>*>(&options.on_progress);
  }
  llama_model_ptr model(llama_model_load_from_file(options.path.c_str(), params));
  if (model == nullptr) {
    throw EngineError("llama.cpp could not load the model: " + options.path.string());
  }
  std::unique_ptr<Model> out(new Model(model.get()));
  static_cast<void>(model.release());  // owned by `out` from here on
  if (!options.vocab_only) out->load_lora(options);
  out->chat_ = detail::make_chat_templates(out->model_, options.chat_template, options.jinja,
                                           options.reuse_template_analysis, options.template_render_cache);
  return out;
}

Model::Model(llama_model* model) : model_(model), vocab_(llama_model_get_vocab(model)) {}
Model::~Model() { llama_model_free(model_); }

// Model::tokenize: engine/tokenize.cpp.

void Model::append_piece(Token token, std::string& out) const {
  char buf[128];
  int32_t n = llama_token_to_piece(vocab_, token, buf, sizeof buf, 0, false);
  if (n >= 0) {
    out.append(buf, static_cast<size_t>(n));
    return;
  }
  std::string big(static_cast<size_t>(-n), '\0');
  n = llama_token_to_piece(vocab_, token, big.data(), static_cast<int32_t>(big.size()), 0, false);
  if (n > 0) out.append(big.data(), static_cast<size_t>(n));
}

std::string Model::piece(Token token) const {
  std::string s;
  append_piece(token, s);
  return s;
}

namespace {
// Every token but control and end-of-generation ones whose piece satisfies `keep`.
template <typename Keep>
std::vector<Token> tokens_where(const Model& m, const llama_vocab* vocab, Keep keep) {
  std::vector<Token> out;
  std::string p;
  for (Token t = 0; t < m.n_vocab(); ++t) {
    if (llama_vocab_is_control(vocab, t) || m.is_eog(t)) continue;
    p.clear();
    m.append_piece(t, p);
    if (!p.empty() && keep(p)) out.push_back(t);
  }
  return out;
}
}  // namespace

const std::vector<Token>& Model::word_start_tokens() const {
  std::call_once(word_start_once_, [this] {
    word_start_ = tokens_where(*this, vocab_, [](const std::string& p) {
      const auto c = static_cast<unsigned char>(p[0]);
      // ASCII letters/digits; UTF-8 lead bytes 0xE4-0xE9 start U+4000-U+9FFF (CJK ideographs),
      // 0xE3 (CJK punctuation such as U+3002) is left alone.
      return std::isalnum(c) != 0 || (c >= 0xE4 && c <= 0xE9);
    });
  });
  return word_start_;
}

const std::vector<Token>& Model::spaced_capital_tokens() const {
  std::call_once(spaced_capital_once_, [this] {
    spaced_capital_ = tokens_where(
        *this, vocab_, [](const std::string& p) { return p.size() >= 2 && p[0] == ' ' && p[1] >= 'A' && p[1] <= 'Z'; });
  });
  return spaced_capital_;
}

bool Model::is_eog(Token token) const { return llama_vocab_is_eog(vocab_, token); }
Token Model::bos() const { return llama_vocab_bos(vocab_); }
Token Model::eos() const { return llama_vocab_eos(vocab_); }
bool Model::adds_bos() const { return llama_vocab_get_add_bos(vocab_); }
Model::FimTokens Model::fim_tokens() const {
  return {llama_vocab_fim_pre(vocab_), llama_vocab_fim_suf(vocab_), llama_vocab_fim_mid(vocab_),
          llama_vocab_fim_rep(vocab_), llama_vocab_fim_sep(vocab_)};
}
int32_t Model::n_vocab() const { return llama_vocab_n_tokens(vocab_); }
int32_t Model::n_ctx_train() const { return llama_model_n_ctx_train(model_); }

std::string Model::description() const {
  char buf[256];
  llama_model_desc(model_, buf, sizeof buf);
  return buf;
}

std::string Model::chat_template() const {
  const char* t = llama_model_chat_template(model_, nullptr);
  return t != nullptr ? t : "";
}

namespace {
std::string plain_template(const std::vector<ChatMessage>& messages, bool add_assistant) {
  std::string out;
  for (const auto& m : messages) {
    out += m.role;
    out += ": ";
    out += m.content;
    out += "\n";
  }
  if (add_assistant) out += "assistant:";
  return out;
}
}  // namespace

std::string Model::apply_chat_template(const std::vector<ChatMessage>& messages, bool add_assistant) const {
  const std::string tmpl = chat_template();
  if (tmpl.empty()) return plain_template(messages, add_assistant);
  std::vector<llama_chat_message> chat;
  chat.reserve(messages.size());
  size_t total = 0;
  for (const auto& m : messages) {
    chat.push_back({m.role.c_str(), m.content.c_str()});
    total += m.role.size() + m.content.size();
  }
  std::string buf(2 * total + 256, '\0');
  int32_t n = llama_chat_apply_template(tmpl.c_str(), chat.data(), chat.size(), add_assistant, buf.data(),
                                        static_cast<int32_t>(buf.size()));
  if (n < 0) return plain_template(messages, add_assistant);  // template unknown to llama.cpp
  if (static_cast<size_t>(n) > buf.size()) {
    buf.resize(static_cast<size_t>(n));
    n = llama_chat_apply_template(tmpl.c_str(), chat.data(), chat.size(), add_assistant, buf.data(),
                                  static_cast<int32_t>(buf.size()));
  }
  buf.resize(static_cast<size_t>(n));
  return buf;
}

}  // namespace sfcl::engine
