// Project-made GGUF models for tests: written once per process into a temp dir.
#pragma once
#include <filesystem>
#include <string>

namespace sfcl::engine {
class Model;
}

namespace sfcl::test {
// Path of a tiny random LLaMA model (byte vocabulary, ChatML control tokens).
const std::filesystem::path& tiny_model_path();
// Path of a small random model on one of llama.cpp's real vocabularies ("qwen2": byte-level BPE,
// 151,936 tokens; "llama-bpe": Llama 3, 128,256; "llama-spm": SentencePiece, 32,000), written
// once per process from the pinned bundle's models/ggml-vocab-NAME.gguf. Empty when the bundle
// has no such file (a system llama.cpp without its source tree).
std::filesystem::path vocab_model_path(const std::string& name);
// The model for a parameterised test: "byte" is the tiny model, any other name a vocabulary model
// as above. Loaded once per process and kept; null when the bundle has no such vocabulary.
const engine::Model* loaded_model(const std::string& name);
}  // namespace sfcl::test
