#include "bench/results/load_warning.hpp"

#include <cmath>

#include <fmt/format.h>

namespace bench::results {

std::optional<std::string> load_not_reached_warning(const metrics::RunSummary& summary,
                                                    const RunContext& context) {
  const bool closed = context.concurrency && !std::isfinite(context.request_rate) &&
                      !context.prompts_from_trace && !context.prompts_resend_history;
  const std::int64_t target = summary.steady_state.target_in_flight;
  if (!closed || target <= 0 || summary.sent >= target) return std::nullopt;
  const std::string steady = summary.steady_state.found
                                 ? ""
                                 : ", and the run has no steady-state window (>= 90% of the "
                                   "target in flight), so it has no steady-state figures";
  return fmt::format(
      "--concurrency {} was never reached: the run sent {} measured requests, so at most {} "
      "were in flight at once (achieved {:.1f}){}; lower --concurrency to at most {} or send "
      "more requests (--num-prompts, --duration)",
      target, summary.sent, summary.sent, summary.achieved_concurrency, steady, summary.sent);
}

}  // namespace bench::results
