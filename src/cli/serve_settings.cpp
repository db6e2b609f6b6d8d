#include "cli/serve_settings.h"

#include <nlohmann/json.hpp>

namespace sfcl::cli {

std::string settings_json(const server::ServerOptions& o) {
  nlohmann::json models = nlohmann::json::array();
  for (const auto& m : o.models) models.push_back({{"path", m.path}, {"id", m.id}, {"aliases", m.aliases}});
  const auto& s = o.scheduler;
  return nlohmann::json{{"host", o.host},
                        {"port", o.port},
                        {"n_parallel", s.n_parallel},
                        {"n_ctx_per_slot", s.n_ctx_per_slot},
                        {"n_batch", s.n_batch},
                        {"n_threads", s.n_threads},
                        {"check_threads", s.check_threads},
                        {"kv_unified", s.kv_unified},
                        {"cache_ram_mib", s.cache_ram_mib},
                        {"n_gpu_layers", o.model_options.n_gpu_layers},
                        {"use_mmap", o.model_options.use_mmap},
                        {"ui", o.ui},
                        {"warmup", o.warmup},
                        {"verbose", o.verbose},
                        {"header_timeout_s", o.header_timeout_s},
                        {"body_timeout_s", o.body_timeout_s},
                        {"write_timeout_s", o.write_timeout_s},
                        {"n_predict", o.n_predict},
                        {"temperature", o.sampling.temperature},
                        {"seed", o.sampling.seed},
                        {"api_keys", o.api_keys.size()},
                        {"cors_origins", o.cors_origins},
                        {"embeddings", o.embeddings || !o.embedding_model.empty()},
                        {"chat_template_kwargs", o.chat_template_kwargs},
                        {"models", models}}
      .dump();
}

}  // namespace sfcl::cli
