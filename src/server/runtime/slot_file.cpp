#include "server/runtime/slot_file.h"

namespace sfcl::server {

namespace {
// llama.cpp's LLAMA_TOKEN_NULL, and the version of llama-server's packed form
// (tools/server/server-common.cpp, SERVER_TOKENS_STATE_VERSION).
constexpr engine::Token kNull = -1;
constexpr engine::Token kVersion = 1;
}  // namespace

std::vector<engine::Token> pack_slot_tokens(std::span<const engine::Token> tokens) {
  std::vector<engine::Token> out;
  out.reserve(tokens.size() + kSlotTokensOverhead);
  out.push_back(kNull);
  out.push_back(kVersion);
  out.push_back(static_cast<engine::Token>(tokens.size()));
  out.insert(out.end(), tokens.begin(), tokens.end());
  out.push_back(0);  // no media chunks
  return out;
}

bool unpack_slot_tokens(std::span<const engine::Token> packed, int32_t n_vocab, std::vector<engine::Token>& tokens,
                        std::string& why) {
  tokens.clear();
  std::span<const engine::Token> body = packed;
  if (!packed.empty() && packed[0] == kNull) {
    if (packed.size() < 3 || packed[1] != kVersion) {
      why = "its token list is of another version than llama-server's packed form 1";
      return false;
    }
    const auto n = static_cast<uint32_t>(packed[2]);
    if (packed.size() < size_t{n} + kSlotTokensOverhead) {
      why = "its token list is cut short";
      return false;
    }
    if (packed[3 + n] != 0) {
      why = "it holds images or audio, which sfcl does not serve";
      return false;
    }
    if (packed.size() != size_t{n} + kSlotTokensOverhead) {
      why = "its token list has data after its end";
      return false;
    }
    body = packed.subspan(3, n);
  }
  for (const engine::Token t : body) {
    if (t < 0 || t >= n_vocab) {
      why = "token " + std::to_string(t) + " is not in this model's vocabulary";
      return false;
    }
  }
  tokens.assign(body.begin(), body.end());
  return true;
}

}  // namespace sfcl::server
