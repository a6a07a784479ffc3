#include "bench/sim/serve.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
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

// Starts the server make_server() builds, says where it listens and what it serves, serves until
// `stop`, and says how many requests it served; a server that cannot start is one error line.
template <typename MakeServer>
int serve_until_stopped(const MakeServer& make_server, const std::string& what,
                        const StopFlag& stop) {
  try {
    const auto server = make_server();
    fmt::print(stderr, "bench serve-sim: listening on {} ({})\n", server->base_url(), what);
    std::fflush(stderr);
    while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    fmt::print(stderr, "bench serve-sim: stopped after {} requests\n", server->requests_served());
    return 0;
  } catch (const std::exception& error) {
    fmt::print(stderr, "bench serve-sim: error: {}\n", error.what());
    return kExitCannotServe;
  }
}

int run_replay(const SimOptions& options, const StopFlag& stop) {
  auto loaded = wire::load_recording(options.replay_dir);
  if (const auto* error = std::get_if<wire::WireError>(&loaded)) {
    fmt::print(stderr, "bench serve-sim: error: --replay: {}\n", error->message);
    return kExitBadTokenizer;
  }
  auto& exchanges = std::get<std::vector<wire::Exchange>>(loaded);
  std::set<std::string> shapes;
  for (const wire::Exchange& exchange : exchanges) shapes.insert(wire::describe(exchange.shape));
  const std::string what =
      fmt::format("replaying {} exchanges from {} at {}x: {}", exchanges.size(), options.replay_dir,
                  options.replay_speed, fmt::join(shapes, ", "));
  return serve_until_stopped(
      [&] {
        return std::make_unique<ReplayServer>(
            std::move(exchanges),
            ReplayOptions{options.host, options.port, options.replay_speed, options.trace_path});
      },
      what, stop);
}

}  // namespace

int run_serve_sim(SimOptions options, const StopFlag& stop,
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
  const std::string what =
      fmt::format("model '{}', {}{}", options.model, describe(options),
                  options.trace_path.empty() ? "" : ", trace " + options.trace_path);
  return serve_until_stopped([&] { return std::make_unique<SimServer>(options); }, what, stop);
}

}  // namespace bench::sim
