#include "gateway/tokenizer_source.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace sfcl::gateway {

TokenizerSource choose_tokenizer(const std::string& given, const BackendInfo& backend, const std::string& backend_url) {
  if (!given.empty()) return {given, "--tokenizer"};
  if (backend.model_path.empty()) {
    throw std::runtime_error("backend " + backend_url +
                             " does not report the model file it serves (no /props model_path): give --tokenizer "
                             "with the GGUF of the model the backends serve");
  }
  const std::filesystem::path reported(backend.model_path);
  std::error_code ec;
  const bool regular = std::filesystem::is_regular_file(reported, ec);
  if (!regular || !std::ifstream(reported, std::ios::binary)) {
    throw std::runtime_error("backend " + backend_url + " serves " + backend.model_path +
                             ", which is not readable on this host: give --tokenizer with a copy of that GGUF "
                             "(only its vocabulary is loaded)");
  }
  // A relative path is the backend's, relative to its working directory; read from here it may be
  // another file, which the probe-text check at startup then refuses.
  const std::string absolute = std::filesystem::absolute(reported, ec).lexically_normal().string();
  return {absolute.empty() ? backend.model_path : absolute, "the model file backend " + backend_url + " reports"};
}

}  // namespace sfcl::gateway
