#pragma once
// Queueing seen in one poll of the server's gauges, held against how many requests bench had in
// flight at that moment. The server holding more requests (running + waiting) than bench had in
// flight, with some waiting, means others share it; requests waiting while bench had none in
// flight, the same, more plainly; requests waiting within bench's own count, that the server
// queues bench's load (its batch is full). Standard library only: a pure classification.
#include <cstddef>
#include <cstdint>
#include <optional>

namespace bench::server_metrics {

enum class QueueSight {
  none,           // nothing waiting, or the gauges are unknown
  server_queues,  // some of bench's own requests wait: the server's batch is full
  beyond_bench,   // more requests at the server than bench had in flight, some waiting
  bench_idle,     // requests waiting while bench had none in flight
};

/// `bench_in_flight`: bench's requests sent and not yet ended, the most seen around the scrape
/// (read before and after it, so a request that ends while the scrape runs is still counted).
QueueSight classify_queue(const std::optional<double>& requests_running,
                          const std::optional<double>& requests_waiting,
                          std::int64_t bench_in_flight);

/// Polls of a window by what they saw.
struct QueueCounts {
  std::size_t polls = 0;  // polls classified (those that answered)
  std::size_t server_queues = 0;
  std::size_t beyond_bench = 0;
  std::size_t bench_idle = 0;

  void add(QueueSight sight);
  void merge(const QueueCounts& other);
};

}  // namespace bench::server_metrics
