#include "server/app/client_work.h"

namespace sfcl::server {

namespace {

// "1.2.3.4:5678" -> "1.2.3.4"; "[::1]:5678" or "::1:5678" (as the transport writes it) -> the part
// before the last colon.
std::string address_of(const std::string& remote) {
  const size_t colon = remote.rfind(':');
  return colon == std::string::npos ? remote : remote.substr(0, colon);
}

}  // namespace

ClientWork::Lease::~Lease() {
  if (owner_ != nullptr) owner_->end(client_);
}

std::optional<ClientWork::Lease> ClientWork::begin(const std::string& remote, int32_t limit) {
  if (limit <= 0) return std::optional<Lease>(std::in_place);
  std::string client = address_of(remote);
  {
    const std::lock_guard<std::mutex> lk(mu_);
    int32_t& n = working_[client];
    if (n >= limit) {
      if (n == 0) working_.erase(client);
      return std::nullopt;
    }
    ++n;
  }
  return std::optional<Lease>(std::in_place, this, std::move(client));
}

void ClientWork::end(const std::string& client) {
  const std::lock_guard<std::mutex> lk(mu_);
  const auto it = working_.find(client);
  if (it != working_.end() && --it->second <= 0) working_.erase(it);
}

}  // namespace sfcl::server
