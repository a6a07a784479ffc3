#pragma once
// The simulated GPUs' power, served on GET /metrics as NVIDIA's DCGM exporter serves a real
// node's (NVIDIA/dcgm-exporter, etc/default-counters.csv): per GPU (label `gpu`),
// DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, a counter of millijoules since boot (whole mJ, as DCGM
// reports it), and DCGM_FI_DEV_POWER_USAGE, a gauge of watts. The model: every GPU draws
// idle_watts all the time, and each token the server processed costs energy spread evenly over
// the GPUs (a prompt token joules_per_input_token, a generated one joules_per_output_token),
// counted when its stream ends, as the token counters count. So the energy of a window is
// known from its tokens and its length alone, which is what the tests hold bench to.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>

namespace bench::sim {

struct PowerOptions {
  std::int64_t gpus = 1;                 // GPUs the series are written for (gpu="0".."N-1")
  double idle_watts = 0;                 // each GPU's draw with nothing to do, W
  double joules_per_output_token = 0.3;  // energy of one generated token, J (all GPUs)
  double joules_per_input_token = 0.03;  // energy of one prompt token, J (all GPUs)
};

class PowerModel {
 public:
  PowerModel(PowerOptions options, std::int64_t start_ns);

  /// A stream that ended at `now_ns` after its server processed these tokens.
  void add_tokens(std::int64_t now_ns, std::int64_t prompt_tokens, std::int64_t output_tokens);

  /// The energy of all GPUs since start as of `now_ns`, joules, before the counters' rounding.
  double energy_joules(std::int64_t now_ns) const;

  /// The DCGM exporter's series of every GPU as of `now_ns` (Prometheus text format 0.0.4).
  std::string dcgm_exposition(std::int64_t now_ns);

 private:
  double token_joules_in_last_second(std::int64_t now_ns);

  PowerOptions options_;
  std::int64_t start_ns_;
  double token_joules_ = 0;                             // every token's, all GPUs
  std::deque<std::pair<std::int64_t, double>> recent_;  // (when, joules) of the last second
};

}  // namespace bench::sim
