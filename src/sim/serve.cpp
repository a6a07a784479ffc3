#include "bench/sim/serve.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

#include <set>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bench/sim/replay_server.hpp"
#include "bench/sim/sim_server.hpp"
#include "bench/util/open_file_limit.hpp"

namespace bench::sim {

namespace {

constexpr int kExitCannotServe = 3;   // cli::kExitRunFailed; sim does not depend on cli
constexpr int kExitBadTokenizer = 2;  // cli::kExitUsage (also a recording that cannot be read)

int run_replay(const SimOptions& options, const std::atomic<bool>& stop) {
  auto loaded = wire::load_recording(options.replay_dir);
  if (const auto* error = std::get_if<wire::WireError>(&loaded)) {
    fmt::print(stderr, "bench serve-sim: error: --replay: {}\n", error->message);
    return kExitBadTokenizer;
  }
  auto& exchanges = std::get<std::vector<wire::Exchange>>(loaded);
  std::set<std::string> shapes;
  for (const wire::Exchange& exchange : exchanges) shapes.insert(wire::describe(exchange.shape));
  const std::size_t count = exchanges.size();
  try {
    ReplayServer server(std::move(exchanges), {options.host, options.port, options.replay_speed});
    fmt::print(stderr,
               "bench serve-sim: listening on {} (replaying {} exchanges from {} at {}x: "
               "{})\n",
               server.base_url(), count, options.replay_dir, options.replay_speed,
               fmt::join(shapes, ", "));
    std::fflush(stderr);
    while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    fmt::print(stderr, "bench serve-sim: stopped after {} requests\n", server.requests_served());
    return 0;
  } catch (const std::exception& error) {
    fmt::print(stderr, "bench serve-sim: error: {}\n", error.what());
    return kExitCannotServe;
  }
}

}  // namespace

int run_serve_sim(SimOptions options, const std::atomic<bool>& stop,
                  const TokenizerFactory& open_tokenizer) {
  if (!options.replay_dir.empty()) return run_replay(options, stop);
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
