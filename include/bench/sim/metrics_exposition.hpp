#pragma once
// The simulator's GET /metrics: its own counts in vLLM's names and shape (vllm/v1/metrics/
// loggers.py, as prometheus_client writes them: counters as name_total, a model_name label), so
// that bench's --server-metrics can be held against the simulator's truth end to end.
#include <cstdint>
#include <string>
#include <string_view>

namespace bench::sim {

struct SimCounts {
  std::int64_t requests_running = 0;    // streams open now
  std::int64_t prompt_tokens = 0;       // of every stream ended (finished or abandoned)
  std::int64_t generation_tokens = 0;   // tokens sent by every stream ended
  std::int64_t requests_succeeded = 0;  // streams that ended with their whole answer sent
};

/// The Prometheus text exposition (format 0.0.4) of `counts` for `model`.
std::string vllm_exposition(const SimCounts& counts, std::string_view model);

}  // namespace bench::sim
