#include "bench/app/server_metrics_scrape.hpp"

#include <ostream>
#include <utility>

#include <fmt/format.h>

#include "bench/engine/fetch.hpp"
#include "bench/server_metrics/exposition.hpp"

namespace bench::app {

std::string server_metrics_url(const std::string& given, const std::string& base_url) {
  return given.empty() ? base_url + "/metrics" : given;
}

void ServerMetricsScraper::before_point() {
  before_failure_.clear();
  before_ = scrape(before_failure_);
}

report::ServerMetricsWindow ServerMetricsScraper::after_point(std::int64_t warmup_requests,
                                                              std::ostream& err, bool quiet) {
  report::ServerMetricsWindow window = window_of_point(warmup_requests);
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
  const auto after = scrape(failure);
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

std::optional<server_metrics::Snapshot> ServerMetricsScraper::scrape(std::string& failure) const {
  const server_metrics::Limits limits;
  // One byte beyond the parser's cap, so that a body over it is refused as too big rather than
  // read cut short.
  const engine::FetchResult answer =
      engine::fetch(server_.url, *server_.headers, "", server_.engine, limits.max_bytes + 1);
  const std::string url = util::url_without_password(server_.url);
  if (answer.http_status == 0) {
    failure = fmt::format("GET {} failed: {}", url, server_.redactor->redact(answer.end.message));
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

}  // namespace bench::app
