#pragma once
// The command line of a small `bench search` against an in-process simulator, for the search
// tests (search_test.cpp, search_timing_test.cpp): `more` follows the common flags.
#include <string>
#include <vector>

#include "bench/sim/sim_server.hpp"

namespace bench::testing {

inline std::vector<std::string> search_args(const bench::sim::SimServer& server,
                                            std::vector<std::string> more) {
  std::vector<std::string> args = {
      "search",      "--base-url", server.base_url(),   "--quiet", "--output-len", "8",
      "--input-len", "16",         "--per-chunk-usage", "off"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace bench::testing
