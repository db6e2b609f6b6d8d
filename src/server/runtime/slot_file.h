// The token list a slot file stores beside its KV cells, in llama-server's packed form, so files
// move between sfcl and llama-server serving the same model: LLAMA_TOKEN_NULL, the format's version
// (1), the token count, the tokens, then the media chunks' count (0: sfcl serves text). A plain
// token list (what older llama-server versions wrote) is read as well.
#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace sfcl::server {

// Words the packed form adds to the tokens.
inline constexpr size_t kSlotTokensOverhead = 4;

std::vector<engine::Token> pack_slot_tokens(std::span<const engine::Token> tokens);
// False, with `why`, when `packed` is of another version, holds media, is cut short or has a token
// outside the vocabulary.
bool unpack_slot_tokens(std::span<const engine::Token> packed, int32_t n_vocab, std::vector<engine::Token>& tokens,
                        std::string& why);

}  // namespace sfcl::server
