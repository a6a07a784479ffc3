#pragma once
// --server-metrics: the server's Prometheus exposition read before each point (and its warm-up)
// and after its last request, on the main thread while no request is in flight, so a scrape
// never delays the load; in between, with --server-metrics-interval, a MetricsPoller reads the
// gauges on a thread of its own. A scrape that fails (no answer, an HTTP error, a body that is
// no exposition or beyond the parser's cap) leaves the window's figures unknown with one line
// saying why; it never fails the run.
#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/app/point/live_counters.hpp"
#include "bench/app/server/server_metrics_fetch.hpp"
#include "bench/report/report.hpp"
#include "bench/server_metrics/snapshot.hpp"

namespace bench::app {

/// The URLs of `--server-metrics [URL]`, one per flag: each one given; for the flag without a
/// value (and when none was given), <base_url>/metrics of every server of the run (several
/// with --base-url repeated: their counts are added up).
std::vector<std::string> server_metrics_urls(const std::vector<std::string>& given,
                                             const std::vector<std::string>& base_urls);

class MetricsPoller;

/// Every --server-metrics URL of the run: several servers behind a router are each scraped
/// (and polled), and their windows added up for the cross-checks.
class ServerMetricsScraper {
 public:
  /// `poll_interval_s` > 0: poll the gauges that often while a point runs; 0: only its edges.
  ServerMetricsScraper(std::vector<MetricsServer> servers, double poll_interval_s);
  ~ServerMetricsScraper();

  /// Before a point: the first scrape of its window. `live` (bench's own counts while the point
  /// runs; may be null) must outlive after_point().
  void before_point(const LiveCounters* live = nullptr);
  /// After a point's last request: the window's delta, or why it is unknown (said on `err` the
  /// first time a scrape fails, unless `quiet`). With several servers: their sum, each one's
  /// own window under `servers`.
  results::ServerMetricsWindow after_point(std::int64_t warmup_requests, std::ostream& err,
                                           bool quiet);

 private:
  struct Watched {
    MetricsServer server;
    std::unique_ptr<MetricsPoller> poller;  // while a point runs
    std::optional<server_metrics::Snapshot> before;
    std::string before_failure;
    bool failure_said = false;
  };
  results::ServerMetricsWindow window_of(Watched& watched, std::int64_t warmup_requests,
                                         std::ostream& err, bool quiet);

  std::vector<std::unique_ptr<Watched>> watched_;  // stable addresses: pollers refer to them
  double poll_interval_s_ = 0;
};

}  // namespace bench::app
