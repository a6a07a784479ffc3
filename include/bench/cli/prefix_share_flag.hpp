#pragma once
// --prefix-share S[,S...] (workload/prefix_share.hpp): the share of each random prompt that is a
// system prompt every request of its point sends, the cache-hit share a warm prefix cache would
// give; a list sweeps it, one point a share.
#include <string>

#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"

namespace bench::cli {

void add_prefix_share_flag(CLI::App& app, std::string& raw);

/// After parsing, once --input-len and the load's lists are read: the shares into
/// run.dataset.prefix_shares, and what they cannot do refused in one line (UsageError), before
/// anything is sent.
void finish_prefix_share_flag(const CLI::App& app, RunOptions& run, const std::string& raw);

}  // namespace bench::cli
