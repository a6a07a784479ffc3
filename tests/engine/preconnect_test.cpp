// Connections opened ahead of a run are the ones the run rides on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/engine/curl_handles.hpp"
#include "bench/engine/engine.hpp"
#include "bench/sim/sim_server.hpp"
#include "burst_source.hpp"
#include "curl_once.hpp"

namespace {

using bench::engine::Engine;
using bench::engine::EngineOptions;
using bench::metrics::ErrorClass;
using bench_test::BurstSource;

}  // namespace

namespace {

TEST(EnginePreconnect, OpensTheConnectionsTheRunThenReusesWithoutOpeningMore) {
  bench::sim::SimOptions sim;
  sim.ttft_ms = 5;
  sim.tpot_ms = 1;
  bench::sim::SimServer server(sim);
  EngineOptions options;
  options.concurrency = 8;
  Engine engine(options);
  const std::vector<std::string> headers;
  const bench::engine::PreconnectStats opened =
      engine.preconnect(server.base_url() + "/v1/models", &headers, 8);
  EXPECT_EQ(opened.requested, 8);
  EXPECT_EQ(opened.opened, 8);
  EXPECT_EQ(opened.failed, 0);
  EXPECT_GT(opened.took_ns, 0);
  BurstSource source(server.base_url() + "/v1/completions", 32);
  const bench::engine::EngineStats stats = engine.run(source);
  EXPECT_EQ(stats.finished, 32);
  EXPECT_EQ(stats.connections_opened, 0);  // every request rode a pre-opened connection
  for (const auto& handler : source.handlers) EXPECT_EQ(handler->error, ErrorClass::none);
}

TEST(EnginePreconnect, AnUnreachableServerCountsEveryConnectionAsFailed) {
  EngineOptions options;
  options.concurrency = 2;
  options.connect_timeout_ms = 500;
  Engine engine(options);
  const std::vector<std::string> headers;
  const bench::engine::PreconnectStats opened =
      engine.preconnect("http://127.0.0.1:1/v1/models", &headers, 3);
  EXPECT_EQ(opened.failed, 3);
  EXPECT_EQ(opened.opened, 0);
}

}  // namespace
