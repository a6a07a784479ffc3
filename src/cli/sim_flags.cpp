#include "bench/cli/sim_flags.hpp"

namespace bench::cli {

void add_sim_flags(CLI::App& app, sim::SimOptions& sim, const std::string& prefix) {
  app.add_option(prefix + "ttft-ms", sim.ttft_ms, "Simulated time to first token, ms")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option(prefix + "tpot-ms", sim.tpot_ms, "Simulated time per output token, ms")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option(prefix + "tokens-per-chunk", sim.tokens_per_chunk,
                 "Tokens carried by each streamed chunk")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  app.add_flag(prefix + "no-usage{false}", sim.send_usage,
               "Never send the usage chunk (clients must estimate token counts)");
  app.add_option(prefix + "fail-500-fraction", sim.fail_500_fraction,
                 "Fraction of completion requests answered with HTTP 500")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_option(prefix + "eos-probability", sim.eos_probability,
                 "Per-token probability of stopping early when ignore_eos is not set")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
}

void setup_serve_sim_flags(CLI::App& command, sim::SimOptions& sim) {
  // Standalone, the simulator listens where vLLM does by default; embedded, it takes any port.
  sim.port = 8000;
  command.add_option("--host", sim.host, "Listen address")->capture_default_str();
  command.add_option("--port", sim.port, "Listen port (0 = any free port)")->capture_default_str();
  command.add_option("--model", sim.model, "Model id served")->capture_default_str();
  command.add_option("--max-tokens-default", sim.default_max_tokens,
                     "Output length when a request gives no max_tokens")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
      ->capture_default_str();
  command.add_option("--seed", sim.seed, "Seed for faults and early EOS")->capture_default_str();
  command.add_option("--trace", sim.trace_path,
                     "Write a JSONL truth log: server-side times of every request and chunk");
  add_sim_flags(command, sim, "--");
}

}  // namespace bench::cli
