#include "bench/sim/sim_options.hpp"

#include <fmt/format.h>

namespace bench::sim {

std::string describe(const SimOptions& options) {
  std::string text = fmt::format("ttft {} ms, tpot {} ms, {} token(s) per chunk", options.ttft_ms,
                                 options.tpot_ms, options.tokens_per_chunk);
  if (!options.send_usage) text += ", no usage chunk";
  if (options.eos_probability > 0) text += fmt::format(", eos probability {}", options.eos_probability);
  if (options.fail_500_fraction > 0) {
    text += fmt::format(", {}% answered 500", options.fail_500_fraction * 100);
  }
  return text;
}

}  // namespace bench::sim
