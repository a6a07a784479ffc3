#pragma once
// Which server each request goes to when a run loads several (--base-url repeated): a pure
// function of the request's index in the point's one global order (warm-up first), so every
// client thread and every shard agrees, and the union of the shards sends each server exactly
// what one process would. The weights make a cycle of sum(weights) requests in which server k
// has weights[k] places, interleaved by nginx's smooth weighted round robin
// (ngx_http_upstream_round_robin.c, ngx_http_upstream_get_peer): 3,1 gives A A B A, so a run
// of any length is within one cycle of the exact proportion, and whole cycles are exact.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::app {

class ServerSpread {
 public:
  /// One positive weight per server (at least one server); equal weights are round robin.
  explicit ServerSpread(const std::vector<std::int64_t>& weights);

  /// The server (0-based, in --base-url order) of request `request`.
  std::size_t server_of(std::uint64_t request) const {
    return cycle_[static_cast<std::size_t>(request % cycle_.size())];
  }
  /// The server of a request as the driver sends it: a multi-turn turn (`session` >= 0) goes
  /// to its session's server, so a session stays on one server and its growing history can hit
  /// that server's prefix cache; any other request by its index.
  std::size_t server_of_request(std::uint64_t request, std::int64_t session) const {
    return server_of(session >= 0 ? static_cast<std::uint64_t>(session) : request);
  }
  std::size_t servers() const { return weights_.size(); }
  std::int64_t weight(std::size_t server) const { return weights_[server]; }

  /// Server `server`'s part of `total` things shared in proportion to the weights (the
  /// connections to open before a run): the floor of its proportion, and one more for each of
  /// the first servers until the parts add up to `total`.
  std::int64_t share_of(std::int64_t total, std::size_t server) const;

 private:
  std::vector<std::int64_t> weights_;
  std::vector<std::uint32_t> cycle_;  // the server of each place of one cycle
};

}  // namespace bench::app
