#include "bench/app/server/server_metrics_fetch.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "bench/engine/fetch.hpp"
#include "bench/server_metrics/exposition.hpp"

namespace bench::app {

std::optional<server_metrics::Snapshot> scrape_snapshot(const MetricsServer& server,
                                                        const StopFlag* stop,
                                                        std::string& failure) {
  const server_metrics::Limits limits;
  engine::EngineOptions options = server.engine;
  options.request_timeout_ms = options.request_timeout_ms > 0
                                   ? std::min(options.request_timeout_ms, kScrapeTimeoutMs)
                                   : kScrapeTimeoutMs;
  options.grace_ms = 0;  // a stop cancels the scrape at once
  // One byte beyond the parser's cap, so that a body over it is refused as too big rather than
  // read cut short.
  const engine::FetchResult answer =
      engine::fetch(server.url, *server.headers, "", options, limits.max_bytes + 1, stop);
  const std::string url = util::url_with_secrets_hidden(server.url);
  if (answer.http_status == 0) {
    failure = fmt::format("GET {} failed: {}", url, server.redactor.redact(answer.end.message));
    return std::nullopt;
  }
  if (answer.http_status != 200) {
    failure = fmt::format("GET {} answered HTTP {}", url, answer.http_status);
    return std::nullopt;
  }
  const server_metrics::ParseResult parsed = server_metrics::parse_exposition(answer.body, limits);
  if (!parsed.ok()) {
    failure =
        fmt::format("GET {}: not a Prometheus text exposition ({})", url, parsed.error->describe());
    return std::nullopt;
  }
  return server_metrics::read_snapshot(parsed.exposition);
}

}  // namespace bench::app
