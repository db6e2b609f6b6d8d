// The HTTP workers' own work per client address (--max-client-work): parsing a request,
// rendering and tokenising its prompt, indexing its sources run on the worker that took it, so one
// client sending many large requests at once could hold every worker while other clients wait.
#pragma once
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace sfcl::server {

class ClientWork {
 public:
  // One request's preparation; gives its place back when destroyed.
  class Lease {
   public:
    Lease() = default;
    Lease(ClientWork* owner, std::string client) : owner_(owner), client_(std::move(client)) {}
    ~Lease();
    Lease(Lease&& o) noexcept : owner_(std::exchange(o.owner_, nullptr)), client_(std::move(o.client_)) {}
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;

   private:
    ClientWork* owner_ = nullptr;
    std::string client_;
  };

  // A place for `remote` ("address:port", the address counts) when it has fewer than `limit`
  // requests in preparation; nullopt when it has that many. limit 0: always (a lease of nothing).
  std::optional<Lease> begin(const std::string& remote, int32_t limit);

 private:
  void end(const std::string& client);
  std::mutex mu_;
  std::unordered_map<std::string, int32_t> working_;  // only addresses with work in progress
};

}  // namespace sfcl::server
