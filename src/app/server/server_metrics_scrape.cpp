#include "bench/app/server/server_metrics_scrape.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <utility>

#include <fmt/format.h>

#include "bench/app/server/server_metrics_poller.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/url.hpp"

namespace bench::app {

std::vector<std::string> server_metrics_urls(const std::vector<std::string>& given,
                                             const std::vector<std::string>& base_urls) {
  std::vector<std::string> urls;
  const auto add_every_server = [&] {
    for (const std::string& base_url : base_urls) {
      const std::string url = util::url_join(base_url, "/metrics");
      if (std::find(urls.begin(), urls.end(), url) == urls.end()) urls.push_back(url);
    }
  };
  for (const std::string& url : given) {
    if (url.empty()) {
      add_every_server();
    } else {
      urls.push_back(url);
    }
  }
  if (urls.empty()) add_every_server();
  return urls;
}

ServerMetricsScraper::ServerMetricsScraper(std::vector<MetricsServer> servers,
                                           double poll_interval_s)
    : poll_interval_s_(poll_interval_s) {
  for (MetricsServer& server : servers) {
    watched_.push_back(std::make_unique<Watched>());
    watched_.back()->server = std::move(server);
  }
}

ServerMetricsScraper::~ServerMetricsScraper() = default;

void ServerMetricsScraper::before_point(const LiveCounters* live) {
  for (auto& watched : watched_) {
    watched->before_failure.clear();
    watched->before = scrape_snapshot(watched->server, nullptr, watched->before_failure);
  }
  if (poll_interval_s_ <= 0) return;
  const auto interval_ns = s_to_ns_rounded(poll_interval_s_);
  for (auto& watched : watched_) {
    watched->poller = std::make_unique<MetricsPoller>(watched->server, interval_ns, live);
  }
}

results::ServerMetricsWindow ServerMetricsScraper::after_point(std::int64_t warmup_requests,
                                                               std::ostream& err, bool quiet) {
  // Every poller stops before any closing scrape, so that none of them is read under load.
  std::vector<std::optional<results::GaugePolls>> polls;
  for (auto& watched : watched_) {
    polls.emplace_back();
    if (watched->poller) polls.back() = watched->poller->stop();
    watched->poller.reset();
  }
  std::vector<results::ServerMetricsWindow> windows;
  for (std::size_t i = 0; i < watched_.size(); ++i) {
    windows.push_back(window_of(*watched_[i], warmup_requests, err, quiet));
    windows.back().polls = std::move(polls[i]);
  }
  if (windows.size() == 1) return std::move(windows.front());
  results::ServerMetricsWindow total;
  total.warmup_requests = warmup_requests;
  std::vector<server_metrics::Delta> deltas;
  for (std::size_t i = 0; i < windows.size(); ++i) {
    total.url += (i == 0 ? "" : ", ") + windows[i].url;
    if (windows[i].delta) {
      deltas.push_back(*windows[i].delta);
    } else if (total.failure.empty()) {
      total.failure = fmt::format("server {}: {}", i + 1, windows[i].failure);
    }
  }
  if (total.failure.empty()) total.delta = server_metrics::sum_of(deltas);
  total.servers = std::move(windows);
  return total;
}

results::ServerMetricsWindow ServerMetricsScraper::window_of(Watched& watched,
                                                             std::int64_t warmup_requests,
                                                             std::ostream& err, bool quiet) {
  results::ServerMetricsWindow window;
  window.url = util::url_with_secrets_hidden(watched.server.url);
  window.warmup_requests = warmup_requests;
  std::optional<server_metrics::Snapshot> after;
  if (watched.before) after = scrape_snapshot(watched.server, nullptr, window.failure);
  if (!watched.before) window.failure = watched.before_failure;
  if (!window.failure.empty()) {
    if (!watched.failure_said && !quiet) {
      err << "bench: server metrics: " << window.failure << "\n";
      watched.failure_said = true;
    }
    return window;
  }
  window.delta = server_metrics::delta_between(*watched.before, *after);
  if (after->family == server_metrics::ServerFamily::unknown) {
    window.delta->notes.push_back(
        "no names of a known server family (vllm:, sglang:, "
        "llamacpp:, tgi_, trtllm_) in the exposition");
  }
  return window;
}

}  // namespace bench::app
