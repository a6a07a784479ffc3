#include "bench/live/publisher.hpp"

#include <time.h>

#include <memory>
#include <utility>

#include "bench/live/json_line.hpp"
#include "bench/util/clock.hpp"

namespace bench::live {

namespace {

// The calling thread's CPU time, s (the publisher's own cost, reported in each snapshot).
double thread_cpu_s() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

}  // namespace

Publisher::Publisher(Feed& feed, SnapshotBoard& board, double window_s, std::string shard,
                     std::ostream* jsonl, std::chrono::milliseconds interval)
    : feed_(feed),
      board_(board),
      jsonl_(jsonl),
      interval_(interval),
      started_ns_(now_ns()),
      tally_(window_s),
      shard_(std::move(shard)) {
  {
    const std::lock_guard lock(state_mutex_);
    tally_.begin_point(started_ns_);
    publish(false);  // a scrape before the first interval sees zeros, not a 503
  }
  thread_ = std::thread([this] { run(); });
}

Publisher::~Publisher() {
  {
    const std::lock_guard lock(wake_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Publisher::begin_point(const std::string& label) {
  const std::lock_guard lock(state_mutex_);
  if (finished_) return;
  publish(false);
  tally_.begin_point(now_ns());
  point_ = label;
  ++point_index_;
}

void Publisher::finish() {
  {
    const std::lock_guard lock(wake_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  const std::lock_guard lock(state_mutex_);
  if (finished_) return;
  publish(true);
  finished_ = true;
}

void Publisher::run() {
  {
    const std::lock_guard lock(state_mutex_);
    publisher_thread_ = std::this_thread::get_id();
  }
  std::unique_lock wake(wake_mutex_);
  while (!wake_.wait_for(wake, interval_, [this] { return stopping_; })) {
    wake.unlock();
    {
      const std::lock_guard lock(state_mutex_);
      publish(false);
    }
    wake.lock();
  }
}

void Publisher::publish(bool final) {
  for (const Sample& sample : feed_.take()) tally_.add(sample);
  auto snapshot = std::make_shared<Snapshot>();
  const std::int64_t now = now_ns();
  snapshot->sequence = sequence_++;
  snapshot->elapsed_s = ns_to_s(now - started_ns_);
  snapshot->unix_ms = wall_clock_ns() / kNsPerMs;
  snapshot->final = final;
  snapshot->shard = shard_;
  snapshot->point = point_;
  snapshot->point_index = point_index_;
  snapshot->in_flight = feed_.in_flight();
  tally_.fill(*snapshot, now, final || snapshot->sequence % kPercentilesEvery == 0);
  // Publishes run on the publisher's thread, but the first and the last (and begin_point's) on
  // the caller's: only the thread's own are counted, so this is a lower bound by those few.
  if (std::this_thread::get_id() == publisher_thread_) publisher_cpu_s_ = thread_cpu_s();
  snapshot->publisher_cpu_s = publisher_cpu_s_;
  if (jsonl_ != nullptr) *jsonl_ << json_line(*snapshot) << '\n' << std::flush;
  board_.publish(std::move(snapshot));
}

}  // namespace bench::live
