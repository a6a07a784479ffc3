#include "bench/app/server_metrics_scrape.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <utility>

#include <fmt/format.h>

#include "bench/app/server_metrics_poller.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/server_metrics/exposition.hpp"
#include "bench/util/clock.hpp"

namespace bench::app {

std::string server_metrics_url(const std::string& given, const std::string& base_url) {
  return given.empty() ? base_url + "/metrics" : given;
}

std::optional<server_metrics::Snapshot> scrape_snapshot(const MetricsServer& server,
                                                        const std::atomic<bool>* stop,
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
  const std::string url = util::url_without_password(server.url);
  if (answer.http_status == 0) {
    failure = fmt::format("GET {} failed: {}", url, server.redactor->redact(answer.end.message));
    return std::nullopt;
  }
  if (answer.http_status != 200) {
    failure = fmt::format("GET {} answered HTTP {}", url, answer.http_status);
    return std::nullopt;
  }
  const server_metrics::ParseResult parsed = server_metrics::parse_exposition(answer.body, limits);
  if (!parsed.ok()) {
    failure = fmt::format("GET {}: not a Prometheus text exposition ({})", url,
                          parsed.error->describe());
    return std::nullopt;
  }
  return server_metrics::read_snapshot(parsed.exposition);
}

ServerMetricsScraper::ServerMetricsScraper(MetricsServer server, double poll_interval_s)
    : server_(std::move(server)), poll_interval_s_(poll_interval_s) {}

ServerMetricsScraper::~ServerMetricsScraper() = default;

void ServerMetricsScraper::before_point() {
  before_failure_.clear();
  before_ = scrape_snapshot(server_, nullptr, before_failure_);
  if (poll_interval_s_ > 0) {
    poller_ = std::make_unique<MetricsPoller>(
        server_, static_cast<std::int64_t>(std::llround(poll_interval_s_ * 1e9)));
  }
}

report::ServerMetricsWindow ServerMetricsScraper::after_point(std::int64_t warmup_requests,
                                                              std::ostream& err, bool quiet) {
  std::optional<report::GaugePolls> polls;
  if (poller_) {
    polls = poller_->stop();
    poller_.reset();
  }
  report::ServerMetricsWindow window = window_of_point(warmup_requests);
  window.polls = std::move(polls);
  if (!window.failure.empty() && !failure_said_ && !quiet) {
    err << "bench: server metrics: " << window.failure << "\n";
    failure_said_ = true;
  }
  return window;
}

report::ServerMetricsWindow ServerMetricsScraper::window_of_point(std::int64_t warmup_requests) {
  report::ServerMetricsWindow window;
  window.url = util::url_without_password(server_.url);
  window.warmup_requests = warmup_requests;
  if (!before_) {
    window.failure = before_failure_;
    return window;
  }
  std::string failure;
  const auto after = scrape_snapshot(server_, nullptr, failure);
  if (!after) {
    window.failure = failure;
    return window;
  }
  window.delta = server_metrics::delta_between(*before_, *after);
  if (after->family == server_metrics::ServerFamily::unknown) {
    window.delta->notes.push_back("no names of a known server family (vllm:, sglang:, "
                                  "llamacpp:, tgi_, trtllm_) in the exposition");
  }
  return window;
}

}  // namespace bench::app
