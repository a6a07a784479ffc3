#include "bench/app/point/point_checkpoints.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>

namespace bench::app {

namespace {

// How soon a stop is seen (the engine's loop looks as often).
constexpr std::chrono::milliseconds kStopPoll{100};

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
  std::unique_lock lock(mutex_);
  auto next = std::chrono::steady_clock::now() + std::chrono::nanoseconds(kCheckpointEveryNs);
  bool stop_taken = false;
  while (!done_) {
    wake_.wait_until(lock, std::min(next, std::chrono::steady_clock::now() + kStopPoll),
                     [this] { return done_; });
    if (done_) break;
    const bool stop_now = !stop_taken && stop_.load();
    if (!stop_now && std::chrono::steady_clock::now() < next) continue;
    stop_taken = stop_taken || stop_now;
    lock.unlock();
    take();
    lock.lock();
    next = std::chrono::steady_clock::now() + std::chrono::nanoseconds(kCheckpointEveryNs);
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
