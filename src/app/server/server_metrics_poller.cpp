#include "bench/app/server/server_metrics_poller.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <utility>

#include "bench/util/clock.hpp"

namespace bench::app {

MetricsPoller::MetricsPoller(const MetricsServer& server, std::int64_t interval_ns,
                             const LiveCounters* live)
    : server_(server),
      live_(live),
      interval_ns_(std::max<std::int64_t>(1, interval_ns)),
      origin_ns_(now_ns()) {
  outcome_.interval_s = ns_to_s(interval_ns_);
  outcome_.origin_steady_ns = origin_ns_;
  thread_ = std::thread([this] { loop(); });
}

MetricsPoller::~MetricsPoller() {
  if (thread_.joinable()) stop();
}

results::GaugePolls MetricsPoller::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  cancel_.request();
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  return std::move(outcome_);
}

bool MetricsPoller::wait_until(std::int64_t due_ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto due = Clock::time_point(std::chrono::nanoseconds(due_ns));
  wake_.wait_until(lock, due, [this] { return stopping_; });
  return !stopping_;
}

// Ticks at origin + k x interval. After a scrape that ran past the next tick, the ticks it
// covered are skipped, not caught up: a slow server gets one scrape at a time.
void MetricsPoller::loop() {
  std::int64_t due_ns = origin_ns_ + interval_ns_;
  while (wait_until(due_ns)) {
    poll_once();
    const std::int64_t now = now_ns();
    due_ns += interval_ns_;
    if (now >= due_ns) {
      const std::int64_t missed = (now - due_ns) / interval_ns_ + 1;
      outcome_.skipped += static_cast<std::size_t>(missed);
      due_ns += missed * interval_ns_;
    }
  }
}

std::int64_t MetricsPoller::bench_in_flight() const {
  if (live_ == nullptr) return 0;
  return live_->started.load(std::memory_order_relaxed) -
         live_->finished.load(std::memory_order_relaxed);
}

void MetricsPoller::poll_once() {
  const std::int64_t start_ns = now_ns();
  const std::int64_t in_flight_before = bench_in_flight();
  std::string failure;
  std::optional<server_metrics::Snapshot> snapshot;
  try {
    snapshot = scrape_snapshot(server_, &cancel_, failure);
  } catch (const std::exception& error) {
    // No transport for the scrape (the process out of file descriptors): a failed poll, said
    // in the results, never an exception out of this thread, which would end the process.
    failure = error.what();
  }
  // The server's gauges were read somewhere in between: a request sent or ended meanwhile is
  // counted as in flight, so that only a server holding more than bench ever had is a finding.
  const std::int64_t in_flight = std::max(in_flight_before, bench_in_flight());
  if (cancel_.load()) return;  // cut short by stop(): neither a reading nor a failure
  const std::int64_t took_ns = now_ns() - start_ns;
  ++outcome_.polls;
  outcome_.slowest_scrape_s = std::max(outcome_.slowest_scrape_s, ns_to_s(took_ns));
  if (!snapshot) {
    ++outcome_.failed;
    if (outcome_.first_failure.empty()) outcome_.first_failure = failure;
    return;
  }
  if (live_ != nullptr) {
    outcome_.queue.add(server_metrics::classify_queue(snapshot->requests_running,
                                                      snapshot->requests_waiting, in_flight));
  }
  outcome_.series.add(
      server_metrics::GaugeReading{start_ns - origin_ns_, snapshot->requests_running,
                                   snapshot->requests_waiting, snapshot->kv_cache_usage_ratio});
}

}  // namespace bench::app
