#pragma once
// The publisher: a thread of its own that, at a fixed rate, takes what the event loops handed the
// Feed, adds it to the Tally, and publishes a new immutable Snapshot on the board (and as a line
// of the JSONL feed). The loops never wait for it; the HTTP threads read only what it published.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "bench/live/feed.hpp"
#include "bench/live/snapshot.hpp"
#include "bench/live/tally.hpp"

namespace bench::live {

/// How often a snapshot is made: often enough for a 1 s scrape interval to see each second's
/// change, rarely enough that its cost (a sort of the window) stays far below a core's 1%.
inline constexpr std::chrono::milliseconds kPublishInterval{250};
/// The window's percentiles are taken at every this many publishes (once a second), and at the
/// last: a pass over up to 200,000 values per latency, the publisher's largest cost.
inline constexpr std::int64_t kPercentilesEvery = 4;

class Publisher {
 public:
  /// Starts the thread. `jsonl`, when not null, receives one line per snapshot (and outlives
  /// the publisher); `shard` labels every snapshot ("" when not sharded).
  Publisher(Feed& feed, SnapshotBoard& board, double window_s, std::string shard,
            std::ostream* jsonl, std::chrono::milliseconds interval = kPublishInterval);
  /// Stops the thread (finish() first for a final snapshot).
  ~Publisher();
  Publisher(const Publisher&) = delete;
  Publisher& operator=(const Publisher&) = delete;

  /// A new point (sweep point, search probe, repeat) begins, labelled `label`: what ended so far
  /// is published under the point before, and the window starts empty.
  void begin_point(const std::string& label);
  /// The run has ended: stops the thread and publishes the last snapshot, marked final.
  void finish();

 private:
  void run();
  void publish(bool final);  // with state_mutex_ held

  Feed& feed_;
  SnapshotBoard& board_;
  std::ostream* jsonl_;
  std::chrono::milliseconds interval_;
  std::int64_t started_ns_;
  std::mutex state_mutex_;  // the tally and the point; taken by the thread and begin_point
  Tally tally_;
  std::string shard_;
  std::string point_;
  std::int64_t point_index_ = -1;
  std::int64_t sequence_ = 0;
  bool finished_ = false;
  double publisher_cpu_s_ = 0;        // the thread's CPU at its latest publish
  std::thread::id publisher_thread_;  // set by run(), under state_mutex_
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace bench::live
