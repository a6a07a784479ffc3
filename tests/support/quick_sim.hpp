#pragma once
// The embedded server's options for a quick run: a first token after `ttft_ms`, then one every
// `tpot_ms`, as the integration tests use it when the timing itself is not under test.
#include "bench/sim/sim_options.hpp"

namespace bench::testing {

inline sim::SimOptions quick_sim(double ttft_ms = 5, double tpot_ms = 1) {
  sim::SimOptions options;
  options.ttft_ms = ttft_ms;
  options.tpot_ms = tpot_ms;
  return options;
}

}  // namespace bench::testing
