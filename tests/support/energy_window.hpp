#pragma once
// Test support: a run's context whose server-metrics window scraped the GPUs' energy counters
// (or did not), for the energy figures' tests and their words' tests.
#include <cstdint>
#include <optional>

#include "bench/results/writer.hpp"

namespace bench::testing {

/// A context whose window grew the energy counters by `joules` (nullopt: no counter scraped),
/// with `warmup_in_window` warm-up requests inside the window.
inline results::RunContext context_with_energy(std::optional<double> joules,
                                               std::int64_t warmup_in_window = 0) {
  results::RunContext context;
  results::ServerMetricsWindow window;
  window.delta = server_metrics::Delta{};
  window.delta->gpu_energy_joules = joules;
  window.warmup_requests = warmup_in_window;
  context.server_metrics = window;
  return context;
}

}  // namespace bench::testing
