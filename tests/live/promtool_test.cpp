// Prometheus's own linter on bench's exposition: `promtool check metrics` (Debian's prometheus
// package) finds no problem in it (names, units, types, HELP). Skipped where promtool is absent.
#include <stdio.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "bench/live/exposition.hpp"
#include "bench/live/tally.hpp"
#include "live_samples.hpp"
#include "run_process.hpp"

namespace bench::live {
namespace {

TEST(LivePromtool, FindsNoProblemInTheExposition) {
  if (::access("/usr/bin/promtool", X_OK) != 0) GTEST_SKIP() << "no promtool (Debian's prometheus)";
  Tally tally(30);
  tally.add(sample_of(testing::completed(100, 4, 20, 2), 1'000'000'000));
  Snapshot snapshot;
  snapshot.point = "c=4";
  snapshot.shard = "1";
  tally.fill(snapshot, 1'000'000'000);
  const bench::testing::TempDir dir;
  const std::string path = dir.file("metrics.txt");
  std::ofstream(path) << prometheus_text(snapshot);
  // promtool reads the exposition on stdin and prints each problem found; exit 0 with none.
  FILE* pipe = ::popen(("/usr/bin/promtool check metrics < " + path + " 2>&1").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string said;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) said += buffer;
  const int status = ::pclose(pipe);
  EXPECT_EQ(status, 0) << said;
  EXPECT_EQ(said, "") << said;
}

}  // namespace
}  // namespace bench::live
