// Which GGUF's vocabulary the gateway loads: --tokenizer when given, else the model file a backend
// reports it serves (llama-server's /props model_path), when that file is readable here. There is
// no fallback: a wrong vocabulary would detokenise the backends' tokens into the wrong text.
#pragma once
#include <string>

#include "gateway/backend_client.h"

namespace sfcl::gateway {

struct TokenizerSource {
  std::string path;    // the GGUF to load (weights are not loaded)
  std::string origin;  // for the log: where the path came from
};

// Throws std::runtime_error that names --tokenizer when no readable GGUF is known.
TokenizerSource choose_tokenizer(const std::string& given, const BackendInfo& backend, const std::string& backend_url);

}  // namespace sfcl::gateway
