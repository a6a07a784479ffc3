#pragma once
// `bench grade -- COMMAND`: the embedded server as a referee for any client. It starts the server
// with its truth log (when it handed each byte to the socket), runs the client's command against
// it, reads the client's results file (vLLM's, SGLang's, or bench's), and prints each latency
// figure's error: the client's figure less the same figure over what the server really sent.
// Beside it, bench's own run of the same load against a fresh server, graded the same way.
#include <ostream>

#include "bench/cli/options.hpp"

namespace bench::app {

/// The grade on `out` (text or JSON), the clients' own output and the notes on `err`. Returns 0;
/// 2 when the client's results cannot be read as results (one line saying why); 3 when the
/// server or the client cannot be started.
int run_grade(const cli::GradeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace bench::app
