#include "bench/server_metrics/queue_check.hpp"

#include <cmath>

namespace bench::server_metrics {

QueueSight classify_queue(const std::optional<double>& requests_running,
                          const std::optional<double>& requests_waiting,
                          std::int64_t bench_in_flight) {
  if (!requests_waiting || !std::isfinite(*requests_waiting) || !(*requests_waiting > 0)) {
    return QueueSight::none;
  }
  if (bench_in_flight <= 0) return QueueSight::bench_idle;
  // Without the running gauge, only the waiting requests are known to be at the server.
  const double running =
      requests_running && std::isfinite(*requests_running) ? *requests_running : 0;
  if (running + *requests_waiting > static_cast<double>(bench_in_flight)) {
    return QueueSight::beyond_bench;
  }
  return QueueSight::server_queues;
}

void QueueCounts::add(QueueSight sight) {
  ++polls;
  switch (sight) {
    case QueueSight::server_queues: ++server_queues; break;
    case QueueSight::beyond_bench: ++beyond_bench; break;
    case QueueSight::bench_idle: ++bench_idle; break;
    case QueueSight::none: break;
  }
}

void QueueCounts::merge(const QueueCounts& other) {
  polls += other.polls;
  server_queues += other.server_queues;
  beyond_bench += other.beyond_bench;
  bench_idle += other.bench_idle;
}

}  // namespace bench::server_metrics
