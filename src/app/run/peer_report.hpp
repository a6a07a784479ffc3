#pragma once
#include <optional>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/cli/options.hpp"
#include "bench/peer_view/recompute.hpp"
#include "bench/results/read_file.hpp"

namespace bench::app {

/// Each --as tool's figures recomputed from --requests' log; nullopt once the reason it cannot
/// (a sweep, no log, an unknown tool, a log that is not one) is said on `err` in one line.
std::optional<std::vector<peer_view::PeerView>> recompute_peer_views(
    const cli::ReportOptions& options, const results::ResultsFile& file, std::ostream& err);

/// The views beside the run's own figures on `out`: text, or JSON with --output-format json.
void print_peer_views(const std::vector<peer_view::PeerView>& views,
                      const cli::ReportOptions& options, const nlohmann::json& run,
                      std::ostream& out);

}  // namespace bench::app
