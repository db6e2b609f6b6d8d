#include "server/http/auth.h"

#include <sodium.h>

namespace sfcl::server {

bool key_matches(const std::string& given, const std::vector<std::string>& keys) {
  unsigned char g[32];
  crypto_generichash(g, sizeof g, reinterpret_cast<const unsigned char*>(given.data()), given.size(), nullptr, 0);
  bool ok = false;
  for (const auto& k : keys) {
    unsigned char h[32];
    crypto_generichash(h, sizeof h, reinterpret_cast<const unsigned char*>(k.data()), k.size(), nullptr, 0);
    ok |= sodium_memcmp(g, h, sizeof g) == 0;
  }
  return ok;
}

}  // namespace sfcl::server
