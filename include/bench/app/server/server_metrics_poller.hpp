#pragma once
// --server-metrics-interval: the server's gauges (running and waiting requests, KV-cache usage)
// read every interval while a point runs, on a thread of the poller's own. The client threads'
// event loops never wait for it: a scrape blocks only this thread. A scrape that outlasts the
// interval makes the poller skip the ticks it missed (counted, said once in the report), never
// queue them up; stop() cancels a scrape in flight at once.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "bench/app/point/live_counters.hpp"
#include "bench/app/server/server_metrics_fetch.hpp"
#include "bench/report/report.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::app {

class MetricsPoller {
 public:
  /// Starts polling `server` every `interval_ns` (> 0), the first poll one interval from now.
  /// `server` must outlive the poller, and `live` (bench's own counts, to hold the server's
  /// queue against; may be null) too.
  MetricsPoller(const MetricsServer& server, std::int64_t interval_ns,
                const LiveCounters* live = nullptr);
  ~MetricsPoller();
  MetricsPoller(const MetricsPoller&) = delete;
  MetricsPoller& operator=(const MetricsPoller&) = delete;

  /// Stops the thread (cancelling a scrape in flight) and hands over what it found.
  results::GaugePolls stop();

 private:
  void loop();
  void poll_once();
  bool wait_until(std::int64_t due_ns);  // false when stopped

  std::int64_t bench_in_flight() const;

  const MetricsServer& server_;
  const LiveCounters* live_;
  std::int64_t interval_ns_;
  std::int64_t origin_ns_;
  results::GaugePolls outcome_;  // the poller thread's until stop() has joined it
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;  // guarded by mutex_
  StopFlag cancel_;        // cancels the scrape in flight
  std::thread thread_;
};

}  // namespace bench::app
