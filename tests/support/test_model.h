// Project-made GGUF models for tests: written once per process into a temp dir.
#pragma once
#include <filesystem>
#include <string>

namespace sfcl::test {
// Path of a tiny random LLaMA model (byte vocabulary, ChatML control tokens).
const std::filesystem::path& tiny_model_path();
}  // namespace sfcl::test
