#pragma once
// One read of a server's Prometheus exposition (--server-metrics): the URL and how it is asked,
// and the scrape itself. The scraper's windows (server_metrics_scrape.hpp) and the poller's
// gauge reads (server_metrics_poller.hpp) both make theirs through it.
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/engine/engine.hpp"
#include "bench/server_metrics/snapshot.hpp"
#include "bench/util/redact.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::app {

/// The URL scraped and how: the run's own headers (its API key included) and engine limits.
struct MetricsServer {
  std::string url;
  const std::vector<std::string>* headers = nullptr;
  engine::EngineOptions engine;
  util::Redactor redactor;  // hides the headers' credentials and the URL's password
};

/// A scrape with no whole answer within this long fails, so a server that never answers
/// /metrics cannot hold bench up.
inline constexpr std::int64_t kScrapeTimeoutMs = 10'000;

/// One scrape of `server`, read through its family's name map; nullopt with `failure` set
/// (one line, no password) when it fails. `stop`, when it becomes true, cancels it.
std::optional<server_metrics::Snapshot> scrape_snapshot(const MetricsServer& server,
                                                        const StopFlag* stop, std::string& failure);

}  // namespace bench::app
