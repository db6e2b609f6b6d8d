// LoRA adapters through llama.cpp's adapter API: loaded with the model, applied per context with
// a scale each (what llama-server's --lora, /lora-adapters and per-request "lora" set), and a
// random adapter writer for tests.
#include <algorithm>
#include <cmath>
#include <random>

#include "engine/engine.h"
#include "engine/gguf_file.h"
#include "ggml.h"
#include "gguf.h"
#include "llama.h"

namespace sfcl::engine {

namespace {
std::string adapter_meta(const llama_adapter_lora* a, const char* key) {
  char buf[512];
  return llama_adapter_meta_val_str(a, key, buf, sizeof buf) >= 0 ? std::string(buf) : std::string();
}
}  // namespace

void Model::load_lora(const ModelOptions& options) {
  for (const LoraSpec& spec : options.lora) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(spec.path, ec)) {
      throw EngineError("LoRA adapter not found: " + spec.path.string());
    }
    if (!std::isfinite(spec.scale)) throw EngineError("LoRA adapter " + spec.path.string() + ": scale is not finite");
    llama_adapter_lora* a = llama_adapter_lora_init(model_, spec.path.c_str());
    if (a == nullptr) {
      throw EngineError("llama.cpp could not load the LoRA adapter " + spec.path.string() +
                        " (not a LoRA GGUF, or made for another base model; llama.cpp's reason is logged above)");
    }
    lora_.push_back(a);
    lora_info_.push_back({spec.path.string(), options.lora_without_apply ? 0.0F : spec.scale,
                          adapter_meta(a, "adapter.lora.task_name"), adapter_meta(a, "adapter.lora.prompt_prefix")});
  }
}

void Context::set_lora(std::span<const float> scales) {
  const auto& adapters = model_.lora_;
  if (scales.size() != adapters.size()) {
    throw EngineError("set_lora: " + std::to_string(scales.size()) + " scales for " + std::to_string(adapters.size()) +
                      " adapters");
  }
  if (std::equal(scales.begin(), scales.end(), lora_scales_.begin(), lora_scales_.end())) return;
  lora_scales_.assign(scales.begin(), scales.end());
  // llama.cpp takes non-const arrays and keeps only the adapters with a scale other than 0.
  llama_set_adapters_lora(ctx_, const_cast<llama_adapter_lora**>(adapters.data()), adapters.size(),
                          lora_scales_.data());
}

void write_random_lora(const std::filesystem::path& path, const std::filesystem::path& base, uint32_t rank,
                       uint64_t seed, float scale, const std::vector<std::string>& targets) {
  if (rank == 0) throw EngineError("write_random_lora: rank must be at least 1");
  ggml_context* meta = nullptr;
  gguf_context* in = gguf_init_from_file(base.c_str(), {true, &meta});
  if (in == nullptr) throw EngineError("not a GGUF file: " + base.string());
  const int64_t arch_key = gguf_find_key(in, "general.architecture");
  const std::string arch = arch_key >= 0 ? gguf_get_val_str(in, arch_key) : "";
  std::vector<NamedTensor> tensors;
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> dist(0.0F, scale);
  for (int64_t i = 0; i < gguf_get_n_tensors(in); ++i) {
    const std::string name = gguf_get_tensor_name(in, i);
    const ggml_tensor* t = ggml_get_tensor(meta, name.c_str());
    const bool targeted = std::any_of(targets.begin(), targets.end(),
                                      [&](const std::string& x) { return name.find(x) != std::string::npos; });
    if (t == nullptr || !targeted || ggml_n_dims(t) != 2 || !name.ends_with(".weight")) continue;
    // A: n_in x rank, B: rank x n_out (ggml order), so B(A(x)) has the weight's output shape.
    NamedTensor a{name + ".lora_a", {t->ne[0], rank}, {}};
    NamedTensor b{name + ".lora_b", {rank, t->ne[1]}, {}};
    for (NamedTensor* x : {&a, &b}) {
      x->data.resize(static_cast<size_t>(x->ne[0] * x->ne[1]));
      for (float& v : x->data) v = dist(rng);
    }
    tensors.push_back(std::move(a));
    tensors.push_back(std::move(b));
  }
  gguf_free(in);
  ggml_free(meta);
  if (arch.empty()) throw EngineError("write_random_lora: " + base.string() + " names no architecture");
  if (tensors.empty())
    throw EngineError("write_random_lora: no 2-D weight of " + base.string() + " matches the targets");
  GgufPtr g(gguf_init_empty());
  gguf_set_val_str(g.get(), "general.architecture", arch.c_str());
  gguf_set_val_str(g.get(), "general.type", "adapter");
  gguf_set_val_str(g.get(), "general.name", "sfcl-random-lora");
  gguf_set_val_str(g.get(), "adapter.type", "lora");
  // alpha = rank: llama.cpp scales B·A by alpha / rank, so the request's scale is the only factor.
  gguf_set_val_f32(g.get(), "adapter.lora.alpha", static_cast<float>(rank));
  gguf_set_val_str(g.get(), "adapter.lora.task_name", "random");
  write_gguf_file(path, g.get(), tensors);
}

}  // namespace sfcl::engine
