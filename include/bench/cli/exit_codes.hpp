#pragma once
// Process exit codes, documented in the README.

namespace bench::cli {

inline constexpr int kExitOk = 0;              // run finished, every measured request completed
inline constexpr int kExitRequestsFailed = 1;  // run finished, some requests failed (see report)
inline constexpr int kExitUsage = 2;           // bad flags or values; nothing was sent
inline constexpr int kExitRunFailed = 3;       // the run could not be done (server unreachable,
                                               // no model, a results file not written)
inline constexpr int kExitGateFailed = 4;      // a CI gate failed (--fail-under, --fail-over,
                                               // --max-error-rate), or `bench compare` found a
                                               // regression beyond --fail-on-regression,
                                               // or `bench conformance` a check that does
                                               // not hold
inline constexpr int kExitInterrupted = 130;   // stopped by SIGINT/SIGTERM; partial results written
// When several apply, the first of 130, 3, 4, 1 wins.

}  // namespace bench::cli
