#include "bench/app/point/point_checkpoints.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>

namespace bench::app {

namespace {

// How soon a stop is seen (the engine's loop looks as often).
constexpr std::chrono::milliseconds kStopPoll{100};
// The stop's checkpoint waits this long after it is seen: each client thread copies its
// figures as the first request ends after the stop, which in a run that is going takes less.
constexpr std::chrono::milliseconds kFreshAfterStop{250};

}  // namespace

PointCheckpoints::PointCheckpoints(metrics::SummaryOptions options, const StopFlag& stop,
                                   Gather gather, Hand hand)
    : options_(std::move(options)),
      stop_(stop),
      gather_(std::move(gather)),
      hand_(std::move(hand)),
      thread_([this] { run(); }) {}

PointCheckpoints::~PointCheckpoints() {
  {
    const std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void PointCheckpoints::run() {
  using std::chrono::steady_clock;
  std::unique_lock lock(mutex_);
  auto next = steady_clock::now() + std::chrono::nanoseconds(kCheckpointEveryNs);
  std::optional<steady_clock::time_point> stop_due;  // when the stop's checkpoint is taken
  bool stop_taken = false;
  while (!done_) {
    wake_.wait_until(lock, std::min(next, steady_clock::now() + kStopPoll),
                     [this] { return done_; });
    if (done_) break;
    const auto now = steady_clock::now();
    if (!stop_due && stop_.load()) stop_due = now + kFreshAfterStop;
    const bool stop_now = stop_due && !stop_taken && now >= *stop_due;
    if (!stop_now && now < next) continue;
    stop_taken = stop_taken || stop_now;
    lock.unlock();
    take();
    lock.lock();
    next = steady_clock::now() + std::chrono::nanoseconds(kCheckpointEveryNs);
  }
}

// The published states merged as `bench merge` merges shards' (their times are on one clock
// here: no shift). Steady-state latencies are not kept in a state, so a checkpoint has none.
void PointCheckpoints::take() {
  std::vector<metrics::AccumulatorState> states = gather_();
  if (states.empty()) return;
  metrics::RunAccumulator total(options_);
  for (const metrics::AccumulatorState& state : states) {
    std::optional<metrics::RunAccumulator> part = metrics::RunAccumulator::from_state(state, 0);
    if (part) total.merge(std::move(*part));
  }
  hand_(total.summarize());
}

}  // namespace bench::app
