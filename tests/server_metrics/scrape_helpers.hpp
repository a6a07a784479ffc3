#pragma once
// Helpers the server-metrics tests share: a snapshot read from a scrape's text (a parse error
// fails the calling test), and one gauge reading.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string_view>

#include "bench/server_metrics/exposition.hpp"
#include "bench/server_metrics/gauge_series.hpp"
#include "bench/server_metrics/snapshot.hpp"

namespace bench::testing {

inline server_metrics::Snapshot snapshot_of(std::string_view body) {
  const auto result = server_metrics::parse_exposition(body);
  EXPECT_TRUE(result.ok()) << result.error->describe();
  return server_metrics::read_snapshot(result.exposition);
}

inline server_metrics::GaugeReading reading(std::int64_t at_ns, double running,
                                            std::optional<double> waiting,
                                            std::optional<double> kv) {
  return server_metrics::GaugeReading{at_ns, running, waiting, kv};
}

}  // namespace bench::testing
