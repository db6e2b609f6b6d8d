#include "cli/engine_flags.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

namespace sfcl::cli {

namespace {
const std::vector<std::string> kCacheTypes = {"f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"};
}  // namespace

CLI::Option* add_model_flags(CLI::App& cmd, engine::ModelOptions& model) {
  // llama-server's "auto" fits the layers to device memory; sfcl has no fitting, so it offloads
  // all of them, as "all" and sfcl's default -1 do.
  auto* ngl =
      cmd.add_option_function<std::string>(
             "--n-gpu-layers,--gpu-layers",
             [&model](const std::string& v) { model.n_gpu_layers = v == "auto" || v == "all" ? -1 : std::stoi(v); },
             "(-ngl) Layers to offload to the GPU: N, all or auto (= all; -1 = all). Without a GPU "
             "backend the model runs on the CPU (sfcl serve says so)")
          ->default_str("all")
          ->check(CLI::IsMember({"auto", "all"}) | CLI::Range(-1, 100000));
  cmd.add_option("--main-gpu", model.main_gpu, "(-mg) GPU used for the whole model with --split-mode none")
      ->capture_default_str()
      ->check(CLI::Range(0, 255));
  cmd.add_option("--split-mode", model.split_mode, "(-sm) How to split the model over GPUs: none, layer, row")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "layer", "row"}));
  cmd.add_option("--tensor-split", model.tensor_split, "(-ts) Share of the model per GPU, comma-separated (e.g. 3,1)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::Range(0.0, 1e6));
  cmd.add_flag("--mmap,!--no-mmap", model.use_mmap, "Map the model file (default); --no-mmap: read it into memory");
  cmd.add_flag("--mlock", model.use_mlock, "Keep the model in RAM (no swapping)");
  return ngl;
}

namespace {
std::vector<std::string> split_commas(const std::string& v) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= v.size()) {
    const size_t comma = std::min(v.find(',', at), v.size());
    if (comma > at) out.push_back(v.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

float lora_scale(const std::string& text, const std::string& item) {
  try {
    size_t used = 0;
    const float scale = std::stof(text, &used);
    if (used == text.size() && std::isfinite(scale)) return scale;
  } catch (const std::exception&) {  // std::stof's invalid_argument / out_of_range
  }
  throw CLI::ValidationError("--lora-scaled", "'" + item + "': the scale must be a number (FILE:SCALE)");
}

// FILE:SCALE items (comma-separated, llama-server's form), or a FILE followed by its SCALE.
void add_scaled(const std::vector<std::string>& values, std::vector<engine::LoraSpec>& out) {
  for (size_t i = 0; i < values.size(); ++i) {
    const size_t colon = values[i].rfind(':');
    if (colon == std::string::npos) {
      if (i + 1 == values.size()) {
        throw CLI::ValidationError("--lora-scaled", "'" + values[i] + "' has no scale (FILE:SCALE)");
      }
      out.push_back({values[i], lora_scale(values[i + 1], values[i] + " " + values[i + 1])});
      ++i;
      continue;
    }
    for (const std::string& item : split_commas(values[i])) {
      const size_t c = item.rfind(':');
      if (c == std::string::npos || c == 0) {
        throw CLI::ValidationError("--lora-scaled", "'" + item + "' is not FILE:SCALE");
      }
      out.push_back({item.substr(0, c), lora_scale(item.substr(c + 1), item)});
    }
  }
}
}  // namespace

void add_lora_flags(CLI::App& cmd, engine::ModelOptions& model) {
  cmd.add_option_function<std::vector<std::string>>(
         "--lora",
         [&model](const std::vector<std::string>& v) {
           for (const std::string& arg : v) {
             for (const std::string& file : split_commas(arg)) model.lora.push_back({file, 1.0F});
           }
         },
         "LoRA adapter GGUF for the (first) model at scale 1; comma-separated or repeated for several. "
         "Requests pick adapters and scales with \"lora\"; GET/POST /lora-adapters list and set them")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false)
      ->type_name("FILE");
  cmd.add_option_function<std::vector<std::string>>(
         "--lora-scaled", [&model](const std::vector<std::string>& v) { add_scaled(v, model.lora); },
         "LoRA adapter with its scale: FILE:SCALE (comma-separated or repeated), or FILE SCALE")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1, 2)
      ->type_name("FILE:SCALE");
  cmd.add_flag("--lora-init-without-apply", model.lora_without_apply,
               "Load the LoRA adapters at scale 0 (POST /lora-adapters or a request's \"lora\" applies them)");
}

void note_cpu_only(const CLI::Option& ngl, const engine::ModelOptions& model) {
  if (ngl.count() == 0 || model.n_gpu_layers == 0) return;
  engine::load_backends();
  // ggml names its host devices CPU and BLAS; any other device (CUDA0, Vulkan0, Metal, ...) may
  // take layers.
  std::string devices;
  for (const auto& d : engine::backend_device_names()) {
    if (d != "CPU" && d != "BLAS") return;
    devices += (devices.empty() ? "" : ", ") + d;
  }
  std::fprintf(stderr, "sfcl: -ngl %s: no GPU backend (devices: %s); the model runs on the CPU\n",
               ngl.results().back().c_str(), devices.c_str());
}

void add_context_flags(CLI::App& cmd, engine::ContextOptions& context) {
  auto fa = std::make_shared<std::string>("auto");
  cmd.add_option_function<std::string>(
         "--flash-attn",
         [&context, fa](const std::string& v) {
           *fa = v;
           context.flash_attn = v != "off";
           context.flash_attn_on = v == "on";
         },
         "(-fa) Flash attention: on, off or auto (llama.cpp decides per backend)")
      ->check(CLI::IsMember({"on", "off", "auto"}))
      ->default_str("auto");
  cmd.add_option("--cache-type-k", context.cache_type_k, "(-ctk) KV cache type for K (f16, q8_0, q4_0, ...)")
      ->capture_default_str()
      ->check(CLI::IsMember(kCacheTypes));
  cmd.add_option("--cache-type-v", context.cache_type_v,
                 "(-ctv) KV cache type for V (quantised V needs flash attention)")
      ->capture_default_str()
      ->check(CLI::IsMember(kCacheTypes));
  cmd.add_option("--ubatch-size", context.n_ubatch, "(-ub) Physical batch size (0 = the logical batch size)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 16));
  cmd.add_option("--threads-batch", context.n_threads_batch, "(-tb) Threads for prompt batches (0 = --threads)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1024));
}

}  // namespace sfcl::cli
