// The simulated GPUs' power (power_model.hpp), written in the DCGM exporter's names, units and
// labels (gpu, UUID, device, modelName, Hostname), so bench reads it as it reads a real node's.
#include "bench/sim/power_model.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "bench/util/clock.hpp"

namespace bench::sim {
namespace {

constexpr double kMillijoulesPerJoule = 1000;

}  // namespace

PowerModel::PowerModel(PowerOptions options, std::int64_t start_ns)
    : options_(options), start_ns_(start_ns) {
  options_.gpus = std::max<std::int64_t>(1, options_.gpus);
}

void PowerModel::add_tokens(std::int64_t now_ns, std::int64_t prompt_tokens,
                            std::int64_t output_tokens) {
  const double joules = static_cast<double>(prompt_tokens) * options_.joules_per_input_token +
                        static_cast<double>(output_tokens) * options_.joules_per_output_token;
  token_joules_ += joules;
  recent_.emplace_back(now_ns, joules);
  token_joules_in_last_second(now_ns);  // keeps the window short
}

double PowerModel::energy_joules(std::int64_t now_ns) const {
  const double seconds = ns_to_s(std::max<std::int64_t>(0, now_ns - start_ns_));
  return options_.idle_watts * static_cast<double>(options_.gpus) * seconds + token_joules_;
}

double PowerModel::token_joules_in_last_second(std::int64_t now_ns) {
  while (!recent_.empty() && recent_.front().first <= now_ns - kNsPerSec) recent_.pop_front();
  double joules = 0;
  for (const auto& entry : recent_) joules += entry.second;
  return joules;
}

std::string PowerModel::dcgm_exposition(std::int64_t now_ns) {
  const double gpus = static_cast<double>(options_.gpus);
  const double seconds = ns_to_s(std::max<std::int64_t>(0, now_ns - start_ns_));
  // Each GPU: its idle energy and an even share of the tokens'; its power the idle draw and its
  // share of the tokens' energy over the last second (DCGM's gauge is a recent average too).
  const double energy_mj =
      (options_.idle_watts * seconds + token_joules_ / gpus) * kMillijoulesPerJoule;
  const double watts = options_.idle_watts + token_joules_in_last_second(now_ns) / gpus;
  std::string power =
      "# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).\n"
      "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n";
  std::string energy =
      "# HELP DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION Total energy consumption since boot (in mJ).\n"
      "# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n";
  for (std::int64_t gpu = 0; gpu < options_.gpus; ++gpu) {
    const std::string labels = fmt::format(
        "{{gpu=\"{0}\",UUID=\"GPU-00000000-0000-0000-0000-{0:012d}\",device=\"nvidia{0}\","
        "modelName=\"bench simulated GPU\",Hostname=\"bench-sim\"}}",
        gpu);
    power += fmt::format("DCGM_FI_DEV_POWER_USAGE{} {:.3f}\n", labels, watts);
    energy += fmt::format("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{} {:.0f}\n", labels,
                          std::floor(energy_mj));
  }
  return power + energy;
}

}  // namespace bench::sim
