#include "bench/sim/serve.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

#include <fmt/format.h>

#include "bench/sim/sim_server.hpp"
#include "bench/util/open_file_limit.hpp"

namespace bench::sim {

namespace {

constexpr int kExitCannotServe = 3;  // cli::kExitRunFailed; sim does not depend on cli
constexpr int kExitBadTokenizer = 2;  // cli::kExitUsage

}  // namespace

int run_serve_sim(SimOptions options, const std::atomic<bool>& stop,
                  const TokenizerFactory& open_tokenizer) {
  if (!options.tokenizer_path.empty()) {
    try {
      options.tokenizer = open_tokenizer(options.tokenizer_path);
    } catch (const tokenizer::TokenizerError& error) {
      fmt::print(stderr, "bench serve-sim: error: {}\n", error.what());
      return kExitBadTokenizer;
    }
  }
  // One descriptor per client connection; thousands of streams need more than the default 1024.
  raise_open_file_limit(1 << 20);
  try {
    SimServer server(options);
    fmt::print(stderr, "bench serve-sim: listening on {} (model '{}', {}{})\n", server.base_url(),
               options.model, describe(options),
               options.trace_path.empty() ? "" : ", trace " + options.trace_path);
    std::fflush(stderr);
    while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    fmt::print(stderr, "bench serve-sim: stopped after {} requests\n", server.requests_served());
    return 0;
  } catch (const std::exception& error) {
    fmt::print(stderr, "bench serve-sim: error: {}\n", error.what());
    return kExitCannotServe;
  }
}

}  // namespace bench::sim
