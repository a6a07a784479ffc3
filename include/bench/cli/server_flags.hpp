#pragma once
// The servers a run loads: --base-url repeated for data-parallel replicas with no router in
// front, and --server-weights for how the requests are spread over them (app/server_spread.hpp).
//   --base-url URL           once per server; the first is the server the one-server steps ask
//                            (model discovery, the tokenizer, the per-chunk usage probe)
//   --server-weights W,...   one whole number 1..kMaxServerWeight per --base-url, in their
//                            order: server k is sent W_k of every sum(W) requests. Absent:
//                            round robin (every weight 1).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/cli/options.hpp"

namespace bench::cli {

inline constexpr std::int64_t kMaxServerWeight = 1000;

/// --server-weights' text ("3,1") for `servers` servers. Throws UsageError naming the flag and
/// the value: a count other than `servers`, a weight that is not a whole number 1..1000.
std::vector<std::int64_t> parse_server_weights(const std::string& text, std::size_t servers);

/// After parsing: every --base-url checked (http:// or https://) and trimmed (no trailing '/',
/// no "/v1", which bench adds itself), and --server-weights
/// (`weights_text`, empty when not given) parsed. Throws UsageError for a URL given twice (the
/// weights say how much more one server gets) and for weights without several servers.
/// A --base-url as bench keeps it: http:// or https://, no trailing slash, no trailing /v1 (the
/// OpenAI client's base; bench adds /v1/... itself); a query stays. Throws UsageError otherwise.
std::string normalized_base_url(std::string url);

void finish_server_flags(RunOptions& run, const std::string& weights_text);

}  // namespace bench::cli
