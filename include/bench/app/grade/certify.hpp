#pragma once
// `bench certify RESULTS.json`: bench's own error at a saved run's load. The run's load (its
// concurrency cap or rate, its mean lengths, up to --requests of its requests, its endpoint and
// event loops) is replayed against a loopback twin of its server: the embedded server, with its
// truth log, answering with the run's median TTFT and time per token. Each figure bench measures
// on the twin is set against what the twin really sent: that difference is the client's own error
// at this load on this host. It is an estimate of a different run (the twin's server on the same
// cores; no network, no TLS, no remote NIC), and says so.
#include <ostream>

#include "bench/cli/options.hpp"

namespace bench::app {

/// The certificate on `out` (text or JSON), notes on `err`. Returns 0; 2 when the file is not a
/// run of bench's own or streamed nothing; 3 when the twin or the replay cannot be run.
int run_certify(const cli::CertifyOptions& options, std::ostream& out, std::ostream& err);

}  // namespace bench::app
