#pragma once
// `bench certify REQUESTS --truth TRACE`: the client's own error, measured. A run's request log
// (--save-requests) is joined by response id to the truth log of the server it ran against
// (serve-sim --trace: when the server handed each chunk to the socket), and each latency figure's
// client-minus-server difference gives a per-figure bound on what the client added (its loop,
// its kernel path, its parsing): TTFT, ITL, TPOT and E2E, each's error at p50, p99 and worst,
// flagged where the p99 error is over a share of the figure's p99 (docs/metrics.md).
#include <ostream>

#include "bench/cli/options.hpp"

namespace bench::app {

/// The certificate on `out` (text or JSON), notes on `err`. Returns 0; 2 when a log cannot be
/// read or no request joins (one line saying why).
int run_certify(const cli::CertifyOptions& options, std::ostream& out, std::ostream& err);

}  // namespace bench::app
